#!/usr/bin/env bash
# tests/native/input_test.sh ATTNPLAY — bad input is refused before the work, not after it:
#  1. a --text-file / --task-file / --set text that is not UTF-8 is refused at once, naming the
#     line and the byte (every kind of broken UTF-8), instead of failing at save after training;
#  2. eval --set eval_len, train --eval-at and sweep --eval-at are held to memory_limit_mb before
#     anything runs (they used to end in std::bad_alloc, --eval-at after a whole training run);
#  3. no failure shows a library's exception text (json.exception, basic_string, bad_alloc ...);
#  4. no ESC, BEL or other control byte from a file (model metadata, a task file, a CSV header or
#     cell, sampled text) reaches stdout or stderr raw.
# Runs that would train are given a huge step count under a short timeout: if the check moved
# after training, the case fails by timing out, without hanging the suite.
set -uo pipefail
source "$(dirname "$0")/check.sh" "$@"
# Library texts that must never reach the user.
leak='json\.exception|basic_string|bad_alloc|std::|stoi|stol|stod|vector::|_M_|terminate called|what\(\)|filesystem error|parse error at line|type_error|out_of_range|length_error|Aborted|core dumped'
# refused EXPECTED CMD...: exits 1..127 within 60 s (not 124: the timeout), one line on stderr
# that starts "attnplay: " and holds EXPECTED (a grep -E pattern), no library text, no raw control
# byte, and nothing written to --out ($dir/out.*).
refused() {
  local want=$1; shift
  rm -f "$dir"/out.*
  timeout 60 "$@" > "$dir/stdout" 2> "$dir/stderr"
  local rc=$?
  [ $rc -ge 1 ] && [ $rc -le 120 ] || { echo "  exit code $rc"; return 1; }
  [ "$(wc -l < "$dir/stderr")" -eq 1 ] || { echo "  stderr:"; cat -v "$dir/stderr"; return 1; }
  grep -q '^attnplay: ' "$dir/stderr" || { cat -v "$dir/stderr"; return 1; }
  grep -Eq -- "$want" "$dir/stderr" || { echo "  expected /$want/ in:"; cat -v "$dir/stderr"; return 1; }
  ! grep -Eq -- "$leak" "$dir/stderr" || { echo "  library text in:"; cat -v "$dir/stderr"; return 1; }
  no_controls "$dir/stdout" "$dir/stderr" || return 1
  ! ls "$dir"/out.* > /dev/null 2>&1 || { echo "  --out was written"; return 1; }
}
# no_controls FILE...: no C0 control but newline and tab, no DEL, no C1 (raw 0x80-0x9F not inside
# a UTF-8 sequence, or U+0080..U+009F encoded), so no escape sequence can reach a terminal.
no_controls() {
  node -e '
    const fs = require("fs");
    for (const f of process.argv.slice(1)) {
      const b = fs.readFileSync(f), s = b.toString("utf8");
      for (let i = 0; i < b.length; ++i) {
        const c = b[i];
        if ((c < 0x20 && c !== 10 && c !== 9) || c === 0x7f) { console.log(`  ${f}: raw byte 0x${c.toString(16)} at ${i}`); process.exit(1); }
      }
      const m = s.match(/[\u0080-\u009f]/);
      if (m) { console.log(`  ${f}: C1 control U+${m[0].charCodeAt(0).toString(16)}`); process.exit(1); }
    }' "$@"
}
# prints_escaped EXPECTED CMD...: exits 0 and prints EXPECTED (grep -E) with no raw control byte.
prints_escaped() {
  local want=$1; shift
  timeout 120 "$@" > "$dir/stdout" 2> "$dir/stderr" || { echo "  exit code $?"; cat -v "$dir/stderr"; return 1; }
  grep -Eq -- "$want" "$dir/stdout" || { echo "  expected /$want/ in:"; cat -v "$dir/stdout"; return 1; }
  no_controls "$dir/stdout" "$dir/stderr"
}
steps="--set steps=1000000"  # never reached: every refusal below comes before the first step

