// Extrapolation demo: each chosen position encoding trains at length L on copy_back (y_t = x_{t−k})
// and on a second task of the reader's choice, then is evaluated at lengths L … 4L. One chart of
// accuracy and one of loss against evaluation length per task, one curve per encoding. Learned
// positions cannot be evaluated past their table: their curve ends at L, with the engine's reason.
// RoPE can be evaluated with PI / NTK-aware / YaRN scaling (Session.loadWith through
// Session.derive, factor s = ℓ/L); the table beside shows the scaled frequencies the engine reports.
// This file owns the runs (one model per task and encoding), their evaluation and the wiring;
// view.js builds the DOM, results.js draws the curves, rope-table.js the RoPE table.
// mount(root, {pool, registry, LineChart, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { el, injectStyles, modelOverrides, listOption, numOption, Disposer, colorOf } from '../common.js';
import { demoLists } from '../lists.js';
import { RunController } from '../../run/run-controller.js';
import { buildDom, SECOND_TASKS, SCALINGS, taskTitle } from './view.js';
import { drawResults, curvesOf } from './results.js';
import { seedList, DEFAULT_SEEDS } from '../seeds.js';
import { ropeTable } from './rope-table.js';

const MULTIPLES = [1, 1.5, 2, 3, 4];

/** @typedef {import('../../client/session.js').EngineSession} Session */
/** @typedef {{accuracy: number, loss: number}} Point a model evaluated at one length */
/**
 * One model (task, encoding): its controller, training progress and evaluation by length.
 * @typedef {{task: string, pos: string, seed: number, key: string, model: Session|null, step: number, loss: number|null,
 *   state: string, points: Map<number, Point|null>, scaled: Record<string, Map<number, Point|null|undefined>>,
 *   ctl: RunController, created: Promise<unknown>, error?: string, refusedAt?: number, evaluating?: boolean}} Run
 */
/**
 * @typedef {{encodings: string[], tasks: string[], scaling: Set<string>, factor: number, runs: Map<string, Run>,
 *   playing: boolean, disposed: boolean, refusal: string|null, seeds: number[]}} ExtrapolationState
 */

/**
 * Mount the extrapolation demo into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool?: import('../../client/pool.js').WorkerPool, registry?: import('../../wasm-api').Registry,
 *   compact?: boolean, autoplay?: boolean, config?: Record<string, any>,
 *   LineChart?: import('../../charts/line-chart-base.js').LineChartClass}} options pool and LineChart are required;
 *   registry: the engine's (the encodings offered, demos/lists.js); LineChart: the chart class (the pages' uPlot LineChart or the widget's LightLineChart); config: steps (default 800), seq_len (L, default 16),
 *   encodings (list), task2, scaling (list of pi, ntk, yarn shown at start), copy_back_k, seed (the first), seeds (how many, default 3),
 *   d_model, heads, layers, batch, lr
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>,
 *   root: HTMLElement, results(): object}}
 */
