// The message table's probe part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the probe demo (demos/probe/).
// Its keys are those of probe.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // the probe demo (demos/probe/), in the order it shows them
  'probe.anchorsAria': '锚点词元',
  'probe.anchorCls': '只有 [CLS]',
  'probe.train': '训练',
  'probe.pause': '暂停',
  'probe.restart': '重新开始',
  'probe.anchorsLabel': '锚点 {select}',
  'probe.causalLabel': '{box} 因果掩码',
  'probe.scrollHint': '表格比这一栏宽：横向滚动（滑动，或选中后用 ←/→ 键）可以看到更多列 →',
  'probe.gridCaption': '行：位置编码。列：注意力归一化方式。每一格是 {n} 个模型（{seeds}）。',
  'probe.gridAria': '模型表格（比页面宽时可横向滚动）',
  'probe.rowSumVaries': 'Σ 可变',
  'probe.rowSumOneTitle': '每一行的和都是 1',
  'probe.rowSumVariesTitle': '行和不必为 1',
  'probe.legend.learns': '学会了（≥ 90%）',
  'probe.legend.collapsed': '塌缩：所有位置完全相同（离散度低于最大 |h| 的 10⁻⁵ 倍，即舍入误差）',
  'probe.legend.mirror': '受镜像限制：{h}（镜像差低于离散度的 10⁻⁴ 倍，即舍入误差）',
  'probe.legend.partial': '部分学会',
  'probe.legend.mixed': '各种子结果不一致',
  'probe.legend.note':
    '颜色表示所有种子都如此；准确率：平均值（最低–最高的种子）；离散度和镜像差：各种子中的最大值；小折线：平均训练准确率，虚线：随机猜测的 1/n',
  'probe.why': '为什么',
  'probe.rowSum.title': '行和为 1 会抹掉相对位置',
  'probe.rowSum.p1': '注意力把值向量混合起来，{o}。当所有词元都相同时，每个值向量都是同一个向量 {v}，所以',
  'probe.rowSum.when': '当 {sum} 时成立。',
  'probe.rowSum.p2':
    'RoPE、ALiBi 和 T5 只把位置放进 logits {s}，所以它们改变的是每一行如何分布，而不是 softmax 之下这一行的和。残差连接、LayerNorm 和前馈网络都只作用于单个词元：每一层都把一个常数序列映射成一个常数序列。整个训练过程中所有位置都保持相同的隐藏状态，模型只能瞎猜，{guess}。红色格子的离散度在浮点舍入范围内为 0（只有几个 {tiny}：每一行用各自的权重把同一个向量加起来，用的是浮点数）；没有任何位置编码、掩码或锚点时，每个位置算的是完全相同的和，离散度对每种归一化方式都恰好是 0（编码器是置换等变的）。因果掩码也救不了 softmax：每一行在它能看到的键上仍然和为 1，红色格子仍是红色。',
  'probe.fix.title': '怎样修复',
  'probe.fix.absoluteName': '绝对位置编码',
  'probe.fix.absolute':
    '{abs}（learned、sinusoidal）让输入各不相同：{xp}。{shaw} 给值向量加上一个相对向量，{ov}；{urpe} 把权重乘以一个 Toeplitz 矩阵，{ac}：各行的和不再是 1。',
  'probe.fix.anchorsName': '锚点',
  'probe.fix.anchors':
    '{name}：有了 {code}，值向量不再全都相同，{o}，而落在锚点上的权重取决于到锚点的距离。在上方打开锚点，把 softmax 这一列和没有锚点时测得的那一列比较一下。',
  'probe.norm.name': '行和不固定的归一化',
  'probe.norm.text':
    '{name}：ℓ2 {l2}（行和在 1 到 {sqrtn} 之间，取决于这一行有多尖锐）、relu² {relu}、sigmoid {sig}、softmax1 {s1} 以及 sink（同上，但把 1 换成可学习的 {ez}）。这时 {o}，其中行和 {r} 可以借助相对偏置而依赖于 {i}。{sb}（仅限因果）让每个键分到更近的键剩下部分的 {sigma}，所以当词元都相同时 {ri}：顺序是内在的，不需要位置编码。',
  'probe.norm.stickBreaking': '折棍式注意力',
  'probe.mirror.title': '对称 ALiBi 的镜像限制',
  'probe.mirror.p1':
    '双向 ALiBi 加上的是 {bias}，从两端看都一样：{b}。位置 {i} 和它的镜像 {mi} 在同样的值向量上看到同样的偏置，所以在每一层、对每种归一化方式都有 {h}。模型分不清一个位置和它的镜像：准确率最多为 {bound}，这里是 {pct}。镜像差 {gap} 显示了这一点：在浮点舍入范围内为 0，即低于离散度 {spread} 的 {tiny} 倍（这种大小的 float32 求和大约在第七位有效数字上才有差别）。当每个种子的镜像差都这么小时，这一格标为受镜像限制（琥珀色）。因果掩码或两端的锚点会打破这种对称。',
  'probe.mirror.small':
    '离散度：最终隐藏状态（不含锚点）的 {spread}，由引擎在训练后做一次前向计算得到。准确率：留出集上、训练长度 n = {n} 时的准确率。',
  'probe.intro.title': '探针：模型知道自己在哪个位置吗？',
  'probe.intro.p':
    '输入 {n} 个相同的词元 {code}，让每个位置说出自己的下标 {idx}。输入里没有任何东西说明一个词元在哪里，所以只有能自己找出位置的模型才能通过。下面，一批小模型（d_model 32，4 个注意力头，2 层），每格 {k} 个（{seeds}），同时在 Worker 池上学习这个任务，每个 CPU 核心一个 Web Worker。',
  'probe.progress': '{buildable} 格中已完成 {trained} 格（{models} 个模型中完成 {done} 个，{seeds}）',
  'probe.slowest': ' · 最慢的在第 {step} 步（共 {steps} 步）',
  'probe.cellsN': '{n} 格',
  'probe.na': '不适用（{which}）：{reason}。',
  'probe.naShort': '不适用',
  'probe.notShown1': '未显示：{list}，它需要因果掩码（勾选“因果掩码”即可加上这一列）。',
  'probe.notShownN': '未显示：{list}，它们需要因果掩码（勾选“因果掩码”即可加上这些列）。',
  'probe.verdict.stopped': '已停止',
  'probe.verdict.cannotBuild': '无法构建',
  'probe.verdict.error': '出错',
  'probe.verdict.collapsed': '所有位置都相同',
  'probe.verdict.mirror': '镜像位置对相同（≤ {pct}）',
  'probe.verdict.learns': '学会了位置',
  'probe.verdict.partial': '部分学会',
  'probe.verdict.on': '{seeds}：{what}',
  'probe.verdict.mirrorShort': '镜像',
  'probe.cell.train': '训练 {p}%',
  'probe.cell.spread': '离散度 {v}',
  'probe.cell.mirror': '镜像差 {v}',
  'probe.cell.step': '第 {n} 步',
  'probe.summary.measured': '测量结果',
  'probe.summary.head': '（{seeds}，{steps} 步，锚点 {anchors}，{mask}）：准确率写作平均值，括号里是最低和最高的种子。',
  'probe.summary.causal': '因果掩码',
  'probe.summary.bidirectional': '双向',
  'probe.summary.collapsed': '每个种子上所有位置都相同（离散度在舍入范围内为 0）',
  'probe.summary.mirror': '每个种子上镜像位置对都相同（镜像差在舍入范围内为 0）',
  'probe.summary.learns': '每个种子都学会了位置（≥ 90%）',
  'probe.summary.partial': '每个种子都只部分学会',
  'probe.summary.mixed': '各种子结果不一致',
  'probe.summary.invalid': '无法训练',
};
