// core/cli/info.cpp — `attnplay info`: what a config (or a saved model) is made of, without
// training: the resolved config, every tensor's PyTorch name and shape, the parameter count, and
// the position encoding's and normalization's descriptions (Session::info(), as the page shows).
#include <cstdio>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/files.hpp"
#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "session/session.hpp"

namespace ap::cli {

int info(const std::string& config_file, const std::string& model, const std::vector<std::string>& sets, bool json) {
  std::unique_ptr<Session> s;
  if (!model.empty()) {
    if (!sets.empty() || !config_file.empty()) refuse("cli.info_model_and_config", "--model");
    auto bytes = read_bytes(model);
    s = Session::load(bytes.data(), bytes.size());
  } else {
    nlohmann::json j = config_file.empty() ? nlohmann::json::object() : read_json_file(config_file, "config file");
    for (auto& kv : sets) {
      auto [k, v] = split_assignment(kv);
      j[k] = config_value(k, v);
    }
    s = Session::from_json(j);
  }
  const nlohmann::json r = s->info();
  if (json) {
    std::cout << r.dump() << "\n";
    return 0;
  }
  const Config& c = s->config();
  std::printf("task %s, position %s, normalization %s; layers %d, d_model %d, heads %d; step %d\n", c.task.c_str(),
              c.position.c_str(), c.normalization.c_str(), c.layers, c.d_model, c.heads, s->steps_done());
  for (auto& p : r["parameters"])
    std::printf("  %-40s %s\n", p["name"].get<std::string>().c_str(), p["shape"].dump().c_str());
  std::printf("%s parameters\n", r["parameter_count"].dump().c_str());
  if (!s->stopped().empty()) std::printf("(training stopped: %s)\n", escape_text(s->stopped()).c_str());
  return 0;
}

}  // namespace ap::cli
