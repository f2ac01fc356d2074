// The widget's copy of the site's stylesheet (web/build-widget.mjs pruneCss): the rules of the
// components the widget borrows, including those inside @container and @media blocks (a narrow
// widget's layout: the positions panel's head picker was lost when every @-rule was dropped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pruneCss } from '../../web/build-widget.mjs';

const KEEP = /^(\.pos-|\.kv)/;

test('top-level rules are kept when every selector matches', () => {
  const out = pruneCss(
    '.pos-a { color: red; }\n.layout, .pos-b { margin: 0; }\n/* .pos-c {} */ .kv { gap: 1px; }',
    KEEP,
  );
  assert.equal(out, '.pos-a { color: red; }\n.kv { gap: 1px; }');
});

test('@container and @media keep their matching rules and go when none matches', () => {
  const css = `@container (max-width: 559px) { .pos-pick { display: flex; } .layout { x: 1; } }
@media (prefers-color-scheme: dark) { :root { --bg: #000; } }
@media (max-width: 800px) { .kv { gap: 0; } }
@font-face { font-family: x; }`;
  assert.equal(
    pruneCss(css, KEEP),
    '@container (max-width: 559px) {\n.pos-pick { display: flex; }\n}\n@media (max-width: 800px) {\n.kv { gap: 0; }\n}',
  );
});

test("the site's stylesheet keeps the head picker's narrow layout in the widget", () => {
  const css = readFileSync(new URL('../../web/src/panels/style.css', import.meta.url), 'utf8');
  const out = pruneCss(css, /^(\.pos-)/);
  assert.match(out, /@container \(max-width: 559px\) \{\n\.pos-pick \{ display: flex; \}/);
  assert.match(out, /\.pos-heads > \.pos-head:not\(\.on\) \{ display: none; \}/);
});
