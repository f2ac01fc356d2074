// core/bindings/threads-pre.js — prepended to the threaded wasm module (wasm.cmake): the number
// of Web Workers started with the module for its pthreads (PTHREAD_POOL_SIZE reads it), from the
// factory's argument {pthreadPoolSize} (the thread count minus the calling thread), 1..15.
// At least 1: Emscripten 3.1.6 waits for the pool to load before it resolves, and never resolves
// for an empty pool. `unrefThreads()` lets Node exit while the workers idle (tests).
Module['pthreadPoolSize'] = Math.min(15, Math.max(1, Module['pthreadPoolSize'] | 0));
Module['unrefThreads'] = function () {
  PThread.unusedWorkers.concat(PThread.runningWorkers).forEach(function (w) {
    if (w.unref) w.unref();
  });
};
