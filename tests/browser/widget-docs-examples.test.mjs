// The examples of docs/widgets.md that drive a widget ("Driving a widget") or its frame ("The iframe
// route") run as written: the code blocks are read from the docs file, so the docs cannot drift
// from what works. Only the placeholders change: https://your.host/attention-playground becomes
// the test's static server (dist/, on 127.0.0.1) and https://blog.example the host page's origin
// (localhost: another origin than the frame's). Each example's effect is asserted as a reader
// would see it: the encoding switched to RoPE, training under way, the console lines it logs, the
// frame fitted to its height.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './harness.mjs';
import { until as untilFact } from './until.mjs';
import { SCRIPT, startWidgetServer } from './widget-fixtures.mjs';

const FAILS_ON = ['error', 'warning'];

/** The fenced code blocks of each `## ` section of a markdown text: {section: [{lang, code}]}. */
function blocks(md) {
  /** @type {Record<string, {lang: string, code: string}[]>} */
  const out = {};
  let section = '';
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  const headings = [...md.matchAll(/^## (.+)$/gm)].map((m) => ({ at: m.index, name: m[1] }));
  for (const m of md.matchAll(fence)) {
    section = headings.filter((h) => h.at < m.index).at(-1)?.name ?? '';
    (out[section] ??= []).push({ lang: m[1], code: m[2] });
  }
  return out;
}

const DOCS = blocks(readFileSync(resolve(ROOT, 'docs/widgets.md'), 'utf8'));
const driving = DOCS['Driving a widget'] ?? [];
const iframe = DOCS['The iframe route'] ?? [];

let server;
let hostOrigin;
before(async () => {
  server = await startWidgetServer();
  hostOrigin = server.url.replace('127.0.0.1', 'localhost');
});
after(() => server?.close());

/** The example with its placeholders pointed at this test's servers. */
const placed = (code) =>
  code.replaceAll('https://your.host/attention-playground', server.url).replaceAll('https://blog.example', hostOrigin);

/** Serve `body` as a page of the host origin; open it, recording console lines. */
async function host(body, head = '') {
  const path = `/fixtures/docs-${Math.random().toString(36).slice(2)}.html`;
  server.extra.set(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}</head><body style="margin:0">${body}</body></html>`,
  );
  const { page: p, errors } = await server.open(`${hostOrigin}${path}`, {
    width: 1100,
    height: 1400,
    console: FAILS_ON,
  });
  const logs = [];
  p.on('console', (m) => m.type() === 'log' && logs.push(m.text()));
  return { page: p, errors, logs };
}
const frameOf = (p) => p.frames().find((x) => x.url().includes('/embed.html'));

/** Wait (bounded, 30 s) for a fact of this process (a console line, a frame), failing with `what`. */
const until = (fact, what) => untilFact(null, fact, what, { timeout: 30000 });

test('docs/widgets.md has the examples this test runs (a new one must be added here)', () => {
  assert.deepEqual(
    driving.map((b) => b.lang),
    ['js'],
    'Driving a widget',
  );
  assert.deepEqual(
    iframe.map((b) => b.lang),
    ['html', 'js', 'html'],
    'The iframe route',
  );
});

test('"Driving a widget": the example switches the widget to RoPE and trains it', async () => {
  const [example] = driving;
  const {
    page: p,
    errors,
    logs,
  } = await host(
    `<attention-playground preset="playground" steps="5000" height="80"></attention-playground><script type="module">${example.code}</script>`,
    SCRIPT,
  );
  const w = 'document.querySelector("attention-playground")';
  await p
    .waitForFunction(`${w}.app?.model?.info.config.position === 'rope'`, null, { timeout: 60000 })
    .catch(() => assert.fail('the example did not switch the widget to rope'));
  await p
    .waitForFunction(`${w}.currentStep >= 20`, null, { timeout: 60000 })
    .catch(() => assert.fail('the example did not start training'));
  await until(
    () => logs.some((l) => /^\d+ \d/.test(l)),
    `no console line "step loss": ${JSON.stringify(logs.slice(0, 3))}`,
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('"The iframe route": the frame example shows the widget, and the height example fits the frame', async () => {
  const [frameHtml, heightJs] = iframe;
  const { page: p, errors } = await host(
    `${placed(frameHtml.code)}<script type="module">${placed(heightJs.code)}</script>`,
  );
  await p
    .waitForFunction(() => document.querySelector('iframe').style.height !== '640px', null, { timeout: 60000 })
    .catch(() => assert.fail('the height example did not fit the frame'));
  const frame = await until(() => frameOf(p), 'no frame');
  await frame.waitForFunction(() => document.querySelector('attention-playground')?.status === 'ready', null, {
    timeout: 60000,
  });
  assert.equal(
    await frame.evaluate(() => document.querySelector('attention-playground').app?.model?.info.config.position),
    'alibi',
  );
  // Fitted to the frame's page (it reports every change; wait for the last one).
  await p
    .waitForFunction(() => parseFloat(document.querySelector('iframe').style.height) > 300, null, { timeout: 20000 })
    .catch(() => assert.fail('the frame was not fitted to the widget'));
  assert.deepEqual(errors, []);
  await p.close();
});

test('"Driving the frame": connectFrame, then setConfig and play at once, switch the frame to RoPE and train it', async () => {
  const example = iframe[2];
  assert.match(example.code, /connectFrame\(/);
  const { page: p, errors, logs } = await host(placed(example.code));
  const frame = await until(() => frameOf(p), 'no frame');
  await frame
    .waitForFunction(
      () => document.querySelector('attention-playground')?.app?.model?.info.config.position === 'rope',
      null,
      { timeout: 60000 },
    )
    .catch(() => assert.fail('setConfig right after connectFrame was lost'));
  await frame
    .waitForFunction(() => document.querySelector('attention-playground').currentStep >= 20, null, { timeout: 60000 })
    .catch(() => assert.fail('play right after connectFrame was lost (the link says autoplay=false)'));
  await until(
    () => logs.includes('the frame is ready'),
    `fig.ready did not resolve: ${JSON.stringify(logs.slice(0, 5))}`,
  );
  await until(
    () => logs.some((l) => /^\d+ \d/.test(l)),
    `the host heard no step event: ${JSON.stringify(logs.slice(0, 5))}`,
  );
  assert.deepEqual(errors, []);
  await p.close();
});
