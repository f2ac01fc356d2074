// The only owner of the wasm module. Requests arrive as {id, cmd, args} (the names: protocol.js,
// shared with the client); each gets exactly one
// reply {id, ok, result} or {id, ok: false, error}. Training runs in chunks between which the
// worker yields, so pause/step messages are handled promptly; after each chunk it posts an event
// {event: 'metrics', sid, steps, evals, step}. {event: 'state', sid, playing, reason} says when a
// session stops by itself. One worker may host several sessions (ids `sid`); they take turns.
// A wasm trap (WebAssembly.RuntimeError, Emscripten's abort) leaves the module unusable: the
// reply then carries `fatal: true` (or, during training, {event: 'fatal', error} is posted) and
// every later command fails, so that the client replaces this worker. No DOM here.
// Signs of life for the client's watchdog (client/watchdog.js): the worker holds a Web Lock with a
// name of its own for its whole life and announces it ({event: 'lock', name}), so the page learns
// of its death the moment the browser releases the lock; and it posts {event: 'beat', longest}
// every BEAT_MS (longest: its longest synchronous piece of work so far, in ms), which needs its
// event loop free: training, even a long `step`, runs in bounded chunks with yields between them.
import { loadModule } from './load-module.js';
import { ModuleSession, leanConfig, leanInfo } from './session.js';
import { COMMANDS } from './protocol.js';
import { fill, pageRefusal, refusalOf } from '../common/refusal.js';

/** @typedef {import('./protocol.js').Command} Command */
/** @typedef {import('./protocol.js').WorkerEvent} WorkerEvent */

const BEAT_MS = 1000; // client/watchdog.js expects a beat about this often
// This worker's global scope as it is used here (the DOM library types `self` as a Window).
const scope = /** @type {{postMessage(msg: unknown, transfer?: Transferable[]): void,
  onmessage: ((e: MessageEvent) => void) | null, navigator?: Navigator, crypto?: Crypto}} */ (
  /** @type {unknown} */ (self)
);
/** @param {unknown} err the message of an Error, or the thrown value as text */
const messageOf = (err) => String(/** @type {any} */ (err)?.message ?? err);
let longest = 0; // ms, the longest synchronous piece of work so far

/**
 * Run fn (synchronous work), keeping the longest duration for the heartbeat.
 * @template T
 * @param {() => T} fn
 * @returns {T}
 */
function timed(fn) {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    longest = Math.max(longest, performance.now() - t0);
  }
}

/**
 * Let queued messages and timers run (a MessageChannel round trip: no 4 ms clamp).
 * @returns {Promise<void>}
 */
function yieldToEvents() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** @type {import('../wasm-api').AttnplayModule | null} */
let mod = null;
/** @type {string|null} */
let variant = null;
/** @type {string|undefined} why the threaded build was asked for and the SIMD one runs */
let fallback;
let nextSid = 1;
/** @type {string|null} the message of the trap that killed the module, once one has */
let dead = null;

/**
 * Whether an error is a trap of the wasm module (after which it must not be used again).
 * @param {unknown} err
 */
