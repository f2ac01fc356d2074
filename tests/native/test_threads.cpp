// tests/native/test_threads.cpp — tensor/thread_pool.hpp: the pool runs every task once across
// several threads, the setting is checked, and the threaded kernels (GEMMs split by tiles,
// attention split by (batch, head)) give BIT-IDENTICAL results to one thread: the same GEMM
// outputs on odd sizes, and the same weights after training, for 1, 2 and 3 threads.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "model_check.hpp"
#include "session/session.hpp"
#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"

using Catch::Matchers::Contains;

namespace {

// Restores one thread when a test ends, whatever happens in it.
struct ThreadsGuard {
  explicit ThreadsGuard(int n) { ap::set_num_threads(n); }
  ~ThreadsGuard() { ap::set_num_threads(1); }
};

std::vector<float> random_vec(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
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
  CHECK(ap::split_parts(64, ap::kMinSplitWork) == 2 * ap::kPiecesPerThread);  // 8 pieces of 2^16
  CHECK(ap::split_parts(64, 2.5 * ap::kMinPieceWork) == 1);                   // below kMinSplitWork
  // Many short rounds back to back: a worker that wakes late must never run a task of a round
  // that has ended, nor miss one of the round it joins (each round checks its own counters).
  const ap::PoolCounts before = ap::pool_counts();
  long tasks = 0;
  for (int round = 0; round < 20000; ++round) {
    const int n = 2 + round % 7;
    std::atomic<int> hits[8] = {};
    ap::parallel_for(n, [&](int i) { hits[i].fetch_add(1); });
    for (int i = 0; i < 8; ++i)
      if (hits[i].load() != (i < n ? 1 : 0)) FAIL("round " << round << ": task " << i << " ran " << hits[i].load());
    tasks += n;
  }
  const ap::PoolCounts after = ap::pool_counts();
  CHECK(after.caller - before.caller + after.workers - before.workers == tasks);
}

TEST_CASE("threads: split GEMMs are bit-identical to one thread on odd sizes", "[threads][gemm]") {
  if (!ap::threads_supported()) return;  // checked by the first test
  std::mt19937 rng(11);
  struct Case {
    int M, N, K;
  };
  // above the split threshold (kMinSplitWork multiply-adds), split by rows and by columns
  const Case cases[] = {{1000, 37, 65}, {67, 300, 40}, {129, 129, 129}, {9, 2000, 33}, {513, 64, 16}};
  for (const Case& c : cases)
    for (float beta : {0.f, 1.f}) {
      const auto A = random_vec(size_t(c.M) * c.K, rng), B = random_vec(size_t(c.K) * c.N, rng),
                 C0 = random_vec(size_t(c.M) * c.N, rng);
      auto run = [&](int threads, int op) {
        ap::set_num_threads(threads);
        std::vector<float> C = C0;
        if (op == 0) ap::gemm_nn(c.M, c.N, c.K, 0.7f, A.data(), c.K, B.data(), c.N, C.data(), c.N, beta);
        if (op == 1) ap::gemm_nt(c.M, c.N, c.K, 0.7f, A.data(), c.K, B.data(), c.K, C.data(), c.N, beta);
        if (op == 2) ap::gemm_tn(c.M, c.N, c.K, 0.7f, A.data(), c.M, B.data(), c.N, C.data(), c.N, beta);
        ap::set_num_threads(1);
        return C;
      };
      for (int op = 0; op < 3; ++op) {
        INFO("M=" << c.M << " N=" << c.N << " K=" << c.K << " beta=" << beta << " op=" << op);
        const auto one = run(1, op);
        CHECK(same_bits(run(2, op), one));
        CHECK(same_bits(run(3, op), one));
      }
    }
}

TEST_CASE("threads: training gives the same weights, bit for bit, on 1, 2 and 3 threads", "[threads]") {
  if (!ap::threads_supported()) return;  // checked by the first test
  // Big enough that the GEMMs, the attention GEMMs and the row normalizations all split.
  const nlohmann::json extra =
      GENERATE(nlohmann::json{{"d_model", 32}, {"heads", 4}, {"ffn", 64}, {"batch", 8}, {"seq_len", 64}},
               nlohmann::json{{"d_model", 32},
                              {"heads", 4},
                              {"ffn", 64},
                              {"batch", 8},
                              {"seq_len", 64},
                              {"position", "rope"},
                              {"normalization", "relu2"},
                              {"dropout", 0.1}});
  const auto cfg = aptest::tiny(extra);
  auto train = [&](int threads) {
    ThreadsGuard guard(threads);
    ap::Session s(ap::Config::from_json(cfg));
    s.train(4);
    return s.weights_sha256();
  };
  INFO(cfg.dump());
  const std::string one = train(1);
  CHECK(train(2) == one);
  CHECK(train(3) == one);
}
