#!/usr/bin/env bash
# tests/native/sweep_test.sh ATTNPLAY — seeded sweeps end to end (docs/sweeps.md): a tiny sweep
# (2 grid points x 2 seeds) run in-process, then the same through GNU parallel (-S :, two local
# job slots) and through the emitted Slurm script's tasks (each run by bash with
# SLURM_ARRAY_TASK_ID set; no Slurm daemons), merged with `attnplay merge`: the merged CSVs equal
# the in-process one on every column but the timing ones (weights_sha256 included). Also: a row
# reproduced alone (--config-from-row), an experiment file with --quick, and the errors. Then
# nothing lost, nothing smuggled: both emitters in a folder whose name holds a space, %, quotes,
# $(...) and backquotes (merged rows equal, nothing in the name ran); every control character in
# every emitted path refused, naming the option; formula-like cells written safe and read back
# exactly by merge, summary and the page's reader; a set.text over 128 KiB passed by file.
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fails=0 passes=0
check() { # description command...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; passes=$((passes + 1)); else echo "FAIL $what"; fails=$((fails + 1)); fi
}
timing='^(steps_per_s|train_tokens_per_s|infer_tokens_per_s)'
tiny=(--set task=copy --set steps=4 --set d_model=16 --set ffn=32 --set layers=1 --set batch=8 --set eval_batches=2)
grid=(--grid "position=learned,rope" --seeds 2 --eval-at 2)

check "--version prints the engine string" bash -c "'$bin' --version | grep -Eq '^attnplay [0-9]+\.[0-9]+\.[0-9]+ \(.+\)$'"
check "in-process sweep: 4 runs, CSV and summary" bash -c "'$bin' sweep ${tiny[*]} ${grid[*]@Q} --out inproc.csv --summary inproc.summary.csv --jobs 2 >/dev/null 2>&1 && [ \$(wc -l < inproc.csv) -eq 5 ] && [ \$(wc -l < inproc.summary.csv) -eq 3 ]"
check "the header is the spec's" bash -c "head -1 inproc.csv | grep -qx 'position,seed,steps,train_loss,eval_loss,eval_bpc,eval_accuracy,eval_sequence_accuracy,steps_per_s,train_tokens_per_s,infer_tokens_per_s,peak_memory_bytes,eval_loss_last_fifth,eval_accuracy_x2,eval_loss_x2,weights_sha256,engine,config,corpus_sha256,error'"
check "config is the full resolved config: rope's options at their defaults, the task's too" bash -c "grep '^rope,' inproc.csv | grep -q '\"\"rope_base\"\":10000' && grep '^learned,' inproc.csv | grep -q '\"\"position\"\":\"\"learned\"\"' && ! grep '^learned,' inproc.csv | grep -q rope_base"
check "the runs start seed by seed, the grid points interleaved (rows stay in grid order)" bash -c "'$bin' sweep ${tiny[*]} ${grid[*]@Q} --out order.csv --jobs 1 2>&1 >/dev/null | grep -o 'run [0-9]/4' | tr '\n' ' ' | grep -qx 'run 1/4 run 3/4 run 2/4 run 4/4 '"
head -c 3000 /dev/urandom | base64 -w 80 > corpus.txt
conv=(--set task=text --set steps=20 --set d_model=16 --set ffn=32 --set layers=1 --set batch=4 --set seq_len=16 --set eval_batches=1)
cell() { node "$here/csv_cell.mjs" "$@"; }
text_row() {
  "$bin" sweep "${conv[@]}" --grid position=rope --seeds 1 --text-file corpus.txt --out text.csv >/dev/null 2>&1 || return 1
  [ "$(cell text.csv 1 corpus_sha256)" = "$(sha256sum corpus.txt | cut -c1-64)" ] || return 1
  ! cell text.csv 1 config | grep -q '"text":' || return 1
  cell text.csv 1 config | grep -q '"text_vocab"\|"rope_base":10000' || return 1
  cell text.csv 1 eval_loss_last_fifth | grep -Eq '^-?[0-9]' && [ -z "$(cell inproc.csv 1 eval_loss_last_fifth)" ]
}
check "a text run's row: corpus_sha256 is the corpus file's (the corpus left out of config); eval_loss_last_fifth measured (empty under 20 steps)" text_row
check "rows: seeds 1,2 per grid point, in grid order" bash -c "[ \"\$(cut -d, -f1,2 inproc.csv | tail -n +2 | tr '\n' ' ')\" = 'learned,1 learned,2 rope,1 rope,2 ' ]"