const isTrap = (err) =>
  err instanceof WebAssembly.RuntimeError || /^Aborted\(/.test(String(/** @type {any} */ (err)?.message ?? ''));
/** @type {Map<number, ModuleSession>} */
const sessions = new Map();

/** @param {number} sid */
function session(sid) {
  const h = sessions.get(sid);
  if (!h) throw pageRefusal('page.no_session', { sid: String(sid) });
  return h;
}

/**
 * @param {ModuleSession} h
 * @param {{lean?: boolean}} [opts] lean: the page knows the session's text (it sent it): the
 *   reply carries the text's size and hash, not the text (leanInfo)
 */
function add(h, { lean = true } = {}) {
  const sid = nextSid++;
  sessions.set(sid, h);
  return { sid, info: lean ? leanInfo(h.info()) : h.info() };
}

/**
 * An error's English message. The browser's module keeps its refusal codes without their English
 * templates (core/refusal/codes.cpp, AP_NO_TEMPLATES), so its what() is the code ("where: code"):
 * the English text is then the page's table (common/messages/refusals.en.js, generated from the
 * same templates, a chunk loaded on the first refusal), filled as the engine fills it. Never throws.
 * @param {unknown} err an Error, or {message, refusal} from a JSON reply
 * @returns {Promise<string>}
 */
async function englishOf(err) {
  const message = messageOf(err);
  const r = refusalOf(err);
  if (message !== (r.where ? `${r.where}: ${r.code}` : r.code)) return message; // already in words
  try {
    const { default: en } = await import('../common/messages/refusals.en.js');
    const template = /** @type {Record<string, string>} */ (en)[`refusal.${r.code}`];
    if (template === undefined) return message;
    const text = fill(template, { ...r.params, field: r.field });
    return r.where ? `${r.where}: ${text}` : text;
  } catch {
    return message;
  }
}

/** The module, once init has loaded it (every other command runs after that). */
function engine() {
  if (!mod) throw new Error('worker: the module is not loaded yet');
  return mod;
}

/** @param {{event: WorkerEvent} & Record<string, any>} msg */
const emit = (msg) => scope.postMessage(msg);

/**
 * One handler per command of protocol.js: the type makes a missing or extra name an error.
 * @type {{[K in Command]: (args: any) => any}}
 */
const commands = {
  async init({ variant: wanted }) {
    if (!mod) {
      try {
        mod = await loadModule(wanted);
        variant = wanted;
      } catch (err) {
        // the threaded build could not start here: the SIMD one trains the same
        if (wanted !== 'threads') throw err;
        fallback = /** @type {Error} */ (err).message;
        mod = await loadModule('simd');
        variant = 'simd';
      }
    }
    const engine = {
      variant,
      version: mod.version(),
      simdArch: mod.simdArch(),
      simd: mod.simdEnabled(),
      threads: mod.threads?.() ?? 1,
    };
    return fallback ? { ...engine, fallback } : engine;
  },
  async checkConfig({ config }) {
    const r = JSON.parse(engine().checkConfig(JSON.stringify(config)));
    if (!r.ok) r.error = await englishOf({ message: r.error, refusal: r.refusal });
    return r;
  },
  // One round trip per config change: the config is validated once, while the session is built
  // (the core's Session constructor); a refused one answers {error} (the message names the
  // field), so the page needs no checkConfig first. A trap still fails the command (fatal).
  async create({ config }) {
    /** @type {ModuleSession} */
    let h;
    try {
      h = ModuleSession.create(engine(), config);
    } catch (err) {
      if (isTrap(err)) throw err;
      return { error: await englishOf(err), refusal: refusalOf(err) };
    }
    return add(h);
  },
  info: ({ sid }) => leanInfo(session(sid).info()),
  reset({ sid }) {
    const h = session(sid);
    h.halts++; // a train(n) under way stops: the new run starts at step 0, untrained
    h.reset();
    return leanInfo(h.info());
  },
  play({ sid, until = 0, speed = 0, every = 1 }) {
    const h = session(sid);
    Object.assign(h, { until, speed, every, playing: true });
    schedule();
    return { step: h.stepsDone() };
  },
  // Stops play and any step(n) under way (after its current chunk): the reply is the step where
  // training stopped, and no later chunk runs.
  pause({ sid }) {
    const h = session(sid);
    h.playing = false;
    h.halts++;
    return { step: h.stepsDone() };
  },
  // n steps now, in chunks of about one play chunk each, yielding between them (see the header).
  // A pause or a reset meanwhile drops what is left: {step, cancelled: true}.
  async train({ sid, n = 1 }) {
    let left = n;
    const halts = session(sid).halts;
    /** @type {import('./session.js').ChunkResult|null} */
    let r = null;
    while (left > 0) {
      const h = session(sid);
      if (h.halts !== halts) return { step: h.stepsDone(), cancelled: true };
      const k = Math.min(left, h.adaptiveChunk());
      r = timed(() => h.trainChunk(k));
      left -= k;
      emit({ event: 'metrics', sid, steps: r.steps, evals: r.evals, step: r.step });
      if (r.refused || left <= 0) break;
      await yieldToEvents();
    }
    return { step: r ? r.step : session(sid).stepsDone() };
  },
  // Optimizer fields of a live session (lr, clip, warmup, schedule, weight_decay, steps), e.g. to
  // continue after a refused step. Resolves with the session's whole config.
  configure: ({ sid, fields }) => leanConfig(session(sid).configure(fields)),
  // For tests of the recovery path: behaves as a trap of the module would.
  trap() {
    throw new WebAssembly.RuntimeError('unreachable (simulated trap)');
  },
  evaluate: ({ sid, length = 0 }) => JSON.parse(session(sid).live.evaluate(length)),
  intervene: ({ sid, interventions, n = 4 }) => session(sid).intervene(interventions, n),
  inspect: ({ sid, ...parts }) => session(sid).inspect(parts),
  // The replay (core/session/replay.hpp): the core keeps the frames; one crosses per request.
  replayIndex: ({ sid }) => JSON.parse(session(sid).live.replayIndex()),
  replayFrame: ({ sid, step }) => JSON.parse(session(sid).live.replayFrame(step)),
  // Head diagnostics (core/session_diagnostics.cpp) at a replay step (-1: the latest), and with
  // `history` each measure over the replay's steps: one round trip for the Heads panel.
  heads({ sid, step = -1, history = false }) {
    const live = session(sid).live;
    const diagnostics = JSON.parse(live.headDiagnostics(step));
    return history ? { diagnostics, history: JSON.parse(live.headDiagnosticsHistory()) } : { diagnostics };
  },
  run: ({ sid, ids }) => JSON.parse(session(sid).live.run(JSON.stringify(ids))),
  generate: ({ sid, prompt, maxNew, temperature, topK, seed }) =>
    JSON.parse(session(sid).live.generate(prompt, maxNew, temperature, topK, seed)),
  exportModel: ({ sid }) => session(sid).save(),
  exportTorch: ({ sid }) => session(sid).exportTorch(),
  // The page has not seen a file's text: these replies carry it (once).
  importModel({ sid, bytes, overrides }) {
    if (overrides) return add(ModuleSession.loadWith(engine(), bytes, overrides), { lean: false });
    if (sid && sessions.has(sid)) {
      const h = session(sid);
      h.load(bytes);
      return { sid, info: h.info() };
    }
    return add(ModuleSession.load(engine(), bytes), { lean: false });
  },
  // A new session from this one's weights with config fields replaced (Session.loadWith), e.g. to
  // evaluate with RoPE scaling; the original keeps training untouched.
  derive: ({ sid, overrides }) => add(ModuleSession.loadWith(engine(), session(sid).live.save(), overrides)),
  dispose({ sid }) {
    sessions.get(sid)?.dispose();
    sessions.delete(sid);
    return true;
  },
};

// Training loop: one chunk of one playing session per turn, round-robin, then yield through a
// MessageChannel (no 4 ms setTimeout clamp) so queued messages run before the next chunk.
const tick = new MessageChannel();
let scheduled = false;
let turn = 0;

function schedule() {
  if (scheduled) return;
  scheduled = true;
  tick.port2.postMessage(null);
}

tick.port1.onmessage = () => {
  scheduled = false;
  const playing = [...sessions.entries()].filter(([, h]) => h.playing);
  if (playing.length === 0) return;
  const [sid, h] = playing[turn++ % playing.length];
  const n = h.chunkSize();
  if (n > 0) {
    try {
      const r = timed(() => h.trainChunk(n));
      emit({ event: 'metrics', sid, steps: r.steps, evals: r.evals, step: r.step });
      if (r.refused) stop(sid, h, r.refused);
    } catch (err) {
      if (isTrap(err)) return die(err);
      h.playing = false; // at once; the reason follows in words
      void englishOf(err).then((reason) => h.playing || stop(sid, h, reason));
    }
  }
  if (h.playing && h.until > 0 && h.stepsDone() >= h.until) stop(sid, h, 'done');
  // A fixed speed means steps per animation frame: wait out the rest of the frame.
  if (h.speed > 0 && playing.length === 1) setTimeout(schedule, 16);
  else schedule();
};

/** @param {unknown} err */
function die(err) {
  dead = messageOf(err);
  for (const h of sessions.values()) h.playing = false;
  emit({ event: 'fatal', error: dead, refusal: refusalOf(err) });
}

/**
 * @param {number} sid
 * @param {ModuleSession} h
 * @param {string} reason
 */
function stop(sid, h, reason) {
  h.playing = false;
  emit({ event: 'state', sid, playing: false, step: h.stepsDone(), reason });
}

/** @param {MessageEvent<{id: number, cmd: Command, args?: object}>} event */
scope.onmessage = async (event) => {
  const { id, cmd, args } = event.data;
  try {
    const handler = COMMANDS.includes(cmd) ? commands[cmd] : null;
    if (!handler) throw new Error(`worker: unknown command '${cmd}'; the commands are ${COMMANDS.join(', ')}`);
    if (dead) throw pageRefusal('page.crashed_earlier', { detail: dead });
    if (cmd !== 'init' && !mod) throw new Error('worker: the module is not loaded yet');
    const result = await timed(() => handler(args ?? {})); // an async handler's awaits are not counted: timed() sees its first piece
    const transfer = result instanceof Uint8Array ? [result.buffer] : [];
    scope.postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    const fatal = Boolean(dead) || isTrap(err);
    if (fatal && !dead) dead = messageOf(err);
    const error = fatal ? messageOf(err) : await englishOf(err);
    scope.postMessage({ id, ok: false, error, refusal: refusalOf(err), fatal });
  }
};

// Signs of life (see the header). The lock is never released while this worker lives.
setInterval(() => emit({ event: 'beat', longest: Math.round(longest) }), BEAT_MS);
const locks = scope.navigator?.locks;
if (locks?.request) {
  const name = `attention-playground-engine-${scope.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`}`;
  locks
    .request(name, () => {
      emit({ event: 'lock', name });
      return new Promise(() => {});
    })
    .catch(() => {}); // no lock: the client relies on the heartbeat
}
