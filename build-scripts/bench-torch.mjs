// build-scripts/bench-torch.mjs — the bench's PyTorch row: tiny-ref trained by PyTorch on one
// thread (bench/bench_torch.py under /usr/bin/python3, Debian's python3-torch). Debian's torch
// calls the system BLAS (libblas.so.3); where that is the reference BLAS its GEMMs run ~20x
// slower than any tuned library, and the row would flatter us. So the row runs on OpenBLAS when it
// is found: AP_TORCH_BLAS_DIR (a folder holding an OpenBLAS libblas.so.3, e.g. from
// `apt-get download libopenblas0-pthread; dpkg -x *.deb root`), else Debian's openblas-pthread
// folder; with neither, it runs on the system BLAS and says so. Also run alone:
//   node build-scripts/bench-torch.mjs [--quick]
// Skips (returns {skipped: reason}) when /usr/bin/python3 has no torch.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
const PY = '/usr/bin/python3';
const DEBIAN_OPENBLAS = '/usr/lib/x86_64-linux-gnu/openblas-pthread';

/** The BLAS folder to put first on LD_LIBRARY_PATH, and a name for the row. */
function blas() {
  const dir = process.env.AP_TORCH_BLAS_DIR;
  if (dir && existsSync(resolve(dir, 'libblas.so.3'))) return { dir, name: `OpenBLAS from ${dir}` };
  if (existsSync(resolve(DEBIAN_OPENBLAS, 'libblas.so.3'))) return { dir: DEBIAN_OPENBLAS, name: 'OpenBLAS' };
  let system = '/usr/lib/x86_64-linux-gnu/libblas.so.3';
  try {
    system = realpathSync(system);
  } catch {
    // no system BLAS path: torch links what it finds
  }
  return { dir: '', name: `system BLAS ${system}${system.includes('/blas/') ? ' (the reference BLAS: slow)' : ''}` };
}

/**
 * @param {{quick?: boolean, log?: (...a: unknown[]) => void}} [opts]
 * @returns {{steps_per_s: number, torch: string, blas: string} | {skipped: string}}
 */
export function measureTorch({ quick = false, log = console.error } = {}) {
  if (spawnSync(PY, ['-c', 'import torch'], { encoding: 'utf8' }).status !== 0)
    return { skipped: `${PY} has no torch (apt-get install python3-torch)` };
  const b = blas();
  log(`bench: PyTorch tiny-ref, 1 thread, on ${b.name}`);
  const env = { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' };
  if (b.dir) env.LD_LIBRARY_PATH = [b.dir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  const args = [resolve(ROOT, 'build-scripts/bench/bench_torch.py'), ...(quick ? ['--quick'] : [])];
  const r = spawnSync(PY, args, { cwd: ROOT, encoding: 'utf8', env });
  if (r.status !== 0) return { skipped: `bench_torch.py failed: ${r.stderr.trim().split('\n').pop()}` };
  const lines = r.stdout.trim().split('\n');
  return { ...JSON.parse(lines[lines.length - 1]), blas: b.name };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(measureTorch({ quick: process.argv.includes('--quick') }));
