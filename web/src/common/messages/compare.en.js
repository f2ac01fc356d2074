// The message table's compare part in English (common/messages.js says how the table works):
// the strings of the compare view (compare=…: widgets/compare-app.js, panels/compare-view.js).
// Its keys are those of compare.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // the comparison's view (panels/compare-view.js), in the order it shows them
  'cmp.play': 'Play',
  'cmp.pause': 'Pause',
  'cmp.reset': 'Reset',
  'cmp.export': 'Export',
  'cmp.import': 'Import',
  'cmp.title': 'Compare {what} · same seed, same batches',
  'cmp.col.run': 'run',
  'cmp.col.step': 'step',
  'cmp.col.loss': 'train loss',
  'cmp.col.acc': 'held-out acc.',
  'cmp.col.file': 'file',
  'cmp.view.chart': 'Training curves',
  'cmp.view.attention': 'Attention, one held-out example, each run',
  'cmp.view.predictions': 'Predictions on the same held-out examples, each run',
  'cmp.view.heads': 'Heads: what each one does, each run',
  'cmp.view.lengths': 'Accuracy against length, each run (L to 4L, on demand)',
  'cmp.trains': 'Trains in your browser · {kind}',
  'cmp.models': '{n} models',
  'cmp.chart.loss': 'Train loss',
  'cmp.chart.accuracy': 'Held-out token accuracy',
  'cmp.measuringHeads': 'Measuring the heads…',
  'cmp.chart.empty': 'No data yet.',
  'cmp.vs': ' vs ',
  'cmp.is': ': ',
};
