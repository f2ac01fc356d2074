// tests/node/reserve-prototype.test.mjs — a widget's reserved height from attributes that name
// Object.prototype's members (view="toString", position="constructor", preset="__proto__" ...):
// a finite height, never a throw (which left the widget on its placeholder with no error event);
// and a widget written as one measured whole (reserve-heights.json tags) takes its row.
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
  const key = new URL(`file://${join(dir, 'reserve-key.js')}`).href;
  const src = readFileSync(join(dir, 'reserve.js'), 'utf8')
    .replace("import MEASURED from './reserve-heights.json';", `const MEASURED = ${json};`)
    .replace("from '../state/properties.js'", `from '${props}'`)
    .replace("from './reserve-key.js'", `from '${key}'`);
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

test('a widget written as a measured tag takes its row (steps, id, autoplay aside); another attribute leaves it', async () => {
  const { reserveHeight } = await loadReserve();
  const { reserveKey } = await import('../../web/src/widgets/reserve-key.js');
  const json = JSON.parse(readFileSync(join(ROOT, 'web/src/widgets/reserve-heights.json'), 'utf8'));
  const maps = {
    id: 'rope-long-maps',
    task: 'copy_back',
    'copy-back-k': '2',
    position: 'rope',
    'd-model': '32',
    heads: '4',
    layers: '1',
    'seq-len': '16',
    'eval-len': '64',
    steps: '600',
    'rope-factor': '4',
    view: 'attention',
    'inspect-len': 'eval-len',
    controls: 'play,reset,rope_scaling',
  };
  const attr = (/** @type {Record<string, string>} */ a) => (/** @type {string} */ k) => a[k] ?? null;
  for (const lang of ['en', 'zh']) {
    const row = json.tags[reserveKey(attr(maps), Object.keys(maps), lang)];
    assert.ok(row, `lesson 4's maps (${lang}) have a measured row`);
    assert.equal(reserveHeight(attr(maps), 375, false, Object.keys(maps), lang), row[1]);
    const other = { ...maps, steps: '20', autoplay: '', id: 'x' };
    assert.equal(
      reserveHeight(attr(other), 375, false, Object.keys(other), lang),
      row[1],
      'steps, autoplay and id aside',
    );
  }
  const more = { ...maps, layers: '2' };
  assert.notEqual(
    reserveKey(attr(more), Object.keys(more)),
    reserveKey(attr(maps), Object.keys(maps)),
    'another layout attribute is another widget',
  );
});