# --- 1. UTF-8, checked when the text is read ---------------------------------------------------
for i in $(seq 40); do echo "The quick brown fox jumps over the lazy dog, and the dog sleeps on."; done > "$dir/fox.txt"
# Every kind of broken UTF-8, on line 3 after "ab": a stray continuation byte, a lead byte without
# its continuation, an overlong form, a UTF-16 surrogate, a code point above U+10FFFF, Latin-1.
kinds=('\x80' '\xc3(' '\xc0\xaf' '\xed\xa0\x80' '\xf4\x90\x80\x80' '\xe9t\xe9' '\xff')
firsts=(80 C3 C0 ED F4 E9 FF)
for k in "${!kinds[@]}"; do
  { head -n 2 "$dir/fox.txt"; printf "ab${kinds[$k]}cd\n"; tail -n 30 "$dir/fox.txt"; } > "$dir/bad$k.txt"
  check "--text-file with ${kinds[$k]} on line 3: refused before training, naming line 3 and byte 0x${firsts[$k]}" \
    refused "^attnplay: --text-file '$dir/bad$k.txt' does not fit: it must be UTF-8 text \(line 3: byte 3 of the line \(byte [0-9]+ of the text\) is 0x${firsts[$k]}, which is not UTF-8" \
    "$bin" train --text-file "$dir/bad$k.txt" --set seq_len=16 $steps --out "$dir/out.safetensors"
done
printf 'a b -> b a\nb a -> a b\nc \xe9 -> \xe9 c\n' > "$dir/badpairs.txt"
check "--task-file with a Latin-1 byte on line 3: refused, naming the line and the byte" \
  refused "^attnplay: --task-file '$dir/badpairs.txt' does not fit: .*line 3: byte 3 of the line \(byte 25 of the text\) is 0xE9, which is not UTF-8" \
  "$bin" train --task-file "$dir/badpairs.txt" $steps --out "$dir/out.safetensors"
check "--set text= with a byte that is not UTF-8: refused, naming the field" \
  refused "field 'text' .*line 1: byte 403 of the line .* is 0xFF, which is not UTF-8" \
  "$bin" train --set task=text --set "text=$(head -c 400 "$dir/fox.txt" | tr '\n' ' ')$(printf 'ab\xff')" --set seq_len=8 $steps --out "$dir/out.safetensors"
check "--set custom_pairs= with a byte that is not UTF-8: refused, naming the field" \
  refused "custom_pairs: line 2: .* is 0xFE" \
  "$bin" train --set task=custom --set "custom_pairs=$(printf 'a b -> b a\nb \xfe -> a\n')" $steps --out "$dir/out.safetensors"
{ cat "$dir/fox.txt"; printf 'caf\xc3\xa9 na\xc3\xafve \xe2\x80\x94 \xf0\x9f\x90\x95\n'; } > "$dir/utf8.txt"
check "--text-file in UTF-8 with multi-byte characters trains and saves" bash -c \
  "'$bin' train --text-file '$dir/utf8.txt' --set seq_len=16 --set steps=5 --out '$dir/utf8.safetensors' > /dev/null && [ -s '$dir/utf8.safetensors' ]"
printf 'a b -> b a\nb \xc3\xa9 -> \xc3\xa9 b\nc d -> d c\n' > "$dir/utf8pairs.txt"
check "--task-file in UTF-8 (a token with an accent) trains and saves" bash -c \
  "'$bin' train --task-file '$dir/utf8pairs.txt' --set steps=5 --out '$dir/utf8pairs.safetensors' > /dev/null && [ -s '$dir/utf8pairs.safetensors' ]"

# --- 2. Evaluation lengths held to memory_limit_mb before anything runs ------------------------
# A small limit (16 MB) makes the lengths too large without allocating gigabytes if the check is
# lost. copy with seq_len 12 (batch 32, eval_len 32) fits it; a pass over 48 tokens does not. RoPE
# addresses any length (a length learned positions cannot address is never evaluated, so never checked).
"$bin" train --set task=copy --set position=rope --set seq_len=12 --set steps=2 --set memory_limit_mb=16 --out "$dir/small.safetensors" > /dev/null
for L in 48 200 600; do  # 600: at most ~1 GB if the check were lost
  check "eval --set eval_len=$L above the model's memory_limit_mb: refused, naming eval_len" \
    refused "^attnplay: eval_len: a pass over 32 sequences of $L tokens needs about [0-9]+ MB .* above the limit of 16 MB \(memory_limit_mb\)" \
    "$bin" eval --model "$dir/small.safetensors" --set eval_len=$L
