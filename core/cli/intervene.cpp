// core/cli/intervene.cpp — `attnplay eval --ablate L.H --intervene JSON`: the held-out loss and
// accuracy of a saved model with and without head interventions (Session::evaluate_interventions;
// the same JSON door as the page's, core/session_interventions.cpp).
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/files.hpp"
#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "session/session.hpp"
#include "session/interventions.hpp"

namespace ap::cli {

namespace {
// "1.0" (layer 1, head 0) -> {"layer":1,"head":0,"kind":"zero"}.
nlohmann::json ablation(const std::string& spec) {
  const auto dot = spec.find('.');
  auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
      refuse("cli.ablate_spec", "--ablate", {{"spec", show_text(spec)}});
    return std::stoi(s);
  };
  if (dot == std::string::npos) number("");
  return {{"layer", number(spec.substr(0, dot))}, {"head", number(spec.substr(dot + 1))}, {"kind", "zero"}};
}
}  // namespace

int eval_interventions(const std::string& model, const std::vector<std::string>& ablate,
                       const std::vector<std::string>& intervene, bool json) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  nlohmann::json list = nlohmann::json::array();
  for (auto& a : ablate) list.push_back(ablation(a));
  for (auto& text : intervene) {
    nlohmann::json j = parse_json(text, "--intervene", kSmallJson);
    if (j.is_array())
      for (auto& e : j) list.push_back(e);  // an array of them, or one
    else
      list.push_back(j);
  }
  s->interventions().set(list);
  nlohmann::json r = s->interventions().evaluate(0);
  if (json) {
    std::cout << r.dump() << "\n";
    return 0;
  }
  const auto &a = r["base"], &b = r["intervened"];
  std::printf("step %d, length %d, %zu intervention%s:\n", r["step"].get<int>(), a["length"].get<int>(), list.size(),
              list.size() == 1 ? "" : "s");
  for (auto& e : r["interventions"]) std::printf("  %s\n", e["label"].get<std::string>().c_str());
  for (const char* k : {"loss", "token_accuracy", "sequence_accuracy"})
    std::printf("%-18s %.4f -> %.4f\n", k, a[k].get<double>(), b[k].get<double>());
  return 0;
}

}  // namespace ap::cli
