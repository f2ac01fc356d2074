// core/cli/heads.cpp — `attnplay heads --model FILE [--json]`: what each attention head of a saved
// model does (Session::head_diagnostics, the page's Heads panel): entropy, mean attended distance,
// first-token and anchor share, row-sum spread, previous-token share, the strongest fixed offset,
// induction, and the labels they earn, each with its evidence and the thresholds that decide them.
#include <cstdio>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "cli/files.hpp"
#include "session/session.hpp"
#include "session/replay.hpp"

namespace ap::cli {

namespace {
// A share or -1 ("not measured": no anchors, or no repeats to look for induction) as a cell.
std::string cell(float v) {
  if (v < 0) return "-";
  char b[16];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}
}  // namespace

int heads(const std::string& model, bool json) {
  auto bytes = read_bytes(model);
  auto s = Session::load(bytes.data(), bytes.size());
  const nlohmann::json r = s->replay().head_diagnostics(-1);
  if (json) {
    std::cout << r.dump() << "\n";
    return 0;
  }
  const Config& c = s->config();
  std::printf("step %d, task %s, %d layer%s x %d head%s; measured on held-out example 0 (%d tokens)\n",
              r["step"].get<int>(), c.task.c_str(), c.layers, c.layers == 1 ? "" : "s", c.heads,
              c.heads == 1 ? "" : "s", c.model_len());
  std::printf("%-7s %7s %8s %6s %6s %6s %6s %11s %9s\n", "head", "entropy", "distance", "first", "anchor", "spread",
              "prev", "offset", "induction");
  int l = 0;
  for (auto& layer : r["layers"]) {
    int h = 0;
    for (auto& hs : layer["heads"]) {
      char name[16], off[24];
      std::snprintf(name, sizeof name, "L%d H%d", l, h++);
      std::snprintf(off, sizeof off, "%+d: %.2f", hs["offset"].get<int>(), hs["offset_share"].get<float>());
      std::printf("%-7s %7.2f %8.2f %6s %6s %6.2f %6.2f %11s %9s\n", name, hs["entropy"].get<float>(),
                  hs["distance"].get<float>(), cell(hs["first_share"]).c_str(), cell(hs["anchor_share"]).c_str(),
                  hs["row_sum_spread"].get<float>(), hs["prev_share"].get<float>(), off, cell(hs["induction"]).c_str());
      for (auto& lab : hs["labels"])
        std::printf("        %s: %s\n", lab["name"].get<std::string>().c_str(),
                    lab["evidence"].get<std::string>().c_str());
      if (hs.contains("withheld")) std::printf("        %s\n", hs["withheld"].get<std::string>().c_str());
    }
    ++l;
  }
  std::printf("labels (a head may carry several):\n");
  for (auto& t : r["thresholds"])
    std::printf("  %-19s %s >= %.2f: %s\n", t["label"].get<std::string>().c_str(),
                t["measure"].get<std::string>().c_str(), t["threshold"].get<float>(),
                t["rule"].get<std::string>().c_str());
  return 0;
}

}  // namespace ap::cli
