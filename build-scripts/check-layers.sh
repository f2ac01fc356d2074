#!/usr/bin/env bash
# build-scripts/check-layers.sh — the core's folders form layers, and this check keeps them so:
#   refusal/               the one error type and its table of codes: the lowest leaf, which
#                          every folder may include and which includes none
#   tensor/, io/           leaves above it (kernels; JSON and model files)
#   common/                shapes and types the model and the registries share (AttnShape,
#                          OptionSpec, ParamStore, MakeContext)
#   position/, normalization/, tasks/   the registries: they know no model, no config and not
#                          each other (the two axes are independent)
#   config/                Config, its field table and validation: above the registries
#   model/, optim/         the transformer and its optimizer: above config, never the tasks
#   torch/                 the PyTorch export's text: config and the registries' helpers, no model
#   session/               the facade (Session, its replay and interventions): all of the above
#   bindings/, cli/        the facade's two users
# Every `#include "dir/..."` from a folder to one it must not see is reported, and the exit
# code is 1. Usage: check-layers.sh [CORE_DIR]   (default: core/ of this clone). Run by ctest.
set -uo pipefail
core=${1:-"$(dirname "$0")/../core"}
[ -d "$core" ] || { echo "check-layers: no folder $core" >&2; exit 2; }

# folder: the folders it must not include
rules=(
  "refusal:tensor io common position normalization tasks config model optim torch session bindings cli"
  "tensor:io common position normalization tasks config model optim session"
  "io:common position normalization tasks config model optim session"
  "common:position normalization tasks config model optim session"
  "position:normalization tasks config model optim session"
  "normalization:position tasks config model optim session"
  "tasks:position normalization config model optim session"
  "config:model optim session"
  "model:tasks optim session"
  "optim:tasks model session"
  "torch:tasks model optim session"
  "session:bindings cli"
)

bad=0
for rule in "${rules[@]}"; do
  from=${rule%%:*}
  [ -d "$core/$from" ] || continue
  for to in ${rule#*:}; do
    pattern="^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$to[/.]"
    while IFS= read -r hit; do
      [ -n "$hit" ] || continue
      echo "check-layers: ${hit#"$core"/}  — $from/ must not include $to/" >&2
      bad=1
    done < <(grep -rnE "$pattern" "$core/$from" --include='*.hpp' --include='*.cpp' 2>/dev/null)
  done
done
[ $bad -eq 0 ] && echo "check-layers: core/ layering holds (${#rules[@]} rules)"
exit $bad
