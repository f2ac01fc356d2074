// Probe demo: n identical tokens in, each position must output its own index (Su's probe). A grid
// of small models, position encodings × attention normalizations, trains in parallel on the
// worker pool. Each cell: a live accuracy sparkline, the final held-out accuracy, the spread
// max_i‖h_i − h_0‖∞ of the final hidden states (exactly 0 where Lemma 1 holds) and the mirror gap
// max_i‖h_i − h_{n−1−i}‖∞ (0 under Lemma 2), coloured by outcome. Toggles: anchors, causal.
// mount(root, {pool, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { drawSparkline } from '../charts/sparkline.js';
import { el, injectStyles, tex, m, sci, pct, modelOverrides, listOption, boolOption, numOption, Disposer } from './common.js';

export const PROBE_POSITIONS = ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5_bias', 'shaw', 'urpe'];
export const PROBE_NORMALIZATIONS = ['softmax', 'l2', 'relu2', 'sigmoid', 'softmax1'];
const ANCHORS = [
  ['none', 'none'],
  ['cls_sep', '[CLS] … [SEP]'],
  ['cls', '[CLS] only'],
  ['bos', 'BOS'],
];
const ZERO = 1e-5; // a spread or mirror gap below this is "equal" (float rounding)

/**
 * Mount the probe grid into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool: import('../client/pool.js').WorkerPool, compact?: boolean, autoplay?: boolean,
 *   config?: Record<string, any>}} options config: steps (default 600), anchors, causal,
 *   positions / normalizations (lists or comma-separated), seed, d_model, heads, layers, batch, lr
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>,
 *   root: HTMLElement, results(): object[]}}
 */
