// The message table's part of the permutation demo (common/messages.js says how the table works): its words, loaded with the
// demo only (demos/permutation/), on its page and in a widget.
// Each key holds its English and its Simplified Chinese text; tests/node/course.test.mjs checks both.

/** @type {Record<string, Record<import('./messages.js').Lang, string>>} */
export const PERMUTATION_MESSAGES = {
  // --- the permutation demo (demos/permutation/), its words in the order it shows them
  'perm.title': { en: 'Attention without positions cannot see order', zh: '没有位置信息的注意力看不见顺序' },
  'perm.intro1': {
    en: 'Self-attention mixes tokens by weights computed from the tokens themselves. Reorder the input with a permutation matrix {P} and the logits get their rows and columns reordered, {PSP}; softmax works row by row, so the weights are reordered the same way, and {PP} cancels on the values:',
    zh: '自注意力按照由词元本身算出的权重来混合词元。用置换矩阵 {P} 重排输入，logits 的行和列也随之重排，成为 {PSP}；softmax 逐行计算，所以权重以同样的方式重排，而 {PP} 在值向量上相互抵消：',
  },
  'perm.intro2': {
    en: 'The residual connections, LayerNorm and the feed-forward network act on each token alone, so they commute with {P} too. The whole encoder is permutation-equivariant, {eq}, and a prediction from the mean over positions, {mean}, is permutation-invariant: a bag of words. Below, the model runs on your sequence and on its reordering; compare the two sides.',
    zh: '残差连接、LayerNorm 和前馈网络都只作用于单个词元，所以它们同样与 {P} 交换。整个编码器是置换等变的，{eq}；而对所有位置取平均后再做的预测，{mean}，是置换不变的：相当于一个词袋。下面，模型分别在你的序列和它的重排上运行；比较两边的结果。',
  },
  'perm.reorder': { en: 'Reorder the input', zh: '重排输入' },
  'perm.shuffle': { en: 'Shuffle', zh: '随机打乱' },
  'perm.reverse': { en: 'Reverse', zh: '倒序' },
  'perm.identity': { en: 'Original order', zh: '原始顺序' },
  'perm.ariaX': { en: 'the sequence X', zh: '序列 X' },
  'perm.ariaPX': { en: 'the reordered sequence πX', zh: '重排后的序列 πX' },
  'perm.ariaPosition': { en: 'position encoding of the checked model', zh: '被检查模型的位置编码' },
  'perm.editHelp': {
    en: "Click a token of X to change it (A and B decide the answer; c–f are fillers). Drag the tokens of πX, or focus one and use ←/→, to reorder. The small number is each token's position in X.",
    zh: '点击 X 中的词元可以更换它（A 和 B 决定答案；c–f 是填充词元）。拖动 πX 中的词元，或者选中后用 ←/→ 键来重排。小数字是每个词元在 X 中的位置。',
  },
  'perm.checkedModel': { en: 'Checked model: position {select}', zh: '被检查的模型：position {select}' },
  'perm.causal': { en: ' causal mask', zh: ' 因果掩码' },
  'perm.mapFpx': { en: 'final hidden states of the reordered input', zh: '重排后输入的最终隐藏状态' },
  'perm.mapPfx': { en: 'final hidden states of X, reordered', zh: 'X 的最终隐藏状态，再重排' },
  'perm.mapDiff': { en: 'difference', zh: '差值' },
  'perm.sameColours': { en: ' (same colours)', zh: '（同一色标）' },
  'perm.mapsNote': {
    en: 'Rows: positions of πX (tokens on the left); columns: the {dmodel} channels of the final hidden state. With no encoding the difference is float rounding (about {tiny}: the same sums, added in another order). An absolute encoding adds {pi} to the token at position {i}; a relative one adds {bij} to the logits, and {bpi}; the causal mask {M} is not reordered with the tokens, {PMP}. Each breaks the identity, by the amount shown. One exception to try: bidirectional ALiBi, {alibi}, is the same read from either end, so with {orig} then {rev} the difference drops back to rounding: such a model cannot tell a sequence from its mirror image, nor A…B from B…A.',
    zh: '行：πX 的各个位置（词元标在左边）；列：最终隐藏状态的 {dmodel} 个通道。没有位置编码时，差值只是浮点舍入误差（约 {tiny}：同样的和，只是相加的顺序不同）。绝对位置编码给位置 {i} 上的词元加上 {pi}；相对位置编码给 logits 加上 {bij}，而 {bpi}；因果掩码 {M} 不会随词元一起重排，{PMP}。它们都会破坏这个恒等式，破坏的程度就是显示的数值。可以试一个例外：双向 ALiBi，{alibi}，从两端读都一样，所以先点 {orig} 再点 {rev}，差值又回到舍入误差：这样的模型分不清一个序列和它的镜像，也分不清 A…B 和 B…A。',
  },
  'perm.train': { en: 'Two models learn {task}', zh: '两个模型学习 {task}' },
  'perm.trainIntro': {
    en: 'The task: does A come before B? A and B appear once among filler tokens; the answer is read from the mean over positions. Each side trains one model per seed; the two models of a seed have the same initial weights (but for the encoding) and the same batches. A model trains until it has learned the task (held-out accuracy ≥ 95%) or its step budget runs out, whichever comes first.',
    zh: '任务：A 是否出现在 B 之前？A 和 B 在填充词元中各出现一次；答案从所有位置的平均中读出。每一边为每个种子训练一个模型；同一种子的两个模型初始权重相同（位置编码除外），训练批次也相同。一个模型会一直训练，直到学会任务（留出集准确率 ≥ 95%）或用完步数预算，以先到者为准。',
  },
  'perm.ariaEncoding': { en: 'position encoding of the second model', zh: '第二个模型的位置编码' },
  'perm.secondModel': { en: 'Second model: position {select}', zh: '第二个模型：position {select}' },
  'perm.firstSeed': { en: 'first seed {input}', zh: '起始种子 {input}' },
  'perm.ariaSeed': { en: 'first seed', zh: '起始种子' },
  'perm.heldOutAcc': { en: 'held-out accuracy', zh: '留出集准确率' },
  'perm.heldOutLoss': { en: 'held-out loss', zh: '留出集损失' },
  'perm.scoresNote': {
    en: 'Scores: the mean held-out accuracy over the seeds, with the lowest and highest in brackets. Charts: the mean over the seeds every 25 steps (a model that has stopped keeps its last value). Chance is 50%: without positions the model gives {X} and every reordering of it the same answer, and half of the reorderings swap A and B; its expected loss is at least that of a fair guess, {ln2}.',
    zh: '分数：各种子留出集准确率的平均值，括号里是最低和最高值。图表：每 25 步对各种子取平均（已停止的模型保持最后的值）。随机水平是 50%：没有位置信息时，模型对 {X} 及其任何重排都给出同一个答案，而一半的重排会交换 A 和 B；它的期望损失至少等于公平猜测的损失，{ln2}。',
  },
  'perm.stepZero': { en: 'step 0', zh: '第 0 步' },
  'perm.counter': { en: 'step {step} / {budget} · {seeds}', zh: '第 {step} / {budget} 步 · {seeds}' },
  'perm.meanOf': { en: '{name} (mean of {n})', zh: '{name}（{n} 个的平均）' },
  'perm.who': { en: 'position = {name}', zh: 'position = {name}' },
  'perm.side.error': {
    en: '{who}: training stopped on {seeds}: {error}.',
    zh: '{who}：在 {seeds} 上训练停止：{error}。',
  },
  'perm.side.learned': {
    en: 'learned the task (held-out accuracy ≥ {target}) on {seeds}, at step {at}',
    zh: '在 {seeds} 上学会了任务（留出集准确率 ≥ {target}），在第 {at} 步',
  },
  'perm.side.training': {
    en: '{who}: {learned}training, step {step} of {budget}.',
    zh: '{who}：{learned}训练中，第 {step} / {budget} 步。',
  },
  'perm.side.done': { en: '{who}: {learned}. Held-out accuracy {acc}.', zh: '{who}：{learned}。留出集准确率 {acc}。' },
  'perm.side.budget': {
    en: '{who}: the budget of {budget} steps ran out on {seeds} before held-out accuracy reached {target} (final {acc}){learned}.',
    zh: '{who}：在 {seeds} 上，留出集准确率达到 {target} 之前就用完了 {budget} 步的预算（最终 {acc}）{learned}。',
  },
  'perm.sep': { en: '; ', zh: '；' },
  'perm.play': { en: 'Play', zh: '训练' },
  'perm.pause': { en: 'Pause', zh: '暂停' },
  'perm.reset': { en: 'Reset', zh: '重置' },
  'perm.learned': { en: 'Learned', zh: '已学会' },
  'perm.trainLonger': { en: 'Train longer (+{n} steps)', zh: '继续训练（再加 {n} 步）' },
  'perm.allLearnedTitle': {
    en: 'Every model has learned the task; change the seed or the encoding to train again.',
    zh: '每个模型都已学会任务；换一个种子或位置编码可以重新训练。',
  },
  'perm.allLearned': {
    en: 'Every model has reached the target: nothing left to train. Change the seed or the encoding to train new models.',
    zh: '每个模型都达到了目标：没有需要继续训练的了。换一个种子或位置编码可以训练新的模型。',
  },
  'perm.doneNote': {
    en: 'Done: each model has learned the task or used its budget of {budget} steps. “Train longer” gives the models that ran out {extra} more steps.',
    zh: '完成：每个模型要么学会了任务，要么用完了 {budget} 步的预算。“继续训练”会给用完预算的模型再加 {extra} 步。',
  },
  'perm.check.left': { en: 'the left model of the training below', zh: '下方训练中左边的模型' },
  'perm.check.right': { en: 'the right model of the training below', zh: '下方训练中右边的模型' },
  'perm.check.own': {
    en: 'a model of its own (position = {pos}{mask}), trained {steps} steps on order with the same seed',
    zh: '一个单独的模型（position = {pos}{mask}），用同一个种子在 order 上训练了 {steps} 步',
  },
  'perm.check.ownMask': { en: ', causal mask', zh: '，因果掩码' },
  'perm.check.note': {
    en: 'Checked model: {label}; now at step {step}. Training changes how large a difference is, not whether the identity holds without positions.',
    zh: '被检查的模型：{label}；当前第 {step} 步。训练只改变差值的大小，不改变“没有位置信息时恒等式成立”这件事。',
  },
  'perm.check.noEncoding': { en: 'no position encoding', zh: '没有位置编码' },
  'perm.check.equal': {
    en: 'Equal up to float rounding: with {what}{noMask}, reordering the input only reorders the outputs.',
    zh: '在浮点舍入误差内相等：{what}{noMask}时，重排输入只会以同样的方式重排输出。',
  },
  'perm.check.noMask': { en: ' and no mask', zh: '、也没有掩码' },
  'perm.check.notEqual': {
    en: 'Not equal: {what}{mask} makes the outputs depend on where each token sits.',
    zh: '不相等：{what}{mask}让输出取决于每个词元所在的位置。',
  },
  'perm.check.withMask': { en: ' with the causal mask', zh: '加上因果掩码' },
  'perm.pooled.same': {
    en: 'The same answer; the probabilities differ by {delta}: the mean over positions cannot see the order.',
    zh: '答案相同；概率只相差 {delta}：对所有位置取平均看不见顺序。',
  },
  'perm.pooled.different': { en: 'Different (probabilities differ by {delta}).', zh: '不同（概率相差 {delta}）。' },
  'perm.pred': { en: '{label} predicts {cls} (p = {p})', zh: '{label} 预测 {cls}（p = {p}）' },
  'perm.truth': { en: ' · true answer {truth}', zh: ' · 正确答案 {truth}' },
  'perm.permIdentity': { en: 'π is the identity: reorder the second row.', zh: 'π 是恒等置换：请重排第二行。' },
  'perm.tokenTitle': { en: 'Click (or ↑/↓) to change this token', zh: '点击（或按 ↑/↓）更换这个词元' },
  'perm.tokenAria': { en: 'X position {i}: {name}; click to change', zh: 'X 的位置 {i}：{name}；点击更换' },
  'perm.chipTitle': { en: 'Drag to reorder (or focus and use ←/→)', zh: '拖动来重排（或选中后用 ←/→）' },
  'perm.chipAria': {
    en: 'πX position {i}: {name} from X position {src}; arrow keys move it',
    zh: 'πX 的位置 {i}：{name}，来自 X 的位置 {src}；方向键可以移动它',
  },
};
