// tests/native/frames_check.mjs DIR STEPS — checks what `attnplay train --frames DIR` wrote
// for a run of STEPS steps: index.json lists every file; each file is valid JSON whose step is the
// one in its name and holds attention (tokens, T×T weights per head), positions and a prediction;
// the steps are the log-spaced ones: 0, every power of two up to STEPS, and STEPS itself; at most
// 64 files. Exit code 1 with the reason otherwise (used by cli_test.sh).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, stepsArg] = process.argv.slice(2);
const steps = Number(stepsArg);
const fail = (why) => {
  console.error(`frames_check: ${why}`);
  process.exit(1);
};
const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
const files = readdirSync(dir)
  .filter((f) => /^step-\d{6}\.json$/.test(f))
  .sort();
if (files.length !== index.files.length)
  fail(`index lists ${index.files.length} files, the folder has ${files.length}`);
if (files.length > 64) fail(`${files.length} files, more than 64`);
const seen = files.map((f) => {
  const frame = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  if (frame.step !== Number(f.slice(5, 11))) fail(`${f} holds step ${frame.step}`);
  const T = frame.attention.tokens.length;
  const w = frame.attention.layers[0].heads[0].weights;
  if (w.length !== T || w[0].length !== T) fail(`${f}: weights are not ${T}×${T}`);
  if (!frame.positions?.describe || !frame.prediction?.inputs) fail(`${f}: positions or prediction missing`);
  return frame.step;
});
const want = [0, steps];
for (let p = 1; p <= steps; p *= 2) want.push(p);
for (const s of want) if (!seen.includes(s)) fail(`no file for step ${s} (have ${seen.join(' ')})`);
for (let k = 1; k < seen.length; k++) if (seen[k] <= seen[k - 1]) fail('steps are not ascending');
console.log(`frames_check: ${files.length} files at steps ${seen.join(' ')}`);
