// core/cli/commands.cpp — list, train, eval and grads. Each goes through the Session facade.
#include "cli/commands.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "attention/normalization.hpp"
#include "io/safetensors.hpp"
#include "position/position.hpp"
#include "io/json.hpp"
#include "session.hpp"
#include "session_json.hpp"
#include "tasks/task.hpp"

namespace ap::cli {

namespace {

// Size and depth bounded by `limits` (io/json.hpp); the message names the file.
nlohmann::json read_json_file(const std::string& path, const char* what, JsonLimits limits = kConfigJson) {
  const std::string name = std::string(what) + " '" + path + "'";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::invalid_argument(name + " cannot be opened");
  const std::streamoff size = in.tellg();
  if (size < 0) throw std::invalid_argument(name + " cannot be read");
  if (uint64_t(size) > limits.bytes)  // before reading it: refused at once, however large
    throw std::invalid_argument(name + ": " + std::to_string(size) +
                                " bytes of JSON are above the limit of " + std::to_string(limits.bytes) + " bytes");
  std::string text(static_cast<size_t>(size), '\0');
  in.seekg(0);
  if (size > 0 && !in.read(text.data(), size)) throw std::invalid_argument(name + " cannot be read");
  // Bounded depth, and errors that say where and why: "...: not valid JSON at byte 9 (line 2, ...)".
  return parse_json(text, name, limits);
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("model file '" + path + "' cannot be opened");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) throw std::invalid_argument("cannot write '" + path + "'");
}

void apply_sets(nlohmann::json& j, const std::vector<std::string>& sets) {
  for (auto& kv : sets) {
    auto [k, v] = split_assignment(kv);
    j[k] = config_value(k, v);
  }
}

}  // namespace

int list(const std::string& what, bool json) {
  Config d;
  nlohmann::json out;
  if (what.empty() || what == "tasks") {
    out["tasks"] = nlohmann::json::array();
    for (auto& t : task_registry()) out["tasks"].push_back(describe_task(t));
  }
  if (what.empty() || what == "positions") {
    out["positions"] = nlohmann::json::array();
    for (auto& e : position_registry()) out["positions"].push_back(describe_position(e, d));
  }
  if (what.empty() || what == "normalizations") {
    out["normalizations"] = nlohmann::json::array();
    for (auto& e : normalization_registry()) out["normalizations"].push_back(describe_normalization(e, d));
  }
  if (what.empty()) out["config"] = config_schema();
  if (json) {
    std::cout << out.dump() << "\n";
    return 0;
  }
  for (auto& [family, entries] : out.items()) {
    if (family == "config") continue;
    std::cout << family << ":\n";
    for (auto& e : entries) {
      std::string desc = e.contains("description") ? e["description"] : e["title"];
      std::cout << "  " << std::left << std::setw(18) << e["name"].get<std::string>() << desc << "\n";
    }
  }
  return 0;
}

