// core/tensor/thread_pool.cpp — the worker threads behind parallel_for (thread_pool.hpp).
//
// One round: the caller publishes (n, fn), bumps the generation counter and works on the tasks
// itself; each worker wakes on the new generation, takes task indices from a shared counter,
// and checks out; the caller returns when every worker has checked out. Workers spin on the
// generation for a while (a training step is a run of GEMMs a few hundred microseconds apart)
// before they sleep on a condition variable, so a round costs no system call while training;
// the caller spins briefly for the last worker, then sleeps too (a machine with more threads
// than cores must not spend a whole time slice spinning for a thread that is not running).
// In the threaded wasm build std::thread is a pthread on one of the Web Workers that Emscripten
// starts with the module (PTHREAD_POOL_SIZE), so no thread ever waits for a worker to load.
#include "tensor/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ap {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// How long an idle worker spins before it sleeps, and the caller before it waits for the last one.
constexpr auto kSpin = std::chrono::milliseconds(1);
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
    wake();
    for (std::thread& t : threads_) t.join();
  }
  int size() const { return int(threads_.size()) + 1; }

  void run(int n, void (*call)(void*, int), void* ctx) {
    n_ = n, call_ = call, ctx_ = ctx;
    next_.store(0, std::memory_order_relaxed);
    pending_.store(int(threads_.size()), std::memory_order_relaxed);
    wake();
    work();
    const auto done = [&] { return pending_.load() == 0; };
    if (spin_until(done, kCallerSpin)) return;
    std::unique_lock<std::mutex> lock(m_);
    caller_waits_.store(true);  // seq_cst, against the last worker's check (loop())
    done_cv_.wait(lock, done);
    caller_waits_.store(false);
  }

 private:
  void wake() {
    gen_.fetch_add(1);  // seq_cst, against a worker that is just going to sleep (loop())
    if (sleepers_.load() > 0) {
      std::lock_guard<std::mutex> lock(m_);
      cv_.notify_all();
    }
  }
  void work() {
    t_in_task = true;
    for (int i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < n_;) call_(ctx_, i);
    t_in_task = false;
  }
  void loop() {
    unsigned seen = 0;  // gen_'s value at construction, not now: a round may have begun already
    for (;;) {
      const auto moved = [&] { return gen_.load() != seen; };
      if (!spin_until(moved, kSpin)) {
        std::unique_lock<std::mutex> lock(m_);
        sleepers_.fetch_add(1);
        cv_.wait(lock, moved);
        sleepers_.fetch_sub(1);
      }
      seen = gen_.load();
      if (stop_.load()) return;
      work();
      if (pending_.fetch_sub(1) == 1 && caller_waits_.load()) {  // the last one out
        std::lock_guard<std::mutex> lock(m_);
        done_cv_.notify_one();
      }
    }
  }

  std::vector<std::thread> threads_;
  std::atomic<unsigned> gen_{0};
  std::atomic<int> next_{0}, pending_{0}, sleepers_{0};
  std::atomic<bool> stop_{false}, caller_waits_{false};
  int n_ = 0;
  void (*call_)(void*, int) = nullptr;
  void* ctx_ = nullptr;
  std::mutex m_;
  std::condition_variable cv_, done_cv_;
};

std::unique_ptr<Pool> g_pool;  // null: one thread
int g_threads = 1;

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
    throw std::invalid_argument("threads: " + std::to_string(n) + " is out of range; use 1.." +
                                std::to_string(kMaxThreads));
  if (n > 1 && !threads_supported())
    throw std::invalid_argument(
        "threads: this build has no threads; use 1 (the threaded wasm "
        "build runs on pages that are crossOriginIsolated)");
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
  return std::min(threads, units);
}

namespace detail {
void run_tasks(int n, void (*call)(void*, int), void* ctx) {
  if (!g_pool || t_in_task) {
    for (int i = 0; i < n; ++i) call(ctx, i);
    return;
  }
  g_pool->run(n, call, ctx);
}
}  // namespace detail

}  // namespace ap
