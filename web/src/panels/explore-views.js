// The Explore panel's charts as data: which lines, points and markers each kind of the engine's
// explore() answer draws (core/position/explore.hpp). Only selection and labelling here: every
// value comes from the engine. No DOM (tests/node/explore-views.test.mjs runs it under Node).

/** Line colours by head (and by probe for the rotary views); readable on light and dark cards. */
export const PALETTE = ['#1a73e8', '#e8710a', '#188038', '#a142f4', '#d93025', '#12b5cb', '#e52592', '#9e9d24'];
const PROBES = [
  ['trained', 'trained q, k'],
  ['init', 'q, k at init'],
  ['random', 'random q, k'],
  ['ones', 'q = k = 1'],
];

/**
 * @typedef {import('../wasm-api').ExploreData} ExploreData
 * @typedef {import('../charts/line-chart-base.js').SeriesSpec} SeriesSpec
 * @typedef {{title: string, xLabel: string, series: SeriesSpec[], xs: number[],
 *   cols: Record<string, (number|null)[]>, markers: {x: number, label: string}[], yRange?: [number, number]}} ChartSpec
 * @typedef {{head: number, probe: string}} ViewChoice head: -1 = every head
 */

/**
 * The probe rows of a rotary answer, `now` and `init` merged: {trained, ones, random, init}.
 * @param {ExploreData} data
 * @param {'score'|'cosine'|'share'|'norm'} field
 * @param {boolean} [scaled]
 * @returns {Record<string, any>}
 */
export function probeRows(data, field, scaled = false) {
  const pick = (/** @type {import('../wasm-api').ExploreView} */ v) =>
    field === 'share'
      ? v.pair?.share
      : scaled
        ? v.scaled?.[/** @type {'score'|'cosine'} */ (field)]
        : /** @type {Record<string, any>|undefined} */ (v[field]);
  return { ...(pick(data.now) ?? {}), ...(pick(data.init) ?? {}) };
}

/** @param {number} h */
const headName = (h) => `head ${h + 1}`;

/**
 * The charts of an answer for the chosen head and probe.
 * @param {ExploreData} data
 * @param {ViewChoice} choice
 * @returns {ChartSpec[]}
 */
export function chartsFor(data, choice) {
  const v = data.now;
  const xs = v.distance ?? [];
  if (v.kind === 'rotary') return rotaryCharts(data, choice, xs);
  if (v.kind === 'bias') return [biasChart(data, choice, xs)];
  if (v.kind === 'absolute') return [absoluteChart(data, xs)];
  return [];
}

/** @param {ExploreData} data @param {ViewChoice} choice @param {number[]} xs @returns {ChartSpec[]} */
function rotaryCharts(data, choice, xs) {
  const h = Math.max(0, choice.head);
  const cos = probeRows(data, 'cosine');
  const scaled = data.now.scaled ? probeRows(data, 'cosine', true) : null;
  /** @type {SeriesSpec[]} */
  const series = [];
  /** @type {Record<string, (number|null)[]>} */
  const cols = {};
  PROBES.forEach(([name, label], k) => {
    if (!cos[name]) return;
    series.push({ key: name, label, color: PALETTE[k] });
    cols[name] = cos[name][h];
    if (scaled?.[name]) {
      const key = `${name}-scaled`;
      series.push({
        key,
        label: `${label}, ${data.now.scaled?.scaling} ×${data.now.scaled?.factor}`,
        color: PALETTE[k],
        dash: [5, 4],
      });
      cols[key] = scaled[name][h];
    }
  });
  const m = data.now.pair?.position ?? 0;
  const markers = [{ x: m, label: `m = ${m}` }];
  const L = data.now.train_len;
  if (L && L < xs.length && L !== m) markers.push({ x: L, label: 'training length' });
  const pair = data.now.pair;
  const share = probeRows(data, 'share')[choice.probe];
  const norm = probeRows(data, 'norm')[choice.probe];
  const probeLabel = PROBES.find(([n]) => n === choice.probe)?.[1] ?? choice.probe;
  return [
    {
      title: `score against distance, ${headName(h)}: q̃_d·k̃_0 / (‖q‖‖k‖)`,
      xLabel: 'distance d = query − key',
      series,
      xs,
      cols,
      markers,
    },
    {
      title: `pair ${pair?.index ?? 0} alone (${probeLabel}, ${headName(h)}), / (‖q‖‖k‖)`,
      xLabel: 'distance d',
      xs,
      markers: [{ x: m, label: `m = ${m}` }],
      series: [
        {
          key: 'share',
          label: `pair ${pair?.index ?? 0}`,
          color: PALETTE[PROBES.findIndex(([n]) => n === choice.probe)] ?? PALETTE[0],
        },
      ],
      cols: { share: share ? share[h].map((/** @type {number} */ s) => s / (norm?.[h] || 1)) : [] },
    },
  ];
}

