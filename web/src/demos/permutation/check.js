// The permutation demo's check: run one model on X and on πX (run() in the worker) and compare
// f(πX) with πf(X) (three maps and their largest difference) and the pooled predictions. The
// model checked is one of the training pair when it matches the chosen (position, causal), else
// a model of its own that trains a few steps on `order` too (a fresh RoPE model's logits are
// nearly flat, which would hide how much the encoding matters). Refreshes coalesce (run/coalesce.js).
import { coalesce } from '../../run/coalesce.js';
import { el, sci, rich } from '../common.js';

/** @typedef {import('../../client/session.js').EngineSession} Session */
/** @typedef {import('../../wasm-api').RunResult} RunResult */

export class EquivarianceCheck {
  /** @param {import('./index.js').PermutationContext} ctx */
  constructor({ pool, base, steps, ui, s, tr }) {
    this.tr = tr;
    this.pool = pool;
    this.base = base;
    this.ui = ui;
    this.s = s;
    this.checkSteps = Math.min(steps, 150);
    /** @type {Map<string, Promise<Session>>} `${position}|${causal}` -> Promise<Session>: untrained-pair checks */
    this.extra = new Map();
    /** Run the check again (coalesced). */
    this.refresh = coalesce(
      () => this.#refreshOnce(),
      () => s.disposed,
    );
  }

  /** @returns {Promise<{model: Session|null|undefined, label: string}>} */
  async checkModel() {
    const { s, tr } = this;
    const pos = s.checkPosition;
    if (!s.checkCausal && pos === 'none') return { model: s.models.a, label: tr('perm.check.left') };
    if (!s.checkCausal && pos === s.encoding) return { model: s.models.b, label: tr('perm.check.right') };
    const key = `${pos}|${s.checkCausal}`;
    if (!this.extra.has(key)) this.extra.set(key, this.#ownModel(key, pos));
    const model = await this.extra.get(key);
    return {
      model,
      label: tr('perm.check.own', {
        pos,
        mask: s.checkCausal ? tr('perm.check.ownMask') : '',
        steps: this.checkSteps,
      }),
    };
  }

  /** A model of the check's own, trained a few steps. @param {string} key @param {string} pos */
  async #ownModel(key, pos) {
    const { s, ui } = this;
    const mdl = await this.pool.create({ ...this.base, position: pos, causal: s.checkCausal });
    mdl.addEventListener('state', (ev) => {
      const e = /** @type {CustomEvent<{playing: boolean, step: number}>} */ (ev);
      if (e.detail.playing) return;
      if (`${s.checkPosition}|${s.checkCausal}` === key) this.refresh();
      ui.box.dataset.checkTrained = String(e.detail.step >= this.checkSteps);
    });
    mdl.play({ until: this.checkSteps, every: 10 });
    return mdl;
  }

  /** @param {Error} err */
  showError(err) {
    this.ui.error.hidden = false;
    this.ui.error.textContent = err.message;
  }