check "--emit gnu-parallel writes one line per run" bash -c "'$bin' sweep ${tiny[*]} ${grid[*]@Q} --emit gnu-parallel lines.txt --rows par >/dev/null && [ \$(wc -l < lines.txt) -eq 4 ]"
check "GNU parallel -S : --jobs 2 runs the lines" bash -c "parallel --will-cite --jobs 2 -S : < lines.txt >/dev/null 2>&1 && ls par/run-000*.csv | wc -l | grep -qx 4"
check "merge joins the rows and the summary" bash -c "'$bin' merge par.csv --summary par.summary.csv par/run-*.csv >/dev/null"
check "merged (parallel) = in-process, but for timing" node "$here/csv_compare.mjs" inproc.csv par.csv "$timing"
check "summary (parallel) = in-process, but for timing" node "$here/csv_compare.mjs" inproc.summary.csv par.summary.csv "$timing"

check "--emit slurm writes a script and its task list" bash -c "'$bin' sweep ${tiny[*]} ${grid[*]@Q} --emit slurm slurm >/dev/null && grep -qx '#SBATCH --array=0-3' slurm/sweep.sbatch && cmp -s <(sed 's|/slurm/rows/|/par/|' slurm/tasks.txt) lines.txt"
check "the Slurm script passes shellcheck" shellcheck slurm/sweep.sbatch
check "the Slurm script runs each task by SLURM_ARRAY_TASK_ID" bash -c "for k in 0 1 2 3; do SLURM_ARRAY_TASK_ID=\$k bash slurm/sweep.sbatch >/dev/null 2>&1 || exit 1; done; ls slurm/rows/run-000*.csv | wc -l | grep -qx 4"
check "the Slurm script refuses a task id beyond the list" bash -c "SLURM_ARRAY_TASK_ID=4 bash slurm/sweep.sbatch 2>&1 | grep -q 'no task 4'"
check "merged (slurm tasks) = in-process, but for timing" bash -c "'$bin' merge slurm.csv slurm/rows/run-*.csv >/dev/null && node '$here/csv_compare.mjs' inproc.csv slurm.csv '$timing'"

sha3=$(sed -n 4p inproc.csv | grep -o '[0-9a-f]\{64\}')
check "train --config-from-row reproduces row 3 (same weights_sha256)" bash -c "'$bin' train --config-from-row inproc.csv 3 --json | tail -n 1 | grep -q '\"weights_sha256\":\"$sha3\"'"
text_row_again() { # the --text-file row of text.csv: refused without its text, reproduced with it
  local out sha
  out=$("$bin" train --config-from-row text.csv 1 --json 2>&1) && return 1
  printf '%s' "$out" | grep -q "the row trained on a text with SHA-256 $(sha256sum corpus.txt | cut -c1-64), and this run's (the bundled corpus" || return 1
  printf '%s' "$out" | grep -q 'give the row.s text with --text-file FILE' || return 1
  sha=$(cell text.csv 1 weights_sha256)
  out=$("$bin" train --config-from-row text.csv 1 --text-file corpus.txt --json 2>/dev/null) || return 1
  printf '%s' "$out" | tail -n 1 | grep -q "\"weights_sha256\":\"$sha\""
}
check "--config-from-row of a text row whose text is not in its config: refused before training (by corpus_sha256), reproduced with --text-file" text_row_again
check "--config-from-row: a bad row number is named" bash -c "'$bin' train --config-from-row inproc.csv 9 2>&1 | grep -q 'row .9. is not a row of the file; it has 4 run rows'"
printf 'a,b\n"x,1\n' > bad.csv
check "--config-from-row: a malformed CSV is refused, naming the line" bash -c "'$bin' train --config-from-row bad.csv 1 2>&1 | grep -q \"'bad.csv': not valid CSV at line 2: a quoted field is not closed\""
printf 'position,placement,seed,steps\nrope,embed,1,4\n' > other.csv
check "merge refuses another header, naming the column" bash -c "! '$bin' merge m.csv par/run-0000.csv other.csv 2>/dev/null && '$bin' merge m.csv par/run-0000.csv other.csv 2>&1 | grep -q 'another header'"

