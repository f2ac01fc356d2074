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
    '让上面的模型学会数位置：在 {steps} 步之内，让探针任务的留出集准确率达到 {min}，同时保持任务、RoPE 和 softmax 不变。',
  'check.goal.comparison':
    '重跑探针网格中能通过的一行：在 {steps} 步之内让留出集准确率达到 {min}，保持探针任务、RoPE 和无锚点不变，只改归一化方式。',
  'check.goal.longer':
    '在长度 {len} 上训练 copy_back，并在 {steps} 步之内让 {factor} 倍长度上的留出集准确率达到 {min}。任务和长度保持不变，只改位置编码。',
  'check.goal.relative':
    '让上面的模型把 copy_back 带到两倍的训练长度：在 {steps} 步之内，让两倍长度上的留出集准确率达到 {min}。只能改它的位置编码，不能换任务。',
  'check.goal.absolute':
    '让上面的模型学会 copy_back：在 {steps} 步之内，用一种绝对位置编码（learned 或 sinusoidal，加在嵌入层或每一层）让留出集准确率达到 {min}。',
  'check.waiting': '等待模型：它出现在屏幕上时开始训练。',
  'check.progress': '当前：第 {step} 步，留出集准确率 {acc}，{setting}。',
  'check.passed': '通过：{setting} 在第 {step} 步达到留出集准确率 {acc}。',
  'check.over': '已超过 {steps} 步的预算（当前第 {step} 步）：改一个设置，重新训练一个模型。',
  'check.allowed': '本小测要求 {field} = {value} 之一：选一个再训练。',
  'check.kept': '本小测要求 {field} = {value}：改回来再试。',
  'check.saved': '你的结果保存在本浏览器中。',
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
