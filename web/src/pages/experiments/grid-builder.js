// "Your own grid", wired: the form <-> the spec <-> the page's hash (a link reproduces the form),
// training every cell × seed on the worker pool (as many at once as the pool has workers), the
// cells' mean and spread on the colour scale as runs land, and the exports: the CSV of the runs
// (the spec's per-run columns), the PNG of the grid, the link and the native command line.
// GridBuilder owns the form and the runs: one run set (run/run-set.js) per grid, with a lane per
// worker; each run trains and is measured through train.js.
import { download, scrollCue } from '../../panels/dom.js';
import { summarize } from '../../demos/seeds.js';
import { buildGridDom, drawGridTable, cellColors } from './grid-view.js';
import {
  DEFAULT_SPEC,
  EVAL_AT,
  LIMITS,
  METRICS,
  axisFields,
  gridRuns,
  hashToSpec,
  nativeCommand,
  runConfig,
  specToHash,
} from './grid-state.js';
import { trainAndMeasure, metricColumns } from './train.js';
import { RunSet } from '../../run/run-set.js';
import { toCsv } from '../../common/csv.js';
import { fmt } from './format.js';
import { drawGridPng } from './grid-png.js';
import { currentHash, replaceHash } from '../../state/address.js';

/** @typedef {import('./grid-state.js').GridSpec} GridSpec */
/** @typedef {{a: string, b: string, seed: number, values: Record<string, number|null>, config: object|null, error: string}} GridRun */

/**
 * Mount the grid builder into `parent`.
 * @param {HTMLElement} parent
 * @param {GridDeps} deps
 */
export function mountGrid(parent, deps) {
  const grid = new GridBuilder(parent, deps);
  return { ui: grid.ui, train: () => grid.train(), state: grid.s };
}

/**
 * @typedef {{pool: () => Promise<import('../../client/pool.js').WorkerPool>, registry: import('../../wasm-api').Registry,
 *   props: import('../../state/properties.js').Property[], engine: string}} GridDeps
 */

export class GridBuilder {
  /** @param {HTMLElement} parent @param {GridDeps} deps */
  constructor(parent, { pool, registry, props, engine }) {
    this.pool = pool;
    this.registry = registry;
    this.props = props;
    this.engine = engine;
    this.ui = buildGridDom({
      tasks: registry.tasks.map((t) => t.name),
      fields: axisFields(props),
    });
    parent.append(this.ui.box);
    /** @type {{spec: GridSpec, runs: GridRun[], tds: HTMLTableCellElement[], token: number, training: boolean}} */
    this.s = {
      spec: DEFAULT_SPEC,
      runs: [],
      tds: [],
      token: 0,
      training: false,
    };
    /** @type {(() => void)|null} ends the grid's runs (Stop) */
    this.stopRuns = null;
    this.#fromHash();
    this.#wire();
  }

