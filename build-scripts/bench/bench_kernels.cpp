// build-scripts/bench/bench_kernels.cpp — GFLOP/s of the fast GEMMs at the shapes the model
// runs (d_model 64, MLP 256, T = 64 tokens × 16 sequences, heads of size 16), the per-head
// attention products for head sizes 8, 16 and 32 (names starting "64x(": bench.mjs sets their
// rate against the dense shapes'), plus a 512³ square and the naive GEMM for scale.
//
// Method: GFLOP/s = 2·M·N·K·count / seconds. Each shape is warmed up, then timed over short runs
// (enough calls to last ~3 ms) in 60 rounds that take every shape in turn; the best run is
// reported. On a loaded machine a short run is likely to fit in one undisturbed time slice, and
// the rounds spread the rest of the noise over every shape alike, so the rows' ratios hold
// within one run. `--quick`: 3 rounds.
// Output: a human table on stderr; exactly one JSON line on stdout, last.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tensor/kernels.hpp"

namespace {

struct Shape {
  std::string name;
  ap::Op op;
  int M, N, K, count;
  bool naive;
};

const char* op_name(ap::Op op) { return op == ap::Op::NN ? "nn" : op == ap::Op::NT ? "nt" : "tn"; }

// Left-aligns a UTF-8 name in `width` columns (printf pads by bytes, and "·" is two bytes).
std::string pad(const std::string& s, std::size_t width) {
  std::size_t cols = 0;
  for (unsigned char ch : s) cols += (ch & 0xC0) != 0x80;
  return s + std::string(cols < width ? width - cols : 0, ' ');
}

double now() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// One shape's operands and its call; `calls` per timed run is set from a first estimate.
struct Bench {
  Shape s;
  std::vector<float> A, B, C;
  int lda, ldb, ldc, calls = 1;
  std::ptrdiff_t sA, sB, sC;
  double best = 0;

  explicit Bench(const Shape& shape) : s(shape) {
    const bool ta = s.op == ap::Op::TN, tb = s.op == ap::Op::NT;
    lda = ta ? s.M : s.K, ldb = tb ? s.K : s.N, ldc = s.N;
    sA = std::ptrdiff_t(s.M) * s.K, sB = std::ptrdiff_t(s.K) * s.N, sC = std::ptrdiff_t(s.M) * s.N;
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    A.resize(sA * s.count), B.resize(sB * s.count), C.assign(sC * s.count, 0.f);
    for (auto& x : A) x = d(rng);
    for (auto& x : B) x = d(rng);
  }
  // alpha is small so that C, which accumulates over thousands of calls, stays well scaled
  void call() {
    if (s.naive)
      ap::gemm_batched_naive(s.op, s.count, s.M, s.N, s.K, 1e-3f, A.data(), lda, sA, B.data(), ldb, sB, C.data(), ldc,
                             sC);
    else
      ap::gemm_batched(s.op, s.count, s.M, s.N, s.K, 1e-3f, A.data(), lda, sA, B.data(), ldb, sB, C.data(), ldc, sC);
  }
  // Warm-up, and the calls that make one timed run last ~target seconds.
  void calibrate(double target) {
    const double t0 = now();
    int n = 0;
    do {
      call();
      ++n;
    } while (now() - t0 < target / 4);
    calls = std::max(1, int(target / ((now() - t0) / n)));
  }
  void time_once() {
    const double t0 = now();
    for (int c = 0; c < calls; ++c) call();
    best = std::max(best, 2.0 * s.M * s.N * s.K * s.count * calls / (now() - t0) * 1e-9);
  }
};

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) quick |= std::strcmp(argv[i], "--quick") == 0;
  const double target = 0.003;
  const int reps = quick ? 3 : 60;

  const std::vector<Shape> shapes = {
      {"1024x64·64x192", ap::Op::NN, 1024, 192, 64, 1, false},       // qkv projection
      {"1024x64·64x256", ap::Op::NN, 1024, 256, 64, 1, false},       // MLP up
      {"1024x256·256x64", ap::Op::NN, 1024, 64, 256, 1, false},      // MLP down
      {"1024x64·64x64", ap::Op::NN, 1024, 64, 64, 1, false},         // attention output
      {"(1024x64)T·1024x256", ap::Op::TN, 64, 256, 1024, 1, false},  // weight gradient
      {"64x(64x16·(64x16)T)", ap::Op::NT, 64, 64, 16, 64, false},    // attention scores
      // the other per-head attention products (heads of 8, 16, 32): unpacked (gemm_direct.cpp)
      {"64x(64x8·(64x8)T)", ap::Op::NT, 64, 64, 8, 64, false},
      {"64x(64x32·(64x32)T)", ap::Op::NT, 64, 64, 32, 64, false},
      {"64x(64x64·64x16)", ap::Op::NN, 64, 16, 64, 64, false},  // weights · V
      {"64x(64x64·64x32)", ap::Op::NN, 64, 32, 64, 64, false},
      {"64x((64x64)T·64x16)", ap::Op::TN, 64, 16, 64, 64, false},  // dV = weightsT · dout
      {"64x(64x64·64x8)", ap::Op::NN, 64, 8, 64, 64, false},
      {"512x512·512x512", ap::Op::NN, 512, 512, 512, 1, false},
      {"512x512·512x512 naive", ap::Op::NN, 512, 512, 512, 1, true},
  };

  const char* arch = ap::simd_arch_name();
  std::fprintf(stderr, "apbench: GEMM GFLOP/s, single thread, arch %s%s\n", arch, quick ? " (quick)" : "");
  std::fprintf(stderr, "%-24s %-3s %5s %5s %5s %5s %9s\n", "shape", "op", "M", "N", "K", "count", "GFLOP/s");
  std::string json = std::string("{\"arch\":\"") + arch + "\",\"gemm\":[";
  // Rounds over all shapes (each shape once per round, best of the rounds): on a loaded machine
  // the noise then falls on every shape alike, so the ratios between rows hold within one run.
  std::vector<Bench> benches(shapes.begin(), shapes.end());
  for (Bench& b : benches) b.calibrate(target);
  for (int r = 0; r < reps; ++r)
    for (Bench& b : benches) b.time_once();
  for (std::size_t i = 0; i < benches.size(); ++i) {
    const Shape& s = benches[i].s;
    const double g = benches[i].best;
    volatile float sink = benches[i].C[0];  // keep the results observable
    (void)sink;
    std::fprintf(stderr, "%s %-3s %5d %5d %5d %5d %9.2f\n", pad(s.name, 24).c_str(), op_name(s.op), s.M, s.N, s.K,
                 s.count, g);
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s{\"name\":\"%s\",\"op\":\"%s\",\"M\":%d,\"N\":%d,\"K\":%d,\"count\":%d,"
                  "\"gflops\":%.2f}",
                  i ? "," : "", s.name.c_str(), op_name(s.op), s.M, s.N, s.K, s.count, g);
    json += buf;
  }
  json += "]}";
  std::printf("%s\n", json.c_str());
  return 0;
}
