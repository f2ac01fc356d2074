// core/tensor/thread_pool.cpp — the worker threads behind parallel_for (thread_pool.hpp).
//
// One round: the caller publishes (n, fn) under a new generation and works on the tasks itself;
// each worker wakes on the new generation and claims task indices from the same shared ticket
// (callers cut their work into more tasks than threads: split_parts). The ticket holds the
// generation, the round's task count and the next task, so a claim is one compare-exchange that
// checks all three at once (Pool::work says why the count must be in it). The caller returns when
// every task is done, whether or not each worker has woken: on a loaded machine a worker may not
// run for a whole time slice, and the caller must not wait for it. Workers spin briefly on the
// generation (kSpin: across the short gaps between a step's rounds) before they sleep on a
// condition variable; the caller spins briefly for the last task, then sleeps too (a machine with
// more threads than cores must not spend a whole time slice spinning for a thread that is not
// running).
// In the threaded wasm build std::thread is a pthread on one of the Web Workers that Emscripten
// starts with the module (PTHREAD_POOL_SIZE), so no thread ever waits for a worker to load.
#include "tensor/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "refusal/refusal.hpp"

namespace ap {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// How long an idle worker spins before it sleeps, and the caller before it waits for the last
// task. 50 µs spans the back-to-back rounds of a step (half of a tiny-ref step's gaps are under
// 40 µs natively; most of the rest are 40-160 µs). Longer spins measured worse on a loaded
// machine (2 cores, load ~20): tiny-ref 2 threads / 1 thread 0.49 at 1 ms, 0.69 at 200 µs, 0.76 at
// 30 µs, with the worker's share of the tasks 10 %, 32 %, 49 %: a spinning worker spends the
// time slice that a sleeper's wake-up would get back, and it shares its process's CPU with the
// caller.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr auto kCallerSpin = std::chrono::microseconds(100);

// Spins until ready() or `limit` has passed; true when ready.
template <class F>
bool spin_until(F&& ready, std::chrono::steady_clock::duration limit) {
  const auto start = std::chrono::steady_clock::now();
  for (unsigned spins = 1; !ready(); ++spins) {
    cpu_relax();
    if (spins % 128 == 0 && std::chrono::steady_clock::now() - start > limit) return ready();
  }
  return true;
}

AP_THREAD_LOCAL bool t_in_task = false;  // inside a task: a nested parallel_for runs inline

class Pool {
 public:
  explicit Pool(int workers) {
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this] { loop(); });
  }
  ~Pool() {
    stop_.store(true);
    publish(0, nullptr, nullptr);  // a round with no task: nothing of the last round is claimable
    for (std::thread& t : threads_) t.join();
  }
  // Tasks in one round: the ticket's task fields are 16 bits (run_tasks cuts bigger n).
  static constexpr int kMaxRoundTasks = 0xFFFF;
  PoolCounts counts() const { return {caller_tasks_.load(), worker_tasks_.load()}; }

  void run(int n, void (*call)(void*, int), void* ctx) {
    done_.store(0, std::memory_order_relaxed);
    publish(n, call, ctx);
    work(caller_tasks_);
    const auto done = [&] { return done_.load() == n; };
    if (spin_until(done, kCallerSpin)) return;
    std::unique_lock<std::mutex> lock(m_);
    caller_waits_.store(true);  // seq_cst, against the last task's check (work())
    done_cv_.wait(lock, done);
    caller_waits_.store(false);
  }

 private:
  // ticket = generation << 32 | the round's task count << 16 | the next task to claim
  static unsigned gen_of(std::uint64_t t) { return unsigned(t >> 32); }
  static int count_of(std::uint64_t t) { return int((t >> 16) & 0xFFFF); }
  static int next_of(std::uint64_t t) { return int(t & 0xFFFF); }

  // A new round: its closure, then the ticket (next generation, n tasks, task 0), which releases
  // it. The stop is a round of 0 tasks, so a worker still in work() claims nothing of the last
  // round's closure, which lives on the stack of a parallel_for that has returned.
  void publish(int n, void (*call)(void*, int), void* ctx) {
    call_.store(call, std::memory_order_relaxed);
    ctx_.store(ctx, std::memory_order_relaxed);
    ++gen_;
    // seq_cst: against a worker going to sleep (loop())
    ticket_.store(std::uint64_t(gen_) << 32 | std::uint64_t(n) << 16);
    if (sleepers_.load() > 0) {
      std::lock_guard<std::mutex> lock(m_);
      cv_.notify_all();
    }
  }

  // Claims and runs tasks until the current round has none left; returns the generation it saw
  // last. A claim is a compare-exchange of the ticket t it read (task i = next_of(t) < the count
  // in t) to t + 1. While t has a task left, its round is live (the caller is in run() and cannot
  // publish another), so the closure read after t belongs to t's round exactly when the claim
  // succeeds. The count must come from the ticket itself: when it was a separate variable
  // (stored before the ticket by publish()), a worker that read a spent ticket (G, n_G) could
  // read the next round's larger count, published a moment before its ticket, and "claim" task
  // n_G of round G: it ran a task outside any round and counted it as done in the next, whose
  // caller then returned with a task still running on its stack (the h32 pool's segfault).
  unsigned work(std::atomic<long>& count) {
    t_in_task = true;
    std::uint64_t t = ticket_.load(std::memory_order_acquire);
    for (;;) {
      const int n = count_of(t), i = next_of(t);
      if (i >= n) break;
      const auto call = call_.load(std::memory_order_relaxed);
      void* const ctx = ctx_.load(std::memory_order_relaxed);
      if (!ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      call(ctx, i);
      // counted before it is done: a caller that reads pool_counts() after its round sees it
      count.fetch_add(1, std::memory_order_relaxed);
      if (done_.fetch_add(1) + 1 == n && caller_waits_.load()) {  // the round's last task
        std::lock_guard<std::mutex> lock(m_);
        done_cv_.notify_one();
      }
      t = ticket_.load(std::memory_order_acquire);
    }
    t_in_task = false;
    return gen_of(t);
  }

  // A worker: waits for a generation it has not seen, spinning first, then sleeping. It never
  // holds up the caller: the caller waits for the round's tasks, not for the workers, so a worker
  // that wakes late (or is not running on a loaded machine) finds no task and goes back to wait.
  void loop() {
    unsigned seen = 0;  // generation 0 is before the first round
    for (;;) {
      // the stop counts as a move: a worker that saw the stop's generation in work() must not
      // wait for another one
      const auto moved = [&] { return gen_of(ticket_.load()) != seen || stop_.load(); };
      if (!spin_until(moved, kSpin)) {
        std::unique_lock<std::mutex> lock(m_);
        sleepers_.fetch_add(1);
        cv_.wait(lock, moved);
        sleepers_.fetch_sub(1);
      }
      if (stop_.load()) return;
      seen = work(worker_tasks_);
    }
  }

  std::vector<std::thread> threads_;
  unsigned gen_ = 0;                      // the caller's
  std::atomic<std::uint64_t> ticket_{0};  // generation << 32 | tasks << 16 | next task
  std::atomic<int> done_{0}, sleepers_{0};
  std::atomic<void (*)(void*, int)> call_{nullptr};
  std::atomic<void*> ctx_{nullptr};
  std::atomic<bool> stop_{false}, caller_waits_{false};
  std::atomic<long> caller_tasks_{0}, worker_tasks_{0};
  std::mutex m_;
  std::condition_variable cv_, done_cv_;
};

