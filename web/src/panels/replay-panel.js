// The replay bar under the attention and position panels: a scrubber over the steps whose frames
// the core kept (run/replay.js), Play to animate them, and downloads of the animation (GIF, WebM:
// replay-export.js). At its right end it follows training ("live"): the page's own refresh draws
// the panels; anywhere else the page shows the frame (`show`) and the charts mark its step.
// Owns no model: the page hands it the frames (run/replay.js's ReplayFrames) and a model with
// setModel(), and calls refresh() after each of its refreshes (one small index request; a frame
// crosses only when it is shown).
import { el, download } from './dom.js';
import { nearestIndex } from '../common/nearest.js';
import { encodeGif, recordWebm, canRecordWebm, FRAME_MS } from './replay-export.js';

/** @typedef {import('../wasm-api').ReplayFrame} ReplayFrame */
/**
 * A model, as the frames read it (client/session.js's EngineSession has both).
 * @typedef {{replayIndex(): Promise<import('../wasm-api').ReplayIndex>, replayFrame(step: number): Promise<ReplayFrame>}} ReplaySource
 */
/**
 * The kept steps and their frames, as this panel reads them (run/replay.js ReplayFrames, handed in
 * by the page: the panel imports no run/ module, not even its type).
 * @typedef {{steps: number[], index: import('../wasm-api').ReplayIndex|null, setModel(model: ReplaySource|null): void,
 *   refresh(): Promise<number[]>, frame(step: number): Promise<ReplayFrame>,
 *   all(progress?: (done: number, total: number) => void): Promise<ReplayFrame[]>}} Frames
 */
/**
 * @typedef {object} ReplayHooks
 * @property {(frame: ReplayFrame) => void} show draw a past frame in the panels
 * @property {() => void} live the panels follow training again
 * @property {(step: number|null) => void} mark mark the step shown on the charts (null: none)
 * @property {() => string} title what the exported animation's title line says (task, encoding)
 */

export class ReplayPanel {
  /** @param {HTMLElement} root @param {ReplayHooks} hooks @param {Frames} frames the kept steps and their frames */
  constructor(root, hooks, frames) {
    this.hooks = hooks;
    this.root = root; // data-shown: the step whose frame the panels show, or 'live'
    this.frames = frames;
    this.following = true; // at the right end: the panels show the live model
    this.playing = 0; // timer of Play (0: stopped)
    this.shown = -1; // the step shown (-1: live)
    this.busy = false;
    this.play = el('button', { type: 'button', class: 'small', onclick: () => this.toggle() }, 'Play');
    this.range = el('input', {
      type: 'range',
      min: '0',
      max: '0',
      step: '1',
      value: '0',
      'aria-label': 'Replay: step shown',
      disabled: true,
      oninput: () => this.#go(Number(this.range.value)),
    });
    this.label = el('output', { class: 'replay-step' }, 'no frames yet');
    this.gif = el(
      'button',
      { type: 'button', class: 'small', disabled: true, onclick: () => this.#export('gif') },
      'GIF',
    );
    this.webm = el(
      'button',
      { type: 'button', class: 'small', disabled: true, hidden: !canRecordWebm(), onclick: () => this.#export('webm') },
      'WebM',
    );
    this.status = el('span', { class: 'muted replay-status', role: 'status' });
    root.append(
      el('div', { class: 'replay-row' }, el('strong', {}, 'Replay'), this.play, this.range, this.label),
      el('div', { class: 'replay-row' }, el('span', { class: 'muted' }, 'Download:'), this.gif, this.webm, this.status),
    );
  }

  /** A new model (or none): start over, following it. @param {ReplaySource|null} model */
  setModel(model) {
    this.stop();
    this.frames.setModel(model);
    this.#follow(false);
    this.#render();
  }

  /** Read the index again (after the page's refresh); at the right end, stay there. */
  async refresh() {
    const before = this.shown;
    await this.frames.refresh();
    if (this.following) this.range.value = String(this.frames.steps.length - 1);
    else this.range.value = String(nearestIndex(this.frames.steps, before)); // a thinned step moves to its neighbour
    this.#render();
  }

  /**
   * Play from the start (or from the frame shown), one frame per FRAME_MS; again: stop. It goes by
   * step, not by place in the list: while the model trains the core thins its frames, and the next
   * frame is the first kept step after the one shown.
   */
  toggle() {
    if (this.playing) return this.stop();
    const steps = this.frames.steps;
    if (steps.length < 2) return;
    let k = this.following ? 0 : Number(this.range.value);
    const next = async () => {
      if (!this.playing) return;
      await this.#go(k);
      if (!this.playing) return;
      const shown = this.shown; // -1: the right end (live) was reached
      k = shown < 0 ? -1 : this.frames.steps.findIndex((s) => s > shown);
      if (k < 0) return this.stop();
      this.playing = window.setTimeout(next, FRAME_MS);
    };
    this.playing = window.setTimeout(next, 0);
    this.play.textContent = 'Pause';
  }

  stop() {
    clearTimeout(this.playing);
    this.playing = 0;
    this.play.textContent = 'Play';
  }

  /**
   * Show the k-th kept step (the last: live). A step the core thinned out since the index was read
   * shows its nearest kept neighbour (run/replay.js), and the scrubber moves to it.
   * @param {number} k
   */
  async #go(k) {
    const steps = this.frames.steps;
    this.range.value = String(k);
    if (k >= steps.length - 1) return this.#follow(true);
    const step = steps[k];
    this.following = false;
    this.shown = step;
    this.#render();
    let frame;
    try {
      frame = await this.frames.frame(step);
    } catch (err) {
      if (this.shown !== step) return;
      this.stop();
      this.status.textContent = `Could not read the frame of step ${step}: ${/** @type {Error} */ (err).message}`;
      return;
    }
    if (this.shown !== step) return; // scrubbed on meanwhile
    const at = frame.step;
    const now = this.frames.steps;
    if (at >= now[now.length - 1]) return this.#follow(true); // the nearest kept step is the latest
    this.shown = at;
    this.range.value = String(Math.max(0, now.indexOf(at)));
    this.#render();
    this.hooks.show(frame);
    this.hooks.mark(at);
    this.root.dataset.shown = String(at);
  }

  /** @param {boolean} redraw the panels go back to the live model */
  #follow(redraw) {
    const was = this.following;
    this.following = true;
    this.shown = -1;
    this.root.dataset.shown = 'live';
    this.hooks.mark(null);
    this.#render();
    if (redraw && !was) this.hooks.live();
  }