/** @param {ExploreData} data @param {ViewChoice} choice @param {number[]} xs @returns {ChartSpec} */
function biasChart(data, choice, xs) {
  const v = data.now;
  const heads = v.heads ?? [];
  /** @type {SeriesSpec[]} */
  const series = [];
  /** @type {Record<string, (number|null)[]>} */
  const cols = {};
  heads.forEach((row, h) => {
    if (choice.head >= 0 && h !== choice.head) return;
    const color = PALETTE[h % PALETTE.length];
    series.push({ key: `now${h}`, label: `${headName(h)}, now`, color });
    cols[`now${h}`] = row;
    series.push({ key: `init${h}`, label: `${headName(h)}, at init`, color, dash: [3, 3] });
    cols[`init${h}`] = data.init.heads?.[h] ?? [];
  });
  if (v.value_norm) {
    series.push({ key: 'value', label: '‖w^V‖ (value vector, all heads)', color: '#80868b', dash: [8, 3] });
    cols.value = v.value_norm;
  }
  /** @type {{x: number, label: string}[]} */
  const markers = [];
  if (v.bucket_starts) {
    const e = Number(v.max_exact ?? 0);
    for (const d of v.bucket_starts)
      if (Math.abs(d) >= e) markers.push({ x: d, label: Math.abs(d) === e ? 'log buckets' : '' });
  }
  const what = v.quantity === 'multiplier' ? 'multiplier of the attention weight' : 'bias added to the logit';
  return { title: `${what} against distance`, xLabel: 'distance d = query − key', series, xs, cols, markers };
}

/** @param {ExploreData} data @param {number[]} xs @returns {ChartSpec} */
function absoluteChart(data, xs) {
  const m = Number(data.request.position);
  const init = data.init; // the same config: the same table length, the same distances
  return {
    title: 'cosine similarity of position vectors against distance',
    xLabel: 'offset d (p + d against p)',
    xs,
    series: [
      { key: 'mean', label: 'mean over p, now', color: PALETTE[0] },
      { key: 'meanInit', label: 'mean over p, at init', color: PALETTE[0], dash: [3, 3] },
      { key: 'from', label: `from p = ${m}, now`, color: PALETTE[1] },
      { key: 'fromInit', label: `from p = ${m}, at init`, color: PALETTE[1], dash: [3, 3] },
    ],
    cols: {
      mean: data.now.mean ?? [],
      meanInit: init.mean ?? [],
      from: data.now.from ?? [],
      fromInit: init.from ?? [],
    },
    markers: [{ x: 0, label: '' }],
    yRange: [-1, 1],
  };
}

/**
 * A one-line summary of the rotary pair under the slider (numbers from the engine).
 * @param {ExploreData} data
 * @returns {string}
 */
export function pairSummary(data) {
  const p = data.now.pair;
  if (!p) return '';
  const turns = p.angle / (2 * Math.PI);
  const scaled = data.now.scaled
    ? `; ${data.now.scaled.scaling} ×${data.now.scaled.factor} turns it by θ′ = ${data.now.scaled.theta.toPrecision(3)} per position`
    : '';
  return (
    `Pair ${p.index}: θ = ${p.theta.toPrecision(3)} rad per position (wavelength ${p.wavelength.toPrecision(4)} positions). ` +
    `At m = ${p.position} the query's pair has turned m·θ = ${p.angle.toPrecision(3)} rad (${turns.toFixed(2)} turns)${scaled}.`
  );
}
