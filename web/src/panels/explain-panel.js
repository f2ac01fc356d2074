// What the chosen encoding and normalization do: title, formula (KaTeX, bundled), where it acts,
// and the core's plain-language note. The text comes from the core's describe entries.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { el } from './dom.js';

/** A formula typeset by KaTeX (its source text if KaTeX throws). @param {string} tex */
export function formula(tex) {
  const box = el('div', { class: 'formula' });
  try {
    katex.render(tex, box, { displayMode: true, throwOnError: false, output: 'htmlAndMathml' });
  } catch {
    box.textContent = tex;
  }
  return box;
}

/**
 * Fill the panel.
 * @param {HTMLElement} body
 * @param {{task?: import('../wasm-api').TaskEntry, position?: import('../wasm-api').VariantDescription,
 *   normalization?: import('../wasm-api').VariantDescription}} parts registry entries
 */
export function renderExplanation(body, { task, position, normalization }) {
  const cards = [];
  if (task)
    cards.push(
      el(
        'article',
        { class: 'explain-card' },
        el('h3', {}, `Task: ${task.name.replaceAll('_', ' ')}`),
        el('p', {}, task.description),
        el('pre', { class: 'example-line' }, task.example.split(' | ').join('\n')),
      ),
    );
  if (position)
    cards.push(
      el(
        'article',
        { class: 'explain-card', dataset: { kind: 'position' } },
        el('h3', {}, position.title ?? position.name),
        formula(position.formula ?? ''),
        position.where ? el('p', { class: 'muted' }, `Where: ${position.where}.`) : null,
        el('p', {}, position.note ?? ''),
        el(
          'p',
          { class: 'muted explain-reach' },
          position.extrapolates ? 'Defined beyond the training length.' : 'Not defined beyond the training length.',
          el('span', { class: 'explain-params' }, paramsText(Number(position.params) || 0)),
        ),
      ),
    );
  if (normalization)
    cards.push(
      el(
        'article',
        { class: 'explain-card', dataset: { kind: 'normalization' } },
        el('h3', {}, normalization.title ?? normalization.name),
        formula(normalization.formula ?? ''),
        el('p', {}, normalization.note ?? ''),
        normalization.row_sum
          ? el(
              'p',
              { class: 'muted' },
              `Row sums: ${normalization.row_sum === 'one' ? 'every row sums to 1' : normalization.row_sum}.`,
            )
          : null,
      ),
    );
  body.replaceChildren(...cards);
}

/** @param {number|undefined} n */
const paramsText = (n) => (n ? ` ${n.toLocaleString('en-US')} parameters.` : ' No parameters.');

/**
 * The encoding's parameter count for the model as built (the registry's is for the default
 * setup: seq_len and d_model change it). @param {HTMLElement} body @param {number|undefined} n
 */
export function showPositionParams(body, n) {
  const span = body.querySelector('[data-kind="position"] .explain-params');
  if (span && span.textContent !== paramsText(n)) span.textContent = paramsText(n);
}
