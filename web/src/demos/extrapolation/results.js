// The extrapolation demo's results: for each task block, the accuracy and loss curves against
// evaluation length (one per evaluated encoding, plus the chosen RoPE scalings), where each
// curve ends (data-* for the tests), the values table (also the charts' accessible form) and
// the note that quotes the engine's refusal of learned positions past L.
import { el, pct } from '../common.js';
import { SCALINGS } from './view.js';

/**
 * Redraw every task block from the runs.
 * @param {{blocks: import('./view.js').ExtrapolationUi['blocks']}} ui
 * @param {import('./index.js').ExtrapolationState} s
 * @param {{lengths: number[], L: number}} at the evaluation lengths and the training length
 */
export function drawResults(ui, s, { lengths, L }) {
  ui.blocks.forEach((block, bi) => {
    const task = s.tasks[bi];
    const runs = s.encodings.map((pos) => s.runs.get(`${task}|${pos}`)).filter((r) => r !== undefined);
    /** @type {{key: string, last: number}[]} */
    const curves = [];
    for (const chart of [block.acc, block.loss]) chart.reset();
    /** @type {[string, Map<number, import('./index.js').Point|null|undefined>][]} */
    const series = [];
    for (const run of runs) {
      if (run.state !== 'done') continue;
      series.push([run.pos, run.points]);
      for (const method of SCALINGS) if (run.pos === 'rope' && s.scaling.has(method) && run.scaled[method]) series.push([`rope+${method}`, run.scaled[method]]);
    }
    for (const len of lengths) {
      /** @type {Record<string, number|null>} */
      const acc = {};
      /** @type {Record<string, number|null>} */
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
