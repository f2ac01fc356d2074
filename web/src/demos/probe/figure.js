// The probe grid as a figure to download (charts/figure-layout.js): a heatmap of the held-out
// accuracy (the mean over the seeds), position encodings down and normalizations across, each
// cell labelled with its percentage; its JSON and CSV carry every cell's numbers (accuracy mean,
// min and max, spread, mirror gap, outcome, per seed). Cells not trained yet are grey. Its words
// (title, axes, note) are the message table's probe part (`probe.fig.*`) in the demo's language;
// its JSON's and CSV's names are identifiers, the same in every language.

/**
 * @param {import('./cells.js').Cell[]} cells
 * @param {{positions: string[], norms: string[], n: number, steps: number, seeds: number[], anchors: string, causal: boolean}} run
 * @param {(key: string, params?: Record<string, string|number>) => string} tr the demo's words (common/messages.js translator)
 * @returns {import('../../charts/figure-layout.js').HeatmapFigure}
 */
export function probeFigure(cells, { positions, norms, n, steps, seeds, anchors, causal }, tr) {
  const at = (/** @type {string} */ p, /** @type {string} */ q) => cells.find((c) => c.pos === p && c.norm === q);
  const done = (/** @type {import('./cells.js').Cell|undefined} */ c) => (c?.state === 'done' && c.acc ? c : null);
  const matrix = positions.map((p) => norms.map((q) => done(at(p, q))?.acc?.mean ?? NaN));
  const cellText = positions.map((p) =>
    norms.map((q) => {
      const c = done(at(p, q));
      return c?.acc ? `${Math.round(c.acc.mean * 100)}%` : '';
    }),
  );
  const setup =
    tr(seeds.length === 1 ? 'probe.fig.setup1' : 'probe.fig.setupN', { n, steps, k: seeds.length, anchors }) +
    (causal ? tr('probe.fig.causal') : '');
  return {
    kind: 'heatmap',
    title: tr('probe.fig.title'),
    matrix,
    cellText,
    cell: 50,
    rowLabels: positions,
    colLabels: norms,
    xLabel: tr('probe.fig.x'),
    yLabel: tr('probe.fig.y'),
    quantity: tr('probe.fig.quantity'),
    lo: 0,
    hi: 1,
    diverging: false,
    note: tr('probe.fig.note', { setup, chance: (100 / n).toFixed(1) }),
    maskNote: tr('probe.fig.mask'),
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