  async #refreshOnce() {
    const { s, ui } = this;
    try {
      const { model, label } = await this.checkModel();
      if (!model || s.disposed) return;
      const px = s.perm.map((p) => s.x[p]);
      const [fx, fpx] = await Promise.all([model.run(s.x), model.run(px)]);
      if (s.disposed) return;
      ui.error.hidden = true;
      this.showMaps(fx, fpx, px);
      this.showPooled(model, fx, fpx, px);
      const step = await model
        .inspect({})
        .then((r) => r.step)
        .catch(() => 0);
      ui.modelNote.textContent = this.tr('perm.check.note', { label, step });
      ui.box.dataset.checked = `${s.checkPosition}|${s.checkCausal}`;
      ui.box.dataset.checkStep = String(step);
    } catch (err) {
      if (!s.disposed) this.showError(/** @type {Error} */ (err));
    }
  }

  // f(πX), πf(X), their difference (same colour range), and the largest difference.
  /** @param {RunResult} fx @param {RunResult} fpx @param {number[]} px */
  showMaps(fx, fpx, px) {
    const { s, ui } = this;
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
    /** @type {[number, number]} */
    const range = [-scale || -1, scale || 1];
    ui.maps.fpx.update(hp, { rowLabels: labels, range });
    ui.maps.pfx.update(pfx, { rowLabels: labels, range });
    ui.maps.diff.update(diff, { rowLabels: labels, range });
    const equivariant = maxDiff < 1e-5;
    ui.diff.textContent = sci(maxDiff);
    ui.diffBox.dataset.diff = String(maxDiff);
    ui.diffBox.classList.toggle('good', equivariant);
    ui.diffBox.classList.toggle('bad', !equivariant);
    const tr = this.tr;
    const what = s.checkPosition === 'none' ? tr('perm.check.noEncoding') : `position = ${s.checkPosition}`;
    ui.diffNote.textContent = equivariant
      ? tr('perm.check.equal', { what, noMask: s.checkCausal ? '' : tr('perm.check.noMask') })
      : tr('perm.check.notEqual', { what, mask: s.checkCausal ? tr('perm.check.withMask') : '' });
  }

  // The pooled (per-sequence) prediction for X and for πX.
  /** @param {Session} model @param {RunResult} fx @param {RunResult} fpx @param {number[]} px */
  showPooled(model, fx, fpx, px) {
    const { s, ui } = this;
    const classes = model.info.classes;
    const a = pred(fx.probs);
    const b = pred(fpx.probs);
    const truth = (/** @type {number[]} */ ids) => {
      const ia = ids.indexOf(s.vocab.indexOf('A'));
      const ib = ids.indexOf(s.vocab.indexOf('B'));
      return ia < 0 || ib < 0 ? '–' : ia < ib ? 'AB' : 'BA';
    };
    const delta = Math.max(...a.row.map((v, j) => Math.abs(v - b.row[j])));
    const same = a.k === b.k && delta < 1e-5;
    ui.pooled.replaceChildren(
      predLine(this.tr, 'f(X)', classes[a.k], a.p, truth(s.x)),
      predLine(this.tr, 'f(πX)', classes[b.k], b.p, truth(px)),
      el(
        'p',
        { class: 'apd-small' },
        this.tr(same ? 'perm.pooled.same' : 'perm.pooled.different', { delta: sci(delta) }),
      ),
    );
    ui.pooled.dataset.same = String(same);
    ui.pooled.dataset.delta = String(delta);
  }

  /** Refresh while the checked model trains (called periodically). */
  async tick() {
    // a model that cannot be built (a hostile check_position) was already reported by refresh()
    const found = await this.checkModel().catch(() => null);
    if (found?.model?.playing) this.refresh();
  }

  /** The check's own models. */
  async dispose() {
    const models = await Promise.all([...this.extra.values()].map((p) => p.catch(() => null)));
    await Promise.all(models.filter((mdl) => mdl !== null).map((mdl) => mdl.dispose()));
  }
}

/** The class the first row of `probs` gives the most. @param {number[][]} probs */
function pred(probs) {
  const row = probs[0] ?? [];
  let k = 0;
  row.forEach((v, j) => {
    if (v > row[k]) k = j;
  });
  return { k, p: row[k] ?? NaN, row };
}

/**
 * @param {import('./view.js').Tr} tr
 * @param {string} label @param {string|undefined} cls @param {number} p @param {string} truth
 */
function predLine(tr, label, cls, p, truth) {
  return el(
    'div',
    { class: 'apd-pred' },
    ...rich(tr('perm.pred', { p: Number.isFinite(p) ? p.toFixed(4) : '–' }), {
      label: el('span', { class: 'apd-pred-label' }, label),
      cls: el('strong', {}, cls ?? '?'),
    }),
    el('span', { class: 'apd-small' }, tr('perm.truth', { truth })),
  );
}
