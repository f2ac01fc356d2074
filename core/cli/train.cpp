// core/cli/train.cpp — `attnplay train`: a new model from a config, or `--resume FILE` to
// continue a saved one (its optimizer fields changed with --set, through Session::configure, the
// same path the playground uses after a refused step). Training runs to the config's `steps`
// (a total, so a resumed run ends where an uninterrupted one would, bit for bit).
//
// A refused step (NaN/Inf) stops the run with exit code 3. The user's weights are never thrown
// away: with --out, the file is still written, with the last good weights and the reason in its
// metadata ("stopped"), and the message says how to continue.
//
// SIGINT (Ctrl-C) or SIGTERM ends the run at the end of the current step the same way: --out is
// written with that step's weights, marked as interrupted, and --resume continues it bit for bit;
// the exit code is 128 + the signal's number. A second signal ends the process at once (every
// file is written whole or not at all, files.hpp, so that loses nothing already on the disk).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/corpus.hpp"
#include "cli/errors.hpp"
#include "cli/files.hpp"
#include "cli/runs.hpp"
#include "cli/signal_echo.hpp"
#include "cli/frames.hpp"
#include "refusal/refusal.hpp"
#include "session/session.hpp"
#include "tasks/custom_pairs.hpp"
#include "tasks/text.hpp"

