// build-scripts/bench/bench_train.cpp — training throughput of the reference model "tiny-ref":
// decoder-only, vocab 64, d_model 64, 4 heads, 2 layers, FFN 256 with GELU, pre-LayerNorm,
// learned positions, batch 16 × sequence 64, AdamW lr 3e-3 (task `random` with 64 symbols: the
// work per step does not depend on what is learned). Single thread. One FLOP count per step,
// 729.8 MFLOP (forward matmuls 243.3 M, backward twice that), gives the achieved GFLOP/s.
// Prints a human line on stderr and one JSON line on stdout (last). `--quick` for smoke tests.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "session.hpp"
#include "tensor/kernels.hpp"

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  nlohmann::json cfg{{"task", "random"}, {"vocab", 64}, {"seq_len", 64}, {"batch", 16},
                     {"d_model", 64}, {"heads", 4}, {"layers", 2}, {"ffn", 256},
                     {"activation", "gelu"}, {"norm_position", "pre"}, {"position", "learned"},
                     {"causal", true}, {"lr", 3e-3}, {"eval_every", 0}, {"seed", 1}};
  try {
    ap::Session s(ap::Config::from_json(cfg));
    const int warm = quick ? 2 : 10;
    for (int i = 0; i < warm; ++i) s.step();
    using clock = std::chrono::steady_clock;
    const double budget = quick ? 0.3 : 3.0;
    int steps = 0;
    const auto t0 = clock::now();
    double secs = 0;
    while (secs < budget) {
      s.step();
      ++steps;
      secs = std::chrono::duration<double>(clock::now() - t0).count();
    }
    const double sps = steps / secs, flop = 729.8e6;
    nlohmann::json r{{"arch", ap::simd_arch_name()}, {"steps", steps}, {"seconds", secs},
                     {"steps_per_s", sps}, {"tokens_per_s", sps * 16 * 64},
                     {"gflops", sps * flop / 1e9}};
    std::cerr << "tiny-ref training (" << ap::simd_arch_name() << "): " << sps << " steps/s, "
              << sps * flop / 1e9 << " GFLOP/s\n";
    std::cout << r.dump() << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "bench_train: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
