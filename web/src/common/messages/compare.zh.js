// The message table's compare part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the compare view (compare=…: widgets/compare-app.js, panels/compare-view.js).
// Its keys are those of compare.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // the comparison's view (panels/compare-view.js), in the order it shows them
  'cmp.play': '训练',
  'cmp.pause': '暂停',
  'cmp.reset': '重置',
  'cmp.export': '导出',
  'cmp.import': '导入',
  'cmp.title': '比较 {what} · 同一个种子，同样的批次',
  'cmp.col.run': '运行',
  'cmp.col.step': '步数',
  'cmp.col.loss': '训练损失',
  'cmp.col.acc': '留出集准确率',
  'cmp.col.file': '文件',
  'cmp.view.chart': '训练曲线',
  'cmp.view.attention': '注意力：一个留出样例，每次运行各一份',
  'cmp.view.predictions': '同一批留出样例上的预测，每次运行各一份',
  'cmp.view.heads': '注意力头：每个头在做什么，每次运行各一份',
  'cmp.view.lengths': '准确率随长度的变化，每次运行各一份（L 到 4L，按需计算）',
  'cmp.trains': '在你的浏览器中训练 · {kind}',
  'cmp.models': '{n} 个模型',
  'cmp.chart.loss': '训练损失',
  'cmp.chart.accuracy': '留出集词元准确率',
  'cmp.measuringHeads': '正在测量各个注意力头……',
  'cmp.chart.empty': '还没有数据。',
  'cmp.vs': ' 对 ',
  'cmp.is': ' = ',
};
