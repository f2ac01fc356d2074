// The playground's "Compare runs": the current setup trained again with one setting changed (2 to
// 4 runs), side by side, on a worker pool of its own: the page owns the runs (run/compare-runs.js
// over a run set) and their view (panels/compare-view.js: the same as the widget's compare attribute). Run 1 is always the current setup; the form gives the other runs'
// values ("none, learned"). While a comparison is on, the single-run panels and the toolbar step
// aside (body[data-compare="on"]), the single run pauses, and the settings change every run: the
// comparison is rebuilt from the new setup. The URL hash holds it as `compare=field=v1,v2` (any
// spec state/compare.js reads, several fields too), so a copied link reproduces every run.
// A first visit (no link) opens on LANDING: order with and without positions, training at once.
import { WorkerPool } from '../../client/pool.js';
import { LineChart } from '../../charts/line-chart.js';
import { CompareView } from '../../panels/compare-view.js';
import { RunSet } from '../../run/run-set.js';
import { CompareRuns } from '../../run/compare-runs.js';
import { toConfig } from '../../state/state.js';
import { el } from '../../panels/dom.js';
import { readCompare, MAX_RUNS } from '../../state/compare.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id)); // index.html has them

/**
 * What a first visit (no link) shows: order with and without positions, training at once. Within
 * seconds one run learns and the other stays at chance, and the page says why in one sentence.
 */
export const LANDING = {
  hash: '#task=order&position=rope&steps=400&compare=position%3Drope%2Cnone',
  spec: 'position=rope,none',
  note:
    'Two copies of one model learn whether A comes before B: with RoPE the model can tell where A and B stand and learns, ' +
    'while without a position encoding attention cannot see order at all (reorder the tokens and it computes the same thing), so that run stays at chance, 50%.',
};

export class PageCompare {
  /** @param {import('./playground.js').Playground} pg */
  constructor(pg) {
    this.pg = pg;
    /** @type {string|null} the comparison shown (null: none) */
    this.spec = null;
    /** @type {CompareRuns|null} the compared runs (they train on their run set) */
    this.runs = null;
    /** @type {CompareView|null} what is drawn of them */
    this.view = null;
    /** @type {WorkerPool|null} */
    this.pool = null;
    this.token = 0;
    this.landing = false;
    this.field = /** @type {HTMLSelectElement} */ ($('compare-field'));
    this.values = /** @type {HTMLInputElement} */ ($('compare-values'));
    this.error = $('compare-error');
    this.stopButton = /** @type {HTMLButtonElement} */ ($('compare-stop'));
    const fields = pg.props.filter((p) => !p.view && !p.scope && p.key !== 'text');
    this.field.replaceChildren(...fields.map((p) => el('option', { value: p.key }, p.key)));
    this.field.value = 'position';
    this.field.addEventListener('change', () => this.#placeholder());
    this.#placeholder();
    $('compare-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const others = this.values.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      const key = this.field.value;
      this.start(`${key}=${[String(pg.state[key]), ...others].join(',')}`, true);
    });
    this.stopButton.addEventListener('click', () => this.start(null));
  }

  #placeholder() {
    const p = this.pg.props.find((x) => x.key === this.field.value);
    const current = String(this.pg.state[this.field.value] ?? '');
    const others = p?.choices
      ?.map((c) => c.value)
      .filter((v) => v !== current)
      .slice(0, 2)
      .join(', ');
    this.values.placeholder = others ? `e.g. ${others}` : 'e.g. two values, comma-separated';
    $('compare-current').textContent = `Run 1: ${this.field.value} = ${current}. Other runs (up to ${MAX_RUNS - 1}):`;
  }

  /**
   * Show the comparison of `spec` over the current setup (null: stop comparing). A spec that
   * cannot be used is explained under the form, and the page stays as it was.
   * @param {string|null} spec
   * @param {boolean} [play] train at once (the user pressed Compare); a rebuild after a settings
   *   change trains on when the comparison was training; a link waits for Play
   */
  async start(spec, play = false) {
    const token = ++this.token;
    const training = Boolean(this.runs?.wantPlay);
    this.error.hidden = true;
    const landing = this.landing && spec === LANDING.spec; // the first visit's comparison, until something changes
    this.landing = false;
    $('compare-landing').hidden = !landing;
    if (landing) $('compare-landing').textContent = LANDING.note;
    if (spec !== null) {
      const c = readCompare(spec, this.pg.state, this.pg.props, this.pg.registry);
      if (!c.runs.length) {
        this.error.hidden = false;
        this.error.textContent = c.errors.join(' ');
        if (!this.runs) {
          this.spec = null; // a link's bad spec leaves the link
          this.#show(false);
        }
        this.pg.rewriteHash();
        return;
      }
      await this.#stop();
      if (token !== this.token) return;
      this.spec = spec;
      this.pg.rewriteHash();
      this.#show(true);
      await this.pg.pause();
      this.pool = new WorkerPool({
        size: Math.min(c.runs.length, navigator.hardwareConcurrency || 2),
      });
      const box = el('div', {});
      $('compare-view').replaceChildren(box);
      this.view = new CompareView(box, {
        pool: this.pool,
        engineInfo: await this.pool.engine(),
        LineChart,
        files: true,
        title: 'Compared runs',
        compare: { runs: c.runs, fields: c.fields },
        view: ['chart', 'attention', 'predictions', 'heads', 'lengths'],
        height: 170,
      });
      this.runs = new CompareRuns(new RunSet(this.pool), this.view, {
        configs: c.runs.map((st) => toConfig(this.pg.props, st)),
        steps: Number(c.runs[0].steps),
        autoplay: landing || play || training,
      });
      this.runs.setVisible(true);
      try {
        await this.runs.init();
      } catch (err) {
        this.error.hidden = false;
        this.error.textContent = /** @type {Error} */ (err).message;
      }
    } else {
      this.spec = null;
      await this.#stop();
      this.#show(false);
    }
    this.pg.rewriteHash();
  }

  /**
   * The comparison a link asks for (null: none); shown by the next baseChanged().
   * @param {string|null} spec
   * @param {boolean} [landing] it is the first visit's (LANDING): it trains at once and says why
   */
  fromHash(spec, landing = false) {
    this.spec = spec;
    this.landing = landing;
  }

  /** The setup changed (or a link was read): every run follows it; no spec, no comparison. */
  baseChanged() {
    this.#placeholder(); // "Run 1: position = …" says the setup's value
    if (this.spec) return this.start(this.spec);
    if (this.runs) return this.start(null);
    this.#show(false); // no comparison after all (first-layout.js guessed one from the address)
  }

  /** @param {boolean} on */
  #show(on) {
    document.body.dataset.compare = on ? 'on' : 'off';
    this.stopButton.hidden = !on;
    $('compare-start').textContent = on ? 'Compare again' : 'Compare';
  }

  async #stop() {
    const runs = this.runs;
    const pool = this.pool;
    this.runs = null;
    this.view = null;
    this.pool = null;
    $('compare-view').replaceChildren();
    await runs?.dispose();
    pool?.dispose();
  }
}
