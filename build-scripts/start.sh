#!/usr/bin/env bash
# `npm start`: set up what is missing, build the wasm module, serve the site with Vite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash build-scripts/setup.sh
bash build-scripts/build-wasm.sh --module-only
echo
echo "Attention Playground: http://localhost:5173/"
echo
exec npx vite --config web/vite.config.mjs
