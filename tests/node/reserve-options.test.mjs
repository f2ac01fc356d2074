// The variant options that reserve.js reads (reserve-heights.json "options": which task, encoding
// or normalization shows a `controls` field) and the encodings' title lengths ("title_lengths":
// the subtitle's length) are the engine's: a field or title the registry changed fails here, with
// the command that writes them again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModule, ROOT } from './load.mjs';
import { variantOptions, titleLengths } from './reserve-options.mjs';
import REGISTRY from '../../web/src/state/registry.gen.js';

test("reserve-heights.json's variant options and encoding titles are the engine registry's", async () => {
  const table = JSON.parse(readFileSync(resolve(ROOT, 'web/src/widgets/reserve-heights.json'), 'utf8'));
  const registry = REGISTRY;
  assert.deepEqual(table.options, variantOptions(registry), 'run node build-scripts/measure-reserve.mjs --options');
  assert.deepEqual(table.options.rope_scaling, ['position', 'rope'], 'RoPE scaling shows with RoPE only');
  assert.deepEqual(table.title_lengths, titleLengths(registry), 'run node build-scripts/measure-reserve.mjs --options');
});
