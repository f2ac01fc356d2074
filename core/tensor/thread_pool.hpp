// core/tensor/thread_pool.hpp — the one pool of worker threads the kernels split their work over
// (plain std::thread; the threaded wasm build maps it onto Emscripten's pre-started pthreads).
//
// The thread count is a process-wide runtime setting: 1 (the default) runs everything on the
// calling thread and starts no thread at all. parallel_for(n, fn) runs fn(0..n-1) across the
// pool, the caller taking part, and returns when all are done. Callers split their work so that
// each output is computed by exactly the code and summation order of the single-threaded run
// (whole GEMM tiles, whole heads), which keeps results bit-identical for any thread count.
// Tasks must not throw. A parallel_for inside a task runs inline (no nested parallelism).
// The pool is driven from one thread at a time (the session's), as the model is.
#pragma once
#include <utility>

namespace ap {

constexpr int kMaxThreads = 16;

// wasm without the atomics feature (the single-threaded wasm builds) has neither threads nor
// thread-local storage (the linker refuses it): there, AP_THREAD_LOCAL is a plain static.
#if defined(__wasm__) && !defined(__wasm_atomics__)
#define AP_NO_THREADS 1
#define AP_THREAD_LOCAL
#else
#define AP_THREAD_LOCAL thread_local
#endif

// Sets the number of threads the kernels use (1..kMaxThreads); throws std::invalid_argument
// naming the allowed range, or when this build has no threads (the single-threaded wasm builds).
void set_num_threads(int n);
int num_threads();
bool threads_supported();  // false where AP_NO_THREADS

// Work below this (multiply-adds or similar simple operations) stays on the calling thread: a
// parallel_for round costs a few microseconds.
constexpr double kMinSplitWork = 1 << 19;
// A split product is cut into up to kPiecesPerThread pieces per thread, none below kMinPieceWork:
// the pieces are dealt from a shared counter, so a worker that wakes late still takes a share of
// the round and the caller never waits long for the last piece. Two, not four: each piece is a
// claim and a wake-up, and tiny-ref with 2 threads ran 2.5% faster in wasm with two (under Node,
// two builds in alternating rounds, both orders).
constexpr int kPiecesPerThread = 2;
constexpr double kMinPieceWork = 1 << 16;

// How many parts to cut `units` independent pieces of total `work` into: 1 when threads are off
// or the work is too small, else min(units, threads · kPiecesPerThread, work / kMinPieceWork),
// and never fewer than min(threads, units).
int split_parts(int units, double work);

// Tasks run by the calling thread and by the pool's workers since the thread count was last set
// (the bench reports the workers' share; a worker that wakes late shows as a small share).
struct PoolCounts {
  long caller = 0, workers = 0;
};
PoolCounts pool_counts();

namespace detail {
void run_tasks(int n, void (*call)(void*, int), void* ctx);
// Pieces per thread (default kPiecesPerThread; 1 is the old one-piece-per-thread split): for the
// bench's before/after in one run only.
void set_pieces_per_thread(int n);
}  // namespace detail

// fn(i) for every i in [0, n), spread over the pool; each i must write its own outputs.
template <class F>
void parallel_for(int n, F&& fn) {
  if (n <= 0) return;
  if (n == 1 || num_threads() == 1) {
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  using Fn = std::remove_reference_t<F>;
  detail::run_tasks(
      n, [](void* ctx, int i) { (*static_cast<Fn*>(ctx))(i); }, const_cast<void*>(static_cast<const void*>(&fn)));
}

// fn(begin, end) over [0, units) cut into split_parts(units, work) consecutive ranges, spread over
// the pool (one range, on the calling thread, when the work is small or threads are off).
template <class F>
void parallel_ranges(int units, double work, F&& fn) {
  const int parts = split_parts(units, work);
  if (parts < 2) return fn(0, units);
  parallel_for(parts, [&](int p) {
    fn(int(static_cast<long long>(units) * p / parts), int(static_cast<long long>(units) * (p + 1) / parts));
  });
}

}  // namespace ap
