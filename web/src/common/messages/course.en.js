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
    'Make the model above count: reach {min} held-out accuracy on the probe within {steps} steps. Keep the task; the encoding, the normalization and the anchors are yours to change, one lever at a time.',
  'check.goal.longer':
    'Keep RoPE, train copy_back at length {len}, and reach {min} held-out accuracy at {factor} times that length within {steps} steps. Choose the scaling that carries it there (factor {factor}).',
  'check.goal.relative':
    'Make the model above carry copy_back to twice its training length: reach {min} held-out accuracy at twice the length within {steps} steps. Change its encoding, not the task.',
  'check.goal.absolute':
    'Make the model above learn copy_back: reach {min} held-out accuracy within {steps} steps with an absolute encoding (learned or sinusoidal), at the embedding or in every layer.',
  'check.waiting': 'Waiting for the model: it trains once you have made your prediction.',
  'check.predict': 'Before it trains: will {setting} reach the goal?',
  'check.willPass': 'It will',
  'check.willFail': 'It will not',
  'check.predicted': 'Your prediction for {setting}: {said}.',
  'check.predictedPass': 'it will reach the goal',
  'check.predictedFail': 'it will not reach the goal',
  'check.unpredicted':
    'This model started training before a prediction: change a setting (or Reset) to predict the next one.',
  'check.logLabel': 'your models, newest first',
  'check.logEntry': ': {reached} {said}',
  'check.logPassed': 'passed, {acc} at step {step};',
  'check.logFailed': 'not passed, {acc} at step {step};',
  'check.logOff': '{acc} at step {step}, but not a setting this check accepts;',
  'check.logRight': 'you predicted {said}: right.',
  'check.logWrong': 'you predicted {said}: wrong.',
  'check.logNone': 'no prediction.',
  'check.keptPrediction': 'Before it trained, you predicted {said}.',
  'check.progress': 'Now: step {step}, held-out accuracy {acc}, {setting}.',
  'check.passed': 'Passed: {setting} reached {acc} held-out accuracy at step {step}.',
  'check.over': 'Step {step} is past the budget of {steps} steps: change a setting to train a new model.',
  'check.allowed': 'This check asks for {field} = one of {value}: choose one and train again.',
  'check.kept': 'This check keeps {field} = {value}: set it back to try again.',
  'check.saved': 'Your result is kept in this browser.',
  // --- lesson 6's check: the table read as Benjamini–Hochberg does (bh-quiz.mjs, lesson-quiz.js)
  'quiz.bh.ask':
    'The committed table holds m = {m} tests (each claim at each budget, or on each occasion), ranked by p: rank k = 1 has the smallest. Here are {n} of them, where the list of discoveries ends; every test ranked after these is not a discovery. Tick the tests that Benjamini–Hochberg calls discoveries at a false-discovery rate of {level}.',
  'quiz.rank': 'k = {k}, p = {p}:',
  'quiz.atBudget': 'at {budget} steps',
  'quiz.onOccasion': '(timing, occasion {n})',
  // a claim said from its arms (bh-quiz.mjs claimSaid; English shows the definition's sentence)
  'quiz.claim.beats': '{better} beats {worse} ({metric})',
  'quiz.claim.same': '{better} is as good as {worse} ({metric}, within {margin})',
  'quiz.colon': ': ',
  'quiz.submit': 'Check my reading',
  'quiz.yes': 'm·p/k = {ratio}, q = {q}: a discovery.',
  'quiz.no': 'm·p/k = {ratio}, q = {q}: not a discovery.',
  'quiz.right': 'Your tick is right.',
  'quiz.wrong': 'Your tick is wrong.',
  'quiz.passed':
    'Right: you read the table as Benjamini–Hochberg does. {traps} of these tests have p below {level} and are still not discoveries.',
  'quiz.passedPlain': 'Right: you read the table as Benjamini–Hochberg does.',
  'quiz.missed':
    '{wrong} of {n} read otherwise than Benjamini–Hochberg. A test is a discovery when m·p/k is at most {level} for it or for a test ranked after it; p alone is compared with {level} only when m = 1.',
  'quiz.kept': 'Passed: you read the table as Benjamini–Hochberg does.',
  // --- lesson 4's θ′/θ figure (theta-figure.mjs)
  'theta.pi': 'PI (interpolation)',
  'theta.ntk': 'NTK-aware scaling',
  'theta.yarn': 'YaRN',
  'theta.pair': 'pair {m} (θ = {theta})',
  'theta.x': 'pair of dimensions, fastest first',
  'theta.bar': '{method}, pair {m}: θ′/θ = {v}',
  'theta.aria': 'θ′/θ for each pair of dimensions under PI, NTK-aware scaling and YaRN, factor {s}',
  'theta.caption':
    "θ′/θ for each of the {pairs} pairs of a head in this lesson's models at a factor of {s}, as the engine computes it: 1 keeps a pair's training frequency, 1/{s} interpolates it fully.",
  // --- a verdict's per-seed points (seeds-figure.mjs, lesson-seeds.js)
  'seeds.row': '{side} · {budget} steps',
  'seeds.line': 'at {budget} steps: difference {diff} [{lo}, {hi}], {verdict}',
  'seeds.line1': 'difference {diff} [{lo}, {hi}], {verdict}',
  'seeds.axis.eval_bpc': 'bits per character (dots: seeds)',
  'seeds.aria': '{claim}: every seed of each side',
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
