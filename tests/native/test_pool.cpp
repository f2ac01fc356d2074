// tests/native/test_pool.cpp — tensor/thread_pool.hpp alone: the setting is checked, every task of
// every round runs exactly once, within its round, and a pool stops cleanly between rounds. It
// needs nothing but the pool, so it also builds with ThreadSanitizer (the pool_tsan test,
// tests/native/CMakeLists.txt), which reports any access of a task that no round orders.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "tensor/thread_pool.hpp"

using Catch::Matchers::Contains;

namespace {

// Restores one thread when a test ends, whatever happens in it.
struct ThreadsGuard {
  explicit ThreadsGuard(int n) { ap::set_num_threads(n); }
  ~ThreadsGuard() { ap::set_num_threads(1); }
};

// One round of n tasks over counters that live only for this round; false (with the round named)
// when a task ran twice, ran outside 0..n-1, or did not run before parallel_for returned.
bool round_runs_each_task_once(int round, int n) {
  auto hits = std::make_unique<std::atomic<int>[]>(size_t(n) + 1);
  ap::parallel_for(n, [&](int i) { hits[size_t(std::min(i, n))].fetch_add(1); });
  for (int i = 0; i <= n; ++i)
    if (hits[size_t(i)].load() != (i < n ? 1 : 0)) {
      UNSCOPED_INFO("round " << round << " of " << n << " tasks: task " << i << " ran " << hits[size_t(i)].load());
      return false;
    }
  return true;
}

}  // namespace

TEST_CASE("threads: the setting is checked and parallel_for runs each task once on several threads", "[threads]") {
  CHECK(ap::num_threads() == 1);
  if (!ap::threads_supported()) {  // the single-threaded wasm builds (under Node here)
    CHECK_THROWS_WITH(ap::set_num_threads(2), Contains("this build has no threads"));
    ap::set_num_threads(1);
    return;
  }
  CHECK_THROWS_WITH(ap::set_num_threads(0), Contains("threads") && Contains("1..16"));
  CHECK_THROWS_WITH(ap::set_num_threads(ap::kMaxThreads + 1), Contains("out of range"));
  ThreadsGuard threads(3);
  CHECK(ap::num_threads() == 3);
  std::vector<std::atomic<int>> runs(200);
  std::mutex m;
  std::set<std::thread::id> ids;
  for (int round = 0; round < 50; ++round)  // many rounds: the workers' spin, sleep and wake
    ap::parallel_for(int(runs.size()), [&](int i) {
      runs[size_t(i)].fetch_add(1);
      if (i % 20 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
      std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
    });
  for (auto& r : runs) CHECK(r.load() == 50);
  CHECK(ids.size() > 1);
  int nested_threads = 0;
  ap::parallel_for(2, [&](int i) {
    if (i == 0) nested_threads = ap::num_threads();  // inside a task: no nested split
  });
  CHECK(nested_threads == 1);
}

TEST_CASE("threads: more pieces than threads, every task of every round run once, counted", "[threads]") {
  if (!ap::threads_supported()) return;  // checked by the first test
  ThreadsGuard threads(2);
  CHECK(ap::split_parts(64, 1e3) == 1);                                       // too small to split
  CHECK(ap::split_parts(64, 1e8) == 2 * ap::kPiecesPerThread);                // pieces per thread
  CHECK(ap::split_parts(3, 1e8) == 3);                                        // no more than units
  CHECK(ap::split_parts(64, ap::kMinSplitWork) == 2 * ap::kPiecesPerThread);  // pieces of 2^16 or more
  CHECK(ap::split_parts(64, 2.5 * ap::kMinPieceWork) == 1);                   // below kMinSplitWork
  // Many short rounds back to back, each smaller or larger than the last: a worker that read the
  // end of one round must never claim a task of it once the next round is being published (the
  // h32 pool did: it ran a task outside any round, counted it in the next, and that round's
  // caller returned while a task still ran on its stack).
  const ap::PoolCounts before = ap::pool_counts();
  long tasks = 0;
  bool all_once = true;
  for (int round = 0; round < 20000 && all_once; ++round) {
    const int n = 2 + round % 7;
    all_once = round_runs_each_task_once(round, n);
    tasks += n;
  }
  CHECK(all_once);
  const ap::PoolCounts after = ap::pool_counts();
  CHECK(after.caller - before.caller + after.workers - before.workers == tasks);
  // More tasks than one round holds (the ticket counts them in 16 bits): run as several rounds.
  CHECK(round_runs_each_task_once(-1, 70000));
}

TEST_CASE("threads: a pool stops cleanly right after a round, its workers running nothing of it", "[threads]") {
  if (!ap::threads_supported()) return;  // checked by the first test
  // Each cycle starts a pool, runs a few rounds, and stops it while its workers may still be in
  // their last claim loop. The h32 pool's stop published a round without tasks of its own: a
  // worker there ran the last round's closure again (after parallel_for had returned) and then
  // waited for a round that never came, so the stop (join) hung. Here a hang fails by ctest's
  // timeout, a late task by the counters, which stay checked after the stop.
  bool all_once = true;
  for (int cycle = 0; cycle < 300 && all_once; ++cycle) {
    ap::set_num_threads(2 + cycle % 2);
    const int n = 2 + cycle % 5;
    auto hits = std::make_unique<std::atomic<int>[]>(size_t(n));
    for (int round = 0; round < 3; ++round) ap::parallel_for(n, [&](int i) { hits[size_t(i)].fetch_add(1); });
    ap::set_num_threads(1);  // stops the pool
    for (int i = 0; i < n; ++i)
      if (hits[size_t(i)].load() != 3) {
        UNSCOPED_INFO("cycle " << cycle << ": task " << i << " ran " << hits[size_t(i)].load() << " times in 3 rounds");
        all_once = false;
      }
  }
  CHECK(all_once);
  CHECK(ap::num_threads() == 1);
}
