// The training rate a person reads: steps per second of wall time over the last few seconds (not
// one step's rate, which jumps with every hiccup of the machine), the tokens per second that
// follow from it, and the time left to a configured step count. The run controller feeds it the
// step each metrics event reports, with the time it arrived; pauses are not counted. No DOM here.

/** How far back the rate looks (ms). */
export const RATE_WINDOW_MS = 3000;
/** The shortest span a rate is given for (ms): before that it is unknown. */
export const RATE_MIN_SPAN_MS = 400;

/**
 * Extra tokens each sequence carries for its anchors (as core/config/config.cpp's
 * Config::anchor_count; tests/node checks the two agree through the attention view's tokens).
 * @type {Record<string, number>}
 */
export const ANCHOR_TOKENS = { none: 0, cls: 1, bos: 1, cls_sep: 2 };

/**
 * Tokens one training step reads: batch × (seq_len + anchors).
 * @param {{batch?: unknown, seq_len?: unknown, anchors?: unknown}} config
 * @returns {number} 0 when the config does not say
 */
export function tokensPerStep(config) {
  const batch = Number(config.batch),
    len = Number(config.seq_len);
  if (!(batch > 0 && len > 0)) return 0;
  return batch * (len + (ANCHOR_TOKENS[String(config.anchors ?? 'none')] ?? 0));
}

export class RateMeter {
  /** @param {{windowMs?: number, minSpanMs?: number}} [opts] */
  constructor({ windowMs = RATE_WINDOW_MS, minSpanMs = RATE_MIN_SPAN_MS } = {}) {
    this.windowMs = windowMs;
    this.minSpanMs = minSpanMs;
    /** @type {[number, number][]} (step, time in ms) samples, oldest first, while training */
    this.samples = [];
    /** @type {number|null} steps per second; null while unknown */
    this.stepsPerS = null;
  }

  /**
   * Training (re)starts at `step`: the rate starts over from here.
   * @param {number} step
   * @param {number} now ms
   */
  start(step, now) {
    this.samples = [[step, now]];
    this.stepsPerS = null;
  }

  /** Training stopped: later samples wait for start(). The last rate stays readable. */
  stop() {
    this.samples = [];
  }

  /**
   * A step reached at time `now` (ms). Ignored while stopped; a step below the last one starts over.
   * @param {number} step
   * @param {number} now
   */
  add(step, now) {
    const s = this.samples;
    if (!s.length) return;
    if (step < s[s.length - 1][0]) return this.start(step, now);
    s.push([step, now]);
    // Keep one sample at or before the window's start, so the span covers the whole window.
    while (s.length > 2 && now - s[1][1] >= this.windowMs) s.shift();
    const [s0, t0] = s[0];
    const span = now - t0;
    if (span >= this.minSpanMs) this.stepsPerS = ((step - s0) * 1000) / span;
  }

  /**
   * Seconds until `until` at the current rate; null when unknown (no rate, or no target ahead).
   * @param {number} step
   * @param {number} until
   * @returns {number|null}
   */
  etaSeconds(step, until) {
    if (!(until > step) || !this.stepsPerS || !(this.stepsPerS > 0)) return null;
    return (until - step) / this.stepsPerS;
  }
}

/**
 * A duration for a person: "45 s", "3 min 20 s", "2 h 05 min".
 * @param {number|null} seconds
 * @returns {string} '–' for null
 */
export function formatDuration(seconds) {
  if (seconds === null || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/**
 * A rate for a person: three significant figures ("46.6", "1,234", "0.52"); '–' for null.
 * @param {number|null} x
 */
export function formatRate(x) {
  if (x === null || !Number.isFinite(x)) return '–';
  if (x >= 100) return String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return x >= 10 ? x.toFixed(1) : x.toFixed(2);
}
