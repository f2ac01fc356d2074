// build-scripts/bench/bench_kernels.cpp — GFLOP/s of the fast GEMMs at the shapes the model
// runs (d_model 64, MLP 256, T = 64 tokens × 16 sequences, heads of size 16), plus a 512³
// square and the naive GEMM for scale.
//
// Method: GFLOP/s = 2·M·N·K·count / seconds. Each shape is warmed up, then timed over runs of
// enough calls to last ~0.2 s; the best of several runs is reported (least disturbed by the
// machine). `--quick`: ~0.02 s runs, best of 2, for smoke tests.
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

// Best GFLOP/s of `reps` timed runs, each of `calls` calls chosen to last ~target seconds.
double measure(const Shape& s, double target, int reps) {
  const bool ta = s.op == ap::Op::TN, tb = s.op == ap::Op::NT;
  const int lda = ta ? s.M : s.K, ldb = tb ? s.K : s.N, ldc = s.N;
  const std::ptrdiff_t sA = std::ptrdiff_t(s.M) * s.K, sB = std::ptrdiff_t(s.K) * s.N, sC = std::ptrdiff_t(s.M) * s.N;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> A(sA * s.count), B(sB * s.count), C(sC * s.count, 0.f);
  for (auto& x : A) x = d(rng);
  for (auto& x : B) x = d(rng);
  // alpha is small so that C, which accumulates over thousands of calls, stays well scaled
  auto call = [&] {
    if (s.naive)
      ap::gemm_batched_naive(s.op, s.count, s.M, s.N, s.K, 1e-3f, A.data(), lda, sA, B.data(), ldb, sB, C.data(), ldc,
                             sC);
    else
      ap::gemm_batched(s.op, s.count, s.M, s.N, s.K, 1e-3f, A.data(), lda, sA, B.data(), ldb, sB, C.data(), ldc, sC);
  };
  // warm-up, and a first estimate of the time per call
  double t0 = now();
  int calls = 0;
  do {
    call();
    ++calls;
  } while (now() - t0 < target / 4);
  const double per_call = (now() - t0) / calls;
  calls = std::max(1, int(target / per_call));
  const double flops = 2.0 * s.M * s.N * s.K * s.count * calls;
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    t0 = now();
    for (int c = 0; c < calls; ++c) call();
    best = std::max(best, flops / (now() - t0) * 1e-9);
  }
  volatile float sink = C[0];  // keep the results observable
  (void)sink;
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) quick |= std::strcmp(argv[i], "--quick") == 0;
  const double target = quick ? 0.02 : 0.2;
  const int reps = quick ? 2 : 5;

  const std::vector<Shape> shapes = {
      {"1024x64·64x192", ap::Op::NN, 1024, 192, 64, 1, false},       // qkv projection
      {"1024x64·64x256", ap::Op::NN, 1024, 256, 64, 1, false},       // MLP up
      {"1024x256·256x64", ap::Op::NN, 1024, 64, 256, 1, false},      // MLP down
      {"1024x64·64x64", ap::Op::NN, 1024, 64, 64, 1, false},         // attention output
      {"(1024x64)T·1024x256", ap::Op::TN, 64, 256, 1024, 1, false},  // weight gradient
      {"64x(64x16·(64x16)T)", ap::Op::NT, 64, 64, 16, 64, false},    // attention scores
      {"512x512·512x512", ap::Op::NN, 512, 512, 512, 1, false},
      {"512x512·512x512 naive", ap::Op::NN, 512, 512, 512, 1, true},
  };

  const char* arch = ap::simd_arch_name();
  std::fprintf(stderr, "apbench: GEMM GFLOP/s, single thread, arch %s%s\n", arch, quick ? " (quick)" : "");
  std::fprintf(stderr, "%-24s %-3s %5s %5s %5s %5s %9s\n", "shape", "op", "M", "N", "K", "count", "GFLOP/s");
  std::string json = std::string("{\"arch\":\"") + arch + "\",\"gemm\":[";
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const double g = measure(s, target, reps);
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
