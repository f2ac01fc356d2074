// build-scripts/experiments/charts.mjs — <id>.png for each report: the experiments page's own
// chart of the experiment (mean ± sd per grid point, a dot per seed), built with the committed
// results and photographed in headless Chromium.
/** @param {string[]} ids @param {string} out */
export async function drawCharts(ids, out) {
  console.error(`experiments: charts are drawn by the experiments page (not yet wired): ${ids.join(', ')} into ${out}`);
}
