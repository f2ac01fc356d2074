// The message table's extrapolation part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the extrapolation demo (demos/extrapolation/).
// Its keys are those of extrapolation.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // the extrapolation demo (demos/extrapolation/), in the order it shows them
  'ext.task.repeat': '把一个短模式周期性地延续下去',
  'ext.task.copy': '在一串数字后面把它重复一遍',
  'ext.task.reverse': '把数字串倒过来',
  'ext.task.sort': '把数字串排好序',
  'ext.task.dyck': '括号的嵌套深度',
  'ext.scaling.pi': '位置内插（PI）',
  'ext.scaling.ntk': 'NTK-aware 底数',
  'ext.scaling.yarn': 'YaRN（按波长插值）',
  'ext.dash.pi': '点线',
  'ext.dash.ntk': '虚线',
  'ext.dash.yarn': '点划线',
  'ext.task2Aria': '第二个任务',
  'ext.factorAria': '表格所用的缩放倍数 s',
  'ext.train': '训练',
  'ext.pause': '暂停',
  'ext.rope.title': '缩放后的 RoPE 频率',
  'ext.rope.factor': '倍数 s {select}',
  'ext.rope.formulas':
    'PI 把每个角度都除以 s：{pi}。NTK-aware 缩放把底数调大，{ntk}：最快的一对保持不变，最慢的一对除以 s。YaRN 保留在 L 之内转了很多圈的那些对，对慢的那些做插值，并把 logits 乘以 {yarn}。数值来自引擎（对每种缩放方式各载入一个 RoPE 模型，读出它的位置编码数据）。图中每个评估长度 ℓ 对应 s = ℓ/L。',
  'ext.rope.note':
    's = {s}，训练长度 {L}。NTK 底数：{base}；YaRN 把 q·k 乘以 mscale² = {mscale}。每个头的维数 {hs}：{pairs} 对频率。',
  'ext.encodings': '位置编码：',
  'ext.secondTask': '第二个任务 {select}',
  'ext.ropeAtEval': '评估时的 RoPE：',
  'ext.chart.acc': '准确率（计分位置）随评估长度 ℓ 的变化',
  'ext.chart.loss': '损失随评估长度 ℓ 的变化',
  'ext.chart.accTitle': '准确率',
  'ext.chart.lossTitle': '损失',
  'ext.chart.x': '评估长度 ℓ',
  'ext.chart.empty': '模型训练完，曲线就会出现。',
  'ext.values': '数值',
  'ext.intro.title': '短序列训练，长序列测试',
  'ext.intro.p':
    '下面每种位置编码都在长度 {L} 上训练一个因果模型，然后原封不动地在 {lengths}（最长到 {fourL}）上评估。每种编码用的留出数据都相同。超过 {Lsym} 之后，模型会遇到训练中从没见过的位置和距离。',
  'ext.abs.title': '绝对位置编码',
  'ext.abs.p':
    '{learned} 位置表 {P} 没有位置 {L} 及以后的行：模型在那里根本无法运行。{sin} 位置 {pt} 对每个 {t} 都存在，但超过 {L2} 的向量是网络从没见过的输入。',
  'ext.abs.learned': 'learned（可学习的）',
  'ext.abs.sin': '正弦（sinusoidal）',
  'ext.rel.title': '相对位置编码',
  'ext.rel.p':
    '{alibi} 给 logits 加上 {bias}：远处的键被一个偏置往下压，这个偏置在超过 {L} 之后仍以同样的方式增长；它在 {L2} 之后的效果如何，由下面的测量给出。{t5} 把距离分进若干个桶（超过几步之后按对数分桶）；比训练中任何距离都长的距离会落进从未训练过的桶里。{rope} 把 q 和 k 旋转 {angle}；超过 {L3} 之后，慢的那些对会转到从未训练过的角度。',
  'ext.scale.title': '评估时缩放 RoPE',
  'ext.scale.p':
    '位置内插把 {ell} 个位置压进训练过的范围（{map}，{s}），代价是相邻位置之间的步子变细了：不做微调的话，距离 k 现在看起来像 k/s，而 copy_back 需要精确的距离（点线曲线显示了这样做的后果）。NTK-aware 缩放改变底数，让快的那些对（局部顺序）保持训练时的样子，只对慢的那些对插值；YaRN 按波长逐对插值。在下面打开它们：它们显示为 RoPE 颜色的曲线，点线（PI）、虚线（NTK）和点划线（YaRN）。',
  'ext.scale.small':
    '每条曲线是 {n} 个种子（{list}）的平均值；每张图下面的表格给出最低和最高值。曲线在 ℓ 方向上稍微错开，好让相同的曲线也都能看见。',
  'ext.progress': '{n} 个模型中已训练并评估 {done} 个',
  'ext.status.line': '{pos} · {task}（{n} 个种子）：{state}',
  'ext.status.error': '出错：{error}',
  'ext.status.evaluated': '已评估',
  'ext.status.evaluating': '正在评估……',
  'ext.status.step': '第 {step}/{steps} 步',
  'ext.status.loss': '，损失 {loss}',
  'ext.note.learned':
    'learned 曲线止于 ℓ = {L}：可学习的位置表每个训练过的位置只有一行（这里是 {L} 行），所以到了 {at} 个词元时没有东西可加。引擎拒绝了：“{refusal}”。',
  'ext.note.refusal': '可学习的位置编码无法外推',
  'ext.values.undefined': '在这个长度上没有定义',
  'ext.values.loss': '损失 {mean}（{min}–{max}）',
  'ext.values.encoding': '位置编码',
  'ext.measured.head': '测量结果（{n} 个种子，平均值及最低–最高）：',
  // 还没有训练完所有种子时（每条曲线先训练一个种子）：目前的种子数
  'ext.measured.soFar': '目前的测量结果（每条曲线至少 {n} 个种子中的 {k} 个，平均值及最低–最高）：',
  'ext.measured.at': 'ℓ = {far} 时的准确率：{list}。',
  'ext.measured.none': '没有曲线到达这里',
  'ext.measured.item': '{key} {acc}（ℓ = {L} 时：{atL}）',
  'ext.measured.ended': ' 超过 ℓ = {L} 后没有定义：{list}。',
};
