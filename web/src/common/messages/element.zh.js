// The message table's element part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the element before it loads (widgets/attention-playground.js; both languages ship in the entry).
// Its keys are those of element.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // --- the widget (<attention-playground>): its element, its header and charts (widgets/)
  'widget.placeholder': '当这个框出现在屏幕上时，一个小型 Transformer（{preset}）会在你的浏览器里开始训练。',
  'widget.couldNotStart': '这个组件无法启动。',
  // what a link gave that is no setting of the widget (attention-playground.js #showIgnored)
  'widget.ignored': '已忽略链接中的以下内容',
  'widget.ignoredList': '（不是这个组件的设置）：{list}。',
};
