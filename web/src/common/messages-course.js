// The message table's part of the course (common/messages.js says how the table works): the course's pages, their
// checks and the experiments' verdicts, loaded by the course only (pages/course/).
// Each key holds its English and its Simplified Chinese text; tests/node/course.test.mjs checks both.

/** @type {Record<string, Record<import('./messages.js').Lang, string>>} */
export const COURSE_MESSAGES = {
  // --- the course's pages
  'course.name': { en: 'Course', zh: '课程' },
  'course.title': { en: 'How a transformer learns position', zh: 'Transformer 如何学会位置' },
  'course.lede': {
    en: 'Short lessons, each with small models that train in this page while you read. Every number in a lesson comes from a model beside it or from a committed experiment.',
    zh: '一组短小的课程。你阅读时，页面里的小模型就在旁边训练；课程中的每个数字都来自旁边的模型，或来自仓库里已提交的实验结果。',
  },
  'course.lessons': { en: 'Lessons', zh: '课程目录' },
  'course.lesson': { en: 'Lesson {n}', zh: '第 {n} 课' },
  'course.minutes': { en: 'about {n} minutes', zh: '约 {n} 分钟' },
  'course.language': { en: 'Language', zh: '语言' },
  'course.skip': { en: 'Skip to the lesson', zh: '跳到正文' },
  'course.continue': { en: 'Continue where you left off: {title}', zh: '从上次读到的地方继续：{title}' },
  'course.passed': { en: 'check passed', zh: '已通过小测' },
  'course.notYet': { en: 'not yet checked', zh: '尚未完成小测' },
  'course.next': { en: 'Next: {title}', zh: '下一课：{title}' },
  'course.back': { en: 'All lessons', zh: '课程目录' },
  'course.noscript': {
    en: 'The lesson needs JavaScript: its models train in this page.',
    zh: '本课需要 JavaScript：其中的模型在页面里训练。',
  },
  'course.footer': {
    en: 'Everything trains in this page: a C++ engine compiled to WebAssembly, in Web Workers. Nothing is sent anywhere.',
    zh: '所有训练都在本页面中进行：C++ 引擎编译成 WebAssembly，在 Web Worker 里运行，不向任何地方发送数据。',
  },
  // --- a lesson's check (judged from the engine's held-out evaluation, as the challenges are)
  'check.title': { en: 'Check: your turn', zh: '小测：轮到你了' },
  'check.goal.order': {
    en: 'Make the model above learn order: reach {min} held-out accuracy within {steps} steps, on the task order. Change its setting, not the task.',
    zh: '让上面的模型学会 order 任务：在 {steps} 步之内，让留出集准确率达到 {min}。只能改它的设置，不能换任务。',
  },
  'check.goal.probe': {
    en: 'Make the model above count: reach {min} held-out accuracy on the probe within {steps} steps, keeping its task, RoPE and softmax.',
    zh: '让上面的模型学会数位置：在 {steps} 步之内，让探针任务的留出集准确率达到 {min}，同时保持任务、RoPE 和 softmax 不变。',
  },
  'check.goal.comparison': {
    en: 'Re-run a passing row of the probe grid: reach {min} held-out accuracy within {steps} steps, keeping the probe, RoPE and no anchors; change the normalization.',
    zh: '重跑探针网格中能通过的一行：在 {steps} 步之内让留出集准确率达到 {min}，保持探针任务、RoPE 和无锚点不变，只改归一化方式。',
  },
  'check.goal.longer': {
    en: 'Train copy_back at length {len} and reach {min} held-out accuracy at {factor} times that length within {steps} steps. Keep the task and the lengths; change the encoding.',
    zh: '在长度 {len} 上训练 copy_back，并在 {steps} 步之内让 {factor} 倍长度上的留出集准确率达到 {min}。任务和长度保持不变，只改位置编码。',
  },
  'check.goal.relative': {
    en: 'Make the model above carry copy_back to twice its training length: reach {min} held-out accuracy at twice the length within {steps} steps. Change its encoding, not the task.',
    zh: '让上面的模型把 copy_back 带到两倍的训练长度：在 {steps} 步之内，让两倍长度上的留出集准确率达到 {min}。只能改它的位置编码，不能换任务。',
  },
  'check.goal.absolute': {
    en: 'Make the model above learn copy_back: reach {min} held-out accuracy within {steps} steps with an absolute encoding (learned or sinusoidal), at the embedding or in every layer.',
    zh: '让上面的模型学会 copy_back：在 {steps} 步之内，用一种绝对位置编码（learned 或 sinusoidal，加在嵌入层或每一层）让留出集准确率达到 {min}。',
  },
  'check.waiting': {
    en: 'Waiting for the model: it trains when on screen.',
    zh: '等待模型：它出现在屏幕上时开始训练。',
  },
  'check.progress': {
    en: 'Now: step {step}, held-out accuracy {acc}, {setting}.',
    zh: '当前：第 {step} 步，留出集准确率 {acc}，{setting}。',
  },
  'check.passed': {
    en: 'Passed: {setting} reached {acc} held-out accuracy at step {step}.',
    zh: '通过：{setting} 在第 {step} 步达到留出集准确率 {acc}。',
  },
  'check.over': {
    en: 'Step {step} is past the budget of {steps} steps: change a setting to train a new model.',
    zh: '已超过 {steps} 步的预算（当前第 {step} 步）：改一个设置，重新训练一个模型。',
  },
  'check.allowed': {
    en: 'This check asks for {field} = one of {value}: choose one and train again.',
    zh: '本小测要求 {field} 取 {value} 之一：选一个再训练。',
  },
  'check.kept': {
    en: 'This check keeps {field} = {value}: set it back to try again.',
    zh: '本小测要求 {field} = {value}：改回来再试。',
  },
  'check.saved': { en: 'Your result is kept in this browser.', zh: '你的结果保存在本浏览器中。' },
  // --- experiment verdicts, as the committed files name them
  'verdict.agrees': { en: 'agrees', zh: '成立' },
  'verdict.disagrees': { en: 'disagrees', zh: '不成立' },
  'verdict.inside_the_noise': { en: 'inside the noise', zh: '在噪声范围内' },
  'verdict.partly_agrees': { en: 'partly agrees', zh: '部分成立' },
  'verdict.agrees_in_part,_disagrees_in_part': { en: 'agrees in part, disagrees in part', zh: '部分成立，部分不成立' },
  'verdict.does_not_reproduce_at_this_scale': { en: 'does not reproduce at this scale', zh: '在这个规模上无法复现' },
};
