// Extrapolation demo: each chosen position encoding trains at length L on copy_back (y_t = x_{t−k})
// and on a second task of the reader's choice, then is evaluated at lengths L … 4L. One chart of
// accuracy and one of loss against evaluation length per task, one curve per encoding. Learned
// positions cannot be evaluated past their table: their curve ends at L, with the engine's reason.
// RoPE can be evaluated with PI / NTK-aware / YaRN scaling (Session.loadWith through
// Session.derive, factor s = ℓ/L); the table beside shows the scaled frequencies the engine reports.
// mount(root, {pool, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { LineChart } from '../charts/line-chart.js';
import { el, injectStyles, m, pct, modelOverrides, listOption, numOption, Disposer, colorOf } from './common.js';

export const EXTRAPOLATION_ENCODINGS = ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5_bias', 'fire', 'xpos'];
const DEFAULT_ENCODINGS = ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5_bias'];
const SECOND_TASKS = ['copy_first', 'repeat', 'copy', 'reverse', 'sort', 'dyck'];
const SCALINGS = ['pi', 'ntk', 'yarn'];
const SCALING_TITLES = { pi: 'position interpolation', ntk: 'NTK-aware base', yarn: 'YaRN' };
const MULTIPLES = [1, 1.5, 2, 3, 4];

/**
 * Mount the extrapolation demo into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool: import('../client/pool.js').WorkerPool, compact?: boolean, autoplay?: boolean,
 *   config?: Record<string, any>}} options config: steps (default 800), seq_len (L, default 16),
 *   encodings (list), task2, scaling (list of pi, ntk, yarn shown at start), copy_back_k, seed,
 *   d_model, heads, layers, batch, lr
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>,
 *   root: HTMLElement, results(): object}}
 */
