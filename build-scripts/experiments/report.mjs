// build-scripts/experiments/report.mjs — docs/experiments/<id>.md from the definition, its
// summary and the claims' verdicts (stats.mjs): what the seed text claimed, the verdict with the
// numbers, the chart, the table of mean ± sd over the seeds, the setup, the cost, and how to rerun.

/** @param {number} x */
export function fmt(x) {
  if (!Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  return a >= 1e4
    ? Math.round(x).toLocaleString('en-US')
    : a >= 100
      ? x.toFixed(0)
      : a >= 10
        ? x.toFixed(1)
        : x.toFixed(3);
}

const UNITS = { peak_memory_bytes: ['peak memory (KiB)', 1 / 1024] };

/** @param {string} m */
const label = (m) => UNITS[m]?.[0] ?? m;

/**
 * @param {any} def the definition
 * @param {Record<string, string>[]} summary
 * @param {ReturnType<import('./stats.mjs').judge>} claims
 * @param {{verdict: string, minutes: number, runs: number, axes: string[], engine: string, extra?: string}} info
 */
export function reportMarkdown(def, summary, claims, info) {
  const cols = def.columns ?? [def.metric];
  const scale = (m) => UNITS[m]?.[1] ?? 1;
  const cell = (r, m) => `${fmt(Number(r[`${m}_mean`]) * scale(m))} ± ${fmt(Number(r[`${m}_sd`] || NaN) * scale(m))}`;
  const lines = [
    `# ${def.title}`,
    '',
    `Source: ${def.source}.`,
    '',
    `**What the seed text claims.** ${def.claim}`,
    '',
    `**Verdict at this scale: ${info.verdict}.** Headline metric \`${def.metric}\` (${def.lower_is_better ? 'lower' : 'higher'} is better), mean ± sd over ${def.seeds} seeds; a claim agrees when the difference favours it by more than two standard errors (Welch), disagrees when it goes the other way by as much, and is inside the noise otherwise.`,
    '',
    '| claim | claimed better | claimed worse | difference (as claimed > 0) | 2 SE | verdict |',
    '|---|---|---|---|---|---|',
    ...claims.map((c) =>
      c.better
        ? `| ${c.text} | ${fmt(c.better.mean)} ± ${fmt(c.better.sd)} | ${fmt(c.worse.mean)} ± ${fmt(c.worse.sd)} | ${fmt(c.diff)} | ${fmt(2 * c.se)} | ${c.verdict} |`
        : `| ${c.text} | | | | | ${c.verdict}: ${c.why} |`,
    ),
    '',
    `![${def.id}: ${def.metric} per grid point, mean ± sd, a dot per seed](${def.id}.png)`,
    '',
    `| ${[...info.axes, 'n', ...cols.map(label)].join(' | ')} |`,
    `|${[...info.axes, 'n', ...cols].map(() => '---').join('|')}|`,
    ...summary.map((r) => `| ${[...info.axes.map((a) => r[a]), r.n, ...cols.map((m) => cell(r, m))].join(' | ')} |`),
    '',
    ...(info.extra ? [info.extra, ''] : []),
    `**Setup.** Shared fields: ${Object.entries(def.set)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(', ')}${def.corpus ? `; corpus: the bundled ${def.corpus} text (docs/corpus.md)` : ''}. ` +
      `Grid: ${def.grids
        .map((g) =>
          Object.entries(g)
            .map(([k, v]) => `${k} ∈ {${v.join(', ')}}`)
            .join(' × '),
        )
        .join('; plus ')}` +
      `${def.eval_at ? `; also evaluated at ${def.eval_at.map((m) => `${m}L`).join(', ')}` : ''}. Seeds 1 to ${def.seeds}.`,
    '',
    `**Cost.** ${info.runs} runs in ${info.minutes.toFixed(1)} minutes on 2 cores (native, two runs at a time), engine ${info.engine}.`,
    '',
    `**Rerun.** \`npm run experiments -- --only ${def.id}\`, or \`attnplay sweep --experiment docs/experiments/${def.id}.json --jobs 2 --out ${def.id}.csv --summary ${def.id}.summary.csv\`` +
      `${def.corpus ? ` with \`--text-file web/public/corpus/${def.corpus}.txt\`` : ''}. Every row of [${def.id}.csv](${def.id}.csv) holds its run's full config. In the browser: the experiments page re-runs any row${def.browser?.steps ? ` (${def.browser.steps} steps)` : ''}.`,
    '',
  ];
  return lines.join('\n');
}
