// The replay as a file a blogger can post: every frame's attention maps (all layers and heads of
// held-out example 0) drawn on one canvas with the step, then encoded as an animated GIF (gifenc,
// pinned in package.json) or recorded as WebM through MediaRecorder. Each map is scaled to its
// own largest weight, as the attention panel draws it. Colours are the page's (light or dark).
import { GIFEncoder, quantize, applyPalette } from 'gifenc';
import { sequential, css } from '../charts/colormap.js';

/** @typedef {import('../wasm-api').ReplayFrame} ReplayFrame */

const MAP = 112; // CSS px per map (cells are whole pixels: the map is at most this)
const GAP = 10;
const HEAD = 34; // the title line
const LABEL = 14; // the caption of each map
export const FRAME_MS = 250; // each frame's time in the animation; the last stays FINAL_MS
const FINAL_MS = 1500;

const TITLE_FONT = '600 13px system-ui, sans-serif';

/**
 * A canvas sized for `frame`'s grid of maps (layers down, heads across) and the title line.
 * @param {ReplayFrame} frame
 * @param {string} title
 * @param {number} lastStep the largest step to be written in the title
 */
export function frameCanvas(frame, title, lastStep) {
  const L = frame.attention.layers.length;
  const H = frame.attention.layers[0]?.heads.length ?? 1;
  const T = frame.attention.tokens.length;
  const cell = Math.max(1, Math.floor(MAP / T));
  const side = cell * T;
  const canvas = document.createElement('canvas');
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d', { willReadFrequently: true }));
  g.font = TITLE_FONT;
  canvas.width = Math.max(GAP + H * (side + GAP), Math.ceil(g.measureText(titleText(title, lastStep)).width) + 2 * GAP);
  canvas.height = HEAD + L * (side + LABEL + GAP);
  return canvas;
}

/**
 * Draw one frame: the title (task, step), then each head's weights.
 * @param {HTMLCanvasElement} canvas from frameCanvas() (its context reads back: willReadFrequently)
 * @param {ReplayFrame} frame
 * @param {{title: string, bg: string, ink: string}} look
 */
export function drawFrame(canvas, frame, { title, bg, ink }) {
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  const T = frame.attention.tokens.length;
  const cell = Math.max(1, Math.floor(MAP / T));
  const side = cell * T;
  g.fillStyle = bg;
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = ink;
  g.font = TITLE_FONT;
  g.textBaseline = 'top';
  g.fillText(titleText(title, frame.step), GAP, 10);
  g.font = '11px system-ui, sans-serif';
  frame.attention.layers.forEach((layer, l) => {
    layer.heads.forEach((head, h) => {
      const x0 = GAP + h * (side + GAP);
      const y0 = HEAD + l * (side + LABEL + GAP);
      g.fillStyle = ink;
      g.fillText(`layer ${l + 1}, head ${h + 1}`, x0, y0);
      let hi = 0;
      for (const row of head.weights) for (const v of row) if (Number.isFinite(v)) hi = Math.max(hi, Math.abs(v));
      head.weights.forEach((row, i) =>
        row.forEach((v, j) => {
          g.fillStyle = Number.isFinite(v) ? css(sequential(hi > 0 ? Math.abs(v) / hi : 0)) : '#9aa0a6';
          g.fillRect(x0 + j * cell, y0 + LABEL + i * cell, cell, cell);
        }),
      );
    });
  });
}

/**
 * An animated GIF of the frames (looping).
 * @param {ReplayFrame[]} frames
 * @param {{title: string, bg: string, ink: string}} look
 * @returns {Blob}
 */
export function encodeGif(frames, look) {
  const canvas = frameCanvas(frames[0], look.title, frames[frames.length - 1].step);
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  const gif = GIFEncoder();
  frames.forEach((frame, k) => {
    drawFrame(canvas, frame, look);
    const { data } = g.getImageData(0, 0, canvas.width, canvas.height);
    const palette = quantize(data, 256);
    gif.writeFrame(applyPalette(data, palette), canvas.width, canvas.height, {
      palette,
      delay: k === frames.length - 1 ? FINAL_MS : FRAME_MS,
    });
  });
  gif.finish();
  return new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (gif.bytes())], { type: 'image/gif' });
}

/** Whether this browser can record a canvas as WebM. */
export function canRecordWebm() {
  return (
    typeof MediaRecorder !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.captureStream === 'function' &&
    MediaRecorder.isTypeSupported('video/webm')
  );
}

/**
 * The frames recorded as WebM in real time (FRAME_MS each): takes about frames × FRAME_MS.
 * @param {ReplayFrame[]} frames
 * @param {{title: string, bg: string, ink: string}} look
 * @returns {Promise<Blob>}
 */
export async function recordWebm(frames, look) {
  const canvas = frameCanvas(frames[0], look.title, frames[frames.length - 1].step);
  drawFrame(canvas, frames[0], look);
  const stream = canvas.captureStream(30);
  const type =
    ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t)) ??
    'video/webm';
  const rec = new MediaRecorder(stream, { mimeType: type });
  /** @type {Blob[]} */
  const parts = [];
  rec.ondataavailable = (e) => e.data.size && parts.push(e.data);
  const done = new Promise((resolve) => (rec.onstop = resolve));
  const wait = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
  rec.start();
  for (const [k, frame] of frames.entries()) {
    drawFrame(canvas, frame, look);
    await wait(k === frames.length - 1 ? FINAL_MS : FRAME_MS);
  }
  rec.stop();
  await done;
  for (const t of stream.getTracks()) t.stop();
  return new Blob(parts, { type: 'video/webm' });
}

/** @param {string} title @param {number} step */
const titleText = (title, step) => `${title} · step ${step}`;