namespace ap::cli {

namespace {

volatile std::sig_atomic_t g_signal = 0;  // the signal that asked the run to stop, or 0
SignalEcho g_echo;                        // its sender and time (signal_echo.hpp)

// Async-signal-safe: sets the flag; _exit() when the user insists (a second signal that is not
// the first one's echo, as GNU timeout sends).
extern "C" void on_stop_signal(int sig, siginfo_t* info, void*) {
  if (g_signal != 0) {
    if (g_echo.echo(sig, g_signal, info)) return;
    _exit(128 + sig);
  }
  g_echo.first(info);
  g_signal = sig;
}

// SIGINT and SIGTERM stop the run at the end of its current step while this object lives.
class StopSignals {
 public:
  StopSignals() {
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_sigaction = on_stop_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

constexpr const char* kCsvHeader =
    "step,loss,token_accuracy,sequence_accuracy,bits_per_token,grad_norm,lr,tokens_per_s,eval_loss,eval_token_"
    "accuracy\n";

// A file that becomes a task's text option: --text-file (task text, option text) or --task-file
// (task custom, option custom_pairs). The task is set when not named; a text the task refuses is
// reported as the file's problem.
struct FileOption {
  const char* flag;
  const char* task;
  const char* key;
  size_t max_bytes;
};
constexpr FileOption kTextFile{"--text-file", "text", "text", kMaxTextBytes};
constexpr FileOption kTaskFile{"--task-file", "custom", "custom_pairs", CustomPairsLimits::kMaxBytes};

// --config-from-row: the text (and custom pairs) this run would train on must be the row's, by the
// row's corpus_sha256 cell, checked before training. A row's config holds no text over 1 KiB (a
// --text-file, --set-file or long --set text), so such a row is reproduced by giving the text again.
// The text came from `option` ("--text-file", "--task-file") at `path`, or with no option from the
// bundled corpus at `path`, or with neither from the config itself.
using TextCheck = std::function<void(const nlohmann::json& config, const std::string& option, const std::string& path)>;
TextCheck row_text_check(const TrainArgs& a, const std::string& expected) {
  if (a.from_row.empty() || expected.empty()) return {};
  return [&a, expected](const nlohmann::json& j, const std::string& option, const std::string& path) {
    const std::string got = corpus_sha256(j);
    if (got == expected) return;
    RefusalParams p{{"path", a.from_row.at(0)}, {"row", a.from_row.at(1)}, {"expected", expected}};
    if (!got.empty()) p.emplace_back("got", got);
    const bool none = got.empty();
    if (!option.empty()) {
      p.emplace_back("option", option), p.emplace_back("source", path);
      refuse(none ? "train.row_text_file_none" : "train.row_text_file", "--config-from-row", p);
    }
    if (!path.empty()) {
      p.emplace_back("corpus", path);
      refuse(none ? "train.row_text_corpus_none" : "train.row_text_corpus", "--config-from-row", p);
    }
    refuse(none ? "train.row_text_config_none" : "train.row_text_config", "--config-from-row", p);
  };
}

std::unique_ptr<Session> with_file(nlohmann::json j, const std::string& path, const FileOption& f,
                                   const TextCheck& check) {
  // --text-file feeds any task that reads a text (text, mlm); --task-file the custom task
  const bool fits = !j.contains("task") || j["task"] == f.task ||
                    (j["task"].is_string() && std::string(f.key) == "text" && task_reads_text(j["task"]));
  if (!fits) refuse("train.file_task", f.flag, {{"task", f.task}, {"config_task", j["task"].dump()}});
  if (!j.contains("task")) j["task"] = f.task;
  std::string text = read_text_file(path, f.flag, f.max_bytes);
  if (text.empty()) refuse("files.empty", f.flag, {{"path", path}});
  j[f.key] = std::move(text);
  if (check) check(j, f.flag, path);
  try {
    return Session::from_json(j);
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();  // "task 'text': field 'text' = "..." is invalid; allowed: <why>"
    const std::string lead = std::string(f.key) + ": ";  // or the custom pairs' "custom_pairs: line N: ..."
    if (m.compare(0, lead.size(), lead) == 0)
      refuse("train.file_does_not_fit", f.flag, {{"path", path}, {"reason", m.substr(lead.size())}});
    const size_t why = m.find("allowed: ");
    if (m.find(std::string("field '") + f.key + "'") == std::string::npos || why == std::string::npos) throw;
    refuse("train.file_must_be", f.flag, {{"path", path}, {"allowed", m.substr(why + 9)}});
  }
}

// The session to train: a new one from --config/--set, or the --resume file with --set applied
// as live optimizer changes (anything else is refused by configure(), naming the field).
// text_name: where the text task's text came from (--text-file, the bundled corpus, "config").
std::unique_ptr<Session> open_session(const TrainArgs& a, std::string& text_name) {
  if (a.resume.empty()) {
    std::string row_sha;
    nlohmann::json j = !a.from_row.empty()     ? config_from_row(a.from_row.at(0), a.from_row.at(1), &row_sha)
                       : a.config_file.empty() ? nlohmann::json::object()
                                               : read_json_file(a.config_file, "config file");
    for (auto& kv : a.sets) {
      auto [k, v] = split_assignment(kv);
      j[k] = config_value(k, v);
    }
    const TextCheck check = row_text_check(a, row_sha);
    text_name = a.text_file;
    if (!a.text_file.empty()) return with_file(j, a.text_file, kTextFile, check);
    if (!a.task_file.empty()) return with_file(j, a.task_file, kTaskFile, check);
    text_name = default_text(j);
    if (check) check(j, "", text_name);
    if (!text_name.empty() && !a.json)
      std::cerr << "attnplay: the " << j["task"].get<std::string>() << " task trains on the bundled corpus "
                << text_name << "; --text-file FILE trains on another text\n";
    return Session::from_json(j);
  }
  text_name = a.resume;
  // The optimizer's fields change live; any other field (seq_len, rope_scaling, …: a fine-tune at
  // a longer length) replaces the file's when it loads, so long as the file's tensors still fit.
  auto bytes = read_bytes(a.resume, "--resume");
  nlohmann::json fields = nlohmann::json::object(), overrides = nlohmann::json::object();
  const auto& live = Session::live_keys();
  for (auto& kv : a.sets) {
    auto [k, v] = split_assignment(kv);
    (std::find(live.begin(), live.end(), k) != live.end() ? fields : overrides)[k] = config_value(k, v);
  }
  auto s = Session::load(bytes.data(), bytes.size(), overrides);
  if (!fields.empty()) s->configure(fields);
  if (s->steps_done() >= s->config().steps)
    refuse(
        "train.resume_done", "--resume",
        {{"path", a.resume}, {"done", std::to_string(s->steps_done())}, {"steps", std::to_string(s->config().steps)}});
  return s;
}

// The model was not saved (`e`, a refusal of files.hpp or of the session): the metrics are still
// written, and the message says where the weights are, if anywhere. Called in the handler of `e`.
[[noreturn]] void refuse_unsaved(const std::invalid_argument& e, AtomicFile* csv, const std::string& metrics) {
  const auto* r = dynamic_cast<const Refusal*>(&e);
  const bool kept = r && r->code() == "files.write_kept";  // the message says where the weights are
  if (kept && !csv) throw;                                 // e itself, as it is
  RefusalParams p{{"reason", e.what()}};
  if (!csv) refuse("train.weights_not_saved", "--out", p);
  try {
    csv->commit();
  } catch (const std::invalid_argument& m) {
    p.emplace_back("metrics_reason", m.what());
    refuse(kept ? "train.weights_kept_metrics_failed" : "train.weights_not_saved_metrics_failed", "--out", p);
  }
  p.emplace_back("metrics", metrics);
  refuse(kept ? "train.weights_kept_metrics_written" : "train.weights_not_saved_metrics_written", "--out", p);
}

// The metrics file, written whole when the run ends (files.hpp): a run that fails or is killed
// leaves the old file as it was. When resuming, the old rows come first, so that the CSV covers
// the whole run.
std::unique_ptr<AtomicFile> open_metrics(const TrainArgs& a) {
  if (a.metrics.empty()) return nullptr;
  std::ifstream old;
  if (!a.resume.empty()) old.open(a.metrics, std::ios::binary);
  auto csv = std::make_unique<AtomicFile>(a.metrics, "metrics file");
  if (!old.is_open()) {
    csv->write(kCsvHeader);
    return csv;
  }
  std::vector<char> chunk(size_t(1) << 16);
  while (old.read(chunk.data(), std::streamsize(chunk.size())) || old.gcount() > 0)
    csv->write(std::string_view(chunk.data(), size_t(old.gcount())));
  return csv;
}

// What to tell the user when a step was refused (or the run interrupted): where the weights
// went and how to go on.
std::string stop_advice(const Session& s, const TrainArgs& a, bool refused) {
  std::ostringstream os;
  if (a.out.empty()) {
    os << ". They were not saved: give --out FILE to keep them";
  } else {
    os << ". Saved them to " << a.out << " (marked as stopped at step " << s.steps_done()
       << "); continue with: attnplay train --resume " << a.out;
    if (refused) os << " --set lr=" << s.config().lr / 10;
  }
  return os.str();
}

// The steps of the last fifth of training (from `first` to `steps`) at which a sweep's run
// evaluates: five, evenly spread, the last step included; none for a run under 10 steps.
std::vector<int> last_fifth_steps(int first, int steps) {
  const int span = (steps - first) / 5;
  if (steps - first < 10 || span < 4) return {};
  std::vector<int> out;
  for (int k = 0; k < 5; ++k) out.push_back(steps - span + (span * k) / 4);
  return out;
}

// The least-squares slope of y over x.
double fitted_change(const std::vector<std::pair<double, double>>& xy) {
  double mx = 0, my = 0;
  for (auto& [x, y] : xy) mx += x, my += y;
  mx /= double(xy.size()), my /= double(xy.size());
  double sxy = 0, sxx = 0;
  for (auto& [x, y] : xy) sxy += (x - mx) * (y - my), sxx += (x - mx) * (x - mx);
  return sxx > 0 ? sxy / sxx : 0.0;
}

// --eval-at: the held-out loss and accuracy at each multiple of seq_len, or why not.
// The multiples are of `base` (seq_len when 0).
nlohmann::json eval_at_json(Session& s, const std::vector<int>& multiples, int base) {
  nlohmann::json out = nlohmann::json::array();
  for (int m : multiples) {
    const int L = m * (base > 0 ? base : s.config().seq_len);
    if (!s.can_address(L)) {
      out.push_back({{"multiple", m}, {"length", L}, {"error", "the position encoding cannot address this length"}});
      continue;
    }
    EvalMetrics e = s.evaluate(L);
    out.push_back({{"multiple", m}, {"length", L}, {"loss", e.loss}, {"accuracy", e.token_accuracy}});
  }
  return out;
}

// Trains and evaluates; r = train's JSON result. Returns the exit code (3 for a refused step,
// 128 + the signal for an interrupted run).
int run(const TrainArgs& a, const std::vector<int>& eval_at, nlohmann::json& r) {
  std::optional<StopSignals> signals(std::in_place);
  std::string text_name;
  auto session = open_session(a, text_name);
  Session& s = *session;
  nlohmann::json corpus = nullptr;  // the text's name, size and sha256, shown instead of the text
  const nlohmann::json shown = shown_config(s.config().to_json(), text_name, corpus);
  const Config& cfg = s.config();
  // Before the first step: an --eval-at length that cannot fit is refused now, not after training.
  check_eval_at_memory(
      cfg, eval_at, "--eval-at", [&](int L) { return s.can_address(L); }, a.eval_at_base);
  // Both outputs are opened (their temporary files created) before the first step: a folder, a
  // missing or read-only folder, a name too long, a pipe nobody reads is refused now, not after
  // the training it would throw away.
  if (!a.out.empty() && !a.metrics.empty() && same_file(a.out, a.metrics))
    refuse("train.same_file", "--metrics", {{"out", a.out}, {"metrics", a.metrics}});
  std::unique_ptr<AtomicFile> model;
  if (!a.out.empty()) {
    model = std::make_unique<AtomicFile>(a.out, "model file");
    model->keep_if_complete();
  }
  std::unique_ptr<AtomicFile> csv = open_metrics(a);
  const bool tty = isatty(STDERR_FILENO);
  using Clock = std::chrono::steady_clock;
  double tokens = 0, secs = 0, wall = 0;  // secs: as each step measured itself; wall: around step()
  const int first = s.steps_done();
  StepMetrics m;
  // A sweep's run (--row-out) measures whether it converged: the held-out loss at five steps
  // spread over the last fifth of training (outside the timed steps; evaluation draws its own
  // batches, so training is unchanged).
  const std::vector<int> tail = a.row_out.empty() ? std::vector<int>{} : last_fifth_steps(first, cfg.steps);
  std::vector<std::pair<double, double>> tail_loss;
  while (s.steps_done() < cfg.steps && g_signal == 0) {
    const auto t0 = Clock::now();
    m = s.step();
    wall += std::chrono::duration<double>(Clock::now() - t0).count();
    if (m.refused) break;
    if (std::find(tail.begin(), tail.end(), m.step) != tail.end())
      tail_loss.emplace_back(m.step, s.evaluate(cfg.seq_len).loss);
    tokens += double(cfg.batch) * cfg.model_len();
    secs += double(cfg.batch) * cfg.model_len() / std::max(1e-9f, m.tokens_per_s);
    EvalMetrics e;
    const bool evaluated = cfg.eval_every > 0 && m.step % cfg.eval_every == 0;
    if (evaluated)
      s.evaluate_periodic(), e = s.evals()[s.evals().size() - (s.evals().back().length == cfg.seq_len ? 1 : 2)];
    if (csv) {
      std::ostringstream line;
      line << m.step << ',' << m.loss << ',' << m.token_accuracy << ',' << m.sequence_accuracy << ','
           << m.bits_per_token << ',' << m.grad_norm << ',' << m.lr << ',' << m.tokens_per_s << ',';
      if (evaluated)
        line << e.loss << ',' << e.token_accuracy;
      else
        line << ',';
      line << '\n';
      csv->write(line.str());
    }
    if (tty && (m.step % 10 == 0 || m.step == cfg.steps))
      std::fprintf(stderr, "\rstep %d/%d  loss %.4f  acc %.3f  %.0f tok/s   ", m.step, cfg.steps, m.loss,
                   m.token_accuracy, m.tokens_per_s);
  }
  if (tty) std::fprintf(stderr, "\n");
  // A signal that came after the last step interrupted nothing.
  const int sig = m.refused || s.steps_done() >= cfg.steps ? 0 : int(g_signal);
  if (sig != 0) {
    std::ostringstream why;
    why << "interrupted by " << (sig == SIGINT ? "SIGINT" : "SIGTERM") << " after step " << s.steps_done() << " of "
        << cfg.steps << ", with the weights of that step";
    s.mark_stopped(why.str());
  }
  if (model) {
    try {
      const std::vector<uint8_t> bytes = s.save();
      model->write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
      model->commit();
    } catch (const std::invalid_argument& e) {
      refuse_unsaved(e, csv.get(), a.metrics);
    }
  }
  if (csv) csv->commit();
  if (!a.frames.empty()) write_frames(s, a.frames);
  signals.reset();  // from here on, a signal ends the process: everything is saved
  if (m.refused || sig != 0) {
    const std::string why = m.refused ? m.message : s.stopped();
    std::cerr << "attnplay: " << why << stop_advice(s, a, m.refused) << "\n";
    r = {{"steps", s.steps_done()},
         {"stopped", why},
         {"out", a.out.empty() ? nullptr : nlohmann::json(a.out)},
         {"weights_sha256", s.weights_sha256()},
         {"config", shown}};
    if (!corpus.is_null()) r["corpus"] = corpus;
    if (a.json) std::cout << r.dump() << "\n";
    return m.refused ? 3 : 128 + sig;
  }
  // Inference speed: one held-out evaluation pass (batches made, forward only), timed.
  const auto t0 = Clock::now();
  EvalMetrics e = s.evaluate(cfg.seq_len);
  const double infer_secs = std::chrono::duration<double>(Clock::now() - t0).count();
  const double infer_tokens = double(cfg.eval_batches) * cfg.batch * cfg.model_len();
  const size_t memory = s.memory_bytes();  // after training and this evaluation; before longer ones
  const int L = cfg.effective_eval_len();
  nlohmann::json extra = nullptr;
  if (L != cfg.seq_len) {
    if (s.can_address(L))
      extra = s.evaluate(L).to_json();
    else
      extra = {{"length", L}, {"error", "the position encoding cannot address this length"}};
  }
  const int trained = s.steps_done() - first;
  r = {{"steps", s.steps_done()},
       {"train_loss", m.loss},
       {"train_accuracy", m.token_accuracy},
       {"eval_loss", e.loss},
       {"eval_accuracy", e.token_accuracy},
       {"eval_sequence_accuracy", e.sequence_accuracy},
       {"eval_seq_len", e.length},  // the length eval_* were measured at; config.eval_len is the longer one
       {"tokens_per_s", secs > 0 ? tokens / secs : 0.0},
       {"weights_sha256", s.weights_sha256()},
       {"eval_at_eval_len", extra},
       {"config", shown},
       {"steps_per_s", wall > 0 ? trained / wall : 0.0},
       {"train_tokens_per_s", wall > 0 ? tokens / wall : 0.0},
       {"infer_tokens_per_s", infer_secs > 0 ? infer_tokens / infer_secs : 0.0},
       {"peak_memory_bytes", memory},
       {"eval_at", eval_at_json(s, eval_at, a.eval_at_base)}};
  if (tail_loss.size() >= 3)
    r["eval_loss_last_fifth"] = fitted_change(tail_loss) * double(tail_loss.back().first - tail_loss.front().first);
  if (!corpus.is_null()) r["corpus"] = corpus;
  if (a.json)
    std::cout << r.dump() << "\n";
  else
    std::printf("trained %d steps: train loss %.4f, eval loss %.4f, eval accuracy %.4f (length %d)\n", s.steps_done(),
                m.loss, e.loss, e.token_accuracy, e.length);
  return 0;
}

}  // namespace

// With --row-out, the run's row is written whatever happens (an error becomes its "error" cell),
// so that a sweep's runs each leave one row. --set-file key=FILE is --set key=<the file's text>,
// after every --set.
int train(const TrainArgs& given) {
  TrainArgs a = given;
  for (auto& kf : given.set_files) {
    auto [key, path] = split_assignment(kf);
    a.sets.push_back(key + "=" + read_set_file(path, kMaxTextBytes));
  }
  const std::vector<int> eval_at = parse_eval_at(a.eval_at, "--eval-at");
  nlohmann::json r;
  if (a.row_out.empty()) return run(a, eval_at, r);
  const std::vector<std::string> axes = split_list(a.row_axes);
  Assignments sets;
  for (auto& kv : a.sets) sets.push_back(split_assignment(kv));
  for (auto& kv : a.row_cells) sets.push_back(split_assignment(kv));  // the last assignment is the cell
  const CsvRow header = row_header(axes, eval_at);
  try {
    const int code = run(a, eval_at, r);
    write_row_file(a.row_out, header, result_row(axes, eval_at, sets, r, code != 0 ? r.value("stopped", "") : ""));
    return code;
  } catch (...) {
    write_row_file(a.row_out, header, result_row(axes, eval_at, sets, nullptr, error_sentence("train")));
    throw;
  }
}

}  // namespace ap::cli
