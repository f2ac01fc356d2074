// tests/native/test_threads.cpp — the threaded kernels (GEMMs split by tiles, attention split by
// (batch, head)) give BIT-IDENTICAL results to one thread: the same GEMM outputs on odd sizes, and
// the same weights after training, for 1, 2 and 3 threads. The pool itself: test_pool.cpp.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "model_check.hpp"
#include "session/session.hpp"
#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"

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

TEST_CASE("threads: split GEMMs are bit-identical to one thread on odd sizes", "[threads][gemm]") {
  if (!ap::threads_supported()) return;  // test_pool.cpp checks the refusal
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
  if (!ap::threads_supported()) return;  // test_pool.cpp checks the refusal
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
