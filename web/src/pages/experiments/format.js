// How the experiments page writes numbers: accuracies as percentages, bytes in KB/MB, the rest
// with 3 significant digits; a mean with its sample sd to the sd's precision ("1.92 ± 0.03");
// metric names in words.
// No DOM.

/** Words for the spec's metric columns (the column name is shown for any other). */
export const METRIC_WORDS = {
  eval_bpc: 'bits per character (held out)',
  eval_loss: 'held-out loss',
  eval_accuracy: 'held-out accuracy',
  eval_sequence_accuracy: 'held-out sequence accuracy',
  train_loss: 'training loss',
  steps_per_s: 'training steps/s',
  train_tokens_per_s: 'training tokens/s',
  infer_tokens_per_s: 'inference tokens/s',
  peak_memory_bytes: 'peak memory',
};

/** @param {string} m */
export function metricWords(m) {
  const at = /^eval_(accuracy|loss)_x(\d+)$/.exec(m);
  if (at) return `${at[1] === 'accuracy' ? 'accuracy' : 'loss'} at ${at[2]}× the training length`;
  return /** @type {Record<string, string>} */ (METRIC_WORDS)[m] ?? m;
}

/**
 * One value of metric `m`.
 * @param {string} m
 * @param {number|null|undefined} v
 */
export function fmt(m, v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  if (m.includes('accuracy')) return `${(100 * v).toFixed(1)}%`;
  if (m.endsWith('_bytes')) return v >= 1e6 ? `${(v / 1e6).toPrecision(3)} MB` : `${(v / 1e3).toPrecision(3)} KB`;
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return Number(v.toPrecision(3)).toString();
}

/**
 * A mean ± sd of metric `m`, both to the sd's second significant digit ("67.00 ± 0.40",
 * "1,234 ± 56"; the mean to 3 significant digits when the sd is 0), bytes in one unit
 * ("40.3 ± 0.0 MB"), accuracies in percent; the mean alone when there is no sd.
 * @param {string} m
 * @param {{mean: number, sd: number}|null|undefined} s
 */
export function meanSd(m, s) {
  if (!s || !Number.isFinite(s.mean)) return '–';
  if (!Number.isFinite(s.sd)) return fmt(m, s.mean);
  if (m.includes('accuracy')) return `${fmt(m, s.mean)} ± ${(100 * s.sd).toFixed(1)}`;
  const [scale, unit] = !m.endsWith('_bytes') ? [1, ''] : Math.abs(s.mean) >= 1e6 ? [1e6, ' MB'] : [1e3, ' KB'];
  const mean = s.mean / scale,
    sd = Math.abs(s.sd) / scale;
  const lead = (/** @type {number} */ v) => Math.floor(Math.log10(Math.abs(v)));
  const d = Math.min(4, Math.max(0, sd > 0 ? 1 - lead(sd) : mean !== 0 ? 2 - lead(mean) : 0));
  const num = (/** @type {number} */ v) =>
    d === 0 && Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toFixed(d);
  return `${num(mean)} ± ${num(sd)}${unit}`;
}
