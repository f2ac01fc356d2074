// tests/node/reserve-prototype.test.mjs — a widget's reserved height from attributes that name
// Object.prototype's members (view="toString", position="constructor", preset="__proto__" ...):
// a finite height, never a throw (which left the widget on its placeholder with no error event).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './load.mjs';

// reserve.js imports its JSON as Vite does; Node needs the JSON handed to it, so the module is
// loaded from a data: URL with that import replaced by the file's contents.
async function loadReserve() {
  const dir = join(ROOT, 'web/src/widgets');
  const json = readFileSync(join(dir, 'reserve-heights.json'), 'utf8');
  const props = new URL(`file://${join(ROOT, 'web/src/state/properties.js')}`).href;
  const src = readFileSync(join(dir, 'reserve.js'), 'utf8')
    .replace("import MEASURED from './reserve-heights.json';", `const MEASURED = ${json};`)
    .replace("from '../state/properties.js'", `from '${props}'`);
  return import(`data:text/javascript;base64,${Buffer.from(src).toString('base64')}`);
}

const NAMES = Object.getOwnPropertyNames(Object.prototype);

test('every Object.prototype name through every attribute gives a finite reserved height', async () => {
  const { reserveHeight } = await loadReserve();
  const attrs = ['preset', 'view', 'task', 'position', 'normalization', 'controls'];
  for (const name of NAMES)
    for (const a of attrs)
      for (const width of [329, 700, 1280]) {
        const attr = (/** @type {string} */ k) => (k === a ? name : null);
        let h;
        assert.doesNotThrow(() => (h = reserveHeight(attr, width, false, [a], 'en')), `${a}="${name}"`);
        assert.ok(Number.isFinite(h) && h > 0, `${a}="${name}" at ${width} px: a finite height, not ${h}`);
        assert.doesNotThrow(() => reserveHeight(attr, width, true, [a], 'zh'), `${a}="${name}", compact, zh`);
      }
});