export function mount(root, options = {}) {
  const { pool, compact = false, autoplay = false, config: cfg = {} } = options;
  if (!pool) throw new Error('probe demo: options.pool (a WorkerPool) is required');
  const steps = numOption(cfg.steps, 600);
  const positions = listOption(cfg.positions, PROBE_POSITIONS);
  const norms = listOption(cfg.normalizations, PROBE_NORMALIZATIONS);
  const base = { task: 'probe', d_model: 32, heads: 4, layers: 2, seq_len: 8, batch: 16, seed: 1, steps, eval_every: Math.max(steps, 1), ...modelOverrides(cfg) };
  const n = base.seq_len;
  const bag = new Disposer();
  const style = injectStyles(root);
  const s = {
    anchors: ANCHORS.some(([k]) => k === cfg.anchors) ? cfg.anchors : 'none',
    causal: boolOption(cfg.causal, false),
    cells: [], // {pos, norm, td, model, accs, final, spread, mirror, state}
    playing: false,
    disposed: false,
    token: 0,
  };
  const ui = buildDom(compact, positions, norms, n);
  root.append(ui.box);
  ui.anchors.value = s.anchors;
  ui.causal.checked = s.causal;

  function config(pos, norm) {
    return { ...base, position: pos, normalization: norm, anchors: s.anchors, causal: s.causal };
  }

  function drawCell(c) {
    const td = c.td;
    const sparkColor = { learns: '#137333', collapsed: '#c5221f', mirror: '#b06000' }[c.outcome] ?? '#1a73e8';
    drawSparkline(td.querySelector('canvas'), c.accs, { color: sparkColor, reference: 1 / n, width: compact ? 80 : 96, height: compact ? 22 : 28 });
    const acc = c.final ?? c.accs[c.accs.length - 1];
    td.querySelector('.apd-acc').textContent = c.state === 'invalid' ? 'n/a' : pct(acc);
    td.querySelector('.apd-spread').textContent = c.spread == null ? '' : `spread ${sci(c.spread)}${c.spread > 0 && c.spread < ZERO ? ' ≈ 0' : ''}`;
    td.querySelector('.apd-mirror').textContent = c.outcome === 'mirror' ? `mirror gap ${sci(c.mirror)}${c.mirror > 0 ? ' ≈ 0' : ''}` : '';
    td.querySelector('.apd-verdict').textContent = c.verdict ?? (c.state === 'training' ? `step ${c.step ?? 0}` : '');
    td.dataset.state = c.state;
    td.dataset.outcome = c.outcome ?? '';
    td.dataset.acc = c.final == null ? '' : String(c.final);
    td.dataset.spread = c.spread == null ? '' : String(c.spread);
    td.dataset.mirror = c.mirror == null ? '' : String(c.mirror);
    td.title = c.state === 'invalid' ? c.error
      : `${c.pos} × ${c.norm}: accuracy ${pct(acc)}${c.spread == null ? '' : `, spread max‖h_i − h_0‖∞ = ${c.spread}, mirror gap max‖h_i − h_(n−1−i)‖∞ = ${c.mirror}`}`;
    td.setAttribute('aria-label', `${c.pos}, ${c.norm}: ${td.title}`);
  }

  function progress() {
    const done = s.cells.filter((c) => c.state === 'done' || c.state === 'invalid').length;
    const minStep = Math.min(...s.cells.filter((c) => c.state === 'training' || c.state === 'idle').map((c) => c.step ?? 0));
    ui.progress.textContent = `${done} of ${s.cells.length} models done${Number.isFinite(minStep) ? ` · slowest at step ${minStep} of ${steps}` : ''}`;
    ui.box.dataset.done = String(done);
    ui.box.dataset.complete = String(done === s.cells.length && s.cells.length > 0);
  }

  // The hidden states of the probe tokens only (anchors dropped) and their spread and mirror gap.
  function spreads(hidden) {
    const first = s.anchors === 'none' ? 0 : 1;
    const last = s.anchors === 'cls_sep' ? hidden.length - 1 : hidden.length;
    const h = hidden.slice(first, last);
    let spread = 0;
    let mirror = 0;
    for (let i = 0; i < h.length; i++)
      for (let c = 0; c < h[i].length; c++) {
        spread = Math.max(spread, Math.abs(h[i][c] - h[0][c]));
        mirror = Math.max(mirror, Math.abs(h[i][c] - h[h.length - 1 - i][c]));
      }
    return { spread, mirror };
  }

  async function finish(c) {
    if (c.finishing || !c.model) return;
    c.finishing = true;
    try {
      const [ev, snap] = await Promise.all([c.model.evaluate(0), c.model.snapshot({ attention: { example: 0 } })]);
      Object.assign(c, spreads(snap.attention.hidden));
      c.final = ev.token_accuracy;
      c.step = snap.step;
      c.state = 'done';
      const half = Math.ceil(n / 2) / n;
      if (c.spread < ZERO) (c.outcome = 'collapsed'), (c.verdict = 'all positions equal');
      else if (c.mirror < ZERO && c.final < 0.9) (c.outcome = 'mirror'), (c.verdict = `mirror pairs equal (≤ ${pct(half)})`);
      else if (c.final >= 0.9) (c.outcome = 'learns'), (c.verdict = 'learns the positions');
      else (c.outcome = 'partial'), (c.verdict = 'partly');
    } catch (err) {
      if (s.disposed || c.model?.disposed) return;
      c.state = 'invalid';
      c.outcome = 'invalid';
      c.error = err.message;
      c.verdict = 'error';
    } finally {
      c.finishing = false;
    }
    drawCell(c);
    progress();
    if (s.cells.every((x) => x.state === 'done' || x.state === 'invalid')) {
      s.playing = false;
      showPlaying();
    }
  }

  async function buildGrid() {
    const token = ++s.token;
    const old = s.cells;
    s.cells = [];
    await Promise.all(old.map((c) => c.model?.dispose()));
    for (const td of ui.tds) {
      const c = { pos: td.dataset.pos, norm: td.dataset.norm, td, accs: [], state: 'idle', step: 0 };
      s.cells.push(c);
      drawCell(c);
    }
    progress();
    await Promise.all(s.cells.map(async (c) => {
      try {
        const model = await pool.create(config(c.pos, c.norm));
        if (token !== s.token || s.disposed) return model.dispose();
        c.model = model;
        model.addEventListener('metrics', (e) => {
          for (const st of e.detail.steps) c.accs.push(st.token_accuracy);
          if (c.accs.length > 120) c.accs = c.accs.filter((_, i) => i % 2 === 0);
          c.step = e.detail.step;
          drawCell(c);
        });
        model.addEventListener('state', (e) => {
          if (!e.detail.playing && e.detail.step >= steps) finish(c);
          else if (!e.detail.playing && !['paused', 'reset', 'play'].includes(e.detail.reason)) {
            c.state = 'invalid';
            c.outcome = 'invalid';
            c.error = e.detail.reason;
            c.verdict = 'stopped';
            drawCell(c);
          }
        });
      } catch (err) {
        c.state = 'invalid';
        c.outcome = 'invalid';
        c.error = err.message;
        c.verdict = 'cannot build';
        drawCell(c);
      }
    }));
    progress();
  }

  function showPlaying() {
    ui.play.textContent = s.playing ? 'Pause' : 'Train';
    ui.box.dataset.playing = String(s.playing);
  }

  async function start() {
    await ready;
    if (s.disposed) return;
    s.playing = true;
    showPlaying();
    const live = s.cells.filter((c) => c.model && c.state !== 'invalid' && c.state !== 'done');
    for (const c of live) c.state = 'training';
    await Promise.all(live.map((c) => c.model.play({ until: steps, every: 10 })));
    progress();
  }

  async function pause() {
    s.playing = false;
    showPlaying();
    await Promise.all(s.cells.filter((c) => c.model && c.state === 'training').map((c) => c.model.pause()));
  }

  async function rebuild() {
    const wasPlaying = s.playing || autoplay;
    await pause();
    ready = buildGrid();
    await ready;
    if (wasPlaying) start();
  }

  ui.play.addEventListener('click', () => (s.playing ? pause() : start()));
  ui.restart.addEventListener('click', rebuild);
  ui.anchors.addEventListener('change', () => { s.anchors = ui.anchors.value; ui.box.dataset.anchors = s.anchors; rebuild(); });
  ui.causal.addEventListener('change', () => { s.causal = ui.causal.checked; ui.box.dataset.causal = String(s.causal); rebuild(); });
  bag.interval(progress, 1000);
  ui.box.dataset.anchors = s.anchors;
  ui.box.dataset.causal = String(s.causal);
  ui.box.dataset.steps = String(steps);

  let ready = buildGrid().then(() => { ui.box.dataset.ready = 'true'; });
  if (autoplay) ready.then(start);

  return {
    root: ui.box,
    get ready() {
      return ready;
    },
    start,
    pause,
    /** Per cell: {position, normalization, state, accuracy, spread, mirror, outcome}. */
    results: () => s.cells.map((c) => ({ position: c.pos, normalization: c.norm, state: c.state, accuracy: c.final, spread: c.spread, mirror: c.mirror, outcome: c.outcome, error: c.error })),
    async dispose() {
      s.disposed = true;
      s.token++;
      bag.run();
      await Promise.all(s.cells.map((c) => c.model?.dispose()));
      ui.box.remove();
      style.remove();
    },
  };
}

