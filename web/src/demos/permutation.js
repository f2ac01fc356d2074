// Permutation demo: without a position encoding (and without the causal mask) an encoder is
// permutation-equivariant, f(πX) = πf(X), and mean pooling makes its answer order-blind. The
// reader edits and reorders a sequence; the page runs the model (run() in the worker) on X and on
// πX and shows both final hidden states side by side with their largest difference, and the
// pooled prediction for both. Below, two models train on `order` (does A come before B?) with the
// same seed and data: position=none stays at chance, an encoding learns.
// mount(root, {pool, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { LineChart } from '../charts/line-chart.js';
import { Heatmap } from '../charts/heatmap.js';
import { el, injectStyles, tex, m, sci, pct, modelOverrides, numOption, boolOption, Disposer, colorOf } from './common.js';

const ENCODINGS = ['learned', 'sinusoidal', 'rope', 'alibi', 't5_bias', 'shaw', 'urpe', 'fire', 'xpos'];
const START_TOKENS = ['c', 'A', 'e', 'd', 'B', 'f', 'c', 'e'];

/**
 * Mount the permutation demo into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool: import('../client/pool.js').WorkerPool, compact?: boolean, autoplay?: boolean,
 *   config?: Record<string, any>}} options config: steps, encoding (the second model's), seed,
 *   d_model, heads, layers, batch, lr ...; check_position / check_causal (the model checked first)
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>, root: HTMLElement}}
 */
