#!/usr/bin/env bash
# tests/native/text_learning_test.sh ATTNPLAY — the text task's default setup learns language from
# the bundled corpus (the Jargon File, build-scripts/corpus.mjs): trained with its defaults and
# seed 1 through `attnplay train --text-file`, its held-out loss keeps falling (the mean of the last
# three evaluations is below the mean around a third of the steps, and below 2.08 nats = 3 bits
# per character), and its samples are words of the corpus's language, not copies of its lines
# (no 40-character span of a sample occurs in the corpus). Prints the held-out bits per character.
set -euo pipefail
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
corpus=$(node "$root/build-scripts/corpus.mjs" "$dir/jargon.txt")
"$bin" train --text-file "$corpus" --set seed=1 --metrics "$dir/m.csv" --out "$dir/m.safetensors" --json | tail -n 1 > "$dir/r.json"
for s in 1 2 3 4 5; do
  "$bin" sample --model "$dir/m.safetensors" --prompt 'The ' --tokens 300 --temperature 0.8 --seed "$s"
  echo
done > "$dir/samples.txt"
node - "$dir" "$corpus" <<'JS'
const fs = require('fs');
const [dir, corpusFile] = process.argv.slice(2);
const corpus = fs.readFileSync(corpusFile, 'utf8');
const r = JSON.parse(fs.readFileSync(`${dir}/r.json`, 'utf8'));
const rows = fs.readFileSync(`${dir}/m.csv`, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
const evals = rows.filter((c) => c[8] !== '').map((c) => ({ step: Number(c[0]), loss: Number(c[8]) }));
const steps = r.steps, third = Math.round(steps / 3);
const mean = (xs) => xs.reduce((s, e) => s + e.loss, 0) / xs.length;
const atThird = mean(evals.filter((e) => Math.abs(e.step - third) <= 100));
const atEnd = mean(evals.slice(-3));
const bpc = r.eval_loss / Math.log(2);
console.log(`text defaults (${steps} steps, seed 1): held-out loss ${atThird.toFixed(3)} nats around step ${third}, ` +
  `${atEnd.toFixed(3)} over the last three evaluations; final held-out ${r.eval_loss.toFixed(3)} nats = ${bpc.toFixed(3)} bits per character`);
let fails = 0;
const check = (ok, what) => { console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`); if (!ok) fails++; };
check(atEnd < atThird, `held-out loss keeps falling: ${atEnd.toFixed(3)} < ${atThird.toFixed(3)}`);
check(r.eval_loss < 2.08, `final held-out loss ${r.eval_loss.toFixed(3)} nats < 2.08 (3 bits per character)`);
const samples = fs.readFileSync(`${dir}/samples.txt`, 'utf8');
const words = new Set(corpus.toLowerCase().match(/[a-z]+/g));
const said = samples.toLowerCase().match(/[a-z]+/g) ?? [];
const known = said.filter((w) => words.has(w)).length / Math.max(1, said.length);
check(said.length > 150 && known > 0.5, `samples are words of the corpus: ${(100 * known).toFixed(0)}% of ${said.length} words`);
let copied = 0;
for (const s of samples.split('\n')) for (let i = 0; i + 40 <= s.length; i += 5) if (corpus.includes(s.slice(i, i + 40))) copied++;
check(copied === 0, `samples are not copies: ${copied} 40-character spans found in the corpus`);
console.log(samples.split('\n')[0].slice(0, 200));
process.exit(fails ? 1 : 0);
JS
