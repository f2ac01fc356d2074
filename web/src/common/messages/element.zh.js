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
  // 链接中不是来源（origin）的 origin= 值（embed.js，attention-playground.js #showIgnored）
  'widget.badOrigin': '来源格式错误',
  'widget.badOriginWhy':
    '：origin="{value}" 不是一个来源。请写成 scheme://host[:port]（http 或 https），不带路径，也不带末尾的斜杠（例如 origin=https://blog.example）。在改正之前，包含这个框架的页面既不能控制它，也收不到它的事件。',
  // 错误的属性，用组件的语言说明（widgets/attributes.js；{attr} 是原样写出的 name="value"）
  'attr.preset': '{attr}：没有这个预设。可用的预设：{allowed}。',
  'attr.view.unknown': '{attr}：未知的面板 {bad}。可用的面板：{allowed}。',
  'attr.view.empty': '{attr}：请至少写出一个面板（{allowed}）。',
  'attr.controls': '{attr}：未知的控件 {bad}。可用：{allowed}、none、all 或配置字段。',
  'attr.height': '{attr}：请写图表高度（像素），从 60 到 2000。',
  'attr.inspectLen': '{attr}：请写 seq-len（训练长度）或 eval-len（配置中的评估长度）。',
  'attr.theme': '{attr}：请用 light、dark 或 auto。',
  'attr.steps': '{attr}：请写训练步数，1 到 1000000 之间的整数。',
  'attr.unknown': '{attr}：未知的属性。请用配置字段（{fields}，或任务、位置编码、归一化的选项）或以下之一：{allowed}。',
  'attr.unknownDemo':
    '{attr}：未知的属性。请用配置字段（{fields}，或任务、位置编码、归一化的选项）、这个演示的选项（{options}）或以下之一：{allowed}。',
  'attr.field': '{attr}：{why}。',
  'attr.asIs': '{text}',
  // a widget's compare attribute (state/compare.js; {spec} as written, {why} a why.* sentence)
  'compare.demo': '{attr}：{demo} 演示比较的是它自己的模型；compare 只用于配置预设。',
  'compare.long': 'compare="{spec}"：超过 {max} 个字符。',
  'compare.empty': 'compare="{spec}"：没有写出任何设置；请写成 字段=值,值，例如 position=none,learned。',
  'compare.fields': 'compare="{spec}"：改动了 {n} 个设置；最多 {max} 个。',
  'compare.pair': 'compare="{spec}"：“{part}”不是 字段=值,值 的形式。',
  'compare.twice': 'compare="{spec}"：{field} 出现了两次。',
  'compare.one': 'compare="{spec}"：至少需要两次训练：请给某个字段写两个值（position=none,learned）。',
  'compare.runs': 'compare="{spec}"：要求 {n} 次训练；最多 {max} 次。',
  'compare.uneven': 'compare="{spec}"：{n} 次训练中 {field} 有 {k} 个值（请写一个值，或每次训练一个）。',
  'compare.unknown': 'compare：{field} 不是模型的设置。',
  'compare.inactive': 'compare：{field} {why}（第 {run} 次训练）。',
  'compare.value': 'compare：第 {run} 次训练的 {field}={value}：{why}。',
  'why.inactive': '不是 {selector} {value} 的选项',
  'why.bool': '不是 true 或 false',
  'why.number': '不是数字',
  'why.whole': '不是整数',
  'why.min': '小于最小值 {min}',
  'why.max': '大于最大值 {max}',
  'why.choice': '不是允许的值之一：{allowed}',
  'why.type': '应为 {type}',
  'why.unknown': '未知的设置',
};