export function mount(root, options = {}) {
  const { pool, compact = false, autoplay = false, config: cfg = {} } = options;
  if (!pool) throw new Error('permutation demo: options.pool (a WorkerPool) is required');
  const steps = numOption(cfg.steps, 500);
  const base = {
    task: 'order', position: 'none', causal: false, d_model: 32, heads: 4, layers: 2, seq_len: 8,
    batch: 32, seed: 1, eval_every: 25, steps, ...modelOverrides(cfg),
  };
  const bag = new Disposer();
  const style = injectStyles(root);
  const ui = buildDom(compact);
  root.append(ui.box);

  const s = {
    encoding: ENCODINGS.includes(cfg.encoding) ? cfg.encoding : 'learned',
    checkPosition: cfg.check_position ?? 'none',
    checkCausal: boolOption(cfg.check_causal, false),
    vocab: [],
    x: [], // token ids of X
    perm: [], // (πX)_i = X_{perm[i]}
    models: { a: null, b: null }, // the two trained models: none and the encoding
    extra: new Map(), // untrained models for other (position, causal) checks
    playing: false,
    disposed: false,
    token: 0,
  };

  // --- the sequence editor ---------------------------------------------------------------------
  function renderEditor() {
    const name = (id) => s.vocab[id] ?? '?';
    ui.xRow.replaceChildren(...s.x.map((id, i) => el('button', {
      type: 'button', class: `apd-chip tok-${name(id)}`, dataset: { index: i },
      title: 'Click (or ↑/↓) to change this token',
      'aria-label': `X position ${i}: ${name(id)}; click to change`,
      onclick: (e) => editToken(i, e.shiftKey ? -1 : 1),
      onkeydown: (e) => {
        if (e.key === 'ArrowUp' || e.key === 'ArrowDown') { e.preventDefault(); editToken(i, e.key === 'ArrowUp' ? -1 : 1); }
      },
    }, name(id), el('sub', {}, String(i)))));
    ui.pRow.replaceChildren(...s.perm.map((src, i) => {
      const chip = el('button', {
        type: 'button', class: `apd-chip tok-${name(s.x[src])}`, draggable: 'true', dataset: { index: i, src },
        title: 'Drag to reorder (or focus and use ←/→)',
        'aria-label': `πX position ${i}: ${name(s.x[src])} from X position ${src}; arrow keys move it`,
        onkeydown: (e) => {
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          e.preventDefault();
          const j = i + (e.key === 'ArrowLeft' ? -1 : 1);
          if (j < 0 || j >= s.perm.length) return;
          move(i, j);
          ui.pRow.children[j]?.focus();
        },
        ondragstart: (e) => { e.dataTransfer.setData('text/plain', String(i)); e.dataTransfer.effectAllowed = 'move'; chip.classList.add('dragging'); },
        ondragend: () => chip.classList.remove('dragging'),
        ondragover: (e) => { e.preventDefault(); chip.classList.add('drop'); },
        ondragleave: () => chip.classList.remove('drop'),
        ondrop: (e) => {
          e.preventDefault();
          const from = Number(e.dataTransfer.getData('text/plain'));
          if (Number.isInteger(from) && from !== i) move(from, i);
        },
      }, name(s.x[src]), el('sub', {}, String(src)));
      return chip;
    }));
    const identity = s.perm.every((p, i) => p === i);
    ui.permNote.textContent = identity ? 'π is the identity: reorder the second row.' : `π = (${s.perm.join(' ')})`;
  }

  function editToken(i, dir) {
    const n = s.vocab.length;
    s.x[i] = (s.x[i] + dir + n) % n;
    renderEditor();
    ui.xRow.children[i]?.focus();
    refresh();
  }

  function move(from, to) {
    const [v] = s.perm.splice(from, 1);
    s.perm.splice(to, 0, v);
    renderEditor();
    refresh();
  }

  function shuffle() {
    const p = s.perm.slice();
    do {
      for (let i = p.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [p[i], p[j]] = [p[j], p[i]];
      }
    } while (p.every((v, i) => v === i) && p.length > 1);
    s.perm = p;
    renderEditor();
    refresh();
  }

  // --- the check --------------------------------------------------------------------------------
  // The model the check runs on: one of the trained pair when it matches, else a model of its
  // own that trains a few steps on `order` too (a fresh RoPE model's logits are nearly flat, which
  // would hide how much the encoding matters).
  const CHECK_STEPS = Math.min(steps, 150);
  async function checkModel() {
    const pos = s.checkPosition;
    if (!s.checkCausal && pos === 'none') return { model: s.models.a, label: 'the left model of the training below' };
    if (!s.checkCausal && pos === s.encoding) return { model: s.models.b, label: 'the right model of the training below' };
    const key = `${pos}|${s.checkCausal}`;
    if (!s.extra.has(key))
      s.extra.set(key, pool.create({ ...base, position: pos, causal: s.checkCausal }).then((mdl) => {
        mdl.addEventListener('state', (e) => {
          if (e.detail.playing) return;
          if (`${s.checkPosition}|${s.checkCausal}` === key) refresh();
          ui.box.dataset.checkTrained = String(e.detail.step >= CHECK_STEPS);
        });
        mdl.play({ until: CHECK_STEPS, every: 10 });
        return mdl;
      }));
    const model = await s.extra.get(key);
    return { model, label: `a model of its own (position = ${pos}${s.checkCausal ? ', causal mask' : ''}), trained ${CHECK_STEPS} steps on order with the same seed` };
  }

  let refreshing = null;
  let again = false;
  function refresh() {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          await refreshOnce();
        } catch (err) {
          if (!s.disposed) showError(err);
        }
      } while (again && !s.disposed);
      refreshing = null;
    })();
    return refreshing;
  }

  function showError(err) {
    ui.error.hidden = false;
    ui.error.textContent = err.message;
  }

  async function refreshOnce() {
    const { model, label } = await checkModel();
    if (!model || s.disposed) return;
    const px = s.perm.map((p) => s.x[p]);
    const [fx, fpx] = await Promise.all([model.run(s.x), model.run(px)]);
    if (s.disposed) return;
    ui.error.hidden = true;
    const pfx = s.perm.map((p) => fx.hidden[p]); // πf(X)
    const hp = fpx.hidden; // f(πX)
    const diff = hp.map((row, i) => row.map((v, c) => v - pfx[i][c]));
    let maxDiff = 0;
    let scale = 0;
    for (let i = 0; i < hp.length; i++)
      for (let c = 0; c < hp[i].length; c++) {
        maxDiff = Math.max(maxDiff, Math.abs(diff[i][c]));
        scale = Math.max(scale, Math.abs(hp[i][c]), Math.abs(pfx[i][c]));
      }
    const labels = px.map((id) => s.vocab[id]);
    const range = [-scale || -1, scale || 1];
    ui.maps.fpx.update(hp, { rowLabels: labels, range });
    ui.maps.pfx.update(pfx, { rowLabels: labels, range });
    ui.maps.diff.update(diff, { rowLabels: labels, range });

    const equivariant = maxDiff < 1e-5;
    ui.diff.textContent = sci(maxDiff);
    ui.diffBox.dataset.diff = String(maxDiff);
    ui.diffBox.classList.toggle('good', equivariant);
    ui.diffBox.classList.toggle('bad', !equivariant);
    const what = s.checkPosition === 'none' ? 'no position encoding' : `position = ${s.checkPosition}`;
    ui.diffNote.textContent = equivariant
      ? `Equal up to float rounding: with ${what}${s.checkCausal ? '' : ' and no mask'}, reordering the input only reorders the outputs.`
      : `Not equal: ${what}${s.checkCausal ? ' with the causal mask' : ''} makes the outputs depend on where each token sits.`;

    // The pooled (per-sequence) prediction for X and for πX.
    const classes = model.info.classes;
    const pred = (probs) => {
      const row = probs[0] ?? [];
      let k = 0;
      row.forEach((v, j) => { if (v > row[k]) k = j; });
      return { k, p: row[k] ?? NaN, row };
    };
    const a = pred(fx.probs);
    const b = pred(fpx.probs);
    const truth = (ids) => {
      const ia = ids.indexOf(s.vocab.indexOf('A'));
      const ib = ids.indexOf(s.vocab.indexOf('B'));
      return ia < 0 || ib < 0 ? '–' : ia < ib ? 'AB' : 'BA';
    };
    const dp = Math.max(...a.row.map((v, j) => Math.abs(v - b.row[j])));
    ui.pooled.replaceChildren(
      predLine('f(X)', classes[a.k], a.p, truth(s.x)),
      predLine('f(πX)', classes[b.k], b.p, truth(px)),
      el('p', { class: 'apd-small' }, a.k === b.k && dp < 1e-5
        ? `The same answer; the probabilities differ by ${sci(dp)}: the mean over positions cannot see the order.`
        : `Different (probabilities differ by ${sci(dp)}).`),
    );
    ui.pooled.dataset.same = String(a.k === b.k && dp < 1e-5);
    ui.pooled.dataset.delta = String(dp);
    const step = await model.snapshot({}).then((r) => r.step).catch(() => 0);
    ui.modelNote.textContent = `Checked model: ${label}; now at step ${step}. Training changes how large a difference is, not whether the identity holds without positions.`;
    ui.box.dataset.checked = `${s.checkPosition}|${s.checkCausal}`;
    ui.box.dataset.checkStep = String(step);
  }

  function predLine(label, cls, p, truth) {
    return el('div', { class: 'apd-pred' }, el('span', { class: 'apd-pred-label' }, label), ' predicts ',
      el('strong', {}, cls ?? '?'), ` (p = ${Number.isFinite(p) ? p.toFixed(4) : '–'})`,
      el('span', { class: 'apd-small' }, ` · true answer ${truth}`));
  }

  // --- the training pair ------------------------------------------------------------------------
  function onMetrics(key) {
    return (e) => {
      for (const ev of e.detail.evals) {
        ui.acc.addDataPoint(ev.step, { [key]: ev.token_accuracy });
        ui.loss.addDataPoint(ev.step, { [key]: ev.loss });
        ui.last[key] = ev;
      }
      ui.steps[key] = e.detail.step;
      showCounters();
    };
  }

  function showCounters() {
    const a = ui.last.a;
    const b = ui.last.b;
    ui.counter.textContent = `step ${Math.min(ui.steps.a ?? 0, ui.steps.b ?? 0)} / ${steps}`;
    ui.scoreA.textContent = a ? pct(a.token_accuracy) : '–';
    ui.scoreB.textContent = b ? pct(b.token_accuracy) : '–';
    ui.box.dataset.accNone = a ? String(a.token_accuracy) : '';
    ui.box.dataset.accEncoding = b ? String(b.token_accuracy) : '';
  }

  function onState() {
    const playing = Boolean(s.models.a?.playing || s.models.b?.playing);
    s.playing = playing;
    ui.play.textContent = playing ? 'Pause' : 'Play';
    ui.box.dataset.playing = String(playing);
    if (!playing) refresh();
  }

  async function buildPair() {
    const token = ++s.token;
    for (const k of ['a', 'b']) {
      const old = s.models[k];
      s.models[k] = null;
      old?.dispose();
    }
    ui.acc.reset();
    ui.loss.reset();
    ui.last = {};
    ui.steps = {};
    for (const chart of [ui.acc, ui.loss]) {
      chart.series[1].color = colorOf(s.encoding);
      chart.setLabels({ b: s.encoding });
    }
    ui.nameB.textContent = s.encoding;
    ui.nameB.style.color = colorOf(s.encoding);
    const [a, b] = await Promise.all([pool.create(base), pool.create({ ...base, position: s.encoding })]);
    if (token !== s.token || s.disposed) {
      a.dispose();
      b.dispose();
      return;
    }
    s.models = { a, b };
    for (const [k, mdl] of Object.entries(s.models)) {
      mdl.addEventListener('metrics', onMetrics(k));
      mdl.addEventListener('state', onState);
    }
    showCounters();
    if (s.vocab.length === 0) {
      s.vocab = a.info.vocab;
      s.x = START_TOKENS.slice(0, base.seq_len).map((t) => Math.max(0, s.vocab.indexOf(t)));
      while (s.x.length < base.seq_len) s.x.push(2 + (s.x.length % Math.max(1, s.vocab.length - 2)));
      s.perm = s.x.length === 8 ? [6, 4, 2, 7, 1, 3, 0, 5] : s.x.map((_, i) => s.x.length - 1 - i);
      renderEditor();
    }
  }

  async function start() {
    await ready;
    const { a, b } = s.models;
    if (!a || !b) return;
    await Promise.all([a, b].map((mdl) => mdl.play({ until: steps, every: 5 })));
    onState();
  }

  async function pause() {
    await Promise.all([s.models.a, s.models.b].filter(Boolean).map((mdl) => mdl.pause()));
    onState();
  }

  // --- wiring -----------------------------------------------------------------------------------
  ui.shuffle.addEventListener('click', shuffle);
  ui.reverse.addEventListener('click', () => { s.perm.reverse(); renderEditor(); refresh(); });
  ui.identity.addEventListener('click', () => { s.perm = s.x.map((_, i) => i); renderEditor(); refresh(); });
  ui.position.value = s.checkPosition;
  ui.causal.checked = s.checkCausal;
  ui.position.addEventListener('change', () => { s.checkPosition = ui.position.value; refresh(); });
  ui.causal.addEventListener('change', () => { s.checkCausal = ui.causal.checked; refresh(); });
  ui.encoding.value = s.encoding;
  ui.encoding.addEventListener('change', async () => {
    const wasPlaying = s.playing;
    s.encoding = ui.encoding.value;
    await buildPair();
    refresh();
    if (wasPlaying) start();
  });
  ui.play.addEventListener('click', () => (s.playing ? pause() : start()));
  ui.reset.addEventListener('click', async () => {
    await pause();
    await buildPair();
    refresh();
  });
  bag.interval(async () => {
    const { model } = await checkModel();
    if (model?.playing) refresh();
  }, 1200);

  const ready = (async () => {
    await buildPair();
    await refresh();
    ui.box.dataset.ready = 'true';
  })();
  ready.catch((err) => showError(err));
  if (autoplay) ready.then(start);

  return {
    root: ui.box,
    ready,
    start,
    pause,
    async dispose() {
      s.disposed = true;
      s.token++;
      bag.run();
      const models = [s.models.a, s.models.b, ...(await Promise.all([...s.extra.values()].map((p) => p.catch(() => null))))];
      await Promise.all(models.filter(Boolean).map((mdl) => mdl.dispose()));
      ui.acc.destroy();
      ui.loss.destroy();
      Object.values(ui.maps).forEach((h) => h.destroy());
      ui.box.remove();
      style.remove();
    },
  };
}

