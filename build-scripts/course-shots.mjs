// The screenshots of docs/course.md (docs/course-*.png), taken from the built course (dist/, built
// when stale) in Chromium at 1100 px, light: each lesson scrolled to the widget its caption names,
// once that widget has trained its steps (its `trained` event; the permutation demo: both sides
// decided), and the index after lesson 1's check was passed for real (learned positions, trained).
//   node build-scripts/course-shots.mjs [name ...]   (only these, e.g. course-order)
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serveStatic } from '../tests/browser/static-server.mjs';
import { CHROMIUM_FLAGS } from '../tests/browser/harness.mjs';
import { until } from '../tests/browser/until.mjs';
import { ensureDist, DIST } from '../tests/browser/dist.mjs';

const DOCS = resolve(import.meta.dirname, '../docs');
const WAIT = 180000;
/** name: the lesson, its language, the widget the caption names and where its top sits in the window. */
const SHOTS = {
  'course-order': { slug: 'order', lang: 'en', widget: 'perm', top: 60 },
  'course-absolute': { slug: 'absolute', lang: 'en', widget: 'sinusoidal', top: 60 },
  'course-relative': { slug: 'relative', lang: 'en', widget: 'rope', top: 60 },
  'course-longer': { slug: 'longer', lang: 'en', widget: 'rope-scaled', top: 200 },
  'course-counting': { slug: 'counting', lang: 'en', widget: 'probe-softmax', top: 200 },
  'course-counting-zh': { slug: 'counting', lang: 'zh', widget: 'probe-l2', top: 120 },
  'course-comparison': { slug: 'comparison', lang: 'en', widget: 'lm-performer', top: 60 },
};

/** Every widget's `trained` event, recorded from the start. */
function recordTrained() {
  window.__trained = {};
  document.addEventListener(
    'trained',
    (e) => (window.__trained[/** @type {HTMLElement} */ (e.target).id] = true),
    true,
  );
}

/** A fresh page of the course in its own context. @param {import('playwright-core').Browser} browser */
async function open(browser, url, lang, height = 1000) {
  const ctx = await browser.newContext({
    viewport: { width: 1100, height },
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    colorScheme: 'light',
  });
  const page = await ctx.newPage();
  await page.addInitScript(recordTrained);
  await page.goto(url);
  await until(page, () => document.body.dataset.ready === 'true', 'the course page ready', { timeout: 30000 });
  return { ctx, page };
}

/** Scroll widget `id`'s top to `top` px and wait for it to have trained. */
async function trainedAt(page, id, top) {
  await page.evaluate(
    ([i, t]) => window.scrollBy(0, document.getElementById(i).getBoundingClientRect().top - t),
    [id, top],
  );
  await until(
    page,
    (i) => {
      const d = document.getElementById(i).shadowRoot?.querySelector('.apd-permutation')?.dataset;
      return d ? Boolean(d.outcomeNone && d.outcomeEncoding) : window.__trained[i] === true;
    },
    `${id} trained`,
    { arg: id, timeout: WAIT },
  );
  // the charts' last frame drawn
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The index, once lesson 1's check has passed (so it shows a passed mark and the way back). */
async function indexShot(browser, base) {
  const { ctx, page } = await open(browser, `${base}/course/order.html`, 'en');
  await page.evaluate(() => document.getElementById('order-check').scrollIntoView({ block: 'start' }));
  await until(page, () => document.getElementById('order-check').config !== null, 'the check model', {
    timeout: WAIT,
  });
  await page.locator('#order-check').locator('select#ctl-position').selectOption('learned');
  await until(page, () => document.getElementById('order-check').config?.position === 'learned', 'learned', {
    timeout: WAIT,
  });
  await page.evaluate(() => document.getElementById('order-check').play());
  await until(page, () => document.querySelector('aside[data-check]').dataset.passed === 'true', 'passed', {
    timeout: WAIT,
  });
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(`${base}/course/index.html`);
  await until(page, () => !document.querySelector('.course-continue').hidden, 'the way back to lesson 1');
  writeFileSync(resolve(DOCS, 'course-index.png'), await page.screenshot());
  await ctx.close();
}

const only = process.argv.slice(2);
const want = (/** @type {string} */ name) => !only.length || only.includes(name);
await ensureDist();
const server = await serveStatic(DIST);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  if (want('course-index')) await indexShot(browser, server.url);
  for (const [name, { slug, lang, widget, top }] of Object.entries(SHOTS)) {
    if (!want(name)) continue;
    const { ctx, page } = await open(browser, `${server.url}/course/${slug}.html`, lang);
    await trainedAt(page, widget, top);
    writeFileSync(resolve(DOCS, `${name}.png`), await page.screenshot());
    await ctx.close();
    console.log(`docs/${name}.png`);
  }
} finally {
  await browser.close();
  await server.close();
}
