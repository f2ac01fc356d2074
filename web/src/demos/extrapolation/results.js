// The extrapolation demo's results: for each task block, the curves against evaluation length
// (one per evaluated encoding, plus the chosen RoPE scalings), each the mean over the seeds, with
// the min–max in the values table; where each curve ends (data-* for the tests); the sentence
// that states what the measurement shows at the longest length; and the note that quotes the
// engine's refusal of learned positions past L. Curves are drawn side by side, a little apart in
// ℓ (DODGE), so that curves with equal values (several at 100%) do not hide each other.
import { el, pct } from '../common.js';
import { summarize, pctSpread } from '../seeds.js';
import { SCALINGS } from './view.js';

/** How far apart (in ℓ, as a share of L) neighbouring curves are drawn. */
const DODGE = 0.03;

/** @typedef {{acc: import('../seeds.js').Summary, loss: import('../seeds.js').Summary}} MeanPoint */

/**
 * The curves of `task` whose every seed is evaluated (with `soFar`: whose seeds evaluated so far
 * are at least one, over those): [key, length -> mean point, or null where some seed could not be
 * evaluated]. Keys: the encodings, then rope+<scaling>.
 * @param {import('./index.js').ExtrapolationState} s
 * @param {string} task
 * @param {{allScalings?: boolean, soFar?: boolean}} [opts] allScalings: every scaling, not only the
 *   ones shown; soFar: the seeds evaluated so far (the demo trains one seed of every curve first)
 * @returns {[string, Map<number, MeanPoint|null>][]}
 */
export function curvesOf(s, task, { allScalings = true, soFar = false } = {}) {
  /** @type {[string, Map<number, MeanPoint|null>][]} */
  const out = [];
  for (const pos of s.encodings) {
    const done = seedsDone(s, task, pos);
    if (soFar ? !done.length : done.length < s.seeds.length) continue;
    out.push([pos, mean(done.map((r) => r.points))]);
    if (pos === 'rope')
      for (const method of SCALINGS)
        if ((allScalings || s.scaling.has(method)) && done.every((r) => r.scaled[method]))
          out.push([`rope+${method}`, mean(done.map((r) => r.scaled[method]))]);
  }
  return out;
}

/**
 * The runs of `task` and `pos` evaluated so far, in seed order.
 * @param {import('./index.js').ExtrapolationState} s @param {string} task @param {string} pos
 * @returns {import('./index.js').Run[]}
 */
const seedsDone = (s, task, pos) =>
  /** @type {import('./index.js').Run[]} */ (
    s.seeds.map((seed) => s.runs.get(`${task}|${pos}|${seed}`)).filter((r) => r?.state === 'done')
  );

/**
 * @param {Map<number, import('./index.js').Point|null|undefined>[]} maps one per seed
 * @returns {Map<number, MeanPoint|null>}
 */
function mean(maps) {
  const lengths = [...new Set(maps.flatMap((mp) => [...mp.keys()]))].sort((a, b) => a - b);
  return new Map(
    lengths.map((len) => {
      const pts = maps.map((mp) => mp.get(len));
      if (pts.some((p) => !p)) return [len, null];
      const ok = /** @type {import('./index.js').Point[]} */ (pts);
      return [
        len,
        {
          acc: /** @type {import('../seeds.js').Summary} */ (summarize(ok.map((p) => p.accuracy))),
          loss: /** @type {import('../seeds.js').Summary} */ (summarize(ok.map((p) => p.loss))),
        },
      ];
    }),
  );
}

/**
 * Redraw every task block from the runs.
 * @param {{blocks: import('./view.js').ExtrapolationUi['blocks']}} ui
 * @param {import('./index.js').ExtrapolationState} s
 * @param {{lengths: number[], L: number}} at the evaluation lengths and the training length
 */
