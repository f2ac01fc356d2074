// tests/native/test_sweep.cpp — the sweep's pieces without processes (core/cli, native only):
// the experiment reader (a good file, an unknown key, too deep, a bad value), the union of
// grids with seeds, CSV quoting both ways, and the summary statistics on known numbers.
#ifdef AP_HAVE_SWEEP
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cli/csv.hpp"
#include "cli/experiment.hpp"
#include "cli/plan.hpp"
#include "cli/summary.hpp"

using namespace ap::cli;
using Catch::Matchers::Contains;

namespace {

OJson good() {
  return OJson::parse(R"({"id": "t-1", "title": "T", "claim": "c", "metric": "eval_bpc",
    "set": {"task": "copy", "steps": 20},
    "grids": [{"position": ["learned", "rope"], "placement": ["embed", "layerwise"]}, {"position": ["t5_bias"]}],
    "seeds": 3, "eval_at": [2, 4], "quick": {"steps": 2, "seeds": 1}, "browser": {"steps": 10}})");
}

std::string error_of(const OJson& j) {
  try {
    parse_experiment(j, "exp");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("experiment: a good definition is read in file order", "[sweep]") {
  const Experiment e = parse_experiment(good(), "exp", "t-1");
  CHECK(e.id == "t-1");
  CHECK(e.seeds == 3);
  CHECK(e.eval_at == std::vector<int>{2, 4});
  REQUIRE(e.grids.size() == 2);
  CHECK(e.grids[0][0].first == "position");  // file order, not alphabetical
  CHECK(e.grids[0][1].second == std::vector<std::string>{"embed", "layerwise"});
  CHECK(e.quick == Assignments{{"steps", "2"}});
  CHECK(e.quick_seeds == 1);
}

TEST_CASE("experiment: unknown keys, bad values, wrong id and depth are refused in words", "[sweep]") {
  OJson j = good();
  j["colour"] = "red";
  CHECK_THAT(error_of(j), Contains("'colour': is not a key of an experiment; allowed: id, title"));
  j = good(), j["set"]["d_modl"] = 3;
  CHECK_THAT(error_of(j), Contains("exp: set.d_modl:"));
  j = good(), j["set"]["d_model"] = "wide";
  CHECK_THAT(error_of(j), Contains("set.d_model:"));
  j = good(), j["grids"][0]["position"] = OJson::array({"rope", OJson::array({1})});
  CHECK_THAT(error_of(j), Contains("grids[0].position[1]: must be a string, number or boolean"));
  j = good(), j["seeds"] = 0;
  CHECK_THAT(error_of(j), Contains("seeds: must be a whole number from 1 to 100"));
  j = good(), j["metric"] = "eval_accuracy_x8";
  CHECK_THAT(error_of(j), Contains("metric: 'eval_accuracy_x8' is not a metric column; allowed: steps"));
  j = good(), j["set"]["seed"] = 4;
  CHECK_THAT(error_of(j), Contains("set.seed: 'seed' is set by \"seeds\""));
  CHECK_THROWS_WITH(parse_experiment(good(), "exp", "other"), Contains("must equal the file's name, 'other'"));
  // Depth: the file reader's JSON limit is five levels (claims need five).
  const std::string path = (std::filesystem::temp_directory_path() / "ap-deep-exp.json").string();
  std::ofstream(path) << R"({"grids": [{"position": [[["rope"]]]}]})";
  CHECK_THROWS_WITH(read_experiment(path), Contains("deeper than the limit of 5 levels"));
  std::filesystem::remove(path);
}

TEST_CASE("plan: the union of cartesian products, then seeds; axes in first-seen order", "[sweep]") {
  const Experiment e = parse_experiment(good(), "exp");
  const SweepPlan p = experiment_plan(e, false);
  CHECK(p.axes == std::vector<std::string>{"position", "placement"});
  REQUIRE(p.runs.size() == (4 + 1) * 3);
  CHECK(p.runs[0] ==
        Assignments{{"task", "copy"}, {"steps", "20"}, {"position", "learned"}, {"placement", "embed"}, {"seed", "1"}});
  CHECK(p.runs[4] ==
        Assignments{
            {"task", "copy"}, {"steps", "20"}, {"position", "learned"}, {"placement", "layerwise"}, {"seed", "2"}});
  CHECK(p.runs[14] == Assignments{{"task", "copy"}, {"steps", "20"}, {"position", "t5_bias"}, {"seed", "3"}});
  const SweepPlan q = experiment_plan(e, true);  // quick: steps 2 after the grid point, one seed
  REQUIRE(q.runs.size() == 5);
  CHECK(q.runs[0].back() == std::pair<std::string, std::string>{"seed", "1"});
  CHECK(q.runs[0][4] == std::pair<std::string, std::string>{"steps", "2"});
  CHECK_THROWS_WITH(make_plan({}, {ap::parse_grid("seed=1,2")}, 2, {}), Contains("'seed' is an axis and --seeds"));
  CHECK(shell_line({"attnplay", "--set", "text=it's", "a b"}) == "attnplay --set 'text=it'\\''s' 'a b'");
}

TEST_CASE(
    "fine-tune: the grid points with fine_tune true train, then train --resume with its fields and its schedule "
    "restarted at the base's steps",
    "[sweep]") {
  OJson j = good();
  j["set"]["seq_len"] = 16;
  j["grids"] = OJson::parse(R"([{"position": ["rope"], "fine_tune": [true, false]}])");
  j["fine_tune"] = OJson::parse(R"({"steps": 5, "set": {"seq_len": 64, "lr": 0.001}})");
  const SweepPlan p = experiment_plan(parse_experiment(j, "exp"), false);
  REQUIRE(p.runs.size() == 6);  // seeds 1..3 of true, then of false
  CHECK(p.axes == std::vector<std::string>{"position", "fine_tune"});
  CHECK(fine_tunes(p, 0));
  CHECK_FALSE(fine_tunes(p, 3));
  const auto base = base_argv(p, 0, "ap", "m.st");
  CHECK(shell_line(base) ==
        "ap train --set task=copy --set steps=20 --set seq_len=16 --set position=rope --set seed=1 --out m.st");
  CHECK(shell_line(fine_tune_argv(p, 0, "ap", "m.st", "r.csv")) ==
        "ap train --resume m.st --set seq_len=64 --set lr=0.001 --set steps=25 --set schedule_start=20 "
        "--eval-at-base 16 --row-cell "
        "position=rope "
        "--row-cell fine_tune=true --eval-at 2,4 --row-axes position,fine_tune --row-out r.csv");
  // a run without the fine-tune is one train, which is told its fine_tune cell
  CHECK(shell_line(train_argv(p, 3, "ap", "r.csv")) ==
        "ap train --set task=copy --set steps=20 --set seq_len=16 --set position=rope --set seed=1 --row-cell "
        "fine_tune=false --eval-at 2,4 --row-axes position,fine_tune --row-out r.csv");
  CHECK(experiment_plan(parse_experiment(j, "exp"), true).fine_tune.steps == kQuickFineTuneSteps);
}

TEST_CASE("fine-tune: refused in words without its axis, without its object, or with its own steps", "[sweep]") {
  OJson j = good();
  j["fine_tune"] = OJson::parse(R"({"steps": 5, "set": {"seq_len": 64}})");
  CHECK_THAT(error_of(j), Contains("fine_tune: picks no grid point"));
  j.erase("fine_tune");
  j["grids"] = OJson::parse(R"([{"position": ["rope"], "fine_tune": [true]}])");
  CHECK_THAT(error_of(j), Contains("a grid has the axis fine_tune, but the experiment has no"));
  j["fine_tune"] = OJson::parse(R"({"steps": 5, "set": {"steps": 64}})");
  CHECK_THAT(error_of(j), Contains("fine_tune.set.steps: is given by fine_tune.steps"));
  j["fine_tune"] = OJson::parse(R"({"set": {"seq_len": 64}})");
  CHECK_THAT(error_of(j), Contains("fine_tune.steps: is required"));
  j["fine_tune"] = OJson::parse(R"({"steps": 5, "sets": {}})");
  CHECK_THAT(error_of(j), Contains("'sets': is not a key of fine_tune; allowed: steps, set"));
  j["fine_tune"] = OJson::parse(R"({"steps": 5})");
  j["grids"] = OJson::parse(R"([{"position": ["rope"], "fine_tune": ["yes"]}])");
  CHECK_THAT(error_of(j), Contains("grids[0].fine_tune[0]: must be true or false"));
}

TEST_CASE("CSV: quoting round-trips, malformed text is refused with its line", "[sweep]") {
  const CsvRow row{"plain", "a,b", "say \"hi\"", "two\nlines", ""};
  CHECK(csv_line(row) == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\n");
  const CsvTable t = csv_parse("h1,h2,h3,h4,h5\r\n" + csv_line(row), "t");
  REQUIRE(t.size() == 2);
  CHECK(t[1] == row);
  CHECK(csv_parse("a,\"\"", "t") == CsvTable{{"a", ""}});
  CHECK_THROWS_WITH(csv_parse("a,b\n\"x,1\n", "t"),
                    Contains("t: not valid CSV at line 2: a quoted field is not closed"));
  CHECK_THROWS_WITH(csv_parse("a,b\nx\"y,1\n", "t"), Contains("line 2: a quote inside an unquoted field"));
  CHECK_THROWS_WITH(csv_parse("\"a\"b\n", "t"), Contains("text after a closing quote"));
}

TEST_CASE("summary: mean, sample sd, min and max per grid point; errors left out", "[sweep]") {
  const Stats s = stats_of({1, 2, 3, 4});
  CHECK(s.mean == 2.5);
  CHECK_THAT(s.sd, Catch::Matchers::WithinRel(std::sqrt(5.0 / 3.0), 1e-12));  // sum of squares 5, n-1 = 3
  CHECK(s.min == 1);
  CHECK(s.max == 4);
  CHECK(std::isnan(stats_of({7}).sd));
  const CsvTable runs{{"position", "seed", "eval_loss", "weights_sha256", "error"},
                      {"rope", "1", "1", "x", ""},
                      {"learned", "1", "10", "x", ""},
                      {"rope", "2", "2", "x", ""},
                      {"rope", "3", "3", "x", ""},
                      {"rope", "4", "4", "x", ""},
                      {"rope", "5", "", "", "diverged"}};
  const CsvTable sum = summarize(runs, "t");
  REQUIRE(sum.size() == 3);
  CHECK(sum[0] == CsvRow{"position", "n", "eval_loss_mean", "eval_loss_sd", "eval_loss_min", "eval_loss_max"});
  CHECK(sum[1] == CsvRow{"rope", "4", "2.5", "1.290994449", "1", "4"});
  CHECK(sum[2] == CsvRow{"learned", "1", "10", "", "10", "10"});  // sd empty for n < 2
}
#endif