function buildDom(compact) {
  const opt = (v, label = v) => el('option', { value: v }, label);
  const position = el('select', { class: 'apd-position', 'aria-label': 'position encoding of the checked model' },
    opt('none', 'none'), ...ENCODINGS.map((e) => opt(e)));
  const causal = el('input', { type: 'checkbox', class: 'apd-causal' });
  const encoding = el('select', { class: 'apd-encoding', 'aria-label': 'position encoding of the second model' }, ...ENCODINGS.map((e) => opt(e)));
  const xRow = el('div', { class: 'apd-chips apd-x', role: 'group', 'aria-label': 'the sequence X' });
  const pRow = el('div', { class: 'apd-chips apd-px', role: 'group', 'aria-label': 'the reordered sequence πX' });
  const permNote = el('p', { class: 'apd-small apd-perm-note' });
  const shuffle = el('button', { type: 'button', class: 'apd-shuffle' }, 'Shuffle');
  const reverse = el('button', { type: 'button', class: 'apd-reverse' }, 'Reverse');
  const identity = el('button', { type: 'button', class: 'apd-identity' }, 'Original order');
  const diff = el('output', { class: 'apd-diff-value' }, '…');
  const diffNote = el('p', { class: 'apd-small' });
  const diffBox = el('div', { class: 'apd-diff', role: 'status', 'aria-live': 'polite' },
    el('div', {}, m('\\max_{i,c}\\,\\lvert f(\\pi X) - \\pi f(X)\\rvert_{i,c} ='), ' ', diff), diffNote);
  const pooled = el('div', { class: 'apd-pooled', 'aria-live': 'polite' });
  const modelNote = el('p', { class: 'apd-small apd-model-note' });
  const error = el('p', { class: 'apd-error', role: 'alert', hidden: true });
  const mapBox = (title, tip) => {
    const fig = el('figure', { class: 'apd-map' }, el('figcaption', {}, title));
    const h = new Heatmap(fig, { label: tip, maxSize: compact ? 270 : 330, maxCell: 9 });
    return { fig, h };
  };
  const fpx = mapBox(m('f(\\pi X)'), 'final hidden states of the reordered input');
  const pfx = mapBox(m('\\pi f(X)'), 'final hidden states of X, reordered');
  const dmap = mapBox(el('span', {}, m('f(\\pi X) - \\pi f(X)'), ' (same colours)'), 'difference');

  const play = el('button', { type: 'button', class: 'apd-play primary' }, 'Play');
  const reset = el('button', { type: 'button', class: 'apd-reset' }, 'Reset');
  const counter = el('output', { class: 'apd-counter' }, 'step 0');
  const scoreA = el('output', { class: 'apd-score-none' }, '–');
  const scoreB = el('output', { class: 'apd-score-encoding' }, '–');
  const nameB = el('span', { class: 'apd-name-b' }, 'learned');
  const accBox = el('div', { class: 'apd-chart apd-chart-acc' }, el('div', { class: 'apd-chart-title' }, 'held-out accuracy'));
  const lossBox = el('div', { class: 'apd-chart apd-chart-loss' }, el('div', { class: 'apd-chart-title' }, 'held-out loss'));

  const box = el('div', { class: `apd apd-permutation${compact ? ' compact' : ''}` },
    el('section', { class: 'apd-intro' },
      el('h2', {}, 'Attention without positions cannot see order'),
      el('p', {}, 'Self-attention mixes tokens by weights computed from the tokens themselves. Reorder the input with a permutation matrix ',
        m('P'), ' and the logits get their rows and columns reordered, ', m('PS P^{\\top}'), '; softmax works row by row, so the weights are reordered the same way, and ',
        m('P^\\top P = I'), ' cancels on the values:'),
      tex('\\operatorname{Attn}(PX) = \\operatorname{softmax}\\!\\Big(\\tfrac{P Q K^\\top P^\\top}{\\sqrt{d}}\\Big) P V = P\\,\\operatorname{softmax}\\!\\Big(\\tfrac{QK^\\top}{\\sqrt d}\\Big) P^\\top P V = P\\,\\operatorname{Attn}(X).', true),
      el('p', {}, 'The residual connections, LayerNorm and the feed-forward network act on each token alone, so they commute with ', m('P'),
        ' too. The whole encoder is permutation-equivariant, ', m('f(\\pi X) = \\pi f(X)'), ', and a prediction from the mean over positions, ',
        m('\\tfrac1n\\sum_i f(\\pi X)_i = \\tfrac1n\\sum_i f(X)_i'), ', is permutation-invariant: a bag of words. Below, the model runs on your sequence and on its reordering; compare the two sides.')),
    el('section', { class: 'apd-card apd-check' },
      el('h3', {}, 'Reorder the input'),
      el('div', { class: 'apd-editor' },
        el('div', { class: 'apd-row' }, el('span', { class: 'apd-row-label' }, 'X'), xRow),
        el('div', { class: 'apd-row' }, el('span', { class: 'apd-row-label' }, 'πX'), pRow),
        el('div', { class: 'apd-tools' }, shuffle, reverse, identity, permNote),
        el('p', { class: 'apd-small' }, 'Click a token of X to change it (A and B decide the answer; c–f are fillers). Drag the tokens of πX, or focus one and use ←/→, to reorder. The small number is each token\'s position in X.')),
      el('div', { class: 'apd-tools' },
        el('label', {}, 'Checked model: position ', position),
        el('label', { class: 'apd-check-label' }, causal, ' causal mask')),
      modelNote,
      error,
      el('div', { class: 'apd-result' }, diffBox, pooled),
      el('div', { class: 'apd-maps' }, fpx.fig, pfx.fig, dmap.fig),
      el('p', { class: 'apd-small' }, 'Rows: positions of πX (tokens on the left); columns: the ', m('d_{\\text{model}}'),
        ' channels of the final hidden state. With no encoding the difference is float rounding (about ', m('10^{-7}'),
        ': the same sums, added in another order). An absolute encoding adds ', m('p_i'), ' to the token at position ', m('i'),
        '; a relative one adds ', m('b(i-j)'), ' to the logits, and ', m('b(\\pi(i)-\\pi(j)) \\neq b(i-j)'), '; the causal mask ',
        m('M_{ij} = [\\,j \\le i\\,]'), ' is not reordered with the tokens, ', m('PMP^\\top \\ne M'), '. Each breaks the identity, by the amount shown. One exception to try: bidirectional ALiBi, ',
        m('b = -m\\,\\lvert i-j\\rvert'), ', is the same read from either end, so with ', el('em', {}, 'Original order'), ' then ', el('em', {}, 'Reverse'),
        ' the difference drops back to rounding: such a model cannot tell a sequence from its mirror image, nor A…B from B…A.')),
    el('section', { class: 'apd-card apd-train' },
      el('h3', {}, 'Two models learn ', el('code', {}, 'order')),
      el('p', {}, 'The task: does A come before B? A and B appear once among filler tokens; the answer is read from the mean over positions. Both models have the same seed, so the same initial weights (but for the encoding) and the same batches.'),
      el('div', { class: 'apd-tools' }, play, reset, el('label', {}, 'Second model: position ', encoding), counter),
      el('dl', { class: 'apd-scores' },
        el('div', {}, el('dt', { style: { color: colorOf('none') } }, 'position = none'), el('dd', {}, scoreA)),
        el('div', {}, el('dt', {}, 'position = ', nameB), el('dd', {}, scoreB))),
      el('div', { class: 'apd-charts' }, accBox, lossBox),
      el('p', { class: 'apd-small' }, 'Held-out accuracy and loss every 25 steps. Chance is 50%: without positions the model gives ',
        m('X'), ' and every reordering of it the same answer, and half of the reorderings swap A and B. Its loss stays near ', m('\\ln 2 \\approx 0.693'), '.')));

  const series = (label) => [
    { key: 'a', label: 'none', color: colorOf('none'), points: true },
    { key: 'b', label, color: colorOf('learned'), points: true },
  ];
  const acc = new LineChart(accBox, { title: 'held-out accuracy', series: series('learned'), yRange: [0, 1], height: compact ? 140 : 170 });
  const loss = new LineChart(lossBox, { title: 'held-out loss', series: series('learned'), height: compact ? 140 : 170 });
  return {
    box, xRow, pRow, permNote, shuffle, reverse, identity, position, causal, encoding, diff, diffNote, diffBox, pooled,
    modelNote, error, maps: { fpx: fpx.h, pfx: pfx.h, diff: dmap.h }, play, reset, counter, scoreA, scoreB, nameB,
    acc, loss, last: {}, steps: {},
  };
}
