// The probe grid as a figure to download (charts/figure-layout.js): a heatmap of the held-out
// accuracy (the mean over the seeds), position encodings down and normalizations across, each
// cell labelled with its percentage; its JSON and CSV carry every cell's numbers (accuracy mean,
// min and max, spread, mirror gap, outcome, per seed). Cells not trained yet are grey.

/**
 * @param {import('./cells.js').Cell[]} cells
 * @param {{positions: string[], norms: string[], n: number, steps: number, seeds: number[], anchors: string, causal: boolean}} run
 * @returns {import('../../charts/figure-layout.js').HeatmapFigure}
 */
export function probeFigure(cells, { positions, norms, n, steps, seeds, anchors, causal }) {
  const at = (/** @type {string} */ p, /** @type {string} */ q) => cells.find((c) => c.pos === p && c.norm === q);
  const done = (/** @type {import('./cells.js').Cell|undefined} */ c) => (c?.state === 'done' && c.acc ? c : null);
  const matrix = positions.map((p) => norms.map((q) => done(at(p, q))?.acc?.mean ?? NaN));
  const cellText = positions.map((p) =>
    norms.map((q) => {
      const c = done(at(p, q));
      return c?.acc ? `${Math.round(c.acc.mean * 100)}%` : '';
    }),
  );
  const setup = `n = ${n}, ${steps} steps, ${seeds.length} seed${seeds.length === 1 ? '' : 's'} a cell, anchors ${anchors}${causal ? ', causal mask' : ''}`;
  return {
    kind: 'heatmap',
    title: 'Probe: held-out accuracy',
    matrix,
    cellText,
    cell: 50,
    rowLabels: positions,
    colLabels: norms,
    xLabel: 'attention normalization',
    yLabel: 'position encoding',
    quantity: 'accuracy',
    lo: 0,
    hi: 1,
    diverging: false,
    note: `${setup}; the mean over the seeds; chance 1/n = ${(100 / n).toFixed(1)}%`,
    maskNote: 'grey: not trained yet',
    table: tableOf(cells),
    extra: { setup: { n, steps, seeds, anchors, causal }, cells: cells.map(cellRecord) },
  };
}

/** The figure's CSV: one row per cell. @param {import('./cells.js').Cell[]} cells */
function tableOf(cells) {
  const header = [
    'position',
    'normalization',
    'state',
    'accuracy_mean',
    'accuracy_min',
    'accuracy_max',
    'spread',
    'mirror_gap',
    'outcome',
    'seeds',
  ];
  const rows = cells.map((c) => [
    c.pos,
    c.norm,
    c.state,
    c.acc?.mean ?? null,
    c.acc?.min ?? null,
    c.acc?.max ?? null,
    c.spread ?? null,
    c.mirror ?? null,
    c.outcome ?? '',
    c.runs.length,
  ]);
  return { header, rows };
}

/** A cell's numbers in the figure's JSON, with its seeds'. @param {import('./cells.js').Cell} c */
function cellRecord(c) {
  return {
    position: c.pos,
    normalization: c.norm,
    state: c.state,
    accuracy: c.acc ?? null,
    spread: c.spread ?? null,
    mirror_gap: c.mirror ?? null,
    outcome: c.outcome ?? null,
    seeds: c.runs.map((r) => ({
      seed: r.seed,
      accuracy: r.final ?? null,
      spread: r.spread ?? null,
      mirror_gap: r.mirror ?? null,
      outcome: r.outcome ?? null,
    })),
  };
}