export function mount(root, options = {}) {
  const { pool, compact = false, autoplay = false, config: cfg = {} } = options;
  if (!pool) throw new Error('extrapolation demo: options.pool (a WorkerPool) is required');
  const steps = numOption(cfg.steps, 800);
  const L = numOption(cfg.seq_len, 16);
  const lengths = [...new Set(MULTIPLES.map((k) => Math.round(k * L)))];
  const k = numOption(cfg.copy_back_k, 2);
  const base = { causal: true, d_model: 32, heads: 4, layers: 2, seed: 1, ...modelOverrides(cfg), seq_len: L, steps, eval_every: Math.max(steps, 1) };
  const s = {
    encodings: listOption(cfg.encodings, DEFAULT_ENCODINGS).filter((e) => EXTRAPOLATION_ENCODINGS.includes(e)),
    tasks: ['copy_back', SECOND_TASKS.includes(cfg.task2) ? cfg.task2 : 'copy_first'],
    scaling: new Set(listOption(cfg.scaling, []).filter((x) => SCALINGS.includes(x))),
    factor: numOption(cfg.factor, 2),
    runs: new Map(), // `${task}|${pos}` -> run
    playing: false,
    disposed: false,
    refusal: null, // the engine's message for learned past L
  };
  const bag = new Disposer();
  const style = injectStyles(root);
  const ui = buildDom(compact, s, L, k, lengths);
  root.append(ui.box);

  const taskConfig = (task) => (task === 'copy_back' ? { copy_back_k: k } : {});

  // --- runs: one model per (task, encoding) ------------------------------------------------------
  function newRun(task, pos) {
    const run = { task, pos, key: `${task}|${pos}`, model: null, step: 0, loss: null, state: 'building', points: new Map(), scaled: {} };
    run.created = pool.create({ ...base, ...taskConfig(task), task, position: pos }).then((model) => {
      if (s.disposed || s.runs.get(run.key) !== run) return model.dispose();
      run.model = model;
      run.state = 'idle';
      model.addEventListener('metrics', (e) => {
        run.step = e.detail.step;
        const last = e.detail.steps[e.detail.steps.length - 1];
        if (last) run.loss = last.loss;
        run.state = 'training';
        showStatus();
      });
      model.addEventListener('state', (e) => {
        if (!e.detail.playing && e.detail.step >= steps) evaluateRun(run);
        else if (!e.detail.playing && !['paused', 'reset', 'play'].includes(e.detail.reason)) (run.state = 'error'), (run.error = e.detail.reason), showStatus();
      });
      showStatus();
    }, (err) => {
      run.state = 'error';
      run.error = err.message;
      showStatus();
    });
    return run;
  }

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
          if (run.pos === 'learned' && run.refusedAt === len) s.refusal = err.message;
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
      run.error = err.message;
    } finally {
      run.evaluating = false;
    }
    drawCharts();
    showStatus();
  }

  function sync() {
    const want = new Set();
    for (const task of s.tasks) for (const pos of s.encodings) want.add(`${task}|${pos}`);
    for (const [key, run] of s.runs)
      if (!want.has(key)) {
        s.runs.delete(key);
        run.created.then(() => run.model?.dispose());
      }
    for (const key of want)
      if (!s.runs.has(key)) {
        const [task, pos] = key.split('|');
        s.runs.set(key, newRun(task, pos));
      }
    for (const block of ui.blocks) block.title.textContent = titleOf(block.index === 0 ? 'copy_back' : s.tasks[1]);
    drawCharts();
    showStatus();
    return Promise.all([...s.runs.values()].map((r) => r.created));
  }

  const titleOf = (task) => (task === 'copy_back' ? `copy_back (k = ${k}): y_t = x_{t−${k}}` : task.replaceAll('_', ' '));

  // --- drawing -------------------------------------------------------------------------------------
  function drawCharts() {
    ui.blocks.forEach((block, bi) => {
      const task = s.tasks[bi];
      const runs = s.encodings.map((pos) => s.runs.get(`${task}|${pos}`)).filter(Boolean);
      const curves = [];
      for (const chart of [block.acc, block.loss]) chart.reset();
      const series = [];
      for (const run of runs) {
        if (run.state !== 'done') continue;
        series.push([run.pos, run.points]);
        for (const method of SCALINGS) if (run.pos === 'rope' && s.scaling.has(method) && run.scaled[method]) series.push([`rope+${method}`, run.scaled[method]]);
      }
      for (const len of lengths) {
        const acc = {};
        const loss = {};
        for (const [key, pts] of series) {
          const p = pts.get(len);
          acc[key] = p ? p.accuracy : null;
          loss[key] = p ? p.loss : null;
        }
        block.acc.addDataPoint(len, acc);
        block.loss.addDataPoint(len, loss);
      }
      for (const [key, pts] of series) {
        const last = Math.max(...[...pts.entries()].filter(([, p]) => p).map(([len]) => len));
        curves.push({ key, last });
      }
      block.box.dataset.curves = JSON.stringify(curves.map((c) => c.key));
      block.box.dataset.ends = JSON.stringify(Object.fromEntries(curves.map((c) => [c.key, c.last])));
      // Values table (also the accessible form of the charts).
      block.values.replaceChildren(el('table', { class: 'apd-table' },
        el('thead', {}, el('tr', {}, el('th', {}, 'encoding'), ...lengths.map((len) => el('th', {}, `ℓ = ${len}`)))),
        el('tbody', {}, ...series.map(([key, pts]) => el('tr', { dataset: { key } }, el('td', {}, key),
          ...lengths.map((len) => {
            const p = pts.get(len);
            return el('td', { title: p ? `loss ${p.loss.toFixed(3)}` : 'not defined at this length' }, p ? pct(p.accuracy) : '—');
          }))))));
      const learned = runs.find((r) => r.pos === 'learned' && r.state === 'done');
      block.note.hidden = !learned;
      if (learned)
        block.note.textContent = `The learned curve ends at ℓ = ${L}: a learned table has one row per trained position (${L} here), so at ${learned.refusedAt ?? 2 * L} tokens there is nothing to add. The engine refuses: “${s.refusal ?? 'learned positions do not extrapolate'}”.`;
    });
  }

  function showStatus() {
    const runs = [...s.runs.values()];
    const done = runs.filter((r) => r.state === 'done' || r.state === 'error').length;
    ui.status.replaceChildren(...runs.map((r) => el('li', { dataset: { key: r.key, state: r.state } },
      el('span', { class: 'apd-swatch', style: { background: colorOf(r.pos) } }),
      `${r.pos} · ${r.task}: ${r.state === 'error' ? `error: ${r.error}` : r.state === 'done' ? 'evaluated' : r.state === 'evaluating' ? 'evaluating…' : `step ${r.step}/${steps}${r.loss == null ? '' : `, loss ${r.loss.toFixed(3)}`}`}`)));
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

  // The scaled-frequency table, from the engine: positions() of a RoPE model loaded with each scaling.
  let tableToken = 0;
  async function drawTable() {
    const token = ++tableToken;
    const probe = await ropeForTable();
    const plain = (await probe.snapshot({ positions: {} })).positions;
    const scaled = {};
    for (const method of SCALINGS) {
      const d = await probe.derive({ rope_scaling: method, rope_factor: s.factor });
      try {
        scaled[method] = (await d.snapshot({ positions: {} })).positions.scaling;
      } finally {
        d.dispose();
      }
    }
    if (token !== tableToken || s.disposed) return;
    const theta = plain.theta;
    const f = (v) => (v >= 0.01 ? v.toFixed(4) : v.toPrecision(3));
    ui.table.replaceChildren(
      el('thead', {}, el('tr', {}, el('th', {}, 'i'), el('th', {}, m('\\theta_i')), el('th', {}, m('2\\pi/\\theta_i')),
        ...SCALINGS.map((mm) => el('th', { title: SCALING_TITLES[mm] }, m(`\\theta'/\\theta`), ` ${mm}`)))),
      el('tbody', {}, ...theta.map((t, i) => el('tr', {}, el('td', {}, String(i)), el('td', {}, f(t)), el('td', {}, (2 * Math.PI / t).toFixed(1)),
        ...SCALINGS.map((mm) => el('td', {}, scaled[mm] ? scaled[mm].ratio[i].toFixed(4) : '–'))))),
    );
    ui.tableNote.replaceChildren(
      `s = ${s.factor}, training length ${L}. NTK base: ${scaled.ntk ? scaled.ntk.base.toFixed(1) : '–'}; YaRN scales q·k by mscale² = ${scaled.yarn ? (scaled.yarn.mscale ** 2).toFixed(4) : '–'}. Head size ${plain.head_size}: ${theta.length} frequency pairs.`);
    ui.tableBox.dataset.factor = String(s.factor);
    ui.tableBox.dataset.ratios = JSON.stringify(Object.fromEntries(SCALINGS.map((mm) => [mm, scaled[mm]?.ratio])));
  }

  let tableModel = null;
  function ropeForTable() {
    tableModel ??= pool.create({ ...base, ...taskConfig('copy_back'), task: 'copy_back', position: 'rope', steps: 1 });
    return tableModel;
  }

  async function start() {
    await ready;
    if (s.disposed) return;
    s.playing = true;
    showPlaying();
    await Promise.all([...s.runs.values()].map(async (r) => {
      await r.created;
      if (r.model && r.state !== 'done' && r.state !== 'error' && !r.evaluating) await r.model.play({ until: steps, every: 25 });
    }));
  }

  async function pause() {
    s.playing = false;
    showPlaying();
    await Promise.all([...s.runs.values()].map((r) => r.model?.playing && r.model.pause()));
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
    /** {task: {encoding: {length: {accuracy, loss} | null}}} for the evaluated models. */
    results() {
      const out = {};
      for (const r of s.runs.values()) {
        out[r.task] ??= {};
        out[r.task][r.pos] = Object.fromEntries([...r.points.entries()]);
        for (const [mm, pts] of Object.entries(r.scaled)) out[r.task][`rope+${mm}`] = Object.fromEntries([...pts.entries()]);
      }
      return out;
    },
    async dispose() {
      s.disposed = true;
      bag.run();
      await Promise.all([...s.runs.values()].map((r) => r.created.then(() => r.model?.dispose())));
      (await tableModel?.catch(() => null))?.dispose();
      for (const b of ui.blocks) b.acc.destroy(), b.loss.destroy();
      ui.box.remove();
      style.remove();
    },
  };
}