export function mount(root, options = {}) {
  const { pool, registry, compact = false, autoplay = false, config: cfg = {}, LineChart } = options;
  if (!pool) throw new Error('extrapolation demo: options.pool (a WorkerPool) is required');
  if (!LineChart) throw new Error('extrapolation demo: options.LineChart (a line chart class of web/src/charts/) is required');
  const lists = demoLists(registry);
  const steps = numOption(cfg.steps, 800);
  const L = numOption(cfg.seq_len, 16);
  const lengths = [...new Set(MULTIPLES.map((k) => Math.round(k * L)))];
  const k = numOption(cfg.copy_back_k, 2);
  const base = { causal: true, d_model: 32, heads: 4, layers: 2, seed: 1, ...modelOverrides(cfg), seq_len: L, steps, eval_every: Math.max(steps, 1) };
  /** @type {ExtrapolationState} */
  const s = {
    encodings: listOption(cfg.encodings, lists.extrapolationDefault).filter((e) => lists.extrapolation.includes(e)),
    tasks: ['copy_back', SECOND_TASKS.includes(cfg.task2) ? cfg.task2 : 'copy_first'],
    scaling: new Set(listOption(cfg.scaling, []).filter((x) => SCALINGS.includes(x))),
    factor: numOption(cfg.factor, 2),
    runs: new Map(), // `${task}|${pos}` -> run
    playing: false,
    disposed: false,
    refusal: null, // the engine's message for learned past L
    seeds: seedList(modelOverrides(cfg).seed ?? 1, numOption(cfg.seeds, DEFAULT_SEEDS)),
  };
  const bag = new Disposer();
  const style = injectStyles(root);
  const ui = buildDom(LineChart, compact, s, L, k, lengths, lists.extrapolation);
  root.append(ui.box);

  /** @type {(task: string) => import('../../wasm-api').Config} */
  const taskConfig = (task) => (task === 'copy_back' ? { copy_back_k: k } : {});

  // --- runs: one model per (task, encoding) ------------------------------------------------------
  /** @param {string} task @param {string} pos @param {number} seed */
  function newRun(task, pos, seed) {
    // A Run once its controller and `created` are set, just below.
    const run = /** @type {Run} */ ({ task, pos, seed, key: `${task}|${pos}|${seed}`, model: null, step: 0, loss: null, state: 'building', points: new Map(), scaled: {} });
    // One run controller per model (run/run-controller.js): its lifecycle and its events.
    run.ctl = new RunController(/** @type {import('../../client/pool.js').WorkerPool} */ (pool), { // (checked above)
      metrics: ({ steps: batch, step }) => {
        run.step = step;
        const last = batch[batch.length - 1];
        if (last) run.loss = last.loss;
        run.state = 'training';
        showStatus();
      },
      state: ({ playing, step, reason }) => {
        if (!playing && step >= steps) evaluateRun(run);
        else if (!playing && !['paused', 'reset', 'play'].includes(reason)) (run.state = 'error'), (run.error = reason), showStatus();
      },
    });
    run.created = run.ctl.apply({ ...base, ...taskConfig(task), task, position: pos, seed }, { check: false }).then(() => {
      if (s.disposed || s.runs.get(run.key) !== run) return run.ctl.dispose();
      run.model = run.ctl.model;
      run.state = 'idle';
      showStatus();
    }, (/** @type {Error} */ err) => {
      run.state = 'error';
      run.error = err.message;
      showStatus();
    });
    return run;
  }

  /** @param {Run} run */
  async function evaluateRun(run) {
    if (run.evaluating || !run.model) return;
    run.evaluating = true;
    run.state = 'evaluating';
    showStatus();
    try {
      for (const len of lengths) {
        try {
          const ev = await run.model.evaluate(len);
          run.points.set(len, { accuracy: ev.token_accuracy, loss: ev.loss });
        } catch (err) {
          run.points.set(len, null);
          run.refusedAt ??= len;
          if (run.pos === 'learned' && run.refusedAt === len) s.refusal = /** @type {Error} */ (err).message;
        }
      }
      if (run.pos === 'rope')
        for (const method of SCALINGS) {
          const pts = new Map([[L, run.points.get(L)]]);
          for (const len of lengths.filter((x) => x > L)) {
            const d = await run.model.derive({ rope_scaling: method, rope_factor: len / L });
            try {
              const ev = await d.evaluate(len);
              pts.set(len, { accuracy: ev.token_accuracy, loss: ev.loss });
            } finally {
              d.dispose();
            }
          }
          run.scaled[method] = pts;
        }
      run.state = 'done';
    } catch (err) {
      if (s.disposed) return;
      run.state = 'error';
      run.error = /** @type {Error} */ (err).message;
    } finally {
      run.evaluating = false;
    }
    drawCharts();
    showStatus();
  }

  function sync() {
    const want = new Set();
    for (const task of s.tasks) for (const pos of s.encodings) for (const seed of s.seeds) want.add(`${task}|${pos}|${seed}`);
    for (const [key, run] of s.runs)
      if (!want.has(key)) {
        s.runs.delete(key);
        run.created.then(() => run.ctl.dispose());
      }
    for (const key of want)
      if (!s.runs.has(key)) {
        const [task, pos, seed] = key.split('|');
        s.runs.set(key, newRun(task, pos, Number(seed)));
      }
    for (const block of ui.blocks) block.title.replaceChildren(...taskTitle(block.index === 0 ? 'copy_back' : s.tasks[1], k));
    drawCharts();
    showStatus();
    return Promise.all([...s.runs.values()].map((r) => r.created));
  }


  // --- drawing -------------------------------------------------------------------------------------
  const drawCharts = () => drawResults(ui, s, { lengths, L });

  function showStatus() {
    const runs = [...s.runs.values()];
    const done = runs.filter((r) => r.state === 'done' || r.state === 'error').length;
    // one line per (encoding, task): its seeds' state, the slowest seed's step
    /** @type {Map<string, Run[]>} */
    const groups = new Map();
    for (const r of runs) groups.set(`${r.task}|${r.pos}`, [...(groups.get(`${r.task}|${r.pos}`) ?? []), r]);
    ui.status.replaceChildren(...[...groups.values()].map((g) => {
      const r = g.find((x) => x.state === 'error') ?? g.reduce((a, b) => (b.step < a.step ? b : a));
      const allDone = g.every((x) => x.state === 'done');
      const state = allDone ? 'done' : r.state;
      return el('li', { dataset: { key: `${r.task}|${r.pos}`, state } },
        el('span', { class: 'apd-swatch', style: { background: colorOf(r.pos) } }),
        `${r.pos} · ${r.task} (${g.length} seeds): ${r.state === 'error' ? `error: ${r.error}` : allDone ? 'evaluated' : g.some((x) => x.state === 'evaluating') ? 'evaluating…' : `step ${r.step}/${steps}${r.loss == null ? '' : `, loss ${r.loss.toFixed(3)}`}`}`);
    }));
    ui.progress.textContent = `${done} of ${runs.length} models trained and evaluated`;
    ui.box.dataset.complete = String(runs.length > 0 && done === runs.length);
    if (done === runs.length && s.playing) {
      s.playing = false;
      showPlaying();
    }
  }

  function showPlaying() {
    ui.play.textContent = s.playing ? 'Pause' : 'Train';
    ui.box.dataset.playing = String(s.playing);
  }

  const table = ropeTable({ pool, config: { ...base, ...taskConfig('copy_back'), task: 'copy_back', position: 'rope', steps: 1 }, ui, s, L });
  const drawTable = () => table.draw();

  async function start() {
    await ready;
    if (s.disposed) return;
    s.playing = true;
    showPlaying();
    await Promise.all([...s.runs.values()].map(async (r) => {
      await r.created;
      if (r.model && r.state !== 'done' && r.state !== 'error' && !r.evaluating) await r.ctl.play({ until: steps, every: 25 });
    }));
  }

  async function pause() {
    s.playing = false;
    showPlaying();
    await Promise.all([...s.runs.values()].map((r) => r.model?.playing && r.ctl.pause()));
  }

  // --- wiring -------------------------------------------------------------------------------------
  for (const box of ui.encodingBoxes)
    box.addEventListener('change', async () => {
      s.encodings = ui.encodingBoxes.filter((b) => b.checked).map((b) => b.value);
      await sync();
      if (s.playing) start();
    });
  ui.task2.addEventListener('change', async () => {
    s.tasks[1] = ui.task2.value;
    await sync();
    if (s.playing || autoplay) start();
  });
  for (const box of ui.scalingBoxes)
    box.addEventListener('change', () => {
      if (box.checked) s.scaling.add(box.value);
      else s.scaling.delete(box.value);
      drawCharts();
    });
  ui.factor.addEventListener('change', () => {
    s.factor = Number(ui.factor.value);
    drawTable();
  });
  ui.play.addEventListener('click', () => (s.playing ? pause() : start()));
  bag.interval(showStatus, 1000);

  const ready = Promise.all([sync(), drawTable()]).then(() => { ui.box.dataset.ready = 'true'; });
  ready.catch((err) => { ui.error.hidden = false; ui.error.textContent = err.message; });
  if (autoplay) ready.then(start);

  return {
    root: ui.box,
    ready,
    start,
    pause,
    /**
     * {task: {curve: {length: {accuracy, loss (the means over seeds), accMin, accMax, lossMin, lossMax, n} | null}}}
     * for the curves whose every seed is evaluated (curve: an encoding, or rope+pi|ntk|yarn).
     */
    results() {
      /** @type {Record<string, Record<string, Record<number, object|null>>>} */
      const out = {};
      for (const task of s.tasks) {
        out[task] = {};
        for (const [key, pts] of curvesOf(s, task)) out[task][key] = Object.fromEntries([...pts.entries()].map(([len, p]) => [len, p && {
          accuracy: p.acc.mean, accMin: p.acc.min, accMax: p.acc.max, loss: p.loss.mean, lossMin: p.loss.min, lossMax: p.loss.max, n: p.acc.n }]));
      }
      return out;
    },
    async dispose() {
      s.disposed = true;
      bag.run();
      await Promise.all([...s.runs.values()].map((r) => r.created.then(() => r.ctl.dispose())));
      await table.dispose();
      for (const b of ui.blocks) b.acc.destroy(), b.loss.destroy();
      ui.box.remove();
      style.remove();
    },
  };
}
