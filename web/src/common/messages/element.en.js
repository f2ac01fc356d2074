// The message table's element part in English (common/messages.js says how the table works):
// the strings of the element before it loads (widgets/attention-playground.js; both languages ship in the entry).
// Its keys are those of element.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // --- the widget (<attention-playground>): its element, its header and charts (widgets/)
  'widget.placeholder': 'A tiny transformer ({preset}) will train here, in your browser, when this box is on screen.',
  'widget.couldNotStart': 'This widget could not start.',
  // what a link gave that is no setting of the widget (attention-playground.js #showIgnored)
  'widget.ignored': 'Ignored from the link',
  'widget.ignoredList': ' (not settings of this widget): {list}.',
};