function buildDom(compact, positions, norms, n) {
  const anchors = el('select', { class: 'apd-anchors', 'aria-label': 'anchor tokens' }, ...ANCHORS.map(([v, t]) => el('option', { value: v }, t)));
  const causal = el('input', { type: 'checkbox', class: 'apd-causal' });
  const play = el('button', { type: 'button', class: 'apd-play primary' }, 'Train');
  const restart = el('button', { type: 'button', class: 'apd-restart' }, 'Restart');
  const progress = el('output', { class: 'apd-progress', 'aria-live': 'polite' });
  const tds = [];
  const table = el('table', { class: 'apd-grid' },
    el('caption', { class: 'apd-small' }, 'Rows: position encodings. Columns: attention normalizations. Each cell is one model.'),
    el('thead', {}, el('tr', {}, el('th', {}, ''), ...norms.map((nm) => el('th', { scope: 'col' }, nm)))),
    el('tbody', {}, ...positions.map((pos) => el('tr', {}, el('th', { scope: 'row' }, pos), ...norms.map((nm) => {
      const td = el('td', { class: 'apd-cell', dataset: { pos, norm: nm }, tabindex: '0' },
        el('canvas', { 'aria-hidden': 'true' }),
        el('div', { class: 'apd-acc' }, '–'),
        el('div', { class: 'apd-spread' }),
        el('div', { class: 'apd-spread apd-mirror' }),
        el('div', { class: 'apd-verdict' }));
      tds.push(td);
      return td;
    })))));
  const legend = el('ul', { class: 'apd-legend' },
    el('li', {}, el('span', { class: 'apd-swatch', style: { background: '#e6f4ea' } }), 'learns (≥ 90%)'),
    el('li', {}, el('span', { class: 'apd-swatch', style: { background: '#fce8e6' } }), 'collapsed: all positions identical (spread ≈ 0), accuracy 1/n'),
    el('li', {}, el('span', { class: 'apd-swatch', style: { background: '#fef7e0' } }), 'mirror-limited: ', m('h_i = h_{n-1-i}')),
    el('li', {}, el('span', { class: 'apd-swatch', style: { background: '#e8f0fe' } }), 'partly'),
    el('li', {}, 'dashed line: chance, 1/n'));

  const explain = el('section', { class: 'apd-card apd-explain-card' },
    el('h3', {}, 'Why'),
    el('div', { class: 'apd-explain' },
      el('div', {},
        el('h4', {}, 'Rows that sum to 1 erase relative positions'),
        el('p', {}, 'Attention mixes the values, ', m('o_i = \\sum_j a_{ij} v_j'), '. With identical tokens every value is the same vector ', m('v'), ', so'),
        tex('o_i = \\sum_j a_{ij}\\, v = \\Big(\\sum_j a_{ij}\\Big) v = v \\quad\\text{when}\\quad \\sum_j a_{ij} = 1.', true),
        el('p', {}, 'RoPE, ALiBi and T5 put position only into the logits ', m('s_{ij}'), ', so they change how each row is spread but not its sum under softmax. Residual, LayerNorm and the feed-forward network act on each token alone: every layer maps a constant sequence to a constant sequence. All positions keep the same hidden state for the whole of training and the model can only guess, ',
          m(`1/n = ${pct(1 / n).replace('%', '\\%')}`), '. The spread of the red cells is 0 up to float rounding (a few ', m('10^{-7}'), ': each row adds the same vector with its own weights, in float); without any encoding, mask or anchors, where every position computes the very same sums, it is exactly 0, for every normalization (the encoder is permutation-equivariant). The causal mask does not rescue softmax: each row still sums to 1 over the keys it may see, and the red cells stay red.')),
      el('div', {},
        el('h4', {}, 'What fixes it'),
        el('p', {}, el('strong', {}, 'Absolute encodings'), ' (learned, sinusoidal) make the inputs differ: ', m('x + p_i'), '. ',
          el('strong', {}, 'Shaw'), ' adds a relative vector to the values, ', m('o_i = \\sum_j a_{ij}(v_j + r^V_{i-j})'), '; ',
          el('strong', {}, 'URPE'), ' multiplies the weights by a Toeplitz matrix, ', m('a_{ij}\\,c_{i-j}'), ': the rows no longer sum to 1.'),
        el('p', {}, el('strong', {}, 'A normalization without a fixed row sum'), ': ℓ2 ', m('a_{ij} = e^{s_{ij}} / \\sqrt{\\textstyle\\sum_k e^{2 s_{ik}}}'),
          ' (row sum between 1 and ', m('\\sqrt n'), ', depending on how peaked the row is), relu² ', m('\\mathrm{relu}(s_{ij})^2/n'), ', sigmoid ', m('\\sigma(s_{ij} - \\ln n)'),
          ', softmax1 ', m('e^{s_{ij}} / (1 + \\sum_k e^{s_{ik}})'), '. Now ', m('o_i = r_i\\, v'), ' with a row sum ', m('r_i'), ' that the relative bias can make depend on ', m('i'), '.'),
        el('p', {}, el('strong', {}, 'Anchors'), ': with ', el('code', {}, '[CLS] x … x [SEP]'), ' the values are no longer all equal, ',
          m('o_i = a_{i,\\mathrm{CLS}} v_{\\mathrm{CLS}} + a_{i,\\mathrm{SEP}} v_{\\mathrm{SEP}} + (1 - a_{i,\\mathrm{CLS}} - a_{i,\\mathrm{SEP}})\\, v'),
          ', and the weights on the anchors depend on the distance to them. Switch the anchors on above: the softmax column of RoPE, ALiBi and T5 turns green.')),
      el('div', {},
        el('h4', {}, 'The mirror limit of symmetric ALiBi'),
        el('p', {}, 'Bidirectional ALiBi adds ', m('-m\\,\\lvert i-j\\rvert'), ', which is the same seen from either end: ', m('b(i,j) = b(n{-}1{-}i,\\ n{-}1{-}j)'),
          '. Position ', m('i'), ' and its mirror ', m('n-1-i'), ' see the same biases on the same values, so ', m('h_i = h_{n-1-i}'),
          ' in every layer, for every normalization. The model cannot tell a position from its mirror image: accuracy at most ', m('\\lceil n/2\\rceil/n'),
          ` = ${pct(Math.ceil(n / 2) / n)} here. The mirror gap `, m('\\max_i \\lVert h_i - h_{n-1-i}\\rVert_\\infty'), ' shows it: 0 up to float rounding in the amber cells. The causal mask or anchors at the ends break the symmetry.'),
        el('p', { class: 'apd-small' }, 'Spread: ', m('\\max_i \\lVert h_i - h_0\\rVert_\\infty'), ' of the final hidden states (anchors left out), computed by the engine\'s forward pass after training. Accuracy: held-out, at the training length n = ', String(n), '.'))));

  const box = el('div', { class: `apd apd-probe${compact ? ' compact' : ''}` },
    el('section', { class: 'apd-intro' },
      el('h2', {}, 'The probe: can the model tell where it is?'),
      el('p', {}, 'Feed ', m(`n = ${n}`), ' identical tokens ', el('code', {}, 'x x … x'), ' and ask every position for its own index ', m('0, 1, \\dots, n-1'),
        '. Nothing in the input says where a token is, so a model passes only if it can find positions by itself. Below, one small model per cell (',
        'd_model 32, 4 heads, 2 layers) learns this, all at once on the worker pool, one Web Worker per CPU core.')),
    el('section', { class: 'apd-card' },
      el('div', { class: 'apd-tools' }, play, restart,
        el('label', {}, 'anchors ', anchors),
        el('label', {}, causal, ' causal mask'),
        progress),
      el('div', { class: 'apd-grid-wrap' }, table),
      legend),
    explain);
  return { box, anchors, causal, play, restart, progress, tds };
}
