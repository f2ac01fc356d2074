// The custom task's pairs control (controls.js puts it in place of the `custom_pairs` field): a
// textarea for "input -> output" lines, pasted or typed, and a button that reads them from a
// .txt file. The engine reads the pairs (core/tasks/custom_pairs.cpp) and names a bad line in the
// field's error mark; this control only keeps a file within the engine's size limit and says
// when a set is too long for the page's link. The text is data only: a textarea's value and a
// config field, never markup.
import { el } from './dom.js';
import { LINK_TEXT_MAX } from '../state/text.js';

/** The engine's limit on the pairs' text (CustomPairsLimits::kMaxBytes): 256 KiB. */
export const MAX_PAIRS_BYTES = 256 * 1024;

/**
 * @param {HTMLTextAreaElement} area the field's textarea (its id and aria marks are the form's)
 * @param {(message: string|null) => void} problem shows or clears a problem in the field's error mark
 * @param {() => void} commit applies the textarea's value
 */
export function pairsField(area, problem, commit) {
  area.rows = 6;
  area.spellcheck = false;
  area.placeholder = 'One pair per line, e.g.\n3 1 2 -> 1 2 3\n(empty: sort three digits)';
  const note = el('small', { class: 'help pairs-note' });
  const tell = () => {
    const n = area.value.split('\n').filter((l) => l.trim() && !l.trimStart().startsWith('#')).length;
    const link =
      area.value.length > LINK_TEXT_MAX
        ? ` Too long for the page's link (${area.value.length} characters, the link holds ${LINK_TEXT_MAX}): a copied link trains on the built-in set; use Export to share this task.`
        : '';
    note.textContent = n ? `${n} line${n === 1 ? '' : 's'}.${link}` : '';
  };
  const upload = el('input', {
    type: 'file',
    accept: '.txt,text/plain',
    class: 'file-input',
    'aria-label': 'Upload a file of pairs',
  });
  upload.addEventListener('change', async () => {
    const file = upload.files?.[0];
    if (!file) return;
    if (file.size > MAX_PAIRS_BYTES)
      return problem(
        `${file.name} holds ${file.size} bytes; the limit is ${MAX_PAIRS_BYTES} bytes (256 KiB). Nothing changed.`,
      );
    const text = await file.text();
    if (text.includes('\0'))
      return problem(`${file.name} does not look like a text file (it holds NUL bytes). Nothing changed.`);
    area.value = text;
    tell();
    commit();
  });
  area.addEventListener('input', tell);
  tell();
  return el(
    'div',
    { class: 'pairs-field' },
    area,
    el('label', { class: 'button small text-upload' }, 'Upload a file of pairs', upload),
    note,
  );
}
