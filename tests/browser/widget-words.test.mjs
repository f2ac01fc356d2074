// What a reader of a widget met in issue 44, served from dist/ as on any host:
// - the Generate view ran its labels and inputs together ("tokens[32]temperature[0.8]top-k (0 =
//   all)[0]seed"): each input has a label tied to it, and each label stands clear of the input
//   before it (1280 and 375 px; screenshots test-results/widget-words-generate-*.png);
// - a Chinese widget (lang="zh") explained a bad attribute in English under its Chinese heading:
//   the explanation is Chinese, with the attribute as written and its allowed values.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RESULTS, until } from './harness.mjs';
import { page as fixture, startWidgetServer } from './widget-fixtures.mjs';

const PAGES = {
  '/fixtures/words-generate.html': fixture(
    '<attention-playground id="w" task="text" seq-len="16" steps="20" view="chart,generate"></attention-playground>',
  ),
  '/fixtures/words-zh-bad.html': fixture(
    `<attention-playground id="choice" lang="zh" position="warp"></attention-playground>
     <attention-playground id="number" lang="zh" d-model="lots"></attention-playground>
     <attention-playground id="view" lang="zh" view="chart,nonsense"></attention-playground>
     <attention-playground id="unknown" lang="zh" bogus="1"></attention-playground>`,
  ),
};

let server;
before(async () => {
  server = await startWidgetServer(PAGES);
});
after(() => server?.close());

test('the Generate view: every input has its own label, clear of the input before it', async () => {
  for (const width of [1280, 375]) {
    const { page, errors } = await server.open('/fixtures/words-generate.html', { width });
    const fields = await until(
      page,
      () => {
        const root = document.getElementById('w').shadowRoot;
        const inputs = [...(root?.querySelectorAll('.gen-options input') ?? [])];
        if (inputs.length < 4 || !inputs[0].getBoundingClientRect().width) return null;
        /** The box of a label's own words (not of an input inside it). */
        const wordsBox = (label) => {
          const r = document.createRange();
          const texts = [...label.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
          if (!texts.length) return null;
          r.setStartBefore(texts[0]);
          r.setEndAfter(texts[texts.length - 1]);
          const b = r.getBoundingClientRect();
          return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
        };
        const box = (e) => {
          const b = e.getBoundingClientRect();
          return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
        };
        return inputs.map((i) => ({
          id: i.id,
          labels: [...i.labels].map((l) => l.textContent.trim()),
          words: i.labels[0] ? wordsBox(i.labels[0]) : null,
          input: box(i),
        }));
      },
      'the Generate view with its four number inputs laid out',
      { timeout: 60000 },
    );
    /** The gap between two boxes (px; negative: they overlap). */
    const gap = (a, b) => Math.max(b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom);
    for (const [i, f] of fields.entries()) {
      assert.equal(f.labels.length, 1, `${width} px: input #${f.id} has one label (${JSON.stringify(f.labels)})`);
      assert.ok(f.labels[0] && f.words, `${width} px: the label of #${f.id} has words`);
      assert.ok(gap(f.words, f.input) >= 0, `${width} px: the label of #${f.id} overlaps its input`);
      if (i > 0)
        assert.ok(
          gap(fields[i - 1].input, f.words) >= 6,
          `${width} px: the label "${f.labels[0]}" stands ${gap(fields[i - 1].input, f.words).toFixed(1)} px from the input before it (#${fields[i - 1].id}); want at least 6`,
        );
    }
    await page.locator('#w').screenshot({ path: `${RESULTS}/widget-words-generate-${width}.png` });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a Chinese widget explains a bad attribute in Chinese, naming the attribute and what is allowed', async () => {
  const { page, errors } = await server.open('/fixtures/words-zh-bad.html');
  const alerts = await until(
    page,
    () => {
      const out = {};
      for (const w of document.querySelectorAll('attention-playground')) {
        const box = w.shadowRoot?.querySelector('[role="alert"]');
        if (!box) return null;
        out[w.id] = {
          head: box.querySelector('strong').textContent,
          items: [...box.querySelectorAll('li')].map((l) => l.textContent),
          event: w.error,
        };
      }
      return out;
    },
    'the four widgets to explain their bad attributes',
    { timeout: 60000 },
  );
  for (const [id, a] of Object.entries(alerts)) {
    assert.equal(a.head, '这个组件无法启动。', id);
    assert.equal(a.items.length, 1, `${id}: ${a.items.join(' | ')}`);
  }
  const choice = alerts.choice.items[0];
  assert.match(choice, /^position="warp"：不是允许的值之一：none, learned, .*rope/);
  // Its words, without the attribute as written and the list of allowed values, are Chinese.
  const words = choice.replace(/^position="warp"/, '').replace(/：[a-z0-9_, ]+。$/, '');
  assert.deepEqual(words.match(/[A-Za-z]{3,}/g), null, `English words in "${choice}"`);
  assert.match(alerts.number.items[0], /^d-model="lots"：不是数字。$/);
  assert.match(alerts.view.items[0], /^view="chart,nonsense"：未知的面板 nonsense。可用的面板：chart, attention, /);
  assert.match(alerts.unknown.items[0], /^bogus="1"：未知的属性。/);
  // The API's messages (the error event, widget.error) stay in English, as documented.
  assert.match(alerts.choice.event, /position="warp": not one of none, learned/);
  assert.deepEqual(errors, []);
  await page.close();
});
