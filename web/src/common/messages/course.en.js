// The message table's course part in English (common/messages.js says how the table works):
// the strings of the course's pages, their checks and the experiments' verdicts (pages/course/).
// Its keys are those of course.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // --- the course's pages
  'course.name': 'Course',
  'course.title': 'How a transformer learns position',
  'course.lede':
    'Short lessons, each with small models that train in this page while you read. Every number in a lesson comes from a model beside it or from a committed experiment.',
  'course.lessons': 'Lessons',
  'course.lesson': 'Lesson {n}',
  'course.minutes': 'about {n} minutes',
  'course.language': 'Language',
  'course.pages': 'Pages',
  'course.skip': 'Skip to the lesson',
  'course.continue': 'Continue where you left off: {title}',
  'course.passed': 'check passed',
  'course.notYet': 'not yet checked',
  'course.next': 'Next: {title}',
  'course.back': 'All lessons',
  'course.noscript': 'The lesson needs JavaScript: its models train in this page.',
  'course.footer':
    'Everything trains in this page: a C++ engine compiled to WebAssembly, in Web Workers. Nothing is sent anywhere.',
  // --- a lesson's check (judged from the engine's held-out evaluation, as the challenges are)
  'check.title': 'Check: your turn',
  'check.goal.order':
    'Make the model above learn order: reach {min} held-out accuracy within {steps} steps, on the task order. Change its setting, not the task.',
  'check.goal.probe':
    'Make the model above count: reach {min} held-out accuracy on the probe within {steps} steps, keeping its task, RoPE and softmax.',
  'check.goal.comparison':
    'Re-run a passing row of the probe grid: reach {min} held-out accuracy within {steps} steps, keeping the probe, RoPE and no anchors; change the normalization.',
  'check.goal.longer':
    'Train copy_back at length {len} and reach {min} held-out accuracy at {factor} times that length within {steps} steps. Keep the task and the lengths; change the encoding.',
  'check.goal.relative':
    'Make the model above carry copy_back to twice its training length: reach {min} held-out accuracy at twice the length within {steps} steps. Change its encoding, not the task.',
  'check.goal.absolute':
    'Make the model above learn copy_back: reach {min} held-out accuracy within {steps} steps with an absolute encoding (learned or sinusoidal), at the embedding or in every layer.',
  'check.waiting': 'Waiting for the model: it trains when on screen.',
  'check.progress': 'Now: step {step}, held-out accuracy {acc}, {setting}.',
  'check.passed': 'Passed: {setting} reached {acc} held-out accuracy at step {step}.',
  'check.over': 'Step {step} is past the budget of {steps} steps: change a setting to train a new model.',
  'check.allowed': 'This check asks for {field} = one of {value}: choose one and train again.',
  'check.kept': 'This check keeps {field} = {value}: set it back to try again.',
  'check.saved': 'Your result is kept in this browser.',
  // --- experiment verdicts, as the committed files name them
  'verdict.agrees': 'agrees',
  'verdict.disagrees': 'disagrees',
  'verdict.inside_the_noise': 'inside the noise',
  'verdict.undecided': 'undecided (the two occasions disagree)',
  'verdict.partly_agrees': 'partly agrees',
  'verdict.agrees_in_part,_disagrees_in_part': 'agrees in part, disagrees in part',
  'verdict.does_not_reproduce_at_this_scale': 'does not reproduce at this scale',
  'verdict.not_judged': 'not judged',
  // a judged claim in one phrase (exp-facts.mjs, the format "claim"): the sentence is the data's
  'claim.judged': '{verdict}, {stability} (difference {diff} [{lo}, {hi}], {test}, q {q}, {n} seeds)',
  'claim.stable': 'stable: the same at {budgets} steps',
  'claim.provisional_budgets': 'provisional: {verdicts}',
  'claim.provisional_one': 'provisional: judged at one budget only',
  'claim.at': '{verdict} at {budget}',
  'claim.paired': 'paired t',
  'claim.welch': 'Welch t',
  'claim.not_judged': 'not judged ({why})',
  'setting.seed': "seed 000's setting (a bidirectional masked language model)",
  'setting.ours': 'our setting (a causal character language model)',
  'provenance.seed_text': "the seed's text",
  'provenance.seed_figure': 'a figure the seed reproduces',
  'provenance.our_question': "our question, not the seed's",
  // the header's links (demos/pages.mjs headerLinks, data-msg)
  'nav.playground': 'Playground',
  'nav.permutation': 'Permutation',
  'nav.probe': 'Probe',
  'nav.extrapolation': 'Extrapolation',
  'nav.experiments': 'Experiments',
  'nav.course': 'Course',
};
