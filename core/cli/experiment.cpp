// core/cli/experiment.cpp — see experiment.hpp.
#include "cli/experiment.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "cli/files.hpp"
#include "config/config.hpp"
#include "io/json.hpp"

namespace ap::cli {

namespace {

// Nesting: the file { grids [ { key [ value ] } ] } is four levels deep, { claims [ { better { } } ] } five.
constexpr JsonLimits kExperimentJson{5, kMaxExperimentBytes, 20000};
constexpr int kMaxSeeds = 100;

[[noreturn]] void fail(const std::string& what, const std::string& field, const std::string& why) {
  throw std::invalid_argument(what + ": " + field + ": " + why);
}

// A JSON scalar as the text of `key=value`, type-checked against the config field.
std::string field_text(const std::string& what, const std::string& field, const std::string& key, const OJson& v) {
  if (key == "seed") fail(what, field, "'seed' is set by \"seeds\" (runs use seeds 1..N)");
  std::string text;
  if (v.is_string())
    text = v.get<std::string>();
  else if (v.is_boolean())
    text = v.get<bool>() ? "true" : "false";
  else if (v.is_number())
    text = v.dump();
  else
    fail(what, field, "must be a string, number or boolean, not " + show_json(nlohmann::json::parse(v.dump())));
  try {
    config_value(key, text);  // unknown key or a value the field cannot take
  } catch (const std::invalid_argument& e) {
    fail(what, field, e.what());
  }
  return text;
}

Assignments fields(const std::string& what, const std::string& name, const OJson& v, bool seeds_ok, int* seeds) {
  if (!v.is_object()) fail(what, name, "must be an object of config fields");
  Assignments out;
  for (auto& [k, x] : v.items()) {
    if (seeds_ok && k == "seeds") {
      if (!x.is_number_integer() || x.get<long long>() < 1 || x.get<long long>() > kMaxSeeds)
        fail(what, name + ".seeds", "must be a whole number from 1 to " + std::to_string(kMaxSeeds));
      *seeds = x.get<int>();
      continue;
    }
    out.emplace_back(k, field_text(what, name + "." + k, k, x));
  }
  return out;
}

// "fine_tune": {"steps": N, "set": {fields}}.
FineTune fine_tune_of(const std::string& what, const OJson& v) {
  if (!v.is_object()) fail(what, "fine_tune", "must be an object {\"steps\": N, \"set\": {fields}}");
  FineTune f;
  for (auto& [k, x] : v.items()) {
    if (k == "steps") {
      if (!x.is_number_integer() || x.get<long long>() < 1 || x.get<long long>() > 1000000)
        fail(what, "fine_tune.steps", "must be a whole number from 1 to 1000000");
      f.steps = x.get<int>();
    } else if (k == "set") {
      f.set = fields(what, "fine_tune.set", x, false, nullptr);
    } else {
      fail(what, "fine_tune." + show_text(k), "is not a key of fine_tune; allowed: steps, set");
    }
  }
  if (f.steps == 0) fail(what, "fine_tune.steps", "is required (the steps the fine-tune adds)");
  for (auto& [k, x] : f.set)
    if (k == "steps")
      fail(what, "fine_tune.set.steps", "is given by fine_tune.steps (the steps it adds)");
    else if (k == "schedule_start")
      fail(what, "fine_tune.set.schedule_start",
           "is the base's steps (a fine-tune's warmup and decay restart at the step it resumes from)");
  return f;
}

// A value of the grid axis "fine_tune": true or false.
std::string fine_tune_value(const std::string& what, const std::string& field, const OJson& v) {
  if (!v.is_boolean()) fail(what, field, "must be true or false (whether the grid point fine-tunes)");
  return v.get<bool>() ? "true" : "false";
}

std::string text_of(const std::string& what, const OJson& j, const char* key, bool required) {
  if (!j.contains(key)) {
    if (required) fail(what, key, "is required (a string)");
    return "";
  }
  if (!j[key].is_string()) fail(what, key, "must be a string");
  return j[key].get<std::string>();
}

// "budgets": [1000, 2000, 4000]: every grid point is trained once per budget (separate runs, each
// with its whole schedule), as the axis "steps" added to every grid; claims are judged at each.
void add_budgets(const std::string& what, const OJson& b, std::vector<GridAxes>& grids) {
  const std::string rule = "must be an array of 1 to 8 whole step counts from 1 to 10000000, rising";
  if (!b.is_array() || b.empty() || b.size() > 8) fail(what, "budgets", rule);
  std::vector<std::string> texts;
  long long last = 0;
  for (auto& x : b) {
    if (!x.is_number_integer() || x.get<long long>() <= last || x.get<long long>() > 10000000)
      fail(what, "budgets", rule);
    last = x.get<long long>();
    texts.push_back(std::to_string(last));
  }
  if (grids.empty()) grids.emplace_back();
  for (auto& g : grids) {
    for (auto& [k, vs] : g)
      if (k == "steps") fail(what, "budgets", "and a grid's axis \"steps\" both set the steps: keep one");
    g.emplace_back("steps", texts);
  }
}

}  // namespace

Experiment parse_experiment(const OJson& j, const std::string& what, const std::string& id) {
  static const std::vector<std::string> keys{"id",    "title",     "source",  "claim",           "set",
                                             "grids", "seeds",     "metric",  "lower_is_better", "eval_at",
                                             "quick", "browser",   "columns", "claims",          "corpus",
                                             "notes", "fine_tune", "setting", "budgets",         "occasions"};
  if (!j.is_object()) fail(what, "the file", "must be one JSON object");
  for (auto& [k, v] : j.items())
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      std::string list;
      for (auto& key : keys) list += (list.empty() ? "" : ", ") + key;
      fail(what, show_text(k), "is not a key of an experiment; allowed: " + list);
    }
  Experiment e;
  e.id = text_of(what, j, "id", true);
  if (e.id.empty() || e.id.size() > 64 ||
      e.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
    fail(what, "id", show_text(e.id) + " must be 1 to 64 of a-z, 0-9 and '-'");
  if (!id.empty() && e.id != id) fail(what, "id", show_text(e.id) + " must equal the file's name, " + show_text(id));
  e.title = text_of(what, j, "title", true);
  e.source = text_of(what, j, "source", false);
  e.claim = text_of(what, j, "claim", false);
  if (j.contains("set")) e.set = fields(what, "set", j["set"], false, nullptr);
  if (j.contains("grids")) {
    if (!j["grids"].is_array()) fail(what, "grids", "must be an array of objects {field: [values]}");
    size_t runs = 0;
    for (size_t g = 0; g < j["grids"].size(); ++g) {
      const std::string name = "grids[" + std::to_string(g) + "]";
      const OJson& grid = j["grids"][g];
      if (!grid.is_object() || grid.empty()) fail(what, name, "must be a non-empty object {field: [values]}");
      GridAxes axes;
      size_t n = 1;
      for (auto& [k, vs] : grid.items()) {
        if (!vs.is_array() || vs.empty()) fail(what, name + "." + k, "must be a non-empty array of values");
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
      if (runs > kMaxGridRuns) fail(what, "grids", "more than " + std::to_string(kMaxGridRuns) + " grid points");
      e.grids.push_back(axes);
    }
  }
  if (j.contains("budgets")) add_budgets(what, j["budgets"], e.grids);
  if (j.contains("setting")) text_of(what, j, "setting", false);  // the report's and the page's: a text
  if (j.contains("seeds")) {
    const OJson& s = j["seeds"];
    if (!s.is_number_integer() || s.get<long long>() < 1 || s.get<long long>() > kMaxSeeds)
      fail(what, "seeds", "must be a whole number from 1 to " + std::to_string(kMaxSeeds));
    e.seeds = s.get<int>();
  }
  if (j.contains("eval_at")) {
    if (!j["eval_at"].is_array()) fail(what, "eval_at", "must be an array of whole multiples of seq_len");
    std::string list;
    for (auto& m : j["eval_at"]) {
      if (!m.is_number_integer())
        fail(what, "eval_at", show_json(nlohmann::json::parse(m.dump())) + " is not a whole number from 1 to 64");
      list += m.dump() + ",";
    }
    e.eval_at = parse_eval_at(list, what + ": eval_at");
  }
  e.metric = text_of(what, j, "metric", true);
  const std::vector<std::string> metrics = metric_columns(e.eval_at);
  if (std::find(metrics.begin(), metrics.end(), e.metric) == metrics.end()) {
    std::string list;
    for (auto& m : metrics) list += (list.empty() ? "" : ", ") + m;
    fail(what, "metric", show_text(e.metric) + " is not a metric column; allowed: " + list);
  }
  if (j.contains("lower_is_better")) {
    if (!j["lower_is_better"].is_boolean()) fail(what, "lower_is_better", "must be true or false");
    e.lower_is_better = j["lower_is_better"].get<bool>();
  }
  if (j.contains("columns")) {  // the metrics the report shows: metric columns
    if (!j["columns"].is_array()) fail(what, "columns", "must be an array of metric column names");
    for (auto& c : j["columns"])
      if (!c.is_string() || std::find(metrics.begin(), metrics.end(), c.get<std::string>()) == metrics.end())
        fail(what, "columns", show_json(nlohmann::json::parse(c.dump())) + " is not a metric column");
  }
  if (j.contains("claims") && !j["claims"].is_array()) fail(what, "claims", "must be an array");
  // "occasions": 2 — build-scripts/experiments.mjs sweeps a timing experiment twice; one sweep here.
  if (j.contains("occasions") &&
      !(j["occasions"].is_number_integer() && j["occasions"].get<int>() >= 1 && j["occasions"].get<int>() <= 2))
    fail(what, "occasions", "must be 1 or 2 (a timing experiment is swept on two separate occasions)");
  if (j.contains("notes")) text_of(what, j, "notes", false);  // the report's and the page's: a text
  if (j.contains("corpus")) {  // the runner passes web/public/corpus/<corpus>.txt as --text-file
    const std::string c = text_of(what, j, "corpus", false);
    if (c.empty() || c.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
      fail(what, "corpus", show_text(c) + " must be a corpus name of a-z, 0-9 and '-'");
  }
  if (j.contains("quick")) e.quick = fields(what, "quick", j["quick"], true, &e.quick_seeds);
  if (j.contains("browser")) e.browser = fields(what, "browser", j["browser"], false, nullptr);
  if (j.contains("fine_tune")) e.fine_tune = fine_tune_of(what, j["fine_tune"]);
  bool axis = false;
  for (auto& g : e.grids)
    for (auto& [k, vs] : g) axis = axis || k == kFineTuneAxis;
  if (axis && e.fine_tune.steps == 0)
    fail(what, "grids", "a grid has the axis fine_tune, but the experiment has no \"fine_tune\": {\"steps\", \"set\"}");
  if (!axis && e.fine_tune.steps > 0)
    fail(what, "fine_tune", "picks no grid point: give the grids that fine-tune the axis \"fine_tune\": [true]");
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
