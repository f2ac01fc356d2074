// The message table's permutation part in English (common/messages.js says how the table works):
// the strings of the permutation demo (demos/permutation/).
// Its keys are those of permutation.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // --- the permutation demo (demos/permutation/), its words in the order it shows them
  'perm.title': 'Attention without positions cannot see order',
  'perm.intro1':
    'Self-attention mixes tokens by weights computed from the tokens themselves. Reorder the input with a permutation matrix {P} and the logits get their rows and columns reordered, {PSP}; softmax works row by row, so the weights are reordered the same way, and {PP} cancels on the values:',
  'perm.intro2':
    'The residual connections, LayerNorm and the feed-forward network act on each token alone, so they commute with {P} too. The whole encoder is permutation-equivariant, {eq}, and a prediction from the mean over positions, {mean}, is permutation-invariant: a bag of words. Below, the model runs on your sequence and on its reordering; compare the two sides.',
  'perm.reorder': 'Reorder the input',
  'perm.shuffle': 'Shuffle',
  'perm.reverse': 'Reverse',
  'perm.identity': 'Original order',
  'perm.ariaX': 'the sequence X',
  'perm.ariaPX': 'the reordered sequence πX',
  'perm.ariaPosition': 'position encoding of the checked model',
  'perm.editHelp':
    "Click a token of X to change it (A and B decide the answer; c–f are fillers). Drag the tokens of πX, or focus one and use ←/→, to reorder. The small number is each token's position in X.",
  'perm.checkedModel': 'Checked model: position {select}',
  'perm.causal': ' causal mask',
  'perm.mapFpx': 'final hidden states of the reordered input',
  'perm.mapPfx': 'final hidden states of X, reordered',
  'perm.mapDiff': 'difference',
  'perm.sameColours': ' (same colours)',
  'perm.mapsNote':
    'Rows: positions of πX (tokens on the left); columns: the {dmodel} channels of the final hidden state. With no encoding the difference is float rounding (about {tiny}: the same sums, added in another order). An absolute encoding adds {pi} to the token at position {i}; a relative one adds {bij} to the logits, and {bpi}; the causal mask {M} is not reordered with the tokens, {PMP}. Each breaks the identity, by the amount shown. One exception to try: bidirectional ALiBi, {alibi}, is the same read from either end, so with {orig} then {rev} the difference drops back to rounding: such a model cannot tell a sequence from its mirror image, nor A…B from B…A.',
  'perm.train': 'Two models learn {task}',
  'perm.trainIntro':
    'The task: does A come before B? A and B appear once among filler tokens; the answer is read from the mean over positions. Each side trains one model per seed; the two models of a seed have the same initial weights (but for the encoding) and the same batches. A model trains until it has learned the task (held-out accuracy ≥ 95%) or its step budget runs out, whichever comes first.',
  'perm.ariaEncoding': 'position encoding of the second model',
  'perm.secondModel': 'Second model: position {select}',
  'perm.firstSeed': 'first seed {input}',
  'perm.ariaSeed': 'first seed',
  'perm.heldOutAcc': 'held-out accuracy',
  'perm.heldOutLoss': 'held-out loss',
  'perm.scoresNote':
    'Scores: the mean held-out accuracy over the seeds, with the lowest and highest in brackets. Charts: the mean over the seeds every 25 steps (a model that has stopped keeps its last value). Chance is 50%: without positions the model gives {X} and every reordering of it the same answer, and half of the reorderings swap A and B; its expected loss is at least that of a fair guess, {ln2}.',
  'perm.stepZero': 'step 0',
  'perm.counter': 'step {step} / {budget} · {seeds}',
  'perm.meanOf': '{name} (mean of {n})',
  'perm.who': 'position = {name}',
  'perm.side.error': '{who}: training stopped on {seeds}: {error}.',
  'perm.side.learned': 'learned the task (held-out accuracy ≥ {target}) on {seeds}, at step {at}',
  'perm.side.training': '{who}: {learned}training, step {step} of {budget}.',
  'perm.side.done': '{who}: {learned}. Held-out accuracy {acc}.',
  'perm.side.budget':
    '{who}: the budget of {budget} steps ran out on {seeds} before held-out accuracy reached {target} (final {acc}){learned}.',
  'perm.sep': '; ',
  'perm.play': 'Play',
  'perm.pause': 'Pause',
  'perm.reset': 'Reset',
  'perm.learned': 'Learned',
  'perm.trainLonger': 'Train longer (+{n} steps)',
  'perm.allLearnedTitle': 'Every model has learned the task; change the seed or the encoding to train again.',
  'perm.allLearned':
    'Every model has reached the target: nothing left to train. Change the seed or the encoding to train new models.',
  'perm.doneNote':
    'Done: each model has learned the task or used its budget of {budget} steps. “Train longer” gives the models that ran out {extra} more steps.',
  'perm.check.left': 'the left model of the training below',
  'perm.check.right': 'the right model of the training below',
  'perm.check.own': 'a model of its own (position = {pos}{mask}), trained {steps} steps on order with the same seed',
  'perm.check.ownMask': ', causal mask',
  'perm.check.note':
    'Checked model: {label}; now at step {step}. Training changes how large a difference is, not whether the identity holds without positions.',
  'perm.check.noEncoding': 'no position encoding',
  'perm.check.equal':
    'Equal up to float rounding: with {what}{noMask}, reordering the input only reorders the outputs.',
  'perm.check.noMask': ' and no mask',
  'perm.check.notEqual': 'Not equal: {what}{mask} makes the outputs depend on where each token sits.',
  'perm.check.withMask': ' with the causal mask',
  'perm.pooled.same':
    'The same answer; the probabilities differ by {delta}: the mean over positions cannot see the order.',
  'perm.pooled.different': 'Different (probabilities differ by {delta}).',
  'perm.pred': '{label} predicts {cls} (p = {p})',
  'perm.truth': ' · true answer {truth}',
  'perm.permIdentity': 'π is the identity: reorder the second row.',
  'perm.tokenTitle': 'Click (or ↑/↓) to change this token',
  'perm.tokenAria': 'X position {i}: {name}; click to change',
  'perm.chipTitle': 'Drag to reorder (or focus and use ←/→)',
  'perm.chipAria': 'πX position {i}: {name} from X position {src}; arrow keys move it',
};
