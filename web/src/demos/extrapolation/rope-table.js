// The extrapolation demo's RoPE table: θ_i, the wavelength 2π/θ_i and θ'_i/θ_i under PI, NTK
// and YaRN at the chosen factor s, as the engine reports them (positions() of one untrained RoPE
// model, loaded with each scaling through Session.derive).
import { el, m } from '../common.js';
import { SCALINGS, scalingTitle } from './view.js';

/**
 * @param {{pool: import('../../client/pool.js').WorkerPool, config: import('../../wasm-api').Config,
 *   ui: import('./view.js').ExtrapolationUi, s: {factor: number, disposed: boolean, tr: (key: string, params?: Record<string, string|number>) => string}, L: number}} ctx
 *   config: the RoPE model's
 * @returns {{draw(): Promise<void>, dispose(): Promise<void>}}
 */
export function ropeTable({ pool, config, ui, s, L }) {
  let drawn = 0;
  /** @type {Promise<import('../../client/session.js').EngineSession>|null} */
  let model = null;
  async function draw() {
    const token = ++drawn;
    model ??= pool.create(config);
    const probe = await model;
    const plain = (await probe.inspect({ positions: {} })).positions;
    /** @type {Record<string, {ratio: number[], base: number, mscale: number}>} the engine's `scaling` entry per method */
    const scaled = {};
    for (const method of SCALINGS) {
      const d = await probe.derive({ rope_scaling: method, rope_factor: s.factor });
      try {
        scaled[method] = (await d.inspect({ positions: {} })).positions.scaling;
      } finally {
        d.dispose();
      }
    }
    if (token !== drawn || s.disposed) return;
    /** @type {number[]} */
    const theta = plain.theta;
    ui.table.replaceChildren(...tableRows(theta, scaled, s.tr));
    ui.tableNote.replaceChildren(
      s.tr('ext.rope.note', {
        s: s.factor,
        L,
        base: scaled.ntk ? scaled.ntk.base.toFixed(1) : '–',
        mscale: scaled.yarn ? (scaled.yarn.mscale ** 2).toFixed(4) : '–',
        hs: plain.head_size,
        pairs: theta.length,
      }),
    );
    ui.tableBox.dataset.factor = String(s.factor);
    ui.tableBox.dataset.ratios = JSON.stringify(Object.fromEntries(SCALINGS.map((mm) => [mm, scaled[mm]?.ratio])));
  }

  return {
    draw,
    async dispose() {
      (await model?.catch(() => null))?.dispose();
    },
  };
}

/**
 * The table's head and rows: i, θ_i, 2π/θ_i and the ratio θ'/θ of each scaling.
 * @param {number[]} theta
 * @param {Record<string, {ratio: number[]}>} scaled the engine's `scaling` entry per method
 * @param {(key: string) => string} tr the demo's words
 */
function tableRows(theta, scaled, tr) {
  const f = (/** @type {number} */ v) => (v >= 0.01 ? v.toFixed(4) : v.toPrecision(3));
  return [
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, 'i'),
        el('th', {}, m('\\theta_i')),
        el('th', {}, m('2\\pi/\\theta_i')),
        ...SCALINGS.map((mm) => el('th', { title: scalingTitle(mm, tr) }, m(`\\theta'/\\theta`), ` ${mm}`)),
      ),
    ),
    el(
      'tbody',
      {},
      ...theta.map((t, i) =>
        el(
          'tr',
          {},
          el('td', {}, String(i)),
          el('td', {}, f(t)),
          el('td', {}, ((2 * Math.PI) / t).toFixed(1)),
          ...SCALINGS.map((mm) => el('td', {}, scaled[mm] ? scaled[mm].ratio[i].toFixed(4) : '–')),
        ),
      ),
    ),
  ];
}
