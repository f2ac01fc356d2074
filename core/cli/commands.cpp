// core/cli/commands.cpp — list, eval, grads, export-torch and sample (train: train.cpp; sweep: sweep.cpp).
// Each goes through the Session facade.
#include "cli/commands.hpp"
#include "cli/files.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "io/safetensors.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"
#include "session/json.hpp"
#include "tasks/task.hpp"

namespace ap::cli {

int list(const std::string& what, bool json) {
  const nlohmann::json out = what.empty() ? registry_with_live_keys() : registry_json(what);
  if (json) {
    std::cout << out.dump() << "\n";
    return 0;
  }
  for (auto& [family, entries] : out.items()) {
    if (family == "config" || family == "live_keys") continue;
    if (!entries.is_array()) {  // `renamed`: old field name -> new one, not a family of entries
      if (entries.empty()) continue;
      std::cout << family << " (old field name: new one):\n";
      for (auto& [old, now] : entries.items())
        std::cout << "  " << std::left << std::setw(18) << old
                  << (now.is_string() ? now.get<std::string>() : now.dump()) << "\n";
      continue;
    }
    std::cout << family << ":\n";
    for (auto& e : entries) {
      std::string desc = e.contains("description") ? e["description"] : e["title"];
      std::cout << "  " << std::left << std::setw(18) << e["name"].get<std::string>() << desc << "\n";
    }
  }
  return 0;
}

int eval(const std::string& model, const std::vector<std::string>& sets, bool json) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  int len = 0;
  for (auto& kv : sets) {
    auto [k, v] = split_assignment(kv);
    if (k != "eval_len") refuse("cli.eval_only_eval_len", "--set", {{"key", k}});
    len = Config::parse({{k, config_value(k, v)}}).eval_len;  // the field's range, as train reads it
    if (len < 1) refuse("cli.eval_len_positive", "eval_len");
  }
  // The same bound as train's eval_len and inspect's --length, before anything is allocated.
  if (len > 0) check_forward_memory(s->config(), s->config().batch, len + s->config().anchor_count(), "eval_len");
  EvalMetrics e = s->evaluate(len);
  if (!std::isfinite(e.loss))  // finite but huge weights can overflow the forward pass
    refuse(std::isnan(e.loss) ? "cli.eval_loss_nan" : "cli.eval_loss_infinite", "--model");
  nlohmann::json r = e.to_json();
  if (!s->stopped().empty()) r["stopped"] = s->stopped();
  if (json)
    std::cout << r.dump() << "\n";
  else
    std::printf("step %d, length %d: loss %.4f, token accuracy %.4f, sequence accuracy %.4f\n", e.step, e.length,
                e.loss, e.token_accuracy, e.sequence_accuracy);
  if (!json && !s->stopped().empty())
    std::printf("(training stopped at step %d: %s)\n", e.step, escape_text(s->stopped()).c_str());  // the file's bytes
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

int export_torch(const std::string& model, const std::string& out) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  const std::string py = s->export_torch();
  write_bytes(out, std::vector<uint8_t>(py.begin(), py.end()));
  std::printf("%s written (%zu bytes): python3 %s %s\n", out.c_str(), py.size(), out.c_str(), model.c_str());
  return 0;
}

int sample(const std::string& model, const std::string& prompt, int tokens, float temperature, int top_k,
           long long seed, bool json) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  auto r = s->inspect().generate(s->tokenize(prompt), tokens, temperature, top_k, uint64_t(seed));
  if (json)
    std::cout << r.dump() << "\n";
  else
    std::cout << escape_text(r["text"].get<std::string>(), true) << "\n";  // a text corpus may hold ESC
  return 0;
}

}  // namespace ap::cli
