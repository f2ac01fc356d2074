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
    cards.push(el('article', { class: 'explain-card' },
      el('h3', {}, `Task: ${task.name.replaceAll('_', ' ')}`),
      el('p', {}, task.description),
      el('pre', { class: 'example-line' }, task.example.split(' | ').join('\n'))));
  if (position)
    cards.push(el('article', { class: 'explain-card', dataset: { kind: 'position' } },
      el('h3', {}, position.title ?? position.name),
      formula(position.formula ?? ''),
      position.where ? el('p', { class: 'muted' }, `Where: ${position.where}.`) : null,
      el('p', {}, position.note ?? ''),
      el('p', { class: 'muted' }, [
        position.extrapolates ? 'Defined beyond the training length.' : 'Not defined beyond the training length.',
        position.params ? ` ${position.params} parameters.` : ' No parameters.',
      ].join(''))));
  if (normalization)
    cards.push(el('article', { class: 'explain-card', dataset: { kind: 'normalization' } },
      el('h3', {}, normalization.title ?? normalization.name),
      formula(normalization.formula ?? ''),
      el('p', {}, normalization.note ?? ''),
      normalization.row_sum ? el('p', { class: 'muted' }, `Row sums: ${normalization.row_sum === 'one' ? 'every row sums to 1' : normalization.row_sum}.`) : null));
  body.replaceChildren(...cards);
}