int train(const TrainArgs& a) {
  nlohmann::json j = a.config_file.empty() ? nlohmann::json::object() : read_json_file(a.config_file, "config file");
  apply_sets(j, a.sets);
  Session s(Config::from_json(j));
  const Config& cfg = s.config();
  std::ofstream csv;
  if (!a.metrics.empty()) {
    csv.open(a.metrics);
    if (!csv) throw std::invalid_argument("cannot write metrics file '" + a.metrics + "'");
    csv << "step,loss,token_accuracy,sequence_accuracy,bits_per_token,grad_norm,lr,tokens_per_s,eval_loss,eval_token_accuracy\n";
  }
  const bool tty = isatty(STDERR_FILENO);
  double tokens = 0, secs = 0;
  StepMetrics m;
  for (int i = 0; i < cfg.steps; ++i) {
    m = s.step();
    if (m.refused) {
      std::cerr << "attnplay: " << m.message << "\n";
      return 3;
    }
    tokens += double(cfg.batch) * cfg.model_len();
    secs += double(cfg.batch) * cfg.model_len() / std::max(1e-9f, m.tokens_per_s);
    EvalMetrics e;
    bool evaluated = cfg.eval_every > 0 && m.step % cfg.eval_every == 0;
    if (evaluated) s.evaluate_periodic(), e = s.evals()[s.evals().size() - (s.evals().back().length == cfg.seq_len ? 1 : 2)];
    if (csv) {
      csv << m.step << ',' << m.loss << ',' << m.token_accuracy << ',' << m.sequence_accuracy << ','
          << m.bits_per_token << ',' << m.grad_norm << ',' << m.lr << ',' << m.tokens_per_s << ',';
      if (evaluated) csv << e.loss << ',' << e.token_accuracy;
      else csv << ',';
      csv << '\n';
    }
    if (tty && (m.step % 10 == 0 || m.step == cfg.steps))
      std::fprintf(stderr, "\rstep %d/%d  loss %.4f  acc %.3f  %.0f tok/s   ", m.step, cfg.steps,
                   m.loss, m.token_accuracy, m.tokens_per_s);
  }
  if (tty) std::fprintf(stderr, "\n");
  EvalMetrics e = s.evaluate(cfg.seq_len);
  const int L = cfg.effective_eval_len();
  nlohmann::json extra = nullptr;
  if (L != cfg.seq_len) {
    if (s.can_address(L)) extra = s.evaluate(L).to_json();
    else extra = {{"length", L}, {"error", "the position encoding cannot address this length"}};
  }
  if (!a.out.empty()) write_bytes(a.out, s.save());
  nlohmann::json r{{"steps", s.steps_done()}, {"train_loss", m.loss}, {"train_accuracy", m.token_accuracy},
                   {"eval_loss", e.loss}, {"eval_accuracy", e.token_accuracy},
                   {"eval_sequence_accuracy", e.sequence_accuracy}, {"eval_len", e.length},
                   {"tokens_per_s", secs > 0 ? tokens / secs : 0.0}, {"weights_sha256", s.weights_sha256()},
                   {"eval_at_eval_len", extra}, {"config", cfg.to_json()}};
  if (a.json) std::cout << r.dump() << "\n";
  else std::printf("trained %d steps: train loss %.4f, eval loss %.4f, eval accuracy %.4f (length %d)\n",
                   s.steps_done(), m.loss, e.loss, e.token_accuracy, e.length);
  return 0;
}

int eval(const std::string& model, const std::vector<std::string>& sets, bool json) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  int len = 0;
  for (auto& kv : sets) {
    auto [k, v] = split_assignment(kv);
    if (k != "eval_len") throw std::invalid_argument("eval: only eval_len can be set, not '" + k + "'");
    len = config_value(k, v).get<int>();
    if (len < 1) throw std::invalid_argument("eval_len: must be at least 1");
  }
  EvalMetrics e = s->evaluate(len);
  if (json) std::cout << e.to_json().dump() << "\n";
  else std::printf("step %d, length %d: loss %.4f, token accuracy %.4f, sequence accuracy %.4f\n",
                   e.step, e.length, e.loss, e.token_accuracy, e.sequence_accuracy);
  return 0;
}

int grads(const std::string& model, const std::string& batch_file, const std::string& out) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  // Shapes, types and sizes checked with messages that name the entry (session_json.cpp).
  Batch b = batch_from_json(*s, read_json_file(batch_file, "batch file", kBatchJson));
  std::vector<std::pair<std::string, std::vector<float>>> g;
  float loss = s->gradients(b, g);
  std::vector<NamedTensor> tensors;
  for (auto& [name, data] : g) {
    const auto& info = s->model().params().info(s->model().params().find(name));
    tensors.push_back({name, std::vector<int64_t>(info.shape.begin(), info.shape.end()), data});
  }
  std::ostringstream ls;
  ls << std::setprecision(9) << loss;
  write_bytes(out, safetensors_write(tensors, {{"loss", ls.str()}}));
  std::printf("loss %.6f; %zu gradient tensors written to %s\n", loss, tensors.size(), out.c_str());
  return 0;
}

int sample(const std::string& model, const std::string& prompt, int tokens, float temperature,
           int top_k, long long seed, bool json) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  auto r = s->generate(s->tokenize(prompt), tokens, temperature, top_k, uint64_t(seed));
  if (json) std::cout << r.dump() << "\n";
  else std::cout << r["text"].get<std::string>() << "\n";
  return 0;
}

}  // namespace ap::cli
