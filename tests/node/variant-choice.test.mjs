// Which wasm variant a page asks for (web/src/common/simd-support.js): the standalone playground
// asks for the threaded one unless its address says ?threads=0, and gets it only where the page
// can run it (crossOriginIsolated, SharedArrayBuffer, more than one core), with at most 4 threads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { threadsRequested, threadsAvailable, MAX_THREADS } from '../../web/src/common/simd-support.js';

test('the playground asks for threads by default; ?threads=0 opts out', () => {
  for (const search of ['', '?threads=1', '?threads=', '?x=1', '?threads=yes'])
    assert.equal(threadsRequested(search), true, search);
  for (const search of ['?threads=0', '?x=1&threads=0']) assert.equal(threadsRequested(search), false, search);
});

test('threads only where the page can run them, min(cores, 4)', () => {
  const page = { crossOriginIsolated: true, hasSharedMemory: true, hardwareConcurrency: 2 };
  assert.equal(threadsAvailable(page), 2);
  assert.equal(threadsAvailable({ ...page, hardwareConcurrency: 16 }), MAX_THREADS);
  assert.equal(threadsAvailable({ ...page, crossOriginIsolated: false }), 0);
  assert.equal(threadsAvailable({ ...page, hasSharedMemory: false }), 0);
  assert.equal(threadsAvailable({ ...page, hardwareConcurrency: 1 }), 0);
});