std::unique_ptr<Pool> g_pool;  // null: one thread
int g_threads = 1;
int g_pieces = kPiecesPerThread;

}  // namespace

bool threads_supported() {
#ifdef AP_NO_THREADS
  return false;
#else
  return true;
#endif
}

void set_num_threads(int n) {
  if (n < 1 || n > kMaxThreads)
    refuse("pool.threads_range", "threads", {{"n", std::to_string(n)}, {"max", std::to_string(kMaxThreads)}});
  if (n > 1 && !threads_supported()) refuse("pool.no_threads", "threads");
  if (n == g_threads) return;
  g_pool.reset();
  g_threads = 1;
  if (n > 1) g_pool = std::make_unique<Pool>(n - 1);
  g_threads = n;
}

int num_threads() { return t_in_task ? 1 : g_threads; }

int split_parts(int units, double work) {
  const int threads = num_threads();
  if (threads == 1 || units < 2 || work < kMinSplitWork) return 1;
  const int by_work = int(std::min(work / kMinPieceWork, double(threads * g_pieces)));
  return std::min(units, std::max(threads, by_work));
}

PoolCounts pool_counts() { return g_pool ? g_pool->counts() : PoolCounts{}; }

namespace detail {
void run_tasks(int n, void (*call)(void*, int), void* ctx) {
  if (!g_pool || t_in_task) {
    for (int i = 0; i < n; ++i) call(ctx, i);
    return;
  }
  if (n <= Pool::kMaxRoundTasks) return g_pool->run(n, call, ctx);
  for (int start = 0; start < n; start += Pool::kMaxRoundTasks) {  // rounds of at most 65535 tasks
    struct Slice {
      void (*call)(void*, int);
      void* ctx;
      int start;
    } slice{call, ctx, start};
    const auto run_slice = [](void* s, int i) {
      const Slice& sl = *static_cast<Slice*>(s);
      sl.call(sl.ctx, sl.start + i);
    };
    g_pool->run(std::min(n - start, int(Pool::kMaxRoundTasks)), run_slice, &slice);
  }
}
void set_pieces_per_thread(int n) { g_pieces = std::clamp(n, 1, 64); }
}  // namespace detail

}  // namespace ap
