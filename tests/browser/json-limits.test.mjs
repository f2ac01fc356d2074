// Deeply nested JSON in the playground (issue 13, part 2): a config file nested 100000 levels
// deep, inside a field or at the top, is refused with a notice that says why, and a model file
// whose config metadata nests 100000 deep is refused by the engine naming the metadata and the
// limit (it once threw a RangeError that named nothing). After each, the page is as it was:
// a good config imports and the model trains. No page errors. Screenshots in test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot, ready } from './harness.mjs';
import { loadModule } from '../node/load.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const nested = (depth) => '['.repeat(depth) + '1' + ']'.repeat(depth);
const jsonFile = (name, text) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
const notice = (page, text) => page.locator('#notice', { hasText: text }).waitFor({ timeout: 20000 });
const counter = async (page) => Number(await page.locator('#step-counter').textContent());

// A tiny model file from the Node build of the engine, its metadata "config" replaced.
async function modelWithConfig(configText) {
  const m = await loadModule('simd');
  const s = new m.Session(
    JSON.stringify({ task: 'copy', d_model: 16, heads: 2, layers: 1, ffn: 16, seq_len: 8, eval_every: 0 }),
  );
  const bytes = Buffer.from(s.save());
  s.delete();
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString());
  header.__metadata__.config = configText;
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(Buffer.byteLength(text)));
  return Buffer.concat([len, Buffer.from(text), bytes.subarray(8 + n)]);
}

/** The page still works: a good config file imports, and Play trains it to its 5 steps. */
async function stillUsable(page, name) {
  await page.setInputFiles('#import-config', jsonFile(name, '{"task":"copy","seed":2,"steps":5}'));
  await notice(page, `Loaded ${name}`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 5, null, {
    timeout: 60000,
  });
  assert.equal(await counter(page), 5);
}

test(
  'a config file nested 100000 deep is refused with a clear notice; the page stays usable',
  { timeout: 180000 },
  async () => {
    const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
    await ready(page);
    await page.setInputFiles('#import-config', jsonFile('deep-field.json', `{"task":"copy","lr":${nested(100000)}}`));
    await notice(page, 'deep-field.json');
    assert.match(
      await page.locator('#notice').textContent(),
      /Ignored from deep-field\.json: lr \(expected a number\)/,
    );
    await ready(page);
    await page.setInputFiles('#import-config', jsonFile('deep-top.json', nested(100000)));
    await notice(page, 'deep-top.json');
    assert.match(
      await page.locator('#notice').textContent(),
      /deep-top\.json.*(not a JSON object|expected a JSON object)/,
    );
    await shot(page, 'json-limits-deep-config');
    await stillUsable(page, 'good-after-deep-config.json');
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'a model file whose config nests 100000 deep is refused, naming the metadata and the limit',
  { timeout: 180000 },
  async () => {
    const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
    await ready(page);
    const buffer = await modelWithConfig(`{"task":"copy","lr":${nested(100000)}}`);
    await page.setInputFiles('#import-model', {
      name: 'deep-model.safetensors',
      mimeType: 'application/octet-stream',
      buffer,
    });
    await notice(page, 'Could not import deep-model.safetensors');
    assert.match(
      await page.locator('#notice').textContent(),
      /model file: metadata 'config': JSON nests arrays and objects deeper than the limit of 64 levels \(at byte \d+\)/,
    );
    await shot(page, 'json-limits-deep-model');
    await ready(page);
    await stillUsable(page, 'good-after-deep-model.json');
    assert.deepEqual(errors, []);
    await page.close();
  },
);