  /** The form from the page's link (#…), or the default grid with the link's error. */
  #fromHash() {
    const hash = currentHash();
    const fromHash = hash.includes('=') ? hashToSpec(hash) : null;
    if (fromHash && 'error' in fromHash) this.showError(`${fromHash.error} The grid below is the default one.`);
    this.writeForm(fromHash && 'spec' in fromHash ? fromHash.spec : DEFAULT_SPEC);
    if (fromHash && 'spec' in fromHash) {
      const check = gridRuns(fromHash.spec, this.props, this.registry);
      if (check.errors.length) this.showError(`The link's grid cannot be trained: ${check.errors.join('; ')}.`);
    }
    this.changed(false);
  }

  /** @returns {GridSpec} */
  readForm() {
    const { ui } = this;
    const list = (/** @type {HTMLInputElement} */ i) =>
      i.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    return {
      task: ui.task.value,
      a: { field: ui.aField.value, values: list(ui.aValues) },
      b: { field: ui.bField.value, values: list(ui.bValues) },
      metric: ui.metric.value,
      seeds: Number(ui.seeds.value),
      steps: Number(ui.steps.value),
    };
  }

  /** @param {GridSpec} spec */
  writeForm(spec) {
    const { ui } = this;
    const pick = (/** @type {HTMLSelectElement} */ sel, /** @type {string} */ v) => {
      if ([...sel.options].some((o) => o.value === v)) sel.value = v;
    };
    pick(ui.task, spec.task);
    pick(ui.aField, spec.a.field);
    pick(ui.bField, spec.b.field);
    pick(ui.metric, spec.metric);
    ui.aValues.value = spec.a.values.join(', ');
    ui.bValues.value = spec.b.values.join(', ');
    ui.seeds.value = String(spec.seeds);
    ui.steps.value = String(spec.steps);
  }

  /** @param {string} msg */
  showError(msg) {
    const { ui } = this;
    ui.error.hidden = !msg;
    ui.error.textContent = msg;
    ui.box.dataset.error = msg ? 'true' : 'false';
  }

  /** The allowed values of a field, in words. @param {string} key */
  #hint(key) {
    const p = this.props.find((x) => x.key === key);
    if (!p) return '';
    if (p.choices) return `${key}: ${p.choices.map((c) => c.value).join(', ')}`;
    if (p.kind === 'bool') return `${key}: true, false`;
    return `${key}: ${p.kind === 'int' ? 'whole numbers' : 'numbers'}${p.min !== undefined ? ` from ${p.min}` : ''}${p.max !== undefined ? ` to ${p.max}` : ''}`;
  }

  /**
   * The form changed: the hints, the command and the link follow, and the page's hash once the
   * learner edits (not on load: a link to an experiment, #x-<id>, stays as it is).
   * @param {boolean} [edited]
   */
  changed(edited = true) {
    const { ui } = this;
    const spec = this.readForm();
    if (edited) this.showError('');
    const runs = spec.a.values.length * spec.b.values.length * spec.seeds;
    ui.hints.textContent = `${this.#hint(spec.a.field)}. ${this.#hint(spec.b.field)}. This grid: ${runs} run${runs === 1 ? '' : 's'} (at most ${LIMITS.runs}).`;
    ui.command.textContent = nativeCommand(spec);
    const hash = specToHash(spec);
    ui.link.href = hash;
    if (edited && hash.length <= LIMITS.hash) replaceHash(hash);
    ui.box.dataset.hash = hash;
  }

  /** Train the form's grid (refused in words when it cannot be trained). */
  async train() {
    const { ui, s } = this;
    const spec = this.readForm();
    const check = gridRuns(spec, this.props, this.registry);
    if (check.errors.length) {
      this.showError(`This grid cannot be trained: ${check.errors.join('; ')}.`);
      ui.box.dataset.refused = 'true';
      return;
    }
    this.showError('');
    ui.box.dataset.refused = 'false';
    const token = ++s.token;
    this.#start(spec);
    const jobs = check.cells.flatMap((c) => Array.from({ length: spec.seeds }, (_, k) => ({ c, seed: k + 1 })));
    for (const { c } of jobs)
      if (!c.state)
        s.runs.push({
          a: c.a,
          b: c.b,
          seed: 0,
          values: {},
          config: null,
          error: c.error,
        });
    const todo = jobs.filter(({ c }) => c.state);
    this.paint();
    await this.#trainAll(todo, token);
    if (token === s.token) this.finish('done');
  }

  /** The table, caption and buttons for a grid that starts training. @param {GridSpec} spec */
  #start(spec) {
    const { ui, s } = this;
    s.spec = spec;
    s.runs = [];
    s.tds = drawGridTable(ui.table, spec);
    const m = METRICS[/** @type {keyof typeof METRICS} */ (spec.metric)];
    ui.caption.textContent = `Rows: ${spec.a.field}. Columns: ${spec.b.field}. Each cell: ${m.words}, mean ± sd (lowest–highest) over ${spec.seeds === 1 ? 'seed 1' : `seeds 1–${spec.seeds}`}, ${spec.steps} steps on ${spec.task}.`;
    ui.table.setAttribute('aria-label', ui.caption.textContent);
    s.training = true;
    ui.train.disabled = true;
    ui.stop.hidden = false;
    ui.csvButton.disabled = ui.pngButton.disabled = true;
    ui.box.dataset.complete = 'false';
  }

  /**
   * Train the jobs on one run set whose lanes are the pool's workers (as many at once as the pool
   * has workers); each run lands in the table as it ends. Stop (a newer token) ends the set.
   * @param {{c: ReturnType<typeof gridRuns>['cells'][number], seed: number}[]} todo
   * @param {number} token this grid's (a newer grid or Stop ends it)
   */
  async #trainAll(todo, token) {
    const { ui, s } = this;
    const p = await this.pool();
    const set = new RunSet(p, { lanes: p.size });
    this.stopRuns = () => set.dispose();
    const one = async (/** @type {typeof todo[number]} */ job) => {
      const state = /** @type {import('../../state/properties.js').State} */ (job.c.state);
      const config = runConfig(this.props, state, job.seed);
      /** @type {GridRun} */
      const run = {
        a: job.c.a,
        b: job.c.b,
        seed: job.seed,
        values: {},
        config,
        error: '',
      };
      try {
        const r = await trainAndMeasure(set, config, { evalAt: EVAL_AT });
        Object.assign(run, { values: r.values, config: r.config });
      } catch (err) {
        run.error = /** @type {Error} */ (err).message;
      }
      if (token !== s.token) return;
      s.runs.push(run);
      ui.progress.textContent = `${s.runs.filter((x) => x.seed).length} of ${todo.length} runs done`;
      this.paint();
    };
    try {
      await Promise.all(todo.map(one));
    } finally {
      await set.dispose();
    }
  }

  /** @param {string} why */
  finish(why) {
    const { ui, s } = this;
    s.training = false;
    ui.train.disabled = false;
    ui.stop.hidden = true;
    ui.csvButton.disabled = ui.pngButton.disabled = s.runs.length === 0;
    ui.box.dataset.complete = String(why === 'done');
    if (why === 'stopped') ui.progress.textContent = `stopped: ${s.runs.filter((x) => x.seed).length} runs done`;
  }

  /** Every cell from the runs so far, on one colour scale (the best cell brightest). */
  paint() {
    const { ui, s } = this;
    const m = METRICS[/** @type {keyof typeof METRICS} */ (s.spec.metric)];
    const stats = s.tds.map((td) =>
      summarize(
        s.runs.filter((r) => r.a === td.dataset.a && r.b === td.dataset.b && !r.error).map((r) => r.values[m.column]),
      ),
    );
    const means = stats.flatMap((x) => (x ? [x.mean] : []));
    const lo = Math.min(...means);
    const hi = Math.max(...means);
    s.tds.forEach((td, k) => this.#paintCell(td, stats[k], { lo, hi }));
    ui.scale.textContent = means.length
      ? `Colour: ${m.words}, from ${fmt(m.column, m.higher ? lo : hi)} (dark) to ${fmt(m.column, m.higher ? hi : lo)} (bright, the best of this grid).`
      : '';
    ui.box.dataset.filled = String(s.tds.filter((td) => td.dataset.mean).length);
  }

  /**
   * @param {HTMLTableCellElement} td
   * @param {ReturnType<typeof summarize>} st the cell's runs summarized
   * @param {{lo: number, hi: number}} range the means' range over the grid
   */
  #paintCell(td, st, { lo, hi }) {
    const { s } = this;
    const m = METRICS[/** @type {keyof typeof METRICS} */ (s.spec.metric)];
    const runs = s.runs.filter((r) => r.a === td.dataset.a && r.b === td.dataset.b);
    const failed = runs.find((r) => r.error);
    const parts = /** @type {HTMLElement[]} */ ([...td.children]);
    const done = runs.length === s.spec.seeds || (failed && !failed.seed);
    parts[0].textContent = st ? fmt(m.column, st.mean) : failed ? 'n/a' : '…';
    parts[1].textContent =
      st && st.n > 1
        ? `± ${fmt(m.column, st.sd).replace('%', '')} (${fmt(m.column, st.min)}–${fmt(m.column, st.max)})`
        : '';
    parts[2].textContent = failed
      ? failed.error
      : s.spec.seeds === 1
        ? st
          ? 'seed 1'
          : 'training'
        : `${st ? st.n : runs.length} of ${s.spec.seeds} seeds`;
    td.dataset.state = failed ? 'invalid' : done ? 'done' : 'training';
    td.dataset.mean = st ? String(st.mean) : '';
    td.title = `${s.spec.a.field}=${td.dataset.a}, ${s.spec.b.field}=${td.dataset.b}: ${parts[0].textContent} ${parts[1].textContent}; ${parts[2].textContent}`;
    const t = !st ? null : hi === lo ? 1 : m.higher ? (st.mean - lo) / (hi - lo) : (hi - st.mean) / (hi - lo);
    const colors = t === null ? null : cellColors(t);
    td.style.background = colors?.bg ?? '';
    td.style.color = colors?.ink ?? '';
  }

  /** The runs as the spec's CSV. */
  downloadCsv() {
    const { s } = this;
    const header = [
      s.spec.a.field,
      s.spec.b.field,
      'seed',
      'steps',
      ...metricColumns(EVAL_AT),
      'weights_sha256',
      'engine',
      'config',
      'error',
    ];
    const rows = s.runs.map((r) => [
      r.a,
      r.b,
      r.seed || '',
      r.seed ? s.spec.steps : '',
      ...metricColumns(EVAL_AT).map((c) => r.values[c]),
      '',
      this.engine,
      r.config ? JSON.stringify(r.config) : '',
      r.error,
    ]);
    download(new Blob([toCsv(header, rows)], { type: 'text/csv' }), 'grid.csv');
  }

  /** @param {string} text @param {string} said */
  async copyText(text, said) {
    try {
      await navigator.clipboard.writeText(text);
      this.ui.copied.textContent = said;
    } catch {
      this.ui.copied.textContent = 'copying is not allowed here: select the text instead';
    }
  }

  #wire() {
    const { ui, s } = this;
    ui.form.addEventListener('input', () => this.changed());
    ui.form.addEventListener('change', () => this.changed());
    ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.train();
    });
    ui.stop.addEventListener('click', () => {
      s.token++;
      this.stopRuns?.();
      this.finish('stopped');
    });
    ui.csvButton.addEventListener('click', () => this.downloadCsv());
    ui.pngButton.addEventListener('click', () =>
      drawGridPng(s.spec, s.tds, ui.caption.textContent ?? '').toBlob((b) => b && download(b, 'grid.png')),
    );
    ui.linkButton.addEventListener('click', () =>
      this.copyText(new URL(specToHash(this.readForm()), location.href).href, 'link copied'),
    );
    ui.copy.addEventListener('click', () => this.copyText(ui.command.textContent ?? '', 'command copied'));
    // The scroll cue, as the probe demo's: shades on the sides with more columns, and a sentence.
    ui.gridWrap.addEventListener('scroll', () => scrollCue(ui));
    new ResizeObserver(() => scrollCue(ui)).observe(ui.gridWrap);
  }
}