cat > tiny-exp.json <<'JSON'
{ "id": "tiny-exp", "title": "tiny", "claim": "none", "metric": "eval_bpc",
  "set": { "task": "copy", "d_model": 16, "ffn": 32, "layers": 1, "batch": 8, "steps": 50 },
  "grids": [ { "position": ["learned", "rope"], "placement": ["embed"] }, { "position": ["t5_bias"] } ],
  "seeds": 3, "eval_at": [2], "quick": { "steps": 3, "seeds": 2 } }
JSON
check "sweep --experiment --quick: union of grids, quick seeds and steps" bash -c "'$bin' sweep --experiment tiny-exp.json --quick --out exp.csv >/dev/null 2>&1 && [ \$(wc -l < exp.csv) -eq 7 ] && head -1 exp.csv | grep -q '^position,placement,seed,' && [ \"\$(cut -d, -f1-4 exp.csv | tail -n +2 | tr '\n' ' ')\" = 'learned,embed,1,3 learned,embed,2,3 rope,embed,1,3 rope,embed,2,3 t5_bias,,1,3 t5_bias,,2,3 ' ]"
sed 's/"claim"/"clam"/' tiny-exp.json > tiny-exp2.json && sed -i 's/tiny-exp"/tiny-exp2"/' tiny-exp2.json
check "an experiment with an unknown key is refused, naming it" bash -c "'$bin' sweep --experiment tiny-exp2.json --out x.csv 2>&1 | grep -q \"'clam': is not a key of an experiment; allowed: id, title\""
cat > curve-exp.json <<'JSON'
{ "id": "curve-exp", "title": "curves", "claim": "none", "metric": "eval_loss",
  "set": { "task": "copy", "d_model": 16, "ffn": 32, "layers": 1, "batch": 8, "eval_every": 2, "eval_batches": 1 },
  "grids": [ { "position": ["learned", "rope"] } ], "budgets": [2, 4], "seeds": 1 }
JSON
curves_emitted() { # the emitted runs' curves merge as the in-process sweep writes them, also in part
  local said
  "$bin" sweep --experiment curve-exp.json --out cin.csv >/dev/null 2>&1 || return 1
  "$bin" sweep --experiment curve-exp.json --emit gnu-parallel curve.txt >/dev/null || return 1
  bash curve.txt >/dev/null 2>&1 || return 1
  said=$("$bin" merge cpar.csv --experiment curve-exp.json curve.txt.rows/run-*.csv) || return 1
  [[ $said == *"4 rows of the experiment's 4 runs"* ]] || { echo "merge said: $said"; return 1; }
  cmp -s cin.curves.csv cpar.curves.csv || { echo "curves differ"; return 1; }
  [[ $(head -1 cin.curves.csv) == run,position,budget,seed,step,loss,eval_loss,* ]] || return 1
  said=$("$bin" merge part.csv --experiment curve-exp.json curve.txt.rows/run-0001.csv) || return 1
  [[ $said == *"1 rows of the experiment's 4 runs"* ]] || { echo "merge said: $said"; return 1; }
  [ "$(cut -d, -f1-3 part.curves.csv | tail -n +2 | sort -u | tr '\n' ' ')" = "2,learned,4 " ] || return 1
  said=$("$bin" merge x.csv --experiment curve-exp.json other.csv 2>&1) && return 1
  [[ $said == *"is not a row file of this experiment"* ]]
}
check "merge --experiment: the emitted runs' curves equal the in-process sweep's; a partial merge keeps its runs' curves; another file refused" curves_emitted
cat > ft-exp.json <<'JSON'
{ "id": "ft-exp", "title": "fine-tune", "claim": "none", "metric": "eval_loss_x4",
  "set": { "task": "copy", "d_model": 16, "ffn": 32, "layers": 1, "batch": 8, "steps": 6, "seq_len": 8, "position": "rope" },
  "grids": [ { "rope_scaling": ["pi"], "rope_factor": [4], "rope_train_len": [8], "fine_tune": [true, false] } ],
  "fine_tune": { "steps": 4, "set": { "seq_len": 32, "eval_len": 32, "lr": 0.001 } },
  "seeds": 1, "eval_at": [2, 4] }
