// core/cli/sweep.cpp — `attnplay sweep`: the plan's runs (--grid/--set/--seeds, or an experiment
// definition) either emitted for GNU parallel or Slurm (emit.cpp), or run here, each as its own
// `attnplay train ... --row-out` process (at most `jobs` at once): the very lines the emitters
// write. The rows are then merged as `attnplay merge` does, so that both paths give the same file.
//
// SIGINT (Ctrl-C) or SIGTERM stops the sweep: the signal is passed on to the running `train`
// processes (each saves and writes its row, train.cpp), no run starts after it, the rows of the
// runs that finished are merged into --out (and --summary), the rows' folder is kept, and the exit
// code is 128 + the signal's number. A second signal kills the runs (SIGKILL) and ends at once.
// Each run is its own process group, so that a terminal's Ctrl-C (sent to the sweep's group)
// reaches a run once, through the sweep, not twice (a second signal would end train unsaved).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/emit.hpp"
#include "cli/curves.hpp"
#include "cli/merge.hpp"
#include "cli/plan.hpp"
#include "cli/signal_echo.hpp"
#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "config/config.hpp"

extern char** environ;

namespace ap::cli {

namespace fs = std::filesystem;

namespace {

SweepPlan plan_without_text(const SweepArgs& a) {
  Assignments sets;
  for (auto& kv : a.sets) sets.push_back(split_assignment(kv)), config_value(sets.back().first, sets.back().second);
  if (!a.experiment.empty()) {
    const Experiment e = read_experiment(a.experiment);
    const int seeds = a.seeds > 0 ? a.seeds : a.quick && e.quick_seeds > 0 ? e.quick_seeds : e.seeds;
    Assignments last = a.quick ? e.quick : Assignments{};
    last.insert(last.end(), sets.begin(), sets.end());
    SweepPlan p = make_plan(e.set, e.grids, seeds, e.eval_at, last);
    p.fine_tune = fine_tune_of(e, a.quick);
    return p;
  }
  if (a.quick) refuse("sweep.quick_without_experiment", "--quick");
  if (a.grid.empty()) refuse("sweep.no_grid", "--grid");
  return make_plan(sets, {parse_grid(a.grid)}, a.seeds, parse_eval_at(a.eval_at, "--eval-at"));
}

// Every run's --eval-at lengths against its memory_limit_mb, before any run starts (as train
// does before its first step). A run whose config does not parse is left to report that itself.
void check_plan_memory(const SweepPlan& p) {
  for (auto& run : p.runs) {
    nlohmann::json j = nlohmann::json::object();
    Config c;
    try {
      for (auto& [k, v] : run) j[k] = config_value(k, v);
      c = Config::parse(j);
      check_fields(c);
    } catch (const std::invalid_argument&) {
      continue;  // the run's own row says why
    }
    if (c.memory_estimate_mb() > c.memory_limit_mb) continue;  // so is a config too large to train
    check_eval_at_memory(c, p.eval_at, "--eval-at");
  }
}

// The path of this program, for the child processes and the emitted lines.
std::string self_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) refuse("sweep.no_program", "--attnplay");
  return p.string();
}

// The stop: the first SIGINT/SIGTERM's number (0 before it), the running runs' process groups (one
// slot per worker, 0 when none), a self-pipe that wakes the main thread, and the words written
// when a second signal ends the sweep at once. The handler only reads and writes these (lock-free
// atomics), calls kill(), write() and _exit(): async-signal-safe, no allocation.
constexpr size_t kMaxJobs = 64;  // --jobs' range
std::atomic<int> g_stop{0};
std::atomic<pid_t> g_children[kMaxJobs];
int g_wake[2] = {-1, -1};
char g_last_words[1024];
size_t g_last_words_size = 0;
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free,
              "the signal handler needs lock-free atomics");
std::mutex g_spawn;  // a run starts, or the signal is passed on, not both at once

SignalEcho g_echo;  // the first signal's sender and time (signal_echo.hpp)

