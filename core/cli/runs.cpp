// core/cli/runs.cpp — see runs.hpp.
#include "cli/runs.hpp"

#include <cmath>
#include <filesystem>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "cli/version.hpp"
#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "io/sha256.hpp"
#include "normalization/normalization.hpp"
#include "position/position.hpp"
#include "session/json.hpp"
#include "tasks/task.hpp"

namespace ap::cli {

namespace {

// A number as the CSV shows it: 9 significant digits (float precision), "" when absent.
std::string num(const nlohmann::json& v) {
  if (!v.is_number()) return "";
  if (v.is_number_integer()) return v.dump();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
  return buf;
}

std::string last_assignment(const Assignments& run, const std::string& key) {
  std::string value;
  for (auto& [k, v] : run)
    if (k == key) value = v;
  return value;
}

// The options of the chosen task, position encoding and normalization that the config leaves at
// their declared defaults, filled in: the full resolved config. A name that is not an entry
// (the run failed on it) adds nothing.
void add_option_defaults(nlohmann::json& cfg) {
  auto fill = [&](const std::vector<OptionSpec>& specs) {
    for (auto& o : specs)
      if (!cfg.contains(o.key)) cfg[o.key] = o.default_value;
  };
  auto name = [&](const char* key) {
    return cfg.contains(key) && cfg[key].is_string() ? cfg[key].get<std::string>() : "";
  };
  try {
    fill(find_task(name("task")).options);
    fill(find_position(name("position")).options);
    fill(find_normalization(name("normalization")).options);
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

nlohmann::json row_config(const nlohmann::json& config) {
  if (!config.is_object()) return nullptr;
  nlohmann::json shown = config;
  add_option_defaults(shown);
  // A --text-file corpus or --task-file set stays out of every row (give the file again; the
  // corpus_sha256 column says which one it was).
  // (train --json already leaves the text task's corpus out; its default, "", is not shown either).
  for (const char* key : {"text", "custom_pairs"})
    if (shown.contains(key) && shown[key].is_string()) {
      const size_t n = shown[key].get_ref<const std::string&>().size();
      if (n > 1024 || (n == 0 && std::string(key) == "text")) shown.erase(key);
    }
  return shown;
}

std::string corpus_sha256(const nlohmann::json& config) {
  std::string out;
  for (const char* key : {"text", "custom_pairs"})
    if (config.is_object() && config.contains(key) && config[key].is_string()) {
      const std::string& v = config[key].get_ref<const std::string&>();
      if (!v.empty())
        out += (out.empty() ? "" : " ") + sha256_hex(reinterpret_cast<const uint8_t*>(v.data()), v.size());
    }
  return out;
}

std::vector<std::string> metric_columns(const std::vector<int>& eval_at) {
  std::vector<std::string> m{"steps",
                             "train_loss",
                             "eval_loss",
                             "eval_bpc",
                             "eval_accuracy",
                             "eval_sequence_accuracy",
                             "steps_per_s",
                             "train_tokens_per_s",
                             "infer_tokens_per_s",
                             "peak_memory_bytes",
                             "eval_loss_last_fifth"};
  for (int x : eval_at)
    m.push_back("eval_accuracy_x" + std::to_string(x)), m.push_back("eval_loss_x" + std::to_string(x));
  return m;
}

// The axis "steps" (an experiment's budgets) is the column "budget": "steps" is the metric column
// of the steps trained, which a run stopped early makes differ.
std::string axis_column(const std::string& axis) { return axis == "steps" ? "budget" : axis; }

CsvRow row_header(const std::vector<std::string>& axes, const std::vector<int>& eval_at) {
  CsvRow h;
  for (auto& a : axes) h.push_back(axis_column(a));
  h.push_back("seed");
  for (auto& m : metric_columns(eval_at)) h.push_back(m);
  for (const char* c : {"weights_sha256", "engine", "config", "corpus_sha256", "error"}) h.push_back(c);
  return h;
}

CsvRow result_row(const std::vector<std::string>& axes, const std::vector<int>& eval_at, const Assignments& run,
                  const nlohmann::json& result, const std::string& error) {
  const nlohmann::json r = result.is_object() ? result : nlohmann::json::object();
  auto get = [&](const char* key) { return r.contains(key) ? r[key] : nlohmann::json(); };
  CsvRow row;
  for (auto& a : axes) row.push_back(last_assignment(run, a));
  const nlohmann::json cfg = get("config");
  row.push_back(cfg.is_object() && cfg.contains("seed") ? num(cfg["seed"]) : last_assignment(run, "seed"));
  const nlohmann::json loss = get("eval_loss");
  for (const char* k : {"steps", "train_loss", "eval_loss"}) row.push_back(num(get(k)));
  row.push_back(loss.is_number() ? num(loss.get<double>() / std::log(2.0)) : "");  // bits per token
  for (const char* k : {"eval_accuracy", "eval_sequence_accuracy", "steps_per_s", "train_tokens_per_s",
                        "infer_tokens_per_s", "peak_memory_bytes", "eval_loss_last_fifth"})
    row.push_back(num(get(k)));
  const nlohmann::json at = get("eval_at");
  for (size_t i = 0; i < eval_at.size(); ++i) {  // empty when the encoding cannot address it
    const bool ok = at.is_array() && i < at.size() && at[i].is_object();
    row.push_back(ok && at[i].contains("accuracy") ? num(at[i]["accuracy"]) : "");
    row.push_back(ok && at[i].contains("loss") ? num(at[i]["loss"]) : "");
  }
  const nlohmann::json sha = get("weights_sha256");
  row.push_back(sha.is_string() ? sha.get<std::string>() : "");
  row.push_back(version_string());
  const nlohmann::json shown = row_config(cfg);
  row.push_back(shown.is_object() ? shown.dump() : "");
  // train --json shows the text task's corpus as {name, bytes, sha256} instead of the text itself
  std::string sums = corpus_sha256(cfg);
  const nlohmann::json corpus = get("corpus");
  if (corpus.is_object() && corpus.contains("sha256") && corpus["sha256"].is_string())
    sums = corpus["sha256"].get<std::string>() + (sums.empty() ? "" : " " + sums);
  row.push_back(sums);
  row.push_back(error);
  return row;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<int> parse_eval_at(const std::string& text, const std::string& what) {
  std::vector<int> out;
  for (auto& item : split_list(text)) {
    size_t used = 0;
    int m = 0;
    try {
      m = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || m < 1 || m > 64) refuse("runs.eval_at_multiple", what, {{"value", show_text(item)}});
    for (int x : out)
      if (x == m) refuse("runs.eval_at_twice", what, {{"value", item}});
    out.push_back(m);
  }
  if (out.size() > 16) refuse("runs.eval_at_count", what);
  return out;
}

void check_eval_at_memory(const Config& c, const std::vector<int>& eval_at, const std::string& what,
                          const std::function<bool(int)>& addressable, int base) {
  for (int m : eval_at) {
    const int L = m * (base > 0 ? base : c.seq_len);
    if (addressable && !addressable(L)) continue;  // reported as "cannot address", never run
    check_forward_memory(c, c.batch, L + c.anchor_count(),
                         what + " " + std::to_string(m) + " (length " + std::to_string(L) + ")");
  }
}

}  // namespace ap::cli

namespace ap::cli {

void write_row_file(const std::string& path, const CsvRow& header, const CsvRow& row) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  write_csv_file(path, {header, row});
}

nlohmann::json config_from_row(const std::string& csv_path, const std::string& row, std::string* corpus_sha) {
  const CsvTable t = read_csv_file(csv_path);
  const std::string what = "--config-from-row '" + csv_path + "'";
  const int col = csv_column(t[0], "config");
  if (col < 0) refuse("runs.no_config_column", "--config-from-row", {{"path", csv_path}});
  const size_t rows = t.size() - 1;
  size_t used = 0;
  long long n = 0;
  try {
    n = std::stoll(row, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != row.size() || n < 1 || size_t(n) > rows)
    refuse("runs.no_such_row", "--config-from-row",
           {{"path", csv_path}, {"row", show_text(row)}, {"rows", std::to_string(rows)}});
  const std::string& cell = t[size_t(n)][size_t(col)];
  if (cell.empty()) {
    const int err = csv_column(t[0], "error");
    if (err >= 0)
      refuse("runs.row_failed", "--config-from-row",
             {{"path", csv_path}, {"row", row}, {"error", show_text(t[size_t(n)][size_t(err)], 200)}});
    refuse("runs.row_failed_silently", "--config-from-row", {{"path", csv_path}, {"row", row}});
  }
  const int sums = csv_column(t[0], "corpus_sha256");
  if (corpus_sha) *corpus_sha = sums >= 0 ? t[size_t(n)][size_t(sums)] : std::string();
  nlohmann::json j = parse_json(cell, what + ": row " + row + "'s config", kConfigJson);
  if (!j.is_object()) refuse("runs.row_config_not_object", "--config-from-row", {{"path", csv_path}, {"row", row}});
  return j;
}

}  // namespace ap::cli
