// build-scripts/bench/bench_train.cpp — training throughput of the reference model "tiny-ref":
// decoder-only, vocab 64, d_model 64, 4 heads, 2 layers, FFN 256 with GELU, pre-LayerNorm,
// learned positions, batch 16 × sequence 64, AdamW lr 3e-3 (task `random` with 64 symbols: the
// work per step does not depend on what is learned). Single thread. One FLOP count per step,
// 729.8 MFLOP (forward matmuls 243.3 M, backward twice that), gives the achieved GFLOP/s.
// Then what the replay's frames cost (core/session/frames.cpp): one frame's time against a
// step's, and the share of the first 1000 steps' time that the schedule's frames take, for
// tiny-ref and a small copy model (cheap steps: its frames weigh most). Prints a human line on
// stderr and one JSON line on stdout (last). `--quick` for smoke tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "session/session.hpp"
#include "session/replay.hpp"
#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One frame's time against one step's, after warm-up: a step with frames off, then a step
// right after the store was emptied (it takes a frame first), alternating, medians of `reps`;
// and the frames the schedule takes in the first `n` steps of a run: their share of its time.
nlohmann::json frame_cost(const char* name, const nlohmann::json& cfg, int n, int reps) {
  using clock = std::chrono::steady_clock;
  auto seconds = [](clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); };
  ap::Session s(ap::Config::from_json(cfg));
  s.replay().set_enabled(false);
  for (int i = 0; i < 10; ++i) s.step();
  std::vector<double> off, on;
  for (int r = 0; r < reps; ++r) {
    s.replay().set_enabled(false);
    auto t0 = clock::now();
    s.step();
    off.push_back(seconds(t0));
    s.replay().set_enabled(true);
    t0 = clock::now();
    s.step();
    on.push_back(seconds(t0));
  }
  const double step = median(off), frame = std::max(0.0, median(on) - step);
  int taken = 0;  // frames the schedule takes in n steps (the store's steps, thinning undone)
  ap::FrameStore store;
  for (int k = 0; k <= n; ++k)
    if (store.due(k)) store.add(ap::ReplayFrame{k, {}, {}, {}, std::string(1000, 'x')}), ++taken;
  const double cost = taken * frame / (n * step);
  std::cerr << "replay frames, " << name << ": a frame " << 1e3 * frame << " ms = " << 100 * frame / step
            << "% of a step; " << taken << " frames in " << n << " steps: +" << 100 * cost << "% time\n";
  return {{"model", name}, {"steps", n}, {"frames", taken}, {"step_s", step}, {"frame_s", frame}, {"cost", cost}};
}
// Two threads against one on the same session, in alternating rounds (machine noise hits all
// alike): one thread; two threads with one piece per thread (the old split, "before"); two threads
// with the pool's default pieces ("after"). Best steps/s of each, and the share of the split
// tasks that the worker ran.
nlohmann::json threads_rates(ap::Session& s, bool quick) {
  using clock = std::chrono::steady_clock;
  const double budget = quick ? 0.1 : 0.6;
  const int rounds = quick ? 1 : 4;
  struct Setting {
    const char* name;
    int threads, pieces;
    double best = 0;
    long caller = 0, workers = 0;
  };
  Setting settings[] = {{"one", 1, 1}, {"two_one_piece", 2, 1}, {"two", 2, ap::kPiecesPerThread}};
  for (int r = 0; r < rounds; ++r)
    for (Setting& st : settings) {
      ap::set_num_threads(st.threads);
      ap::detail::set_pieces_per_thread(st.pieces);
      s.step();  // warm-up (and the pool's first wake)
      const ap::PoolCounts c0 = ap::pool_counts();
      int steps = 0;
      const auto t0 = clock::now();
      double secs = 0;
      for (; secs < budget; ++steps) {
        s.step();
        secs = std::chrono::duration<double>(clock::now() - t0).count();
      }
      const ap::PoolCounts c1 = ap::pool_counts();
      st.best = std::max(st.best, steps / secs);
      st.caller += c1.caller - c0.caller, st.workers += c1.workers - c0.workers;
    }
  ap::set_num_threads(1);
  ap::detail::set_pieces_per_thread(ap::kPiecesPerThread);
  nlohmann::json r;
  for (const Setting& st : settings) {
    r[std::string(st.name) + "_steps_per_s"] = st.best;
    if (st.threads > 1)
      r[std::string(st.name) + "_worker_share"] = double(st.workers) / std::max(1L, st.caller + st.workers);
  }
  r["ratio"] = settings[2].best / settings[0].best;
  r["ratio_one_piece"] = settings[1].best / settings[0].best;
  std::cerr << "threads: 2/1 = " << r["ratio"] << " (one piece per thread: " << r["ratio_one_piece"]
            << "); worker's share of tasks " << r["two_worker_share"]
            << " (one piece: " << r["two_one_piece_worker_share"] << ")\n";
  return r;
}
}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  nlohmann::json cfg{{"task", "random"},
                     {"vocab", 64},
                     {"seq_len", 64},
                     {"batch", 16},
                     {"d_model", 64},
                     {"heads", 4},
                     {"layers", 2},
                     {"ffn", 256},
                     {"activation", "gelu"},
                     {"norm_position", "pre"},
                     {"position", "learned"},
                     {"causal", true},
                     {"lr", 3e-3},
                     {"eval_every", 0},
                     {"seed", 1}};
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
    nlohmann::json r{{"arch", ap::simd_arch_name()},
                     {"steps", steps},
                     {"seconds", secs},
                     {"steps_per_s", sps},
                     {"tokens_per_s", sps * 16 * 64},
                     {"gflops", sps * flop / 1e9}};
    if (ap::threads_supported()) r["threads"] = threads_rates(s, quick);
    const nlohmann::json small{{"task", "copy"}, {"seq_len", 16},   {"d_model", 32}, {"heads", 2},
                               {"layers", 2},    {"eval_every", 0}, {"seed", 1}};
    r["frames"] = {frame_cost("tiny-ref", cfg, 1000, quick ? 3 : 31),
                   frame_cost("copy d32", small, 1000, quick ? 3 : 101)};
    std::cerr << "tiny-ref training (" << ap::simd_arch_name() << "): " << sps << " steps/s, " << sps * flop / 1e9
              << " GFLOP/s\n";
    std::cout << r.dump() << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "bench_train: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