JSON
# The fine-tuned row: 6 + 4 steps, its config at 32, evaluated at 4x the base's 8 (= its own 32:
# eval_loss_x4 is its eval_loss), its weights another than the plain run's; the other row trained
# 6 steps at 8. The fine-tune is train --resume with its schedule restarted at the base's 6 steps
# (schedule_start=6: its own warmup): the same as doing it by hand.
ft_rows() {
  "$bin" sweep --experiment ft-exp.json --out ft.csv >/dev/null 2>&1 || return 1
  [ "$(cut -d, -f1-6 ft.csv | tail -n +2 | tr '\n' ' ')" = 'pi,4,8,true,1,10 pi,4,8,false,1,6 ' ] || return 1
  cell ft.csv 1 config | grep -q '"seq_len":32' && cell ft.csv 2 config | grep -q '"seq_len":8' || return 1
  [ "$(cell ft.csv 1 eval_loss_x4)" = "$(cell ft.csv 1 eval_loss)" ] && [ -n "$(cell ft.csv 1 eval_loss_x2)" ] || return 1
  [ "$(cell ft.csv 1 eval_loss_x4)" != "$(cell ft.csv 2 eval_loss_x4)" ] || return 1
  "$bin" train --set task=copy --set d_model=16 --set ffn=32 --set layers=1 --set batch=8 --set steps=6 --set seq_len=8 \
    --set position=rope --set rope_scaling=pi --set rope_factor=4 --set rope_train_len=8 --set seed=1 --out base.st >/dev/null 2>&1 &&
    "$bin" train --resume base.st --set seq_len=32 --set eval_len=32 --set lr=0.001 --set steps=10 --set schedule_start=6 --json 2>/dev/null |
    tail -1 | grep -q "\"weights_sha256\":\"$(cell ft.csv 1 weights_sha256)\""
}
check "sweep: a fine_tune grid point trains, then fine-tunes (train --resume) and is evaluated at multiples of the base length" ft_rows
check "a fine_tune.set that names schedule_start is refused (the sweep restarts the schedule itself)" bash -c "mkdir -p bad && sed 's/\"lr\": 0.001/\"lr\": 0.001, \"schedule_start\": 2/' ft-exp.json > bad/ft-exp.json && '$bin' sweep --experiment bad/ft-exp.json --out x.csv 2>&1 | grep -q 'fine_tune.set.schedule_start'"
check "--emit refuses an experiment that fine-tunes, saying how to run it" bash -c "'$bin' sweep --experiment ft-exp.json --emit gnu-parallel x.txt 2>&1 | grep -q 'fine-tunes some of its runs'"
check "a failed run is a row with its error, and exit code 4" bash -c "'$bin' sweep --set task=copy --set steps=2 --grid 'heads=2,3' --set d_model=16 --out fail.csv >/dev/null 2>&1; [ \$? -eq 4 ] && grep -q '^3,,.*d_model: 16 is not divisible by heads = 3' fail.csv"

for a in 1 2 3 4 5; do for b in 1 2 3 4 5; do for c in 1 2 3 4 5; do
  echo "$a $b $c -> $(printf '%s\n' $a $b $c | sort -n | tr '\n' ' ' | sed 's/ $//')"; done; done; done > pairs.txt
check "sweep --task-file: every run trains the custom task on the file's pairs (a set over 1 KiB stays out of the rows)" bash -c "'$bin' sweep --task-file pairs.txt --set steps=3 --set d_model=16 --set ffn=32 --set layers=1 --grid 'position=learned,rope' --out pairs.csv >/dev/null 2>&1 && [ \$(wc -l < pairs.csv) -eq 3 ] && [ \$(grep -c '\"\"task\"\":\"\"custom\"\"' pairs.csv) -eq 2 ] && ! grep -q '5 5 5' pairs.csv"
check "sweep --task-file and --text-file together are refused" bash -c "! '$bin' sweep --task-file pairs.txt --text-file pairs.txt --grid 'position=learned,rope' --out x.csv >/dev/null 2>&1"