extern "C" void on_sweep_signal(int sig, siginfo_t* info, void*) {
  const int saved = errno;
  int first = 0;
  if (!g_stop.compare_exchange_strong(first, sig)) {
    if (g_echo.echo(sig, first, info)) {  // GNU timeout's second copy, not a user insisting
      errno = saved;
      return;
    }
    for (auto& c : g_children)
      if (const pid_t p = c.load(); p > 0) kill(-p, SIGKILL);
    if (g_last_words_size > 0 && write(STDERR_FILENO, g_last_words, g_last_words_size) < 0) {
    }
    _exit(128 + first);
  }
  g_echo.first(info);
  if (g_wake[1] >= 0 && write(g_wake[1], "!", 1) < 0) {
  }
  errno = saved;
}

// SIGINT and SIGTERM stop the sweep while this object lives (installed even when the sweep was
// started with them ignored, as a background job of a script is).
class SweepSignals {
 public:
  explicit SweepSignals(const std::string& rows) {
    g_stop = 0;
    for (auto& c : g_children) c = 0;
    const std::string words =
        "sweep: stopped at once by a second signal (the running runs killed); the rows of the "
        "runs that finished are in " +
        rows + "\n";
    g_last_words_size = std::min(words.size(), sizeof g_last_words);
    std::memcpy(g_last_words, words.data(), g_last_words_size);
    if (pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0) g_wake[0] = g_wake[1] = -1;
    struct sigaction sa {};
    sa.sa_sigaction = on_sweep_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~SweepSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    for (int& fd : g_wake)
      if (fd >= 0) close(fd), fd = -1;
  }
  SweepSignals(const SweepSignals&) = delete;
  SweepSignals& operator=(const SweepSignals&) = delete;

  // Waits until `done()`; on the first signal, passes it on to every running run, once.
  template <class Done>
  void wait(Done done) {
    bool passed = false;
    while (!done()) {
      pollfd p{g_wake[0], POLLIN, 0};
      poll(&p, g_wake[0] >= 0 ? 1 : 0, 100);
      char buf[16];
      while (g_wake[0] >= 0 && read(g_wake[0], buf, sizeof buf) > 0) {
      }
      const int sig = g_stop;
      if (sig == 0 || passed) continue;
      passed = true;
      std::lock_guard<std::mutex> lock(g_spawn);
      int running = 0;
      for (auto& c : g_children)
        if (const pid_t pid = c.load(); pid > 0) kill(-pid, sig), ++running;
      std::cerr << "sweep: " << signal_name(sig) << ": no new run starts; waiting for the " << running
                << " running to save their rows (a second signal ends at once)\n";
    }
  }

