// The message table's permutation part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the permutation demo (demos/permutation/).
// Its keys are those of permutation.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // --- the permutation demo (demos/permutation/), its words in the order it shows them
  'perm.title': '没有位置信息的注意力看不见顺序',
  'perm.intro1':
    '自注意力按照由词元本身算出的权重来混合词元。用置换矩阵 {P} 重排输入，logits 的行和列也随之重排，成为 {PSP}；softmax 逐行计算，所以权重以同样的方式重排，而 {PP} 在值向量上相互抵消：',
  'perm.intro2':
    '残差连接、LayerNorm 和前馈网络都只作用于单个词元，所以它们同样与 {P} 交换。整个编码器是置换等变的，{eq}；而对所有位置取平均后再做的预测，{mean}，是置换不变的：相当于一个词袋。下面，模型分别在你的序列和它的重排上运行；比较两边的结果。',
  'perm.reorder': '重排输入',
  'perm.shuffle': '随机打乱',
  'perm.reverse': '倒序',
  'perm.identity': '原始顺序',
  'perm.ariaX': '序列 X',
  'perm.ariaPX': '重排后的序列 πX',
  'perm.ariaPosition': '被检查模型的位置编码',
  'perm.editHelp':
    '点击 X 中的词元可以更换它（A 和 B 决定答案；c–f 是填充词元）。拖动 πX 中的词元，或者选中后用 ←/→ 键来重排。小数字是每个词元在 X 中的位置。',
  'perm.checkedModel': '被检查的模型：位置编码 {select}',
  'perm.causal': ' 因果掩码',
  'perm.mapFpx': '重排后输入的最终隐藏状态',
  'perm.mapPfx': 'X 的最终隐藏状态，再重排',
  'perm.mapDiff': '差值',
  'perm.sameColours': '（同一色标）',
  'perm.mapsNote':
    '行：πX 的各个位置（词元标在左边）；列：最终隐藏状态的 {dmodel} 个通道。没有位置编码时，差值只是浮点舍入误差（约 {tiny}：同样的和，只是相加的顺序不同）。绝对位置编码给位置 {i} 上的词元加上 {pi}；相对位置编码给 logits 加上 {bij}，而 {bpi}；因果掩码 {M} 不会随词元一起重排，{PMP}。它们都会破坏这个恒等式，破坏的程度就是显示的数值。可以试一个例外：双向 ALiBi，{alibi}，从两端读都一样，所以先点 {orig} 再点 {rev}，差值又回到舍入误差：这样的模型分不清一个序列和它的镜像，也分不清 A…B 和 B…A。',
  'perm.train': '两个模型学习 {task}',
  'perm.trainIntro':
    '任务：A 是否出现在 B 之前？A 和 B 在填充词元中各出现一次；答案从所有位置的平均中读出。每一边为每个种子训练一个模型；同一种子的两个模型初始权重相同（位置编码除外），训练批次也相同。一个模型会一直训练，直到学会任务（留出集准确率 ≥ 95%）或用完步数预算，以先到者为准。',
  'perm.ariaEncoding': '第二个模型的位置编码',
  'perm.secondModel': '第二个模型：位置编码 {select}',
  'perm.firstSeed': '起始种子 {input}',
  'perm.ariaSeed': '起始种子',
  'perm.heldOutAcc': '留出集准确率',
  'perm.heldOutLoss': '留出集损失',
  'perm.scoresNote':
    '分数：各种子留出集准确率的平均值，括号里是最低和最高值。图表：每 25 步对各种子取平均（已停止的模型保持最后的值）。随机水平是 50%：没有位置信息时，模型对 {X} 及其任何重排都给出同一个答案，而一半的重排会交换 A 和 B；它的期望损失至少等于公平猜测的损失，{ln2}。',
  'perm.stepZero': '第 0 步',
  'perm.counter': '第 {step} / {budget} 步 · {seeds}',
  'perm.meanOf': '{name}（{n} 个的平均）',
  'perm.who': 'position = {name}',
  'perm.side.error': '{who}：在 {seeds} 上训练停止：{error}。',
  'perm.side.learned': '在 {seeds} 上学会了任务（留出集准确率 ≥ {target}），在第 {at} 步',
  'perm.side.training': '{who}：{learned}训练中，第 {step} / {budget} 步。',
  'perm.side.done': '{who}：{learned}。留出集准确率 {acc}。',
  'perm.side.budget':
    '{who}：在 {seeds} 上，留出集准确率达到 {target} 之前就用完了 {budget} 步的预算（最终 {acc}）{learned}。',
  'perm.sep': '；',
  'perm.play': '训练',
  'perm.pause': '暂停',
  'perm.reset': '重置',
  'perm.learned': '已学会',
  'perm.trainLonger': '继续训练（再加 {n} 步）',
  'perm.allLearnedTitle': '每个模型都已学会任务；换一个种子或位置编码可以重新训练。',
  'perm.allLearned': '每个模型都达到了目标：没有需要继续训练的了。换一个种子或位置编码可以训练新的模型。',
  'perm.doneNote':
    '完成：每个模型要么学会了任务，要么用完了 {budget} 步的预算。“继续训练”会给用完预算的模型再加 {extra} 步。',
  'perm.check.left': '下方训练中左边的模型',
  'perm.check.right': '下方训练中右边的模型',
  'perm.check.own': '一个单独的模型（position = {pos}{mask}），用同一个种子在 order 上训练了 {steps} 步',
  'perm.check.ownMask': '，因果掩码',
  'perm.check.note':
    '被检查的模型：{label}；当前第 {step} 步。训练只改变差值的大小，不改变“没有位置信息时恒等式成立”这件事。',
  'perm.check.noEncoding': '没有位置编码',
  'perm.check.equal': '在浮点舍入误差内相等：{what}{noMask}时，重排输入只会以同样的方式重排输出。',
  'perm.check.noMask': '、也没有掩码',
  'perm.check.notEqual': '不相等：{what}{mask}让输出取决于每个词元所在的位置。',
  'perm.check.withMask': '加上因果掩码',
  'perm.pooled.same': '答案相同；概率只相差 {delta}：对所有位置取平均看不见顺序。',
  'perm.pooled.different': '不同（概率相差 {delta}）。',
  'perm.pred': '{label} 预测 {cls}（p = {p}）',
  'perm.truth': ' · 正确答案 {truth}',
  'perm.permIdentity': 'π 是恒等置换：请重排第二行。',
  'perm.tokenTitle': '点击（或按 ↑/↓）更换这个词元',
  'perm.tokenAria': 'X 的位置 {i}：{name}；点击更换',
  'perm.chipTitle': '拖动来重排（或选中后用 ←/→）',
  'perm.chipAria': 'πX 的位置 {i}：{name}，来自 X 的位置 {src}；方向键可以移动它',
};
