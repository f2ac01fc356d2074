// Export → PyTorch in the playground (core/torch/, docs/model-format.md "Export to PyTorch"): the
// button downloads one .py whose text holds the module, the loader and the stored held-out batch;
// with the model file beside it, Debian's torch (/usr/bin/python3, when installed) reproduces the
// engine's loss on that batch. An encoding without a PyTorch form is refused in the notice, by
// name, and nothing is downloaded. Screenshots of the toolbar with the button: 1280/375, light/dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startHarness, openPlayground, shotFourWays, RESULTS } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

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

test('Export → PyTorch downloads a .py with the class and the stored batch, and it runs', async () => {
  const { page, errors } = await openPlayground(h, '#task=copy&position=rope&normalization=softmax&d_model=16&layers=1');
  for (let i = 0; i < 3; i++) {
    await page.click('#step');
    await page.waitForFunction((n) => Number(document.getElementById('step-counter').textContent) >= n, i + 1);
  }
  assert.equal(await page.locator('#export-torch').textContent(), 'Export → PyTorch');
  const py = await downloadVia(page, '#export-torch', 'playground-model.py');
  assert.match(py.text, /^class Model\(nn\.Module\):/m);
  assert.match(py.text, /^def load_safetensors\(path\):/m);
  assert.match(py.text, /# ---- position encoding: rope/);
  assert.match(py.text, /^BATCH_INPUTS = \[\n {4}\[\d+(, \d+)*\],/m);
  assert.match(py.text, /^BATCH_TARGETS = \[/m);
  assert.match(py.text, /^ENGINE_LOSS, ENGINE_ACCURACY, STEP = [\d.e-]+, [\d.e-]+, 3$/m);
  if (hasTorch()) {
    const model = await downloadVia(page, '#export-model', 'playground-model-for-py.safetensors');
    const out = JSON.parse(execFileSync('/usr/bin/python3', [py.path, model.path], { encoding: 'utf8' }).trim().split('\n').pop());
    assert.equal(out.step, 3);
    assert.ok(Math.abs(out.loss - out.engine_loss) <= 1e-5 * out.engine_loss, `python ${out.loss} vs engine ${out.engine_loss}`);
  }
  await shotFourWays(page, 'playground-export-torch', 400);
  assert.deepEqual(errors, []);
});

test('an encoding without a PyTorch form is refused by name, with nothing downloaded', async () => {
  const { page, errors } = await openPlayground(h, '#task=copy&position=contextual1&d_model=16&layers=1');
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.click('#export-torch');
  await page.locator('#notice:text("cannot be exported to PyTorch")').waitFor();
  assert.match(await page.locator('#notice').textContent(), /position encoding 'contextual1' cannot be exported to PyTorch/);
  assert.equal(downloads, 0);
  assert.deepEqual(errors, []);
});
