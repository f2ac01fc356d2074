// core/cli/experiment.cpp — see experiment.hpp.
#include "cli/experiment.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "cli/files.hpp"
#include "refusal/refusal.hpp"
#include "config/config.hpp"
#include "io/json.hpp"

namespace ap::cli {

namespace {

// Nesting: the file { grids [ { key [ value ] } ] } is four levels deep, { claims [ { better { } } ] } five.
constexpr JsonLimits kExperimentJson{5, kMaxExperimentBytes, 20000};
constexpr int kMaxSeeds = 100;

// Refuses `code` about `field` of the experiment `what` ("experiment 'x.json'"), which the message
// names first: "<what>: <field>: ...".
[[noreturn]] void fail(const std::string& what, const char* code, const std::string& field, RefusalParams params = {}) {
  refuse_within(what, Refusal(code, field, std::move(params)));
}

// A JSON value as the message shows it.
std::string shown(const OJson& v) { return show_json(nlohmann::json::parse(v.dump())); }

// A JSON scalar as the text of `key=value`, type-checked against the config field.
std::string field_text(const std::string& what, const std::string& field, const std::string& key, const OJson& v) {
  if (key == "seed") fail(what, "experiment.seed_in_set", field);
  std::string text;
  if (v.is_string())
    text = v.get<std::string>();
  else if (v.is_boolean())
    text = v.get<bool>() ? "true" : "false";
  else if (v.is_number())
    text = v.dump();
  else
    fail(what, "experiment.value_type", field, {{"value", shown(v)}});
  try {
    config_value(key, text);  // unknown key or a value the field cannot take
  } catch (const Refusal& r) {
    refuse_within(what + ": " + field, r);
  } catch (const std::invalid_argument& e) {
    fail(what, "experiment.bad_value", field, {{"reason", e.what()}});
  }
  return text;
}

Assignments fields(const std::string& what, const std::string& name, const OJson& v, bool seeds_ok, int* seeds) {
  if (!v.is_object()) fail(what, "experiment.not_fields", name);
  Assignments out;
  for (auto& [k, x] : v.items()) {
    if (seeds_ok && k == "seeds") {
      if (!x.is_number_integer() || x.get<long long>() < 1 || x.get<long long>() > kMaxSeeds)
        fail(what, "experiment.whole_range", name + ".seeds", {{"max", std::to_string(kMaxSeeds)}});
      *seeds = x.get<int>();
      continue;
    }
    out.emplace_back(k, field_text(what, name + "." + k, k, x));
  }
  return out;
}

// "fine_tune": {"steps": N, "set": {fields}}.
FineTune fine_tune_of(const std::string& what, const OJson& v) {
  if (!v.is_object())
    fail(what, "experiment.fine_tune_object", "fine_tune", {{"shape", "{\"steps\": N, \"set\": {fields}}"}});
  FineTune f;
  for (auto& [k, x] : v.items()) {
    if (k == "steps") {
      if (!x.is_number_integer() || x.get<long long>() < 1 || x.get<long long>() > 1000000)
        fail(what, "experiment.whole_range", "fine_tune.steps", {{"max", "1000000"}});
      f.steps = x.get<int>();
    } else if (k == "set") {
      f.set = fields(what, "fine_tune.set", x, false, nullptr);
    } else {
      fail(what, "experiment.fine_tune_key", "fine_tune." + show_text(k));
    }
  }
  if (f.steps == 0) fail(what, "experiment.fine_tune_steps_required", "fine_tune.steps");
  for (auto& [k, x] : f.set)
    if (k == "steps")
      fail(what, "experiment.fine_tune_set_steps", "fine_tune.set.steps");
    else if (k == "schedule_start")
      fail(what, "experiment.fine_tune_set_schedule", "fine_tune.set.schedule_start");
  return f;
}

// A value of the grid axis "fine_tune": true or false.
std::string fine_tune_value(const std::string& what, const std::string& field, const OJson& v) {
  if (!v.is_boolean()) fail(what, "experiment.fine_tune_value", field);
  return v.get<bool>() ? "true" : "false";
}

std::string text_of(const std::string& what, const OJson& j, const char* key, bool required) {
  if (!j.contains(key)) {
    if (required) fail(what, "experiment.required_string", key);
    return "";
  }
  if (!j[key].is_string()) fail(what, "experiment.not_string", key);
  return j[key].get<std::string>();
}

// "budgets": [1000, 2000, 4000]: every grid point is trained once per budget (separate runs, each
// with its whole schedule), as the axis "steps" added to every grid; claims are judged at each.
void add_budgets(const std::string& what, const OJson& b, std::vector<GridAxes>& grids) {
  if (!b.is_array() || b.empty() || b.size() > 8) fail(what, "experiment.budgets", "budgets");
  std::vector<std::string> texts;
  long long last = 0;
  for (auto& x : b) {
    if (!x.is_number_integer() || x.get<long long>() <= last || x.get<long long>() > 10000000)
      fail(what, "experiment.budgets", "budgets");
    last = x.get<long long>();
    texts.push_back(std::to_string(last));
  }
  if (grids.empty()) grids.emplace_back();
  for (auto& g : grids) {
    for (auto& [k, vs] : g)
      if (k == "steps") fail(what, "experiment.budgets_and_steps", "budgets");
    g.emplace_back("steps", texts);
  }
}

// "grids": [{field: [values]}, ...], at most kMaxGridRuns points in all.
std::vector<GridAxes> grids_of(const std::string& what, const OJson& grids) {
  if (!grids.is_array()) fail(what, "experiment.grids_array", "grids");
  std::vector<GridAxes> out;
  size_t runs = 0;
  for (size_t g = 0; g < grids.size(); ++g) {
    const std::string name = "grids[" + std::to_string(g) + "]";
    const OJson& grid = grids[g];
    if (!grid.is_object() || grid.empty()) fail(what, "experiment.grid_object", name);
    GridAxes axes;
    size_t n = 1;
    for (auto& [k, vs] : grid.items()) {
      if (!vs.is_array() || vs.empty()) fail(what, "experiment.axis_values", name + "." + k);
      std::vector<std::string> texts;
      for (size_t i = 0; i < vs.size(); ++i)
        texts.push_back(k == kFineTuneAxis
                            ? fine_tune_value(what, name + "." + k + "[" + std::to_string(i) + "]", vs[i])
                            : field_text(what, name + "." + k + "[" + std::to_string(i) + "]", k, vs[i]));
      n *= texts.size();
      if (n > kMaxGridRuns) break;
      axes.emplace_back(k, texts);
    }
    runs += n;
    if (runs > kMaxGridRuns) fail(what, "experiment.too_many_points", "grids", {{"max", std::to_string(kMaxGridRuns)}});
    out.push_back(axes);
  }
  return out;
}

// "eval_at": [whole multiples of seq_len].
std::vector<int> eval_at_of(const std::string& what, const OJson& v) {
  if (!v.is_array()) fail(what, "experiment.eval_at_array", "eval_at");
  std::string list;
  for (auto& m : v) {
    if (!m.is_number_integer()) fail(what, "experiment.eval_at_item", "eval_at", {{"value", shown(m)}});
    list += m.dump() + ",";
  }
  try {
    return parse_eval_at(list, "eval_at");
  } catch (const Refusal& r) {
    refuse_within(what, r);
  }
}

// "metric", "lower_is_better" and "columns": the metric columns the report judges and shows.
void metrics_of(const std::string& what, const OJson& j, Experiment& e) {
  e.metric = text_of(what, j, "metric", true);
  const std::vector<std::string> metrics = metric_columns(e.eval_at);
  if (std::find(metrics.begin(), metrics.end(), e.metric) == metrics.end()) {
    std::string list;
    for (auto& m : metrics) list += (list.empty() ? "" : ", ") + m;
    fail(what, "experiment.bad_metric", "metric", {{"metric", show_text(e.metric)}, {"metrics", list}});
  }
  if (j.contains("lower_is_better")) {
    if (!j["lower_is_better"].is_boolean()) fail(what, "experiment.not_boolean", "lower_is_better");
    e.lower_is_better = j["lower_is_better"].get<bool>();
  }
  if (j.contains("columns")) {  // the metrics the report shows: metric columns
    if (!j["columns"].is_array()) fail(what, "experiment.columns_array", "columns");
    for (auto& c : j["columns"])
      if (!c.is_string() || std::find(metrics.begin(), metrics.end(), c.get<std::string>()) == metrics.end())
        fail(what, "experiment.bad_column", "columns", {{"value", shown(c)}});
  }
}

// The keys of an experiment, and its "id" (equal to `id`, the file's name, when given).
void keys_and_id(const OJson& j, const std::string& what, const std::string& id, Experiment& e) {
  static const std::vector<std::string> keys{"id",    "title",     "source",  "claim",           "set",
                                             "grids", "seeds",     "metric",  "lower_is_better", "eval_at",
                                             "quick", "browser",   "columns", "claims",          "corpus",
                                             "notes", "fine_tune", "setting", "budgets",         "occasions"};
  if (!j.is_object()) fail(what, "experiment.not_object", "");
  for (auto& [k, v] : j.items())
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      std::string list;
      for (auto& key : keys) list += (list.empty() ? "" : ", ") + key;
      fail(what, "experiment.unknown_key", show_text(k), {{"keys", list}});
    }
  e.id = text_of(what, j, "id", true);
  if (e.id.empty() || e.id.size() > 64 ||
      e.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
    fail(what, "experiment.bad_id", "id", {{"id", show_text(e.id)}});
  if (!id.empty() && e.id != id)
    fail(what, "experiment.id_not_name", "id", {{"id", show_text(e.id)}, {"name", show_text(id)}});
}

}  // namespace

Experiment parse_experiment(const OJson& j, const std::string& what, const std::string& id) {
  Experiment e;
  keys_and_id(j, what, id, e);
  e.title = text_of(what, j, "title", true);
  e.source = text_of(what, j, "source", false);
  e.claim = text_of(what, j, "claim", false);
  if (j.contains("set")) e.set = fields(what, "set", j["set"], false, nullptr);
  if (j.contains("grids")) e.grids = grids_of(what, j["grids"]);
  if (j.contains("budgets")) add_budgets(what, j["budgets"], e.grids);
  if (j.contains("setting")) text_of(what, j, "setting", false);  // the report's and the page's: a text
  if (j.contains("seeds")) {
    const OJson& s = j["seeds"];
    if (!s.is_number_integer() || s.get<long long>() < 1 || s.get<long long>() > kMaxSeeds)
      fail(what, "experiment.whole_range", "seeds", {{"max", std::to_string(kMaxSeeds)}});
    e.seeds = s.get<int>();
  }
  if (j.contains("eval_at")) e.eval_at = eval_at_of(what, j["eval_at"]);
  metrics_of(what, j, e);
  if (j.contains("claims") && !j["claims"].is_array()) fail(what, "experiment.not_array", "claims");
  // "occasions": 2 — build-scripts/experiments.mjs sweeps a timing experiment twice; one sweep here.
  if (j.contains("occasions") &&
      !(j["occasions"].is_number_integer() && j["occasions"].get<int>() >= 1 && j["occasions"].get<int>() <= 2))
    fail(what, "experiment.occasions", "occasions");
  if (j.contains("notes")) text_of(what, j, "notes", false);  // the report's and the page's: a text
  if (j.contains("corpus")) {  // the runner passes web/public/corpus/<corpus>.txt as --text-file
    const std::string c = text_of(what, j, "corpus", false);
    if (c.empty() || c.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
      fail(what, "experiment.bad_corpus", "corpus", {{"corpus", show_text(c)}});
  }
  if (j.contains("quick")) e.quick = fields(what, "quick", j["quick"], true, &e.quick_seeds);
  if (j.contains("browser")) e.browser = fields(what, "browser", j["browser"], false, nullptr);
  if (j.contains("fine_tune")) e.fine_tune = fine_tune_of(what, j["fine_tune"]);
  bool axis = false;
  for (auto& g : e.grids)
    for (auto& [k, vs] : g) axis = axis || k == kFineTuneAxis;
  if (axis && e.fine_tune.steps == 0) fail(what, "experiment.axis_without_fine_tune", "grids");
  if (!axis && e.fine_tune.steps > 0) fail(what, "experiment.fine_tune_unused", "fine_tune");
  return e;
}

Experiment read_experiment(const std::string& path) {
  const std::string what = "experiment '" + path + "'";
  const std::string text = read_text_file(path, "experiment", kExperimentJson.bytes);
  parse_json(text, what, kExperimentJson);  // size, depth and syntax, with messages in words
  // Again, keeping the keys in file order: the axis columns follow the grids' first-seen order.
  return parse_experiment(OJson::parse(text), what, std::filesystem::path(path).stem().string());
}

}  // namespace ap::cli
