// The custom task in a widget (issue 19 part 4: "the widgets all work with it"): pairs given in
// the custom-pairs attribute (newlines in the attribute, as HTML allows) become the widget's task,
// its vocabulary the pairs' tokens, and the model learns them; pairs the engine refuses are an
// error that names the line, and the page around the widget is untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { page as fixture, startWidgetServer } from './widget-fixtures.mjs';

/** Reverse three letters: 125 pairs ("a c e -> e c a"); letters only, so nothing here is a built-in token. */
const L = ['a', 'b', 'c', 'd', 'e'];
const PAIRS = L.flatMap((x) => L.flatMap((y) => L.map((z) => `${x} ${y} ${z} -> ${z} ${y} ${x}`))).join('\n');
const PAGES = {
  '/fixtures/custom.html': fixture(
    `<attention-playground id="w" task="custom" custom-pairs="${PAIRS}" steps="600" view="chart" autoplay></attention-playground>`,
  ),
  '/fixtures/custom-bad.html': fixture(
    '<p id="before">text</p><attention-playground id="w" task="custom" custom-pairs="a b -> b a\nb a"></attention-playground>',
  ),
};

let server;
before(async () => {
  server = await startWidgetServer(PAGES);
});
after(() => server?.close());

test('a widget trains the custom task on the pairs of its attribute', async () => {
  const { page, errors } = await server.open('/fixtures/custom.html', { console: [] });
  await page.waitForFunction(() => document.getElementById('w').currentStep >= 600, null, { timeout: 120000 });
  const m = await page.evaluate(async () => {
    const model = document.getElementById('w').app.run.model;
    return { config: model.info.config, vocab: model.info.vocab, held: await model.evaluate() };
  });
  assert.equal(m.config.task, 'custom');
  assert.equal(m.config.custom_pairs, PAIRS, "the attribute's pairs, newlines kept");
  for (const t of [...L, '->']) assert.ok(m.vocab.includes(t), `the vocabulary holds ${t}: ${m.vocab}`);
  assert.ok(m.held.token_accuracy >= 0.9, `held-out pairs are reversed: token accuracy ${m.held.token_accuracy}`);
  assert.deepEqual(errors, []);
});

test('pairs the engine refuses are an error naming the line, and the page stays', async () => {
  const { page } = await server.open('/fixtures/custom-bad.html');
  const message = await page.waitForFunction(() => document.getElementById('w').error, null, { timeout: 60000 });
  assert.match(String(await message.jsonValue()), /custom_pairs.*line 2: no '->'/);
  assert.equal(await page.locator('#before').textContent(), 'text');
});
