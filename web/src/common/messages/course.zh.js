// The message table's course part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the course's pages, their checks and the experiments' verdicts (pages/course/).
// Its keys are those of course.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // --- the course's pages
  'course.name': '课程',
  'course.title': 'Transformer 如何学会位置',
  'course.lede':
    '一组短小的课程。你阅读时，页面里的小模型就在旁边训练；课程中的每个数字都来自旁边的模型，或来自仓库里已提交的实验结果。',
  'course.lessons': '课程目录',
  'course.lesson': '第 {n} 课',
  'course.minutes': '约 {n} 分钟',
  'course.language': '语言',
  'course.pages': '页面',
  'course.skip': '跳到正文',
  'course.continue': '从上次读到的地方继续：{title}',
  'course.passed': '已通过小测',
  'course.notYet': '尚未完成小测',
  'course.next': '下一课：{title}',
  'course.back': '课程目录',
  'course.noscript': '本课需要 JavaScript：其中的模型在页面里训练。',
  'course.footer': '所有训练都在本页面中进行：C++ 引擎编译成 WebAssembly，在 Web Worker 里运行，不向任何地方发送数据。',
  // --- a lesson's check (judged from the engine's held-out evaluation, as the challenges are)
  'check.title': '小测：轮到你了',
  'check.goal.order':
    '让上面的模型学会 order 任务：在 {steps} 步之内，让留出集准确率达到 {min}。只能改它的设置，不能换任务。',
  'check.goal.probe':
    '让上面的模型学会数位置：在 {steps} 步之内，让探针任务的留出集准确率达到 {min}。任务不变；位置编码、归一化和锚点都可以改，一次改一个。',
  'check.goal.longer':
    '保持 RoPE，在长度 {len} 上训练 copy_back，并在 {steps} 步之内让 {factor} 倍长度上的留出集准确率达到 {min}。选一种能把它带到那么远的缩放方法（系数 {factor}）。',
  'check.goal.relative':
    '让上面的模型把 copy_back 带到两倍的训练长度：在 {steps} 步之内，让两倍长度上的留出集准确率达到 {min}。只能改它的位置编码，不能换任务。',
  'check.goal.absolute':
    '让上面的模型学会 copy_back：在 {steps} 步之内，用一种绝对位置编码（learned 或 sinusoidal，加在嵌入层或每一层）让留出集准确率达到 {min}。',
  'check.waiting': '等待模型：你写下预测之后，它就开始训练。',
  'check.predict': '训练之前先猜一猜：{setting} 能达到目标吗？',
  'check.willPass': '能',
  'check.willFail': '不能',
  'check.predicted': '你对 {setting} 的预测：{said}。',
  'check.predictedPass': '能达到目标',
  'check.predictedFail': '达不到目标',
  'check.unpredicted': '这个模型在预测之前就开始训练了：改一个设置（或按“重置”），再预测下一个。',
  'check.logLabel': '你训练过的模型，最新的在前',
  'check.logEntry': '：{reached}{said}',
  'check.logPassed': '通过，第 {step} 步达到 {acc}；',
  'check.logFailed': '未通过，第 {step} 步为 {acc}；',
  'check.logOff': '第 {step} 步为 {acc}，但这个设置不在本小测允许的范围内；',
  'check.logRight': '你预测它{said}：猜对了。',
  'check.logWrong': '你预测它{said}：猜错了。',
  'check.logNone': '没有预测。',
  'check.keptPrediction': '训练之前，你预测它{said}。',
  'check.progress': '当前：第 {step} 步，留出集准确率 {acc}，{setting}。',
  'check.passed': '通过：{setting} 在第 {step} 步达到留出集准确率 {acc}。',
  'check.over': '已超过 {steps} 步的预算（当前第 {step} 步）：改一个设置，重新训练一个模型。',
  'check.allowed': '本小测要求 {field} = {value} 之一：选一个再训练。',
  'check.kept': '本小测要求 {field} = {value}：改回来再试。',
  'check.saved': '你的结果保存在本浏览器中。',
  // --- 第 6 课的小测：像 Benjamini–Hochberg 那样读结果表（bh-quiz.mjs、lesson-quiz.js）
  'quiz.bh.ask':
    '已提交的结果表共有 m = {m} 个检验（每个论断在每个训练预算上各一个，计时论断则在每次测量上各一个），按 p 值从小到大排序，k = 1 的 p 最小。下面是其中 {n} 个，正好在“发现”名单结束的地方；排在它们后面的检验都不是发现。请勾选在错误发现率 {level} 下被 Benjamini–Hochberg 判为发现的检验。',
  'quiz.rank': 'k = {k}，p = {p}：',
  'quiz.atBudget': '（{budget} 步）',
  'quiz.onOccasion': '（计时，第 {n} 次测量）',
  // a claim said from its arms (bh-quiz.mjs claimSaid; English shows the definition's sentence)
  'quiz.claim.beats': '{better} 优于 {worse}（{metric}）',
  'quiz.claim.same': '{better} 与 {worse} 相当（{metric}，差距在 {margin} 以内）',
  'quiz.colon': '：',
  'quiz.submit': '检查我的判断',
  'quiz.yes': 'm·p/k = {ratio}，q = {q}：是发现。',
  'quiz.no': 'm·p/k = {ratio}，q = {q}：不是发现。',
  'quiz.right': '你勾对了。',
  'quiz.wrong': '你勾错了。',
  'quiz.passed':
    '答对了：你像 Benjamini–Hochberg 那样读懂了这张表。这里有 {traps} 个检验的 p 小于 {level}，却仍然不是发现。',
  'quiz.passedPlain': '答对了：你像 Benjamini–Hochberg 那样读懂了这张表。',
  'quiz.missed':
    '有 {wrong} 个（共 {n} 个）和 Benjamini–Hochberg 的判断不同。一个检验是发现，当且仅当它自己或排在它后面的某个检验满足 m·p/k ≤ {level}；只有 m = 1 时，才直接拿 p 和 {level} 比。',
  'quiz.kept': '已通过：你像 Benjamini–Hochberg 那样读懂了这张表。',
  // --- 结论的逐种子数据点（seeds-figure.mjs、lesson-seeds.js）
  // --- lesson 4's θ′/θ figure (theta-figure.mjs)
  'theta.pi': '位置内插（PI）',
  'theta.ntk': 'NTK-aware 缩放',
  'theta.yarn': 'YaRN',
  'theta.pair': '第 {m} 对（θ = {theta}）',
  'theta.x': '维度对，最快的在前',
  'theta.bar': '{method}，第 {m} 对：θ′/θ = {v}',
  'theta.aria': '在位置内插、NTK-aware 缩放和 YaRN 下每对维度的 θ′/θ，系数 {s}',
  'theta.caption':
    '本课模型中一个头的 {pairs} 对维度在系数 {s} 下的 θ′/θ，由引擎算出：1 表示保持训练时的频率，1/{s} 表示完全内插。',
  'seeds.row': '{side} · {budget} 步',
  'seeds.line': '{budget} 步：差值 {diff} [{lo}, {hi}]，{verdict}',
  'seeds.line1': '差值 {diff} [{lo}, {hi}]，{verdict}',
  'seeds.axis.eval_bpc': '每字符比特数（点：种子）',
  'seeds.aria': '{claim}：两边的每个种子',
  // --- experiment verdicts, as the committed files name them
  'verdict.agrees': '成立',
  'verdict.disagrees': '不成立',
  'verdict.inside_the_noise': '在噪声范围内',
  'verdict.undecided': '未定（两次测量结论不一）',
  'verdict.partly_agrees': '部分成立',
  'verdict.agrees_in_part,_disagrees_in_part': '部分成立，部分不成立',
  'verdict.does_not_reproduce_at_this_scale': '在这个规模上无法复现',
  'verdict.not_judged': '未评判',
  // 一条已评判论断的一句话（exp-facts.mjs 的 "claim" 格式）：句子来自数据
  'claim.judged': '{verdict}，{stability}（差值 {diff} [{lo}, {hi}]，{test}，q = {q}，{n} 个种子）',
  'claim.stable': '稳定：在 {budgets} 步时结论都相同',
  'claim.provisional_budgets': '暂定：{verdicts}',
  'claim.provisional_one': '暂定：只在一个训练预算下评判过',
  'claim.at': '{budget} 步时{verdict}',
  'claim.paired': '配对 t 检验',
  'claim.welch': 'Welch t 检验',
  'claim.not_judged': '未评判（{why}）',
  'setting.seed': '原文（种子 000）的设定：双向的掩码语言模型',
  'setting.ours': '本项目的设定：因果的字符级语言模型',
  'provenance.seed_text': '原文的文字',
  'provenance.seed_figure': '原文转载的图',
  'provenance.our_question': '本项目提出的问题，并非原文所说',
  // the header's links (demos/pages.mjs headerLinks, data-msg)
  'nav.playground': '实验场',
  'nav.permutation': '置换检验',
  'nav.probe': '探针',
  'nav.extrapolation': '外推',
  'nav.experiments': '实验',
  'nav.course': '课程',
};
