// The worker's message protocol, written once: the command names the client sends and the worker
// handles, and the event names the worker posts on its own. worker.js types its handler table as
// Record<Command, ...> and client/ sends only Command values, so `npm test`'s type check
// (tsconfig.json) fails when a name is missing, extra or misspelt on either side; the worker
// also answers an unknown name with an error that lists these.
//   request  {id, cmd: Command, args}      reply  {id, ok: true, result} | {id, ok: false, error, fatal}
//   event    {event: WorkerEvent, ...}     (see worker.js for each event's fields)
// A config's training text (up to 2 MiB) crosses once, in the request that brings it: in replies
// (create, info, reset, configure, derive, inspect's info) a non-empty `text` is a TextRef
// {kept, size, fnv1a} (worker/session.js) and the page puts its own copy back (client/).

/** Every command the worker handles, in the order of worker.js. */
export const COMMANDS = /** @type {const} */ ([
  'init', // {variant} -> {variant, version, simdArch, simd, threads[, fallback]}
  'checkConfig', // {config} -> CheckResult
  'create', // {config} -> {sid, info} | {error} (a refused config; validated once, while built)
  'info', // {sid} -> SessionInfo
  'reset', // {sid} -> SessionInfo
  'play', // {sid, until, speed, every} -> {step}
  'pause', // {sid} -> {step}
  'train', // {sid, n} -> {step, cancelled?}: n training steps now (cancelled: a pause or reset stopped it)
  'configure', // {sid, fields} -> Config
  'trap', // (tests) behaves as a trap of the module
  'evaluate', // {sid, length} -> EvalMetrics
  'intervene', // {sid, interventions, n} -> InterventionResult (an empty list clears them)
  'inspect', // {sid, ...parts} -> {step, ms, attention?, predictions?, positions?, explore?, info?} (the views' bundle)
  'replayIndex', // {sid} -> ReplayIndex (the steps that have a replay frame)
  'replayFrame', // {sid, step} -> ReplayFrame
  'heads', // {sid, step, history} -> {diagnostics: HeadDiagnostics, history?: HeadHistory}
  'run', // {sid, ids} -> RunResult
  'generate', // {sid, prompt, maxNew, temperature, topK, seed} -> generation
  'exportModel', // {sid} -> Uint8Array (safetensors)
  'exportTorch', // {sid} -> string (the model as one PyTorch file)
  'importModel', // {sid?, bytes, overrides?} -> {sid, info}
  'derive', // {sid, overrides} -> {sid, info}
  'dispose', // {sid} -> true
]);

/** Events the worker posts without a request. */
export const EVENTS = /** @type {const} */ (['metrics', 'state', 'fatal', 'beat', 'lock']);

/** @typedef {typeof COMMANDS[number]} Command */
/** @typedef {typeof EVENTS[number]} WorkerEvent */
