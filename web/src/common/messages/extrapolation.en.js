// The message table's extrapolation part in English (common/messages.js says how the table works):
// the strings of the extrapolation demo (demos/extrapolation/).
// Its keys are those of extrapolation.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // the extrapolation demo (demos/extrapolation/), in the order it shows them
  'ext.task.repeat': 'continue a short pattern periodically',
  'ext.task.copy': 'repeat a digit string after it',
  'ext.task.reverse': 'the digit string reversed',
  'ext.task.sort': 'the digit string sorted',
  'ext.task.dyck': 'nesting depth of brackets',
  'ext.scaling.pi': 'position interpolation',
  'ext.scaling.ntk': 'NTK-aware base',
  'ext.scaling.yarn': 'YaRN',
  'ext.dash.pi': 'dotted',
  'ext.dash.ntk': 'dashed',
  'ext.dash.yarn': 'dash-dot',
  'ext.task2Aria': 'second task',
  'ext.factorAria': 'scaling factor s for the table',
  'ext.train': 'Train',
  'ext.pause': 'Pause',
  'ext.rope.title': 'RoPE frequencies, scaled',
  'ext.rope.factor': 'factor s {select}',
  'ext.rope.formulas':
    'PI divides every angle by s: {pi}. NTK-aware raises the base, {ntk}: the fastest pair stays, the slowest is divided by s. YaRN keeps the pairs that turn many times within L, interpolates the slow ones and scales the logits by {yarn}. Values from the engine (positions() of a RoPE model loaded with each scaling). In the charts, s = ℓ/L for each evaluation length ℓ.',
  'ext.rope.note':
    's = {s}, training length {L}. NTK base: {base}; YaRN scales q·k by mscale² = {mscale}. Head size {hs}: {pairs} frequency pairs.',
  'ext.encodings': 'Encodings:',
  'ext.secondTask': 'Second task {select}',
  'ext.ropeAtEval': 'RoPE at evaluation:',
  'ext.chart.acc': 'accuracy (scored positions) vs evaluation length ℓ',
  'ext.chart.loss': 'loss vs evaluation length ℓ',
  'ext.chart.accTitle': 'accuracy',
  'ext.chart.lossTitle': 'loss',
  'ext.chart.x': 'evaluation length ℓ',
  'ext.chart.empty': 'A curve comes as its models finish training.',
  'ext.values': 'the values',
  'ext.intro.title': 'Train short, test long',
  'ext.intro.p':
    'Each encoding below trains a causal model at length {L} and is then evaluated, unchanged, at {lengths} (up to {fourL}). The held-out data are the same for every encoding. Past {Lsym} a model meets positions and distances it never saw in training.',
  'ext.abs.title': 'Absolute encodings',
  'ext.abs.p':
    'A {learned} table {P} has no row for position {L} or beyond: the model cannot even be run there. {sin} positions {pt} exist for every {t}, but the vectors past {L2} are inputs the network has never seen.',
  'ext.abs.learned': 'learned',
  'ext.abs.sin': 'Sinusoidal',
  'ext.rel.title': 'Relative encodings',
  'ext.rel.p':
    '{alibi} adds {bias} to the logits: far keys are pushed down by a bias that keeps growing the same way past {L}; how well that carries past {L2} is measured below. {t5} puts distances into buckets (logarithmic past a few); distances longer than any in training land in buckets that were never trained. {rope} rotates q and k by {angle}; past {L3} the slow pairs reach angles never trained.',
  'ext.scale.title': 'Scaling RoPE at evaluation',
  'ext.scale.p':
    'Position interpolation squeezes {ell} positions into the trained range ({map}, {s}), at the price of finer steps between neighbours: without fine-tuning, distance k now looks like k/s, while copy_back needs the exact distance (the dotted curve shows what that does). NTK-aware scaling changes the base so that fast pairs (local order) stay as trained and slow pairs are interpolated; YaRN interpolates per pair by wavelength. Switch them on below: they appear as RoPE-coloured curves, dotted (PI), dashed (NTK) and dash-dotted (YaRN).',
  'ext.scale.small':
    'Each curve is the mean over {n} seeds ({list}); the table under each chart gives the lowest and highest. Curves are drawn slightly apart in ℓ so that equal ones stay visible.',
  'ext.progress': '{done} of {n} models trained and evaluated',
  'ext.status.line': '{pos} · {task} ({n} seeds): {state}',
  'ext.status.error': 'error: {error}',
  'ext.status.evaluated': 'evaluated',
  'ext.status.evaluating': 'evaluating…',
  'ext.status.step': 'step {step}/{steps}',
  'ext.status.loss': ', loss {loss}',
  'ext.note.learned':
    'The learned curve ends at ℓ = {L}: a learned table has one row per trained position ({L} here), so at {at} tokens there is nothing to add. The engine refuses: “{refusal}”.',
  'ext.note.refusal': 'learned positions do not extrapolate',
  'ext.values.undefined': 'not defined at this length',
  'ext.values.loss': 'loss {mean} ({min}–{max})',
  'ext.values.encoding': 'encoding',
  'ext.measured.head': 'Measured ({n} seeds, mean with lowest–highest): ',
  // before every seed is trained (one seed of every curve trains first): the seeds so far
  'ext.measured.soFar': 'Measured so far (at least {k} of {n} seeds a curve, mean with lowest–highest): ',
  'ext.measured.at': 'accuracy at ℓ = {far}: {list}.',
  'ext.measured.none': 'no curve reaches it',
  'ext.measured.item': '{key} {acc} (at ℓ = {L}: {atL})',
  'ext.measured.ended': ' Not defined past ℓ = {L}: {list}.',
};
