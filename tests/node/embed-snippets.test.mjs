// The embed snippets a blogger copies first (issue 44): README.md's, docs/widgets.md's and the
// package's dist/README.md (written by web/build-widget.mjs).
// - Every widget in them carries fallback text, so that a blocked script (CORS) leaves words, not
//   a 0 px box; README says, beside its snippet, how to serve the script (same origin or CORS) and
//   links to the Headers section of docs/widgets.md.
// - A demo preset in them (probe, permutation, extrapolation) is `compact`: the lead example
//   without it was 2,334 px tall in a 704 px column.
// - docs/widgets.md states the package's size as `npm pack --dry-run` measures it (after a build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from './load.mjs';

const read = (f) => readFileSync(resolve(ROOT, f), 'utf8');
const DEMOS = ['probe', 'permutation', 'extrapolation'];

/** The html code blocks of a markdown text (or of a template in a script). */
const htmlBlocks = (md) => [...md.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

/** Each <attention-playground ...>…</attention-playground> of a snippet: its attributes and its text inside. */
const widgets = (html) =>
  [...html.matchAll(/<attention-playground\b([^>]*)>([\s\S]*?)<\/attention-playground>/g)].map((m) => ({
    attrs: m[1],
    inside: m[2].replace(/<[^>]*>/g, '').trim(),
  }));

/** The first snippet of each file, the one with the script tag. */
const SNIPPETS = {
  'README.md': htmlBlocks(read('README.md')).find((b) => b.includes('attention-playground.js')),
  'docs/widgets.md': htmlBlocks(read('docs/widgets.md'))[0],
  'dist/README.md (web/build-widget.mjs)': htmlBlocks(read('web/build-widget.mjs').replaceAll('\\`', '`'))[0],
};

test('every widget of the embed snippets has fallback text inside it', () => {
  for (const [file, snippet] of Object.entries(SNIPPETS)) {
    assert.ok(snippet, `${file}: an embed snippet`);
    const ws = widgets(snippet);
    assert.ok(ws.length >= 2, `${file}: its widgets`);
    for (const w of ws)
      assert.ok(w.inside.length >= 20, `${file}: <attention-playground${w.attrs}> has no fallback text`);
  }
});

test('a demo preset in the embed snippets is compact', () => {
  for (const [file, snippet] of Object.entries(SNIPPETS))
    for (const w of widgets(snippet)) {
      const preset = /\bpreset="([^"]*)"/.exec(w.attrs)?.[1];
      if (DEMOS.includes(preset ?? ''))
        assert.match(w.attrs, /\bcompact\b/, `${file}: preset="${preset}" without compact`);
    }
});

test("README's widgets section says how to serve the script and links to the Headers section", () => {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Widgets for blog posts'), readme.indexOf('## The command-line tool'));
  assert.match(section, /Access-Control-Allow-Origin/);
  assert.match(section, /same origin|own origin/);
  assert.match(section, /\(docs\/widgets\.md#headers\)/);
  assert.match(read('docs/widgets.md'), /^### Headers$/m, 'docs/widgets.md has the Headers section');
});

test('docs/widgets.md states the package size that npm pack measures', (t) => {
  if (!existsSync(resolve(ROOT, 'dist/attention-playground.js')))
    return t.skip('dist/ is not built (npm run build): nothing to measure');
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' }));
  const doc = read('docs/widgets.md');
  const m = /([\d.]+) MB packed, ([\d.]+) MB installed/.exec(doc);
  assert.ok(m, 'docs/widgets.md states "N MB packed, N MB installed"');
  const near = (said, bytes, what) =>
    assert.ok(
      Math.abs(Number(said) * 1e6 - bytes) / bytes < 0.05,
      `docs/widgets.md says ${said} MB ${what}; npm pack measures ${(bytes / 1e6).toFixed(2)} MB`,
    );
  near(m[1], pack.size, 'packed');
  near(m[2], pack.unpackedSize, 'installed');
});