# --- nothing smuggled: a folder name that a shell, sbatch or a file name pattern would read -------
odd="$dir/odd dir %A 50% 'q\"uo \$(touch smuggled) \`touch smuggled2\` #c"
mkdir -p "$odd"
odd_parallel() {
  "$bin" sweep "${tiny[@]}" --grid "position=learned,rope" --seeds 2 --eval-at 2 --emit gnu-parallel "$odd/lines.txt" >/dev/null &&
    parallel --will-cite --jobs 2 -S : < "$odd/lines.txt" >/dev/null 2>&1 &&
    "$bin" merge odd-par.csv "$odd/lines.txt.rows"/run-*.csv >/dev/null &&
    node "$here/csv_compare.mjs" inproc.csv odd-par.csv "$timing"
}
odd_slurm() {
  "$bin" sweep "${tiny[@]}" --grid "position=learned,rope" --seeds 2 --eval-at 2 --emit slurm "$odd/job" >/dev/null || return 1
  shellcheck -e SC2016 "$odd/job/sweep.sbatch" || return 1  # SC2016: the $(...) in quotes is the folder's name, meant literally
  for k in 0 1 2 3; do SLURM_ARRAY_TASK_ID=$k bash "$odd/job/sweep.sbatch" >/dev/null 2>&1 || return 1; done
  "$bin" merge odd-slurm.csv "$odd/job/rows"/run-*.csv >/dev/null && node "$here/csv_compare.mjs" inproc.csv odd-slurm.csv "$timing"
}
check "GNU parallel in an odd folder: merged = in-process, but for timing" odd_parallel
check "Slurm tasks in an odd folder: shellcheck clean, merged = in-process, but for timing" odd_slurm
check "the Slurm log pattern keeps the folder's % (as %%) and quotes the path" \
  grep -qF "#SBATCH --output=\"$dir/odd dir %%A 50%% 'q\\\"uo \$(touch smuggled) \`touch smuggled2\` #c/job/logs/\"%A_%a.out" "$odd/job/sweep.sbatch"
check "nothing in the folder's name ran" bash -c "! find '$dir' -name 'smuggled*' | grep -q ."

# --- every control character in every path an emitted script names is refused, naming it -------
refused() { # FIELD PATH: --emit with PATH as FIELD fails, names FIELD, and writes no task list
  local field=$1 path=$2 out
  rm -rf ctl && mkdir ctl
  case $field in
    --rows) out=$("$bin" sweep "${tiny[@]}" --grid "position=learned,rope" --emit gnu-parallel ctl/l.txt --rows "$path" 2>&1) ;;
    --attnplay) out=$("$bin" sweep "${tiny[@]}" --grid "position=learned,rope" --emit slurm ctl/j --attnplay "$path" 2>&1) ;;
    "--emit slurm DIR") out=$("$bin" sweep "${tiny[@]}" --grid "position=learned,rope" --emit slurm "$path" 2>&1) ;;
    "--emit gnu-parallel FILE") out=$("$bin" sweep "${tiny[@]}" --grid "position=learned,rope" --emit gnu-parallel "$path" 2>&1) ;;
    --text-file) : > "$path" && out=$("$bin" sweep --text-file "$path" --grid "position=learned,rope" --emit gnu-parallel ctl/l.txt 2>&1) ;;
  esac && { echo "  $field ${path@Q}: not refused"; return 1; }
  grep -qF -- "$field: the path" <<<"$out" && grep -q "control character" <<<"$out" || { echo "  $field ${path@Q}: $out"; return 1; }
  [ -z "$(find ctl -name '*.txt' -o -name '*.sbatch')" ] || { echo "  $field ${path@Q}: files written"; return 1; }
}
all_refused() {
  local field c
  for field in --rows --attnplay "--emit slurm DIR" "--emit gnu-parallel FILE" --text-file; do
    for c in $(seq 1 31) 127; do printf -v ch "\\$(printf %03o "$c")" && refused "$field" "ctl/a${ch}b" || return 1; done
  done
}
check "a control character (bytes 1-31, 127) in any emitted path is refused, naming the option" all_refused