done
check "eval --set eval_len within the limit still evaluates" bash -c "'$bin' eval --model '$dir/small.safetensors' --set eval_len=24 --json | grep -q '\"length\":24'"
for case in 20:20 2,20:20 16,4:16; do
  ev=${case%:*} m=${case#*:}
  check "train --eval-at $ev above memory_limit_mb: refused before the first step, naming --eval-at $m" \
    refused "^attnplay: --eval-at $m \(length $((m * 12))\): a pass over 32 sequences of $((m * 12)) tokens needs about [0-9]+ MB" \
    "$bin" train --set task=copy --set position=rope --set seq_len=12 --set memory_limit_mb=16 $steps --eval-at $ev --out "$dir/out.safetensors" --metrics "$dir/out.csv"
done
check "train --resume --eval-at above the limit: refused before the first step" \
  refused "^attnplay: --eval-at 20 \(length 240\)" \
  "$bin" train --resume "$dir/small.safetensors" $steps --eval-at 20 --out "$dir/out.safetensors"
check "train --eval-at within the limit still evaluates" bash -c \
  "'$bin' train --set task=copy --set position=rope --set seq_len=12 --set steps=2 --set memory_limit_mb=16 --eval-at 2 --json | tail -n 1 | grep -q '\"length\":24,\"loss\"'"
check "sweep --eval-at above a run's memory_limit_mb: refused before any run, naming --eval-at" \
  refused "^attnplay: --eval-at 20 \(length 240\)" \
  "$bin" sweep --set task=copy --set seq_len=12 --set memory_limit_mb=16 $steps --grid 'position=none,learned' --eval-at 20 --out "$dir/out.csv"
check "sweep --emit --eval-at above the limit: refused before any line is written" \
  refused "^attnplay: --eval-at 20 \(length 240\)" \
  "$bin" sweep --set task=copy --set seq_len=12 --set memory_limit_mb=16 --grid 'position=none,learned' --eval-at 20 --emit gnu-parallel "$dir/out.lines"
check "sweep: the grid point that exceeds the limit is named (seq_len=16 of 12,16; 3 x 12 fits)" \
  refused "^attnplay: --eval-at 3 \(length 48\)" \
  "$bin" sweep --set task=copy --set memory_limit_mb=16 $steps --grid 'seq_len=12,16' --eval-at 3 --out "$dir/out.csv"

# --- 3. No library text in any failure ----------------------------------------------------------
echo '{"steps": "ten"}' > "$dir/types.json"
echo '{"task": 5}' > "$dir/task5.json"
echo 'not a model' > "$dir/junk.safetensors"
printf 'a,b\n1,2\n' > "$dir/notsweep.csv"
check "a config field of the wrong type: no library text" refused "steps" "$bin" train --config "$dir/types.json"
check "a task of the wrong type: no library text" refused "task" "$bin" train --config "$dir/task5.json" $steps
check "eval_len that is not a number: no library text" refused "eval_len" "$bin" eval --model "$dir/small.safetensors" --set eval_len=abc
check "eval_len beyond int: no library text" refused "eval_len: 99999999999 is out of range; allowed: a whole number from 0 to 16384" "$bin" eval --model "$dir/small.safetensors" --set eval_len=99999999999
check "seq_len beyond int: no library text" refused "seq_len" "$bin" train --set seq_len=1e10 $steps
check "a file that is not a model: no library text" refused "model file" "$bin" info --model "$dir/junk.safetensors"
check "merge of a CSV that is no sweep's: no library text" refused "not a sweep's CSV" "$bin" merge "$dir/out.csv" "$dir/notsweep.csv"
check "--config-from-row of a row that is no number: no library text" refused "config" "$bin" train --config-from-row "$dir/notsweep.csv" x
check "--eval-at that is no number: no library text" refused "--eval-at" "$bin" train --eval-at 2,x $steps
check "--intervene with a wrong type: no library text" refused "layer" "$bin" eval --model "$dir/small.safetensors" --intervene '{"layer":"x","head":0,"kind":"zero"}'
check "--out into a missing folder: no library text" refused "none/out.safetensors" "$bin" train --set steps=1 --out "$dir/none/out.safetensors"

# --- 4. No raw control byte from a file reaches the terminal ------------------------------------
# A model file whose metadata holds ESC and BEL: "stopped" (printed by eval and info), and the
# format (quoted in the error). The header is rewritten with the same tensors.
"$bin" train --set task=copy --set normalization=exp --set lr=0.05 --set warmup=0 --set clip=0 --set steps=300 --out "$dir/div.safetensors" > /dev/null 2>&1
meta() { # IN OUT KEY VALUE (VALUE in JSON, e.g. "\u001b[31m")
  node -e '
    const fs = require("fs"); const [inp, out, key, value] = process.argv.slice(1);
    const b = fs.readFileSync(inp); const n = Number(b.readBigUInt64LE(0));
    const h = JSON.parse(b.subarray(8, 8 + n).toString("utf8"));
    h.__metadata__[key] = JSON.parse(value);
    const t = Buffer.from(JSON.stringify(h)); const len = Buffer.alloc(8); len.writeBigUInt64LE(BigInt(t.length));
    fs.writeFileSync(out, Buffer.concat([len, t, b.subarray(8 + n)]));' "$@"
}
esc='"\u001b]0;owned\u0007\u001b[31mred\u009b2J\u0000\u007f"'
meta "$dir/div.safetensors" "$dir/esc-stopped.safetensors" stopped "$esc"
meta "$dir/div.safetensors" "$dir/esc-format.safetensors" format "$esc"
check "the metadata file really holds ESC (the case is live)" bash -c "grep -q \$'\\x1b' '$dir/esc-stopped.safetensors'"
check "eval of a model whose 'stopped' holds ESC/BEL: printed escaped" prints_escaped 'stopped at step .*x1B\]0;owned' \
  "$bin" eval --model "$dir/esc-stopped.safetensors"
check "info of a model whose 'stopped' holds ESC/BEL: printed escaped" prints_escaped 'training stopped: .*x1B' \
  "$bin" info --model "$dir/esc-stopped.safetensors"
check "eval of a model whose format holds ESC/BEL: refused, escaped" refused "format '.*x1B" "$bin" eval --model "$dir/esc-format.safetensors"
# A task file with ESC (and a C1 CSI) in a token: refused, the message escaped.
printf 'a b -> b a\nb \x1b[31m -> a\n' > "$dir/escpairs.txt"
check "--task-file with ESC in a token: refused, naming line 2, no raw ESC" refused "line 2: a control character \(byte 27\)" \
  "$bin" train --task-file "$dir/escpairs.txt" $steps --out "$dir/out.safetensors"
printf 'a b -> b a\nb \xc2\x9b2J -> a\n' > "$dir/c1pairs.txt"
check "--task-file with a C1 CSI in a token: refused, naming line 2" refused "line 2: a control character \(U\+009B\)" \
  "$bin" train --task-file "$dir/c1pairs.txt" $steps --out "$dir/out.safetensors"
printf 'a b -> b a\n\x07b\x1b]0;x -> a\n' > "$dir/escline.txt"
check "--task-file whose line is echoed holds BEL/ESC: no raw byte" refused "line 2" "$bin" train --task-file "$dir/escline.txt" $steps
# CSVs with control bytes in a header and a cell, for merge (and its summary).
"$bin" sweep --set task=probe --set steps=3 --grid 'position=none,learned' --out "$dir/sw.csv" > /dev/null 2>&1
check "the sweep's CSV for the CSV cases exists" test -s "$dir/sw.csv"
sed "1s/position/po\x1bsi\x07tion/" "$dir/sw.csv" > "$dir/hdr.csv"
check "merge of CSVs whose headers differ by ESC/BEL: refused, escaped" refused "another header.*x1B" "$bin" merge "$dir/out.csv" "$dir/sw.csv" "$dir/hdr.csv"
node -e 'const fs=require("fs");const l=fs.readFileSync(process.argv[1],"utf8").split("\n");const h=l[0].split(",");const c=h.indexOf("train_loss");const r=l[1].split(",");r[c]="\x1b[2J\x07";l[1]=r.join(",");fs.writeFileSync(process.argv[2],l.join("\n"))' "$dir/sw.csv" "$dir/cell.csv"
check "merge --summary of a CSV whose cell holds ESC/BEL: refused, escaped" refused "not a number" "$bin" merge "$dir/out.csv" "$dir/cell.csv" --summary "$dir/out.sum.csv"
sed "1s/train_loss/train\x1b[31m_loss/" "$dir/cell.csv" > "$dir/hdrcell.csv"
check "summary names a header holding ESC escaped" refused "column 'train.x1B" "$bin" merge "$dir/out.csv" "$dir/hdrcell.csv" --summary "$dir/out.sum.csv"
printf 'seed,weights_sha256,config,error\n1,,,bad\x1b]0;x\x07\n' > "$dir/errcell.csv"
check "--config-from-row of a failed row whose error holds ESC/BEL: refused, escaped" refused "the run failed: 'bad.x1B" \
  "$bin" train --config-from-row "$dir/errcell.csv" 1
# Sampled text of a corpus that holds ESC and BEL: the characters are escaped on the terminal.
{ for i in $(seq 60); do printf 'ab\x1b[31mcd\x07ef '; done; } > "$dir/esctext.txt"
"$bin" train --text-file "$dir/esctext.txt" --set seq_len=8 --set steps=150 --out "$dir/esctext.safetensors" > /dev/null 2>&1
check "sample of a model trained on ESC/BEL text prints them escaped" prints_escaped 'x1B' \
  "$bin" sample --model "$dir/esctext.safetensors" --prompt 'ab' --tokens 40 --seed 1
check "sample --json of that model is JSON" bash -c \
  "'$bin' sample --model '$dir/esctext.safetensors' --prompt 'ab' --tokens 40 --json | node -e 'JSON.parse(require(\"fs\").readFileSync(0,\"utf8\"))'"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
