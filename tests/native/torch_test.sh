#!/usr/bin/env bash
# tests/native/torch_test.sh ATTNPLAY — `attnplay export-torch` against PyTorch (Debian's
# python3-torch, run by /usr/bin/python3; docs/model-format.md "Export to PyTorch"). For every
# position encoding (with softmax), every normalization (with rope), and the options that change
# the maths (placement, post-norm, bidirectional, soft cap, activations, anchors, pooling, the
# entries' own options): train a few steps with eval_batches = 1, save, export, run the file;
# its loss must equal `attnplay eval`'s on the same batch to 1e-5 relative. Every entry exports
# but one whose registry entry declares why it cannot (its `torch.cannot`, named in the refusal:
# reported as "declared", test_torch_export.cpp checks the refusal); any other failure fails. 30 steps at lr 0.02 move every learned tensor off its init (the
# zero-initialised ones too: CoPE's table, the sinks). Exit 77 (skipped) when /usr/bin/python3 has
# no torch.
set -uo pipefail
bin=$1
py=/usr/bin/python3
"$py" -c "import torch" 2>/dev/null || { echo "torch: /usr/bin/python3 has no torch (apt-get install python3-torch); skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fails=0 passes=0
tiny=(--set steps=30 --set d_model=16 --set heads=2 --set ffn=32 --set layers=2 --set batch=6 --set seq_len=8
      --set eval_batches=1 --set lr=0.02)

# case NAME ENTRY [--set k=v ...]: ENTRY is the registry entry under test.
case_() {
  local name=$1 entry=$2; shift 2
  if ! "$bin" train "${tiny[@]}" "$@" --out m.safetensors >/dev/null 2>train.err; then
    echo "FAIL $name: training failed: $(cat train.err)"; fails=$((fails + 1)); return
  fi
  if ! "$bin" export-torch --model m.safetensors --out model.py >/dev/null 2>export.err; then
    if grep -q "'$entry' cannot be exported to PyTorch (" export.err; then
      echo "declared $name: $(cat export.err)"; return
    fi
    echo "FAIL $name: export of '$entry' failed: $(cat export.err)"; fails=$((fails + 1)); return
  fi
  local want got
  want=$("$bin" eval --model m.safetensors --json) || { echo "FAIL $name: eval"; fails=$((fails + 1)); return; }
  got=$("$py" model.py m.safetensors 2>py.err | tail -n 1) || { echo "FAIL $name: python: $(tail -3 py.err)"; fails=$((fails + 1)); return; }
  if "$py" - "$want" "$got" <<'PY'
import json, sys
want, got = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rel = abs(got["loss"] - want["loss"]) / abs(want["loss"])
print(f"     loss {got['loss']:.7f} vs eval {want['loss']:.7f} (rel {rel:.1e}), accuracy {got['accuracy']:.4f} vs {want['token_accuracy']:.4f}")
sys.exit(0 if rel <= 1e-5 and got["engine_loss"] == want["loss"] else 1)
PY
  then echo "ok   $name"; passes=$((passes + 1)); else echo "FAIL $name"; fails=$((fails + 1)); fi
}

names() { "$bin" list "$1" --json | "$py" -c "import json, sys; print(' '.join(e['name'] for e in json.load(sys.stdin)['$1']))"; }

# every position encoding with softmax (causal, the default), every normalization with rope
for p in $(names positions); do case_ "position=$p" "$p" --set "position=$p"; done
for n in $(names normalizations); do case_ "normalization=$n" "$n" --set position=rope --set "normalization=$n"; done

# options that change the maths
case_ "learned layerwise, post-norm" learned --set position=learned --set placement=layerwise --set layernorm=post
case_ "sinusoidal concat base 100 layerwise" sinusoidal --set position=sinusoidal --set sinusoidal_layout=concat \
  --set sinusoidal_base=100 --set placement=layerwise
case_ "scaled_sinusoidal layerwise" scaled_sinusoidal --set position=scaled_sinusoidal --set placement=layerwise
case_ "rope_embed layerwise, base 100" rope_embed --set position=rope_embed --set placement=layerwise \
  --set rope_embed_base=100
case_ "qk_learned, 4 heads, bidirectional" qk_learned --set position=qk_learned --set heads=4 --set causal=false
case_ "rope half, fraction 0.5, base 100, gelu_erf" rope --set position=rope --set rope_layout=half \
  --set rope_fraction=0.5 --set rope_base=100 --set activation=gelu_erf
case_ "rope pi from rope_train_len 4 (scaled in training and evaluation)" rope --set position=rope \
  --set rope_scaling=pi --set rope_factor=2 --set rope_train_len=4
case_ "alibi bidirectional (symmetric), relu" alibi --set position=alibi --set causal=false --set activation=relu
case_ "alibi asymmetric ratio 2, bidirectional" alibi --set position=alibi --set causal=false \
  --set alibi_mode=asymmetric --set alibi_ratio=2 --set heads=4
case_ "t5_bias bidirectional, 8 buckets" t5_bias --set position=t5_bias --set causal=false \
  --set t5_num_buckets=8 --set t5_max_distance=12
case_ "kerple power, bidirectional" kerple --set position=kerple --set kerple_kind=power --set causal=false
case_ "dynamic_bias absolute, softcap 2" dynamic_bias --set position=dynamic_bias \
  --set dynamic_bias_distance=absolute --set softcap=2
case_ "dynamic_bias signed, bidirectional" dynamic_bias --set position=dynamic_bias --set causal=false
case_ "shaw keys only (shaw_values=false), clip 3, bidirectional" shaw --set position=shaw --set shaw_values=false \
  --set shaw_clip=3 --set causal=false
case_ "shaw with values, bidirectional" shaw --set position=shaw --set causal=false
case_ "urpe K = 3, bidirectional" urpe --set position=urpe --set urpe_max_distance=3 --set causal=false
case_ "fire length 4, bidirectional" fire --set position=fire --set fire_length=4 --set causal=false
# the masked language model (bidirectional, [MASK] in the inputs, only the chosen positions scored)
case_ "mlm, rope_embed, bidirectional" rope_embed --set task=mlm --set position=rope_embed
case_ "xpos gamma 8, base 100" xpos --set position=xpos --set xpos_gamma=8 --set xpos_base=100
case_ "softcap 1, bidirectional, post-norm" rope --set position=rope --set softcap=1 --set causal=false --set layernorm=post
case_ "contextual1 bidirectional, 8 buckets, max distance 5" contextual1 --set position=contextual1 --set causal=false \
  --set contextual_num_buckets=8 --set contextual_max_distance=5
case_ "contextual2 bidirectional, 8 buckets, max distance 5" contextual2 --set position=contextual2 --set causal=false \
  --set contextual_num_buckets=8 --set contextual_max_distance=5
case_ "contextual2 causal, 4 buckets, max distance 3, post-norm" contextual2 --set position=contextual2 \
  --set contextual_num_buckets=4 --set contextual_max_distance=3 --set layernorm=post
case_ "cope bidirectional" cope --set position=cope --set causal=false
case_ "cope npos_max 3 (counts clamped), softcap 2" cope --set position=cope --set cope_npos_max=3 --set softcap=2
case_ "forget bias init 0, 4 heads" forget --set position=forget --set forget_bias_init=0 --set heads=4
case_ "randomized wrap learned, max range 40" randomized --set position=randomized --set randomized_wrap=learned \
  --set randomized_max_range=40
case_ "randomized wrap rope, bidirectional" randomized --set position=randomized --set randomized_wrap=rope --set causal=false
case_ "randomized wrap sinusoidal, bidirectional" randomized --set position=randomized --set causal=false
case_ "relu2 visible" relu2 --set position=alibi --set normalization=relu2 --set relu2_divisor=visible
case_ "relu2 row, bidirectional" relu2 --set position=alibi --set normalization=relu2 --set relu2_divisor=row --set causal=false
case_ "sigmoid fixed b = -1" sigmoid --set position=rope --set normalization=sigmoid --set sigmoid_bias=fixed --set sigmoid_b=-1
case_ "exp, exp_softcap 4" exp --set position=rope --set normalization=exp --set exp_softcap=4
case_ "sink bidirectional, alibi" sink --set position=alibi --set normalization=sink --set causal=false
case_ "topk k = 2, bidirectional" topk --set position=rope --set normalization=topk --set topk_k=2 --set causal=false
case_ "topk k = 3, straight_through, alibi" topk --set position=alibi --set normalization=topk --set topk_k=3 \
  --set topk_backward=straight_through
case_ "stick_breaking, no position" stick_breaking --set position=none --set normalization=stick_breaking
case_ "stick_breaking_current, alibi" stick_breaking --set position=alibi --set normalization=stick_breaking \
  --set stick_breaking_current=true
case_ "performer 24 features, bidirectional" performer --set position=rope --set normalization=performer \
  --set performer_features=24 --set causal=false
case_ "performer redraw, learned" performer --set position=learned --set normalization=performer --set performer_redraw=true
case_ "anchors cls_sep, bidirectional" learned --set position=learned --set anchors=cls_sep --set causal=false
case_ "per-sequence task (order), pool mean" rope --set task=order --set position=rope --set causal=false
case_ "per-sequence task (order), pool cls, cls anchor" learned --set task=order --set anchors=cls --set pool=cls --set causal=false

# a user's text never becomes Python: the text task's corpus enters as token ids only
for k in $(seq 40); do printf 'the cat sat """; import os; os.remove("x") # MARKER%s\n' "$k"; done > corpus.txt
if "$bin" train "${tiny[@]}" --set task=text --set position=rope --text-file corpus.txt --out m.safetensors >/dev/null 2>&1 &&
   "$bin" export-torch --model m.safetensors --out model.py >/dev/null && ! grep -q 'MARKER\|os.remove' model.py &&
   "$py" model.py m.safetensors >/dev/null; then
  echo "ok   the text task's corpus is not in the file (token ids only), and the file runs"; passes=$((passes + 1))
else
  echo "FAIL the text task's export"; fails=$((fails + 1))
fi

# nor do the custom task's tokens: its pairs enter as ids, and the loss is eval's
for k in $(seq 60); do echo "x\"\"\" $((k % 7)) $((k % 5)) -> MARKER$((k % 7 + k % 5))"; done > pairs.txt
if "$bin" train "${tiny[@]}" --set position=alibi --task-file pairs.txt --out m.safetensors >/dev/null 2>&1 &&
   "$bin" export-torch --model m.safetensors --out model.py >/dev/null && ! grep -q 'MARKER\|x"""' model.py &&
   [ "$("$py" model.py m.safetensors | "$py" -c 'import json, sys; r = json.load(sys.stdin); print(abs(r["loss"] - r["engine_loss"]) <= 1e-5 * r["engine_loss"])')" = True ]; then
  echo "ok   the custom task's tokens are not in the file, and its loss is the engine's"; passes=$((passes + 1))
else
  echo "FAIL the custom task's export"; fails=$((fails + 1))
fi

# run alone, as a user does: the file and the model exported side by side under the playground's
# names, `python3 attnplay-copy-step30.py` from another folder finds the model beside it; with no
# model there it names what it looked for, and exits non-zero
mkdir -p export run
if "$bin" train "${tiny[@]}" --set task=copy --out export/attnplay-copy-step30.safetensors >/dev/null 2>&1 &&
   "$bin" export-torch --model export/attnplay-copy-step30.safetensors --out export/attnplay-copy-step30.py >/dev/null &&
   (cd run && "$py" ../export/attnplay-copy-step30.py > alone.json) &&
   [ "$("$py" -c 'import json, sys; r = json.load(open(sys.argv[1])); print(abs(r["loss"] - r["engine_loss"]) <= 1e-5 * r["engine_loss"])' run/alone.json)" = True ] &&
   mv export/attnplay-copy-step30.py run/lonely.py && ! "$py" run/lonely.py >/dev/null 2>alone.err &&
   grep -q 'no model file given, and none beside it (lonely.safetensors); run: python3 run/lonely.py MODEL.safetensors' alone.err; then
  echo "ok   run alone, the file evaluates the model exported beside it; alone, it names the file it needs"; passes=$((passes + 1))
else
  echo "FAIL the file run alone: $(cat run/alone.json alone.err 2>/dev/null | tail -3)"; fails=$((fails + 1))
fi

echo "torch: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