  static const char* signal_name(int sig) { return sig == SIGINT ? "SIGINT" : "SIGTERM"; }

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

constexpr int kNotStarted = -2;  // run_argv's status when the sweep was stopped before the run

// Runs argv as its own process group (in worker `slot`'s place, for the signals), its output and
// errors through a pipe; returns its last non-empty output line and its exit status (-1 when it
// did not exit, kNotStarted when the sweep stopped first).
std::pair<std::string, int> run_argv(const std::vector<std::string>& argv, size_t slot) {
  int fd[2];
  if (pipe2(fd, O_CLOEXEC) != 0) return {"cannot create a pipe: " + std::string(std::strerror(errno)), -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fd[1], STDERR_FILENO);
  // (a run is not the terminal's foreground group: reading it would stop the run)
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, stops;
  sigemptyset(&none);
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigdefault(&attr, &stops);
  posix_spawnattr_setsigmask(&attr, &none);
  std::vector<char*> args;
  for (auto& w : argv) args.push_back(const_cast<char*>(w.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int spawned = 0;
  {
    std::lock_guard<std::mutex> lock(g_spawn);
    if (g_stop == 0) {
      spawned = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
      if (spawned == 0) g_children[slot] = pid;
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fd[1]);
  if (pid <= 0) {
    close(fd[0]);
    if (spawned != 0) return {"cannot start " + show_text(argv[0]) + ": " + std::strerror(spawned), -1};
    return {"", kNotStarted};
  }
  std::string output, last;
  char buf[4096];
  for (ssize_t got; (got = read(fd[0], buf, sizeof buf)) != 0;) {
    if (got > 0)
      output.append(buf, size_t(got));
    else if (errno != EINTR)
      break;
  }
  close(fd[0]);
  int status = -1;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  {
    std::lock_guard<std::mutex> lock(g_spawn);
    g_children[slot] = 0;
  }
  std::istringstream lines(output);
  for (std::string l; std::getline(lines, l);)
    if (!l.empty()) last = l;
  return {last, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

// Runs plan line i: one train, or, for a run that fine-tunes, the base's train and then the
// fine-tune's (the model between them in `rows`, removed after). Returns the last output line of
// the line that failed (or of the last) and its exit status.
std::pair<std::string, int> run_plan_line(const SweepPlan& plan, size_t i, const std::string& self,
                                          const std::string& rows, const std::string& row_out, size_t slot) {
  if (!fine_tunes(plan, i)) return run_argv(train_argv(plan, i, self, row_out), slot);
  const std::string model = (fs::path(rows) / ("model-" + std::to_string(i) + ".safetensors")).string();
  auto base = run_argv(base_argv(plan, i, self, model), slot);
  if (base.second != 0) return base;
  auto tuned = run_argv(fine_tune_argv(plan, i, self, model, row_out), slot);
  if (tuned.second == kNotStarted) return {"stopped before its fine-tune", 128 + g_stop};
  std::error_code ec;
  fs::remove(model, ec);
  return tuned;
}

// The order the runs start in: budget by budget (the `steps` axis, smallest first), and within a
// budget seed by seed, every grid point of a seed before the next seed (the plan lists the seeds
// of a point together), so that the runs of different grid points are interleaved in time, a slow
// minute on the machine does not land on one of them, and a sweep stopped early has its small
// budgets whole. The rows keep the plan's order.
std::vector<size_t> start_order(const SweepPlan& p) {
  std::vector<std::pair<std::string, size_t>> keyed;
  for (size_t i = 0; i < p.runs.size(); ++i) {
    const auto padded = [](const std::string& v) { return std::string(12 - std::min<size_t>(12, v.size()), '0') + v; };
    keyed.emplace_back(padded(last_value(p.runs[i], "steps")) + padded(last_value(p.runs[i], "seed")), i);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<size_t> out;
  for (auto& k : keyed) out.push_back(k.second);
  return out;
}

// The end of a sweep stopped by signal `sig`: the rows of the runs that finished (failed ones too,
// not the interrupted) merged into --out and --summary, the rows' folder kept and named; 128 + sig.
int stopped(const SweepPlan& plan, const std::vector<std::string>& files, const std::vector<char>& ended,
            const std::vector<char>& interrupted, const std::vector<std::string>& errors, const SweepArgs& a,
            const std::string& rows, int sig) {
  const size_t n = plan.runs.size();
  std::vector<std::string> merged_files, curve_files(n);
  size_t finished = 0, failed = 0, cut = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!ended[i]) continue;
    if (interrupted[i]) {
      ++cut;
      continue;
    }
    ++finished;
    failed += !errors[i].empty();
    if (!fs::exists(files[i]))
      write_row_file(files[i], row_header(plan.axes, plan.eval_at),
                     result_row(plan.axes, plan.eval_at, plan.runs[i], nullptr, errors[i]));
    merged_files.push_back(files[i]);
    curve_files[i] = files[i];
  }
  std::ostringstream says;
  says << "sweep: stopped by " << SweepSignals::signal_name(sig) << ": " << finished << " of " << n << " runs finished";
  if (failed > 0) says << " (" << failed << " failed)";
  if (!merged_files.empty()) {
    write_outputs(merge_files(merged_files), a.out, a.summary);
    if (write_curves(plan, curve_files, a.out) > 0)
      std::printf("curves written to %s\n", curves_path_of(a.out).c_str());
    says << ", their rows merged into " << a.out;
    if (!a.summary.empty()) says << " and " << a.summary;
  } else {
    says << "; " << a.out << " not written";
  }
  says << "; " << cut << " interrupted, " << n - finished - cut << " not started. The partial rows (the interrupted "
       << "runs' too) are kept in " << rows << "\n";
  std::fflush(stdout);
  std::cerr << says.str() << std::flush;
  return 128 + sig;
}

}  // namespace

SweepPlan plan_of(const SweepArgs& a) {
  SweepPlan p = plan_without_text(a);
  check_plan_memory(p);
  if (!a.text_file.empty()) p.text_file = fs::absolute(a.text_file).lexically_normal().string();
  if (!a.task_file.empty()) p.task_file = fs::absolute(a.task_file).lexically_normal().string();
  return p;
}

namespace {

// --emit KIND TARGET: the plan's runs written out for another runner, none run here.
void emit_plan(const SweepArgs& a, const SweepPlan& plan, const std::string& self) {
  for (size_t i = 0; i < plan.runs.size(); ++i)
    if (fine_tunes(plan, i)) refuse("emit.fine_tune", "--emit");
  if (a.emit.size() != 2) refuse("emit.arguments", "--emit");
  if (a.emit[0] == "gnu-parallel")
    emit_parallel(plan, self, a.emit[1], a.rows);
  else if (a.emit[0] == "slurm")
    emit_slurm(plan, self, a.emit[1], a.rows);
  else
    refuse("emit.unknown_kind", "--emit", {{"kind", show_text(a.emit[0])}});
}

// A run that died before writing its row (a crash) still gets one, with its last output line.
// Returns the number of runs that failed.
int complete_rows(const SweepPlan& plan, const std::vector<std::string>& files,
                  const std::vector<std::string>& errors) {
  int failures = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    failures += !errors[i].empty();
    if (!fs::exists(files[i]))
      write_row_file(files[i], row_header(plan.axes, plan.eval_at),
                     result_row(plan.axes, plan.eval_at, plan.runs[i], nullptr, errors[i]));
  }
  return failures;
}

}  // namespace

int sweep(const SweepArgs& a) {
  SweepPlan plan = plan_of(a);
  const std::string self = a.attnplay.empty() ? self_path() : a.attnplay;
  if (!a.emit.empty()) {
    emit_plan(a, plan, self);
    return 0;
  }
  if (a.out.empty()) refuse("sweep.no_out", "--out");
  char tmpl[] = "/tmp/attnplay-sweep-XXXXXX";
  if (!mkdtemp(tmpl)) refuse("sweep.no_rows_folder", "");
  const std::string rows = tmpl;
  write_value_files(plan, rows);  // a value too long for a command line, or with a line break
  const size_t n = plan.runs.size();
  std::vector<std::string> files(n), errors(n);
  std::vector<char> ended(n, 0), interrupted(n, 0);  // the run's line came back; it was stopped by the signal
  const std::vector<size_t> order = start_order(plan);
  std::atomic<size_t> next{0};
  std::atomic<int> working{0};
  std::mutex io;
  SweepSignals signals(rows);
  auto worker = [&](size_t slot) {
    for (size_t k; g_stop == 0 && (k = next++) < n;) {
      const size_t i = order[k];
      files[i] = (fs::path(rows) / row_file_name(i)).string();
      auto [last, code] = run_plan_line(plan, i, self, rows, files[i], slot);
      if (code == kNotStarted) break;
      ended[i] = 1;
      interrupted[i] = code != 0 && g_stop != 0;
      if (code != 0) errors[i] = last.empty() ? "exit code " + std::to_string(code) : last;
      std::lock_guard<std::mutex> lock(io);
      std::cerr << "sweep: run " << i + 1 << "/" << n
                << (code == 0        ? " done"
                    : interrupted[i] ? " interrupted"
                                     : " failed")
                << "\n";
    }
    --working;
  };
  std::vector<std::thread> pool;
  const int jobs = std::min<int>({a.jobs, int(n), int(kMaxJobs)});
  working = jobs;
  for (int j = 0; j < jobs; ++j) pool.emplace_back(worker, size_t(j));
  signals.wait([&] { return working == 0; });
  for (auto& t : pool) t.join();
  if (const int sig = g_stop; sig != 0) return stopped(plan, files, ended, interrupted, errors, a, rows, sig);
  const int failures = complete_rows(plan, files, errors);
  const CsvTable merged = merge_files(files);
  write_outputs(merged, a.out, a.summary);
  if (write_curves(plan, files, a.out) > 0) std::printf("curves written to %s\n", curves_path_of(a.out).c_str());
  std::error_code ec;
  fs::remove_all(rows, ec);
  std::printf("%zu runs written to %s (%d failed)\n", n, a.out.c_str(), failures);
  return failures > 0 ? 4 : 0;
}

}  // namespace ap::cli