function buildDom(compact, s, L, k, lengths) {
  const encodingBoxes = EXTRAPOLATION_ENCODINGS.map((e) => el('input', { type: 'checkbox', value: e, checked: s.encodings.includes(e) }));
  const scalingBoxes = SCALINGS.map((x) => el('input', { type: 'checkbox', value: x, checked: s.scaling.has(x), class: `apd-scaling-${x}` }));
  const task2 = el('select', { class: 'apd-task2', 'aria-label': 'second task' }, ...SECOND_TASKS.map((t) => el('option', { value: t }, t)));
  task2.value = s.tasks[1];
  const factor = el('select', { class: 'apd-factor', 'aria-label': 'scaling factor s for the table' }, ...[2, 3, 4].map((v) => el('option', { value: v }, String(v))));
  factor.value = String(s.factor);
  const play = el('button', { type: 'button', class: 'apd-play primary' }, 'Train');
  const progress = el('output', { class: 'apd-progress', 'aria-live': 'polite' });
  const status = el('ul', { class: 'apd-legend apd-status' });
  const error = el('p', { class: 'apd-error', role: 'alert', hidden: true });
  const table = el('table', { class: 'apd-table apd-rope-table' });
  const tableNote = el('p', { class: 'apd-small' });
  const tableBox = el('div', { class: 'apd-card apd-rope' },
    el('h3', {}, 'RoPE frequencies, scaled'),
    el('label', {}, 'factor s ', factor),
    table, tableNote,
    el('p', { class: 'apd-small' }, 'PI divides every angle by s: ', m("\\theta'_i = \\theta_i/s"), '. NTK-aware raises the base, ', m("b' = b\\,s^{d/(d-2)}"),
      ': the fastest pair stays, the slowest is divided by s. YaRN keeps the pairs that turn many times within L, interpolates the slow ones and scales the logits by ',
      m('(0.1\\ln s + 1)^2'), '. Values from the engine (positions() of a RoPE model loaded with each scaling). In the charts, s = ℓ/L for each evaluation length ℓ.'));

  const colorize = (key) => {
    const [pos, method] = key.split('+');
    return { key, label: method ? `rope + ${method}` : pos, color: colorOf(pos), dash: method ? { pi: [2, 3], ntk: [8, 4], yarn: [12, 3, 2, 3] }[method] : undefined, points: true };
  };
  const seriesKeys = [...EXTRAPOLATION_ENCODINGS, ...SCALINGS.map((x) => `rope+${x}`)];
  const blocks = [0, 1].map((index) => {
    const title = el('h3', { class: 'apd-task-title' });
    const accBox = el('div', { class: 'apd-chart apd-chart-acc' }, el('div', { class: 'apd-chart-title' }, 'accuracy (scored positions) vs evaluation length ℓ'));
    const lossBox = el('div', { class: 'apd-chart apd-chart-loss' }, el('div', { class: 'apd-chart-title' }, 'loss vs evaluation length ℓ'));
    const note = el('p', { class: 'apd-note', hidden: true });
    const values = el('div');
    const box = el('section', { class: 'apd-card apd-task-block', dataset: { block: String(index) } },
      title, el('div', { class: 'apd-charts' }, accBox, lossBox), note,
      el('details', { class: 'apd-values' }, el('summary', {}, 'the values'), values));
    const h = compact ? 150 : 190;
    const markers = [{ x: L, label: `L = ${L}` }];
    const acc = new LineChart(accBox, { title: 'accuracy', series: seriesKeys.map(colorize), yRange: [0, 1.05], height: h, xLabel: 'evaluation length ℓ', markers });
    const loss = new LineChart(lossBox, { title: 'loss', series: seriesKeys.map(colorize), height: h, xLabel: 'evaluation length ℓ', markers });
    return { index, box, title, acc, loss, note, values };
  });

  const box = el('div', { class: `apd apd-extrapolation${compact ? ' compact' : ''}` },
    el('section', { class: 'apd-intro' },
      el('h2', {}, 'Train short, test long'),
      el('p', {}, 'Each encoding below trains a causal model at length ', m(`L = ${L}`), ' and is then evaluated, unchanged, at ', m(`\\ell = ${lengths.join(', ')}`),
        ' (up to ', m('4L'), '). The held-out data are the same for every encoding. Past ', m('L'), ' a model meets positions and distances it never saw in training.'),
      el('div', { class: 'apd-explain' },
        el('div', {},
          el('h4', {}, 'Absolute encodings'),
          el('p', {}, 'A ', el('strong', {}, 'learned'), ' table ', m('P \\in \\mathbb{R}^{L\\times d}'), ' has no row for position ', m('L'),
            ' or beyond: the model cannot even be run there. ', el('strong', {}, 'Sinusoidal'), ' positions ', m('p_{t,2i} = \\sin(t/10000^{2i/d})'),
            ' exist for every ', m('t'), ', but the vectors past ', m('L'), ' are inputs the network has never seen.')),
        el('div', {},
          el('h4', {}, 'Relative encodings'),
          el('p', {}, el('strong', {}, 'ALiBi'), ' adds ', m('-m_h (i-j)'), ' to the logits: far keys are pushed down by a bias that keeps growing the same way past ', m('L'),
            ', so on a local task like copy_back its accuracy falls slowly. ', el('strong', {}, 'T5'), ' puts distances into buckets (logarithmic past a few); distances longer than any in training land in buckets that were never trained. ',
            el('strong', {}, 'RoPE'), ' rotates q and k by ', m('t\\,\\theta_i'), '; past ', m('L'), ' the slow pairs reach angles never trained.')),
        el('div', {},
          el('h4', {}, 'Scaling RoPE at evaluation'),
          el('p', {}, 'Position interpolation squeezes ', m('\\ell'), ' positions into the trained range (', m('t \\mapsto t/s'), ', ', m('s = \\ell/L'),
            '), at the price of finer steps between neighbours: without fine-tuning, distance k now looks like k/s, and copy_back, which needs the exact distance, breaks (the dotted curve). NTK-aware scaling changes the base so that fast pairs (local order) stay as trained and slow pairs are interpolated; YaRN interpolates per pair by wavelength. Switch them on below: they appear as dashed RoPE curves.')))),
    el('section', { class: 'apd-card' },
      el('div', { class: 'apd-tools' }, play, progress),
      el('div', { class: 'apd-tools' }, el('span', { class: 'apd-small' }, 'Encodings:'),
        el('div', { class: 'apd-encodings' }, ...EXTRAPOLATION_ENCODINGS.map((e, i) => el('label', { style: { color: colorOf(e) } }, encodingBoxes[i], e)))),
      el('div', { class: 'apd-tools' }, el('label', {}, 'Second task ', task2),
        el('span', { class: 'apd-small' }, 'RoPE at evaluation:'),
        ...SCALINGS.map((x, i) => el('label', { title: SCALING_TITLES[x] }, scalingBoxes[i], x))),
      error,
      status),
    el('div', { class: 'apd-ext-layout' }, el('div', { class: 'apd-blocks' }, ...blocks.map((b) => b.box)), tableBox));
  return { box, encodingBoxes, scalingBoxes, task2, factor, play, progress, status, error, table, tableNote, tableBox, blocks };
}
