// Export → PyTorch in the playground (core/torch/, docs/model-format.md "Export to PyTorch"): the
// button downloads one .py whose text holds the module, the loader and the stored held-out batch;
// with the model file beside it, Debian's torch (/usr/bin/python3, when installed) reproduces the
// engine's loss on that batch. Every entry exports (the refusal of an entry without a PyTorch form
// is tested natively, test_torch_export.cpp); performer with performer_redraw exports the features
// of the live session's latest draw, which no model file holds. Screenshots of the toolbar with the
// button: 1280/375, light/dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startHarness, openPlayground, shotFourWays, RESULTS } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** Download through a button and return the file's text and path. */
async function downloadVia(page, selector, name) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = resolve(RESULTS, name);
  await dl.saveAs(path);
  return { path, text: readFileSync(path, 'utf8') };
}

function hasTorch() {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** With torch: the downloaded .py run on the downloaded model gives the engine's loss (1e-5 rel). */
async function checkWithTorch(page, pyPath, name, step) {
  if (!hasTorch()) return;
  const model = await downloadVia(page, '#export-model', name);
  const out = JSON.parse(
    execFileSync('/usr/bin/python3', [pyPath, model.path], { encoding: 'utf8' }).trim().split('\n').pop(),
  );
  assert.equal(out.step, step);
  assert.ok(
    Math.abs(out.loss - out.engine_loss) <= 1e-5 * out.engine_loss,
    `python ${out.loss} vs engine ${out.engine_loss}`,
  );
}

/** n training steps through the toolbar. */
async function steps(page, n) {
  for (let i = 0; i < n; i++) {
    await page.click('#step');
    await page.waitForFunction((k) => Number(document.getElementById('step-counter').textContent) >= k, i + 1);
  }
}

test('Export → PyTorch downloads a .py with the class and the stored batch, and it runs', async () => {
  const { page, errors } = await openPlayground(
    h,
    '#task=copy&position=rope&normalization=softmax&d_model=16&layers=1',
  );
  await steps(page, 3);
  assert.equal(await page.locator('#export-torch').textContent(), 'Export → PyTorch');
  const py = await downloadVia(page, '#export-torch', 'playground-model.py');
  assert.match(py.text, /^class Model\(nn\.Module\):/m);
  assert.match(py.text, /^def load_safetensors\(path\):/m);
  assert.match(py.text, /# ---- position encoding: rope/);
  assert.match(py.text, /^BATCH_INPUTS = \[\n {4}\[\d+(, \d+)*\],/m);
  assert.match(py.text, /^BATCH_TARGETS = \[/m);
  assert.match(py.text, /^ENGINE_LOSS, ENGINE_ACCURACY, STEP = [\d.e-]+, [\d.e-]+, 3$/m);
  await checkWithTorch(page, py.path, 'playground-model-for-py.safetensors', 3);
  await shotFourWays(page, 'playground-export-torch', 400);
  assert.deepEqual(errors, []);
});

test('performer with redraw exports the live draw of its features, and the file reproduces the engine', async () => {
  const { page, errors } = await openPlayground(
    h,
    '#task=copy&position=rope&normalization=performer&performer_redraw=true&d_model=16&layers=1',
  );
  await steps(page, 3);
  const py = await downloadVia(page, '#export-torch', 'playground-performer.py');
  assert.match(py.text, /# ---- normalization: performer/);
  assert.match(py.text, /^FIXED_TENSORS = \[/m);
  assert.match(py.text, /^ {4}\("blocks\.0\.attn\.performer\.omega", \(\d+,\d+,\), \[-?\d/m);
  await checkWithTorch(page, py.path, 'playground-performer.safetensors', 3);
  assert.deepEqual(errors, []);
});