  #render() {
    const steps = this.frames.steps;
    const n = steps.length;
    this.range.max = String(Math.max(0, n - 1));
    this.range.disabled = n < 2;
    this.play.disabled = n < 2;
    this.gif.disabled = this.webm.disabled = n < 2 || this.busy;
    const latest = steps[n - 1] ?? 0;
    this.label.textContent = !n
      ? 'no frames yet'
      : this.following
        ? `live: step ${latest} (${n} frame${n === 1 ? '' : 's'})`
        : `step ${this.shown} of ${latest} (frame ${Number(this.range.value) + 1}/${n}), held-out example 0`;
    if (this.frames.index?.too_large)
      this.status.textContent = 'This model is too large to keep replay frames: only the latest step replays.';
  }

  /** @param {'gif'|'webm'} kind */
  async #export(kind) {
    if (this.busy) return;
    this.busy = true;
    this.#render();
    try {
      const frames = await this.frames.all(
        (done, total) => (this.status.textContent = `reading frame ${done}/${total}…`),
      );
      const css = getComputedStyle(document.body);
      const look = {
        title: this.hooks.title(),
        bg: css.getPropertyValue('--card').trim() || '#fff',
        ink: css.getPropertyValue('--ink').trim() || '#202124',
      };
      this.status.textContent =
        kind === 'gif' ? 'encoding the GIF…' : `recording ${Math.round((frames.length * FRAME_MS) / 1000)} s of WebM…`;
      const blob = kind === 'gif' ? encodeGif(frames, look) : await recordWebm(frames, look);
      download(blob, `attnplay-replay-${frames.length}-frames.${kind}`);
      this.status.textContent = `${frames.length} frames, ${(blob.size / 1024).toFixed(0)} KB`;
      this.status.dataset.bytes = String(blob.size);
    } catch (err) {
      this.status.textContent = `Could not make the ${kind.toUpperCase()}: ${/** @type {Error} */ (err).message}`;
    } finally {
      this.busy = false;
      this.#render();
    }
  }
}