# --- formula-like cells: written safe, read back exactly (merge, summary, the page's reader) ----
mkdir -p cells  # as files hold them: ''@x is the text '@x (one apostrophe more than a formula-like text has)
hdr='position,seed,steps,train_loss,eval_loss,eval_bpc,eval_accuracy,eval_sequence_accuracy,steps_per_s,train_tokens_per_s,infer_tokens_per_s,peak_memory_bytes,weights_sha256,engine,config,error'
printf '%s\n%s\n' "$hdr" '=1+1,1,4,-0.5,1,1,0.5,0,1,1,1,1,,e,{},' > cells/run-0000.csv
printf '%s\n%s\n' "$hdr" '=1+1,2,4,0.25,1,1,0.5,0,1,1,1,1,,-x,{},' > cells/run-0001.csv
printf '%s\n%s\n' "$hdr" "''@x,1,4,-1e-05,1,1,0.5,0,1,1,1,1,,e,{},+cmd" > cells/run-0002.csv
cells_written() {
  "$bin" merge cells.csv --summary cells.summary.csv cells/run-*.csv >/dev/null || return 1
  printf '%s\n' "\"'=1+1\",-0.5" "\"'=1+1\",0.25" "\"''@x\",-1e-05" > cells.want
  cut -d, -f1,4 cells.csv | tail -n +2 | cmp -s - cells.want && grep -q ",\"'-x\",{},\$" cells.csv && grep -q ",\"'+cmd\"\$" cells.csv
}
check "merge writes formula-like cells safe, numbers as they are" cells_written
check "merging the merged file again changes nothing (nothing doubled)" bash -c "'$bin' merge again.csv cells.csv >/dev/null && cmp -s cells.csv again.csv"
check "the summary reads -0.5 as a number (mean of -0.5 and 0.25) and writes the axis safe" \
  bash -c "grep -q '^\"'\''=1+1\",2,.*-0.125' cells.summary.csv"
check "the page's reader reads every cell back as it was" node --input-type=module -e "
  import { parseCsv } from '$here/../../web/src/common/csv.js';
  import { readFileSync } from 'node:fs';
  const { rows } = parseCsv(readFileSync('cells.csv', 'utf8'));
  const got = JSON.stringify(rows.map((r) => [r[0], r[3], r[13], r[15]]));
  const want = JSON.stringify([['=1+1', '-0.5', 'e', ''], ['=1+1', '0.25', '-x', ''], [\"'@x\", '-1e-05', 'e', '+cmd']]);
  if (got !== want) { console.error(got); process.exit(1); }"

# --- a set.text over 128 KiB (one argument's limit on Linux) goes to each run by file -----------
node -e "
  const text = 'the quick brown fox jumps over the lazy dog. '.repeat(3300);
  console.log(JSON.stringify({ id: 'big-text', title: 't', metric: 'eval_bpc',
    set: { task: 'text', text, steps: 2, d_model: 16, ffn: 32, layers: 1, batch: 4, eval_batches: 1 },
    grids: [{ position: ['learned', 'rope'] }] }));" > big-text.json
check "sweep --experiment with a 145 KiB set.text: every run trains" bash -c "[ \$(stat -c %s big-text.json) -gt 140000 ] &&
  '$bin' sweep --experiment big-text.json --out big.csv >/dev/null 2>&1 && [ \$(wc -l < big.csv) -eq 3 ] && ! grep -q 'exit code' big.csv"
check "--emit passes it by file: short lines that GNU parallel runs, rows equal" bash -c "
  '$bin' sweep --experiment big-text.json --emit gnu-parallel big.txt >/dev/null && [ \$(wc -L < big.txt) -lt 2000 ] &&
  grep -q -- '--set-file text=' big.txt && parallel --will-cite --jobs 2 -S : < big.txt >/dev/null 2>&1 &&
  '$bin' merge big-par.csv big.txt.rows/run-*.csv >/dev/null && node '$here/csv_compare.mjs' big.csv big-par.csv '$timing'"

echo "sweep: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