export function drawResults(ui, s, { lengths, L }) {
  ui.blocks.forEach((block, bi) => {
    const task = s.tasks[bi];
    const series = curvesOf(s, task, { allScalings: false, soFar: true });
    // the fewest seeds a curve stands on so far (all of them once the demo is complete)
    const fewest = Math.min(...series.map(([key]) => seedsDone(s, task, key.split('+')[0]).length));
    for (const chart of [block.acc, block.loss]) chart.reset();
    // Side by side: curve i at ℓ + (i − (k−1)/2)·DODGE·L, every point in x order.
    /** @type {{x: number, key: string, p: MeanPoint}[]} */
    const points = [];
    series.forEach(([key, pts], i) => {
      const dx = (i - (series.length - 1) / 2) * DODGE * L;
      for (const [len, p] of pts) if (p) points.push({ x: Number((len + dx).toFixed(3)), key, p });
    });
    points.sort((a, b) => a.x - b.x);
    for (const { x, key, p } of points) {
      block.acc.addDataPoint(x, { [key]: p.acc.mean });
      block.loss.addDataPoint(x, { [key]: p.loss.mean });
    }
    const ends = series.map(([key, pts]) => [
      key,
      Math.max(...[...pts.entries()].filter(([, p]) => p).map(([len]) => len)),
    ]);
    block.box.dataset.curves = JSON.stringify(series.map(([key]) => key));
    block.box.dataset.ends = JSON.stringify(Object.fromEntries(ends));
    block.box.dataset.seeds = String(s.seeds.length);
    block.box.dataset.seedsSoFar = String(series.length ? fewest : 0);
    // Values table (also the accessible form of the charts): mean (min–max) over the seeds.
    block.values.replaceChildren(valuesTable(series, lengths, s.tr));
    block.measured.replaceChildren(...measuredWords(series, { lengths, L, seeds: s.seeds, fewest }, s.tr));
    const learned = series.find(([key]) => key === 'learned');
    const refused = s.runs.get(`${task}|learned|${s.seeds[0]}`)?.refusedAt;
    block.note.hidden = !learned;
    if (learned)
      block.note.textContent = s.tr('ext.note.learned', {
        L,
        at: refused ?? 2 * L,
        // the engine's message is English: in another language, the table's words for it
        refusal: s.lang === 'en' && s.refusal ? s.refusal : s.tr('ext.note.refusal'),
      });
  });
}

/**
 * The curves' values: one row per curve, mean (min–max) accuracy at each length, the loss in the title.
 * @param {[string, Map<number, MeanPoint|null>][]} series
 * @param {number[]} lengths
 * @param {(key: string, params?: Record<string, string|number>) => string} tr the demo's words
 */
function valuesTable(series, lengths, tr) {
  const cell = (/** @type {MeanPoint|null|undefined} */ p) =>
    el(
      'td',
      {
        title: p
          ? tr('ext.values.loss', {
              mean: p.loss.mean.toFixed(3),
              min: p.loss.min.toFixed(3),
              max: p.loss.max.toFixed(3),
            })
          : tr('ext.values.undefined'),
      },
      p ? pctSpread(p.acc) : '—',
    );
  return el(
    'table',
    { class: 'apd-table' },
    el(
      'thead',
      {},
      el('tr', {}, el('th', {}, tr('ext.values.encoding')), ...lengths.map((len) => el('th', {}, `ℓ = ${len}`))),
    ),
    el(
      'tbody',
      {},
      ...series.map(([key, pts]) =>
        el('tr', { dataset: { key } }, el('td', {}, key), ...lengths.map((len) => cell(pts.get(len)))),
      ),
    ),
  );
}

/**
 * What the curves show, in words: at L and at the longest length, each curve's mean accuracy
 * (min–max), best first; the curves that end at L.
 * @param {[string, Map<number, MeanPoint|null>][]} series
 * @param {{lengths: number[], L: number, seeds: number[], fewest: number}} at fewest: the fewest
 *   seeds a curve stands on so far
 * @param {(key: string, params?: Record<string, string|number>) => string} tr the demo's words
 */
function measuredWords(series, { lengths, L, seeds, fewest }, tr) {
  if (!series.length) return [];
  const far = lengths[lengths.length - 1];
  const at = (/** @type {Map<number, MeanPoint|null>} */ pts, /** @type {number} */ len) => pts.get(len) ?? null;
  const reach = series.filter(([, pts]) => at(pts, far));
  const ended = series.filter(([, pts]) => !at(pts, far)).map(([key]) => key);
  reach.sort(
    (a, b) => /** @type {MeanPoint} */ (at(b[1], far)).acc.mean - /** @type {MeanPoint} */ (at(a[1], far)).acc.mean,
  );
  const list = reach.map(([key, pts]) =>
    tr('ext.measured.item', {
      key,
      acc: pctSpread(/** @type {MeanPoint} */ (at(pts, far)).acc),
      L,
      atL: pct(at(pts, L)?.acc.mean),
    }),
  );
  return [
    el(
      'strong',
      {},
      fewest < seeds.length
        ? tr('ext.measured.soFar', { k: fewest, n: seeds.length })
        : tr('ext.measured.head', { n: seeds.length }),
    ),
    tr('ext.measured.at', { far, list: list.join('; ') || tr('ext.measured.none') }),
    ended.length ? tr('ext.measured.ended', { L, list: ended.join(', ') }) : '',
  ];
}
