// build-scripts/bench/bench_train.cpp — training throughput of the reference model "tiny-ref":
// decoder-only, vocab 64, d_model 64, 4 heads, 2 layers, FFN 256 with GELU, pre-LayerNorm,
// learned positions, batch 16 × sequence 64, AdamW lr 3e-3 (task `random` with 64 symbols: the
// work per step does not depend on what is learned). Single thread. One FLOP count per step,
// 729.8 MFLOP (forward matmuls 243.3 M, backward twice that), gives the achieved GFLOP/s.
// Then what the replay's snapshots cost (core/session_snapshots.cpp): the first N steps of a new
// run with snapshots on against off, for tiny-ref and for a small copy model (its steps are cheap,
// so its frames weigh most), off and on alternating, best of five. Prints a human line on stderr and one JSON line on
// stdout (last). `--quick` for smoke tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "session.hpp"
#include "tensor/kernels.hpp"

namespace {
// Seconds for the first n steps of a new session, snapshots on or off.
double first_steps(const nlohmann::json& cfg, int n, bool snapshots) {
  ap::Session s(ap::Config::from_json(cfg));
  s.set_snapshots(snapshots);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) s.step();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Off and on alternate, so that a load that comes and goes on the machine hits both; the best
// of `reps` each.
nlohmann::json snapshot_cost(const char* name, const nlohmann::json& cfg, int n, int reps) {
  double off = 1e30, on = 1e30;
  for (int r = 0; r < reps; ++r) {
    off = std::min(off, first_steps(cfg, n, false));
    on = std::min(on, first_steps(cfg, n, true));
  }
  std::cerr << "snapshots, " << name << ", first " << n << " steps: +" << 100 * (on / off - 1) << "% time\n";
  return {{"model", name}, {"steps", n}, {"seconds_off", off}, {"seconds_on", on}, {"cost", on / off - 1}};
}
}  // namespace

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
    const nlohmann::json small{{"task", "copy"}, {"seq_len", 16}, {"d_model", 32}, {"heads", 2}, {"layers", 2},
                               {"eval_every", 0}, {"seed", 1}};
    r["snapshots"] = {snapshot_cost("tiny-ref", cfg, quick ? 20 : 300, quick ? 1 : 5),
                      snapshot_cost("copy d32", small, quick ? 50 : 2000, quick ? 1 : 5)};
    std::cerr << "tiny-ref training (" << ap::simd_arch_name() << "): " << sps << " steps/s, "
              << sps * flop / 1e9 << " GFLOP/s\n";
    std::cout << r.dump() << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "bench_train: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
