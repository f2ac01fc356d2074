// The message table's probe part in English (common/messages.js says how the table works):
// the strings of the probe demo (demos/probe/).
// Its keys are those of probe.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // the probe demo (demos/probe/), in the order it shows them
  'probe.anchorsAria': 'anchor tokens',
  'probe.anchorCls': '[CLS] only',
  'probe.train': 'Train',
  'probe.pause': 'Pause',
  'probe.restart': 'Restart',
  'probe.anchorsLabel': 'anchors {select}',
  'probe.causalLabel': '{box} causal mask',
  'probe.scrollHint':
    'The grid is wider than this column: scroll it sideways (swipe, or focus it and use ←/→) for more columns →',
  'probe.gridCaption':
    'Rows: position encodings. Columns: attention normalizations. Each cell is {n} models ({seeds}).',
  'probe.gridAria': 'the grid of models (scrolls sideways when it is wider than the page)',
  'probe.rowSumVaries': 'Σ varies',
  'probe.rowSumOneTitle': 'every row sums to 1',
  'probe.rowSumVariesTitle': 'rows need not sum to 1',
  'probe.legend.learns': 'learns (≥ 90%)',
  'probe.legend.collapsed': 'collapsed: all positions identical (spread below 10⁻⁵ × the largest |h|: rounding)',
  'probe.legend.mirror': 'mirror-limited: {h} (mirror gap below 10⁻⁴ × the spread: rounding)',
  'probe.legend.partial': 'partly',
  'probe.legend.mixed': 'the seeds disagree',
  'probe.legend.note':
    'a colour holds for every seed; accuracy: mean (lowest–highest seed); spread and mirror gap: the largest over the seeds; sparkline: the mean training accuracy, dashed line: chance, 1/n',
  'probe.why': 'Why',
  'probe.rowSum.title': 'Rows that sum to 1 erase relative positions',
  'probe.rowSum.p1': 'Attention mixes the values, {o}. With identical tokens every value is the same vector {v}, so',
  'probe.rowSum.when': 'when {sum}.',
  'probe.rowSum.p2':
    'RoPE, ALiBi and T5 put position only into the logits {s}, so they change how each row is spread but not its sum under softmax. Residual, LayerNorm and the feed-forward network act on each token alone: every layer maps a constant sequence to a constant sequence. All positions keep the same hidden state for the whole of training and the model can only guess, {guess}. The spread of the red cells is 0 up to float rounding (a few {tiny}: each row adds the same vector with its own weights, in float); without any encoding, mask or anchors, where every position computes the very same sums, it is exactly 0, for every normalization (the encoder is permutation-equivariant). The causal mask does not rescue softmax: each row still sums to 1 over the keys it may see, and the red cells stay red.',
  'probe.fix.title': 'What fixes it',
  'probe.fix.absoluteName': 'Absolute encodings',
  'probe.fix.absolute':
    '{abs} (learned, sinusoidal) make the inputs differ: {xp}. {shaw} adds a relative vector to the values, {ov}; {urpe} multiplies the weights by a Toeplitz matrix, {ac}: the rows no longer sum to 1.',
  'probe.fix.anchorsName': 'Anchors',
  'probe.fix.anchors':
    '{name}: with {code} the values are no longer all equal, {o}, and the weights on the anchors depend on the distance to them. Switch the anchors on above and compare the softmax column with the one measured without them.',
  'probe.norm.name': 'A normalization without a fixed row sum',
  'probe.norm.text':
    '{name}: ℓ2 {l2} (row sum between 1 and {sqrtn}, depending on how peaked the row is), relu² {relu}, sigmoid {sig}, softmax1 {s1} and sink (the same with a learned {ez} for the 1). Now {o} with a row sum {r} that the relative bias can make depend on {i}. {sb} (causal only) gives each key {sigma} of what the nearer keys left, so with identical tokens {ri}: order is built in, no encoding needed.',
  'probe.norm.stickBreaking': 'Stick-breaking',
  'probe.mirror.title': 'The mirror limit of symmetric ALiBi',
  'probe.mirror.p1':
    "Bidirectional ALiBi adds {bias}, which is the same seen from either end: {b}. Position {i} and its mirror {mi} see the same biases on the same values, so {h} in every layer, for every normalization. The model cannot tell a position from its mirror image: accuracy at most {bound} = {pct} here. The mirror gap {gap} shows it: 0 up to float rounding, that is below {tiny} times the spread {spread} (float32 sums of values of that size differ in about their seventh digit). A cell is labelled mirror-limited (amber) when every seed's mirror gap is that small. The causal mask or anchors at the ends break the symmetry.",
  'probe.mirror.small':
    "Spread: {spread} of the final hidden states (anchors left out), computed by the engine's forward pass after training. Accuracy: held-out, at the training length n = {n}.",
  'probe.intro.title': 'The probe: can the model tell where it is?',
  'probe.intro.p':
    'Feed {n} identical tokens {code} and ask every position for its own index {idx}. Nothing in the input says where a token is, so a model passes only if it can find positions by itself. Below, small models (d_model 32, 4 heads, 2 layers), {k} per cell ({seeds}), learn this, all at once on the worker pool, one Web Worker per CPU core.',
  'probe.progress': '{trained} of {buildable} cells done ({done} of {models} models, {seeds})',
  'probe.slowest': ' · slowest at step {step} of {steps}',
  'probe.cellsN': '{n} cells',
  'probe.na': 'n/a ({which}): {reason}.',
  'probe.naShort': 'n/a',
  'probe.notShown1': 'Not shown: {list}, which needs the causal mask (tick “causal mask” to add its column).',
  'probe.notShownN': 'Not shown: {list}, which needs the causal mask (tick “causal mask” to add their columns).',
  'probe.verdict.stopped': 'stopped',
  'probe.verdict.cannotBuild': 'cannot build',
  'probe.verdict.error': 'error',
  'probe.verdict.collapsed': 'all positions equal',
  'probe.verdict.mirror': 'mirror pairs equal (≤ {pct})',
  'probe.verdict.mirrorNear':
    'mirror pairs equal up to rounding (≤ {pct} only where exactly equal: rounding broke near ties)',
  'probe.verdict.learns': 'learns the positions',
  'probe.verdict.partial': 'partly',
  'probe.verdict.on': '{what} on {seeds}',
  'probe.verdict.mirrorShort': 'mirror',
  'probe.cell.train': 'train {p}%',
  'probe.cell.spread': 'spread {v}',
  'probe.cell.mirror': 'mirror gap {v}',
  'probe.cell.step': 'step {n}',
  // a cell with some of its seeds trained (the others still to come): what those say, so far
  'probe.cell.sofar': '{verdict} (so far: {k} of {n} seeds)',
  'probe.summary.measured': 'Measured',
  'probe.summary.head':
    ' ({seeds}, {steps} steps, anchors {anchors}, {mask}): accuracy as the mean with the lowest and highest seed in brackets.',
  'probe.summary.causal': 'causal mask',
  'probe.summary.bidirectional': 'bidirectional',
  'probe.summary.collapsed': 'All positions identical (spread 0 up to rounding) on every seed',
  'probe.summary.mirror': 'Mirror pairs identical (mirror gap 0 up to rounding) on every seed',
  'probe.summary.learns': 'Learns the positions (≥ 90%) on every seed',
  'probe.summary.partial': 'Partly, on every seed',
  'probe.summary.mixed': 'The seeds disagree',
  'probe.summary.invalid': 'Could not train',
  // a cell's tooltip and label (cells.js drawCell)
  'probe.cellTitle': '{pos} × {norm}, {n} seeds: accuracy {acc}',
  'probe.cellTitleDone':
    ', largest spread max‖h_i − h_0‖∞ = {spread}, largest mirror gap max‖h_i − h_(n−1−i)‖∞ = {mirror}',
  'probe.cellAria': '{pos}, {norm}: {title}',
  // the grid as a figure to download (figure.js): its title, axes and note
  'probe.fig.title': 'Probe: held-out accuracy',
  'probe.fig.x': 'attention normalization',
  'probe.fig.y': 'position encoding',
  'probe.fig.quantity': 'accuracy',
  'probe.fig.setup1': 'n = {n}, {steps} steps, {k} seed a cell, anchors {anchors}',
  'probe.fig.setupN': 'n = {n}, {steps} steps, {k} seeds a cell, anchors {anchors}',
  'probe.fig.causal': ', causal mask',
  'probe.fig.note': '{setup}; the mean over the seeds; chance 1/n = {chance}%',
  'probe.fig.mask': 'grey: not trained yet',
};
