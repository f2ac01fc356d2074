#!/usr/bin/env bash
# tests/native/cli_test.sh ATTNPLAY — the command-line tool end to end: list, train (--json,
# --out, --metrics), eval (with interventions), grads, sample, sweep, inspect (a figure as SVG and JSON:
# the page's SVG of the same numbers), and one-line errors with a non-zero exit.
set -uo pipefail
source "$(dirname "$0")/check.sh" "$@"

check "list --json names every family" bash -c "'$bin' list --json | grep -q '\"positions\"'"
list_plain() { # the first command a new user types: every family, the renamed fields, exit 0
  local out
  out=$("$bin" list) || { echo "list exited $?"; return 1; }
  for f in positions: normalizations: tasks: "renamed (old field name: new one):"; do
    [[ $out == *"$f"* ]] || { echo "list lacks $f"; return 1; }
  done
  [[ $out == *"norm_position"*"layernorm"* ]] || return 1
  out=$("$bin" list tasks) && [[ $out == *"mlm "* ]]
}
check "list (plain) prints every family and the renamed fields, and exits 0" list_plain
check "train copy (--json, --out, --metrics)" bash -c "'$bin' train --set task=copy --set steps=300 --set seq_len=12 --json --out '$dir/copy.safetensors' --metrics '$dir/m.csv' > '$dir/train.json'"
check "train --json: one name, one meaning (eval_seq_len is the length eval_* were measured at; eval_len only in config)" bash -c "tail -n 1 '$dir/train.json' | node -e 'const r=JSON.parse(require(\"fs\").readFileSync(0,\"utf8\"));process.exit(!(\"eval_len\" in r)&&r.eval_seq_len===12&&\"eval_len\" in r.config?0:1)'"
check "train --json has the promised keys" bash -c "tail -n 1 '$dir/train.json' | grep -q weights_sha256 && tail -n 1 '$dir/train.json' | grep -q tokens_per_s && tail -n 1 '$dir/train.json' | grep -q eval_accuracy"
check "metrics CSV has a row per step" bash -c "[ \$(wc -l < '$dir/m.csv') -eq 301 ]"
check "info lists every tensor of a config with its shape" bash -c "'$bin' info --set task=copy --set position=learned --set layers=1 | grep -q 'pos_emb.weight *\\[' && '$bin' info --model '$dir/copy.safetensors' --json | grep -q '\"parameter_count\"'"
check "heads prints a row per head, its labels' evidence and the thresholds" bash -c "out=\$('$bin' heads --model '$dir/copy.safetensors'); printf '%s' \"\$out\" | grep -q '^L0 H0 ' && printf '%s' \"\$out\" | grep -q '^L1 H1 ' && printf '%s' \"\$out\" | grep -q 'previous-token *prev_share >= 0.50' && printf '%s' \"\$out\" | grep -q 'induction *induction >= 0.40'"
check "heads --json: layers x heads of measures, labels and the thresholds" bash -c "'$bin' heads --model '$dir/copy.safetensors' --json | node -e 'const r=JSON.parse(require(\"fs\").readFileSync(0,\"utf8\"));const ok=r.step===300&&r.layers.length===2&&r.layers.every(l=>l.heads.length===2&&l.heads.every(h=>h.entropy>=0&&h.entropy<=1&&Array.isArray(h.labels)&&h.labels.every(x=>/threshold/.test(x.evidence))))&&r.thresholds.map(t=>t.label).join()===\"previous-token,first-token / sink,uniform,positional,induction\";process.exit(ok?0:1)'"
# The landing page's model (order, RoPE, one layer, 400 steps): a head whose induction share reaches
# the threshold is not labelled induction (no earlier layer has a previous-token head), and says why.
check "heads: no induction label without a previous-token head in an earlier layer; the head says why" bash -c "'$bin' train --set task=order --set position=rope --set steps=400 --out '$dir/order.safetensors' > /dev/null && out=\$('$bin' heads --model '$dir/order.safetensors') && ! printf '%s' \"\$out\" | grep -q '^ *induction: ' && printf '%s' \"\$out\" | grep -q 'not induction: .*no earlier layer has a previous-token head (it is in the first layer)' && '$bin' heads --model '$dir/order.safetensors' --json | node -e 'const r=JSON.parse(require(\"fs\").readFileSync(0,\"utf8\"));const hs=r.layers[0].heads;process.exit(hs.every(h=>!h.labels.some(x=>x.name===\"induction\"))&&hs.some(h=>h.induction>=0.4&&/first layer/.test(h.withheld??\"\"))?0:1)'"
check "eval of the saved model" bash -c "'$bin' eval --model '$dir/copy.safetensors' --json | grep -q token_accuracy"
check "the same seed gives the same weights" bash -c "'$bin' train --set task=copy --set steps=300 --set seq_len=12 --json | tail -n 1 | grep -q \$(tail -n 1 '$dir/train.json' | sed 's/.*weights_sha256\":\"\\([0-9a-f]*\\).*/\\1/')"
echo '{"inputs": [[1,2,3,4,5,6,10,10,10,10,10,10]], "targets": [[0,0,0,0,0,0,1,2,3,4,5,6]], "mask": [[0,0,0,0,0,0,1,1,1,1,1,1]]}' > "$dir/batch.json"
check "grads writes a safetensors file" bash -c "'$bin' grads --model '$dir/copy.safetensors' --batch '$dir/batch.json' --out '$dir/g.safetensors' && [ -s '$dir/g.safetensors' ]"
big="--set task=copy --set steps=5 --set seq_len=32 --set batch=16 --set d_model=64 --set heads=4 --json"
check "--threads 2 gives the same weights as 1, bit for bit (GEMMs and heads split)" bash -c "'$bin' train --threads 2 $big | tail -n 1 | grep -o 'weights_sha256\":\"[0-9a-f]*' > '$dir/t2' && '$bin' train $big | tail -n 1 | grep -o 'weights_sha256\":\"[0-9a-f]*' > '$dir/t1' && [ -s '$dir/t1' ] && cmp -s '$dir/t1' '$dir/t2'"
check "--threads out of range is refused, naming the range" bash -c "'$bin' train --threads 0 --set steps=1 2>&1 | grep -q 'threads.*not in range 1 to 16'"
check "train a text model and sample from it" bash -c "'$bin' train --set task=text --set steps=30 --set seq_len=16 --out '$dir/text.safetensors' > /dev/null && '$bin' sample --model '$dir/text.safetensors' --prompt 'The ' --tokens 12 --seed 3 > '$dir/s1' && [ -s '$dir/s1' ]"
# The text task without a file trains on the page's bundled corpus (written by the build; by
# build-scripts/corpus.mjs here if missing), and --json names it by path, size and sha256 instead of
# echoing 700 KB inside config; with no corpus there, one sentence naming --text-file, no training.
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$(node "$root/build-scripts/corpus.mjs")
check "train --set task=text with no file trains on the bundled corpus; --json gives its name, size and sha256" bash -c "'$bin' train --set task=text --set steps=5 --set seq_len=16 --json > '$dir/text.json' && [ \$(wc -c < '$dir/text.json') -lt 4000 ] && node -e '
const fs=require(\"fs\"),c=require(\"crypto\");const r=JSON.parse(fs.readFileSync(process.argv[1],\"utf8\"));const t=fs.readFileSync(process.argv[2]);
const ok=r.corpus.name===process.argv[2]&&r.corpus.bytes===t.length&&t.length>500000&&r.corpus.sha256===c.createHash(\"sha256\").update(t).digest(\"hex\")&&!(\"text\" in r.config)&&r.config.task===\"text\";
process.exit(ok?0:1)' '$dir/text.json' '$corpus'"
check "train --text-file --json names the file instead of echoing it" bash -c "'$bin' train --text-file '$corpus' --set steps=2 --set seq_len=16 --json | node -e 'const r=JSON.parse(require(\"fs\").readFileSync(0,\"utf8\"));process.exit(r.corpus.name===process.argv[1]&&!(\"text\" in r.config)?0:1)' '$corpus'"
check "train --set task=text without the bundled corpus: one sentence naming --text-file, nothing trained" bash -c "out=\$(ATTNPLAY_CORPUS='$dir/no-corpus.txt' '$bin' train --set task=text --set steps=5 --out '$dir/none.safetensors' 2>&1); [ \$? -ne 0 ] && [ ! -e '$dir/none.safetensors' ] && printf '%s' \"\$out\" | grep -q \"^attnplay: the text task needs a text: give one with --text-file FILE (UTF-8, at most 2 MiB); the page's corpus, $dir/no-corpus.txt, is missing\""
# --text-file: a file's text trains the text task; a missing, too short or too large file is one clear line.
for i in $(seq 40); do echo "The quick brown fox jumps over the lazy dog, and the dog sleeps on."; done > "$dir/fox.txt"
check "--text-file trains on the file's text (its alphabet is the vocabulary)" bash -c "'$bin' train --text-file '$dir/fox.txt' --set seq_len=16 --set steps=20 --out '$dir/fox.safetensors' > /dev/null && '$bin' sample --model '$dir/fox.safetensors' --prompt 'the lazy ' --tokens 4 > /dev/null && ! '$bin' sample --model '$dir/fox.safetensors' --prompt '@#' --tokens 4 2>/dev/null"
check "--text-file: a missing file is named" bash -c "'$bin' train --text-file '$dir/none.txt' 2>&1 >/dev/null | grep -q \"^attnplay: --text-file '$dir/none.txt' cannot be opened\""
printf 'The order of words carries meaning, said the book.\n' > "$dir/short.txt"
check "--text-file: a too short file says how many characters are needed" bash -c "out=\$('$bin' train --text-file '$dir/short.txt' --set seq_len=64 2>&1 >/dev/null); [ \$? -ne 0 ] && printf '%s' \"\$out\" | grep -q \"short.txt' does not fit: it must be a text of at least 641 characters (bytes) for seq_len 64\" && printf '%s' \"\$out\" | grep -q 'this one has 51 (6 held out)'"
head -c 2097153 /dev/zero | tr '\0' 'a' > "$dir/big.txt"
check "--text-file: a file above 2 MiB is refused before training" bash -c "'$bin' train --text-file '$dir/big.txt' 2>&1 >/dev/null | grep -q \"big.txt' holds 2097153 bytes; the limit is 2097152 bytes\""
check "--text-file with another task is refused" bash -c "'$bin' train --text-file '$dir/fox.txt' --set task=copy 2>&1 >/dev/null | grep -q 'trains the text task'"
# --task-file: a file of input -> output pairs trains the custom task; a bad line is named.
for a in a b c d; do for b in a b c d; do echo "$a $b -> $b $a"; done; done > "$dir/pairs.txt"
check "--task-file trains the custom task on the file's pairs (and eval reads it back)" bash -c "'$bin' train --task-file '$dir/pairs.txt' --set steps=30 --out '$dir/pairs.safetensors' --json | tail -n 1 | grep -q '\"task\":\"custom\"' && '$bin' eval --model '$dir/pairs.safetensors' --json | grep -q token_accuracy"
printf 'a b -> b a\na b c\n' > "$dir/badpairs.txt"
check "--task-file: a line without -> is named with its number" bash -c "'$bin' train --task-file '$dir/badpairs.txt' 2>&1 >/dev/null | grep -q \"badpairs.txt' does not fit: line 2: no '->'\""
check "sampling is seeded" bash -c "'$bin' sample --model '$dir/text.safetensors' --prompt 'The ' --tokens 12 --seed 3 | cmp -s - '$dir/s1'"
check "sweep runs a grid into a CSV" bash -c "'$bin' sweep --set task=probe --set steps=20 --grid 'position=none,learned seed=1,2' --out '$dir/sweep.csv' --jobs 2 > /dev/null && [ \$(wc -l < '$dir/sweep.csv') -eq 5 ]"
# The user's weights are never thrown away: a diverging run (exp attention, lr 0.05, no clip)
# still writes --out with the last good weights, marked as stopped, and exits 3.
check "a refused step exits 3 and still writes --out" bash -c "'$bin' train --set task=copy --set normalization=exp --set lr=0.05 --set warmup=0 --set clip=0 --set steps=300 --out '$dir/div.safetensors' 2> '$dir/div.err'; [ \$? -eq 3 ] && [ -s '$dir/div.safetensors' ] && grep -q 'Saved them to' '$dir/div.err' && grep -q -- '--resume' '$dir/div.err'"
check "the stopped file loads, says it stopped, and evaluates" bash -c "'$bin' eval --model '$dir/div.safetensors' | grep -q 'stopped at step'"
check "--resume with a lower lr and clip continues it to the end" bash -c "'$bin' train --resume '$dir/div.safetensors' --set lr=0.001 --set clip=1 --set steps=40 --json | tail -n 1 | grep -q '\"steps\":40'"
check "--resume refuses a field the file's weights do not fit, naming the tensor" bash -c "'$bin' train --resume '$dir/div.safetensors' --set d_model=64 2>&1 | grep -q \"tensor 'tok_emb.weight' has shape \\[[0-9]*,32\\] but this config needs \\[[0-9]*,64\\]\""
# A short fine-tune at a longer length: --resume with seq_len and RoPE scaling. With rope_train_len
# the PI positions are trained on (other weights than a plain fine-tune); without it, the scaling
# applies only at evaluation past the (new) training length, so the fine-tune is the plain one.
ft="--set task=copy_back --set position=rope --set seq_len=16 --set eval_len=16 --set steps=60"
"$bin" train $ft --out "$dir/ft0.safetensors" > /dev/null
sha() { "$bin" train --resume "$dir/ft0.safetensors" --set seq_len=64 --set eval_len=64 --set steps=80 "$@" --json | tail -n 1 | grep -o 'weights_sha256":"[0-9a-f]*'; }
check "--resume --set seq_len=64 fine-tunes at the longer length" bash -c "'$bin' train --resume '$dir/ft0.safetensors' --set seq_len=64 --set eval_len=64 --set steps=80 --json | tail -n 1 > '$dir/ft.json' && grep -q '\"steps\":80,' '$dir/ft.json' && grep -q '\"seq_len\":64,' '$dir/ft.json'"
plain=$(sha); pi_eval=$(sha --set rope_scaling=pi --set rope_factor=4); pi_tuned=$(sha --set rope_scaling=pi --set rope_factor=4 --set rope_train_len=16)
check "PI with rope_train_len trains on interpolated positions; without it, only evaluation scales" bash -c "[ ${#plain} -gt 70 ] && [ '$plain' = '$pi_eval' ] && [ '$plain' != '$pi_tuned' ] && [ ${#pi_tuned} -gt 70 ]"
"$bin" train --set task=copy --set steps=80 --set dropout=0.1 --json 2>/dev/null | tail -n 1 > "$dir/full.json"
"$bin" train --set task=copy --set steps=40 --set dropout=0.1 --out "$dir/half.safetensors" > /dev/null 2>&1
full=$(sed 's/.*weights_sha256":"\([0-9a-f]*\).*/\1/' "$dir/full.json")
check "--resume is bit-identical to an uninterrupted run" bash -c "[ ${#full} -eq 64 ] && '$bin' train --resume '$dir/half.safetensors' --set steps=80 --json | tail -n 1 | grep -q '$full'"
# Finite but huge weights (every float of the file set to 3e38) overflow the forward pass:
# eval and sample fail with a message and a non-zero exit instead of printing NaN or tokens.
node -e "const fs=require('fs');const b=fs.readFileSync(process.argv[1]);const n=Number(b.readBigUInt64LE(0));for(let o=8+n;o+4<=b.length;o+=4)b.writeFloatLE(3e38,o);fs.writeFileSync(process.argv[2],b)" "$dir/text.safetensors" "$dir/huge.safetensors"
check "eval of a model that overflows fails clearly" bash -c "out=\$('$bin' eval --model '$dir/huge.safetensors' 2>&1); [ \$? -ne 0 ] && printf '%s' \"\$out\" | grep -q 'overflow' && ! printf '%s' \"\$out\" | grep -qi 'loss -\\?nan'"
check "sample of a model that overflows prints no tokens" bash -c "out=\$('$bin' sample --model '$dir/huge.safetensors' --prompt 'The ' --tokens 5 2>/dev/null); rc=\$?; [ \$rc -ne 0 ] && [ -z \"\$out\" ]"
# inspect: a model file's figure as the playground's Download gives it (SVG and the JSON of its numbers).
"$bin" train --set task=copy --set steps=60 --set seq_len=8 --set position=alibi --set causal=false --set layers=2 --set heads=2 --out "$dir/fig.safetensors" --frames "$dir/figframes" > /dev/null
check "inspect --format svg: well-formed SVG, T×T cells, axis titles and a colour bar" bash -c "'$bin' inspect --model '$dir/fig.safetensors' --what attention --layer 1 --head 1 --format svg --out '$dir/att.svg' && python3 -c \"
import xml.etree.ElementTree as ET, sys
r = ET.parse(sys.argv[1]).getroot(); ns = '{http://www.w3.org/2000/svg}'
cls = lambda c: [e for e in r.iter() if e.get('class') == c]
texts = [e.text for e in r.iter(ns + 'text')]
assert r.tag == ns + 'svg', r.tag
assert len(cls('cell')) == 8 * 8, len(cls('cell'))
assert len(cls('colorbar')) == 1 and 'key' in texts and 'query' in texts and 'weight:' in texts, texts
\" '$dir/att.svg'"
check "inspect --format json: the session's attention (the last replay frame's), rows summing to 1" bash -c "'$bin' inspect --model '$dir/fig.safetensors' --what attention --layer 1 --head 1 --format json --out '$dir/att.json' && python3 -c \"
import json, sys
d = json.load(open(sys.argv[1])); frame = json.load(open(sys.argv[2]))
assert d['format'] == 'attnplay-figure' and d['rows'] == d['cols'] == 8
assert d['values'] == frame['attention']['layers'][1]['heads'][1]['weights'], 'not the session\\'s attention'
assert d['row_labels'] == frame['attention']['tokens']
assert all(abs(sum(r) - 1) < 1e-5 for r in d['values'])
\" '$dir/att.json' '$dir/figframes/step-000060.json'"
for args in "--what attention --layer 1 --head 1" "--what attention --values logits" "--what positions --head 1"; do
  check "inspect $args: the CLI's SVG is the page's SVG of the same numbers" bash -c "'$bin' inspect --model '$dir/fig.safetensors' $args --format json --out '$dir/f.json' && '$bin' inspect --model '$dir/fig.safetensors' $args --out '$dir/f.svg' && node --no-warnings '$(dirname "$0")/figure_compare.mjs' '$dir/f.json' '$dir/f.svg' > /dev/null"
done
for args in "--what attention --layer 1 --head 1" "--what attention --values logits" "--what positions --head 1"; do
  check "inspect $args --format csv: the page's CSV of the same numbers" bash -c "'$bin' inspect --model '$dir/fig.safetensors' $args --format json --out '$dir/f.json' && '$bin' inspect --model '$dir/fig.safetensors' $args --format csv --out '$dir/f.csv' && node --no-warnings '$(dirname "$0")/figure_compare.mjs' '$dir/f.json' '$dir/f.csv' > /dev/null"
done
check "inspect: an unknown matrix is named with the ones there are" bash -c "'$bin' inspect --model '$dir/fig.safetensors' --what positions --key slopes 2>&1 >/dev/null | grep -q \"no matrix 'slopes'; its matrices: bias\""
check "inspect: a head out of range says the range" bash -c "'$bin' inspect --model '$dir/fig.safetensors' --head 5 2>&1 >/dev/null | grep -q 'head must be from 0 to 1'"
for bad in "train --set heads=3" "train --set position=wat" "train --set bogus=1" "eval --model /nonexistent" "train --set lr=fast"; do
  check "bad arguments '$bad' exit non-zero with one line" bash -c "out=\$('$bin' $bad 2>&1 >/dev/null); rc=\$?; [ \$rc -ne 0 ] && [ \$(printf '%s\n' \"\$out\" | wc -l) -le 2 ] && ! printf '%s' \"\$out\" | grep -qi 'terminate\\|abort\\|core dumped'"
done
# Bounded JSON (core/io/json.cpp): a config file, or a model file's config, nested 10000 or
# 100000 levels deep is refused in one line that names the input and the limit (it once crashed
# with SIGSEGV); JSON errors say where and why; a bad grads batch names the entry.
json_error() { # expected-text command...: exit 1..127 (not a signal), one line, holding the text
  local want=$1 out rc; shift
  out=$("$@" 2>&1 >/dev/null); rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -qF -- "$want"
}
for d in 10000 100000; do
  node -e 'const d=+process.argv[1];process.stdout.write("{\"task\":\"copy\",\"lr\":"+"[".repeat(d)+"1"+"]".repeat(d)+"}")' $d > "$dir/deep$d.json"
  node -e 'const fs=require("fs");const [src,dst,d]=process.argv.slice(1);const b=fs.readFileSync(src);const n=Number(b.readBigUInt64LE(0));
    const h=JSON.parse(b.subarray(8,8+n).toString());const c=JSON.parse(h.__metadata__.config);c.lr="DEEP";
    h.__metadata__.config=JSON.stringify(c).replace("\"DEEP\"","[".repeat(+d)+"1"+"]".repeat(+d));
    let t=JSON.stringify(h);t+=" ".repeat((8-t.length%8)%8);const len=Buffer.alloc(8);len.writeBigUInt64LE(BigInt(t.length));
    fs.writeFileSync(dst,Buffer.concat([len,Buffer.from(t),b.subarray(8+n)]))' "$dir/copy.safetensors" "$dir/deep$d.safetensors" $d
  check "train --config nested $d deep: one line naming the limit" json_error "config file '$dir/deep$d.json': JSON nests arrays and objects deeper than the limit of 64 levels" "$bin" train --config "$dir/deep$d.json"
  check "eval of a model whose config nests $d deep: one line" json_error "model file: metadata 'config': JSON nests arrays and objects deeper than the limit of 64" "$bin" eval --model "$dir/deep$d.safetensors"
  check "sample of a model whose config nests $d deep: one line" json_error "model file: metadata 'config': JSON nests" "$bin" sample --model "$dir/deep$d.safetensors" --prompt '1 2'
done
printf '{"task": "copy",\n "lr": 0.1,\n}' > "$dir/bad.json"
check "a JSON error in a config file gives the byte, line, column and reason" json_error "config file '$dir/bad.json': not valid JSON at byte 30 (line 3, column 1): syntax error" "$bin" train --config "$dir/bad.json"
head -c 9000000 /dev/zero | tr '\0' ' ' > "$dir/huge.json"
check "a config file above 4 MiB is refused before it is read" json_error "9000000 bytes of JSON are above the limit of 4194304 bytes" "$bin" train --config "$dir/huge.json"
echo '{"inputs": [[1,2,3]], "targets": [[1,"x",3]]}' > "$dir/badbatch.json"
check "a bad grads batch names the entry, no library exception" json_error "batch: targets[0][1]: 'x' is not a whole number" "$bin" grads --model "$dir/copy.safetensors" --batch "$dir/badbatch.json" --out "$dir/g2.safetensors"
# The replay's frames as JSON files (core/session/frames.cpp), at log-spaced steps.
check "train --frames writes valid JSON files at the log-spaced steps (0, 1, 2, 4 ... 256, 300; at most 64)" bash -c "'$bin' train --set task=copy --set seq_len=12 --set steps=300 --frames '$dir/frames' > /dev/null && node '$(dirname "$0")/frames_check.mjs' '$dir/frames' 300"
check "train --frames into a path that is a file: one line naming it" json_error "--frames: cannot create the folder '$dir/m.csv'" "$bin" train --set task=copy --set steps=2 --frames "$dir/m.csv"
# --snapshots, the option's old name, still works: the same files, byte for byte, and a note on stderr (stdout unchanged).
check "train --snapshots (the old name of --frames) writes the same frames and says it is the old name" bash -c "'$bin' train --set task=copy --set seq_len=12 --set steps=300 --snapshots '$dir/snaps' --json > '$dir/snaps.out' 2> '$dir/snaps.err' && diff -r '$dir/frames' '$dir/snaps' && grep -q -- '--snapshots is the old name of --frames' '$dir/snaps.err' && tail -n 1 '$dir/snaps.out' | grep -q '^{' && ! grep -q -- '--snapshots' '$dir/snaps.out'"
check "train --frames and --snapshots together are refused" bash -c "! '$bin' train --set steps=2 --frames '$dir/f1' --snapshots '$dir/f2' > /dev/null 2>&1"
# Head interventions (core/session_interventions.cpp): with and without, JSON, one-line errors.
check "eval --ablate prints the loss with and without" bash -c "'$bin' eval --model '$dir/copy.safetensors' --ablate 0.0 --ablate 0.1 | grep -q 'loss .* -> '"
check "eval --intervene --json has base and intervened" bash -c "'$bin' eval --model '$dir/copy.safetensors' --intervene '{\"layer\":0,\"head\":1,\"kind\":\"uniform\"}' --json | grep -q '\"intervened\":{'"
check "eval --ablate of a head out of range: one line" json_error "interventions[0].layer: 5 is out of range; this model has layers 0 to 1" "$bin" eval --model "$dir/copy.safetensors" --ablate 5.0
check "eval --intervene with an unknown kind lists the kinds" json_error "the kinds are zero, uniform, previous, position, offset, patch" "$bin" eval --model "$dir/copy.safetensors" --intervene '{"layer":0,"head":0,"kind":"melt"}'
echo "cli: $passes passed, $fails failed"
[ $fails -eq 0 ]
