// tests/native/test_session_load.cpp — Session::load on top of the hostile-input reader: a model
// file whose config (in __metadata__) is not JSON or not valid, whose tensors have the wrong
// shape, are missing, hold NaN or negative second moments, or are extra, whose step is not a
// count, or that is truncated, is refused with a message naming what is wrong. Overrides that
// break the config are blamed on the overrides, not on the file. Also Session::configure: the
// optimizer fields change on a live session (after a refused step, training continues) and
// every other field is refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "io/safetensors.hpp"
#include "model_check.hpp"
#include "session/session.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;
using json = nlohmann::json;

namespace {

// A small trained session's file, taken apart so that each case can change one thing.
struct ModelFile {
  std::vector<ap::NamedTensor> tensors;
  std::map<std::string, std::string> meta;
  ModelFile() {
    ap::Session s(ap::Config::from_json(tiny({{"layers", 1}})));
    s.train(2);
    const std::vector<uint8_t> bytes = s.save();
    ap::SafetensorsFile f = ap::safetensors_read(bytes.data(), bytes.size());
    tensors = f.tensors;
    meta = f.metadata;
  }
  ap::NamedTensor& tensor(const std::string& name) {
    for (auto& t : tensors)
      if (t.name == name) return t;
    FAIL("no tensor " << name);
    return tensors[0];
  }
  json config() const { return json::parse(meta.at("config")); }
  void set_config(const json& j) { meta["config"] = j.dump(); }
  std::vector<uint8_t> bytes() const { return ap::safetensors_write(tensors, meta); }
};

std::string load_error(const std::vector<uint8_t>& b, const json& overrides = json::object()) {
  try {
    ap::Session::load(b.data(), b.size(), overrides);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("load: the untouched file loads", "[io][load]") {
  ModelFile f;
  CHECK(load_error(f.bytes()).empty());
}

TEST_CASE("load: a config in the metadata that is not JSON, or not a valid config", "[io][load]") {
  ModelFile f;
  f.meta["config"] = "{\"task\": \"copy\", ";  // where and why (core/io/json.cpp)
  CHECK_THAT(load_error(f.bytes()), Contains("metadata 'config': not valid JSON at byte 17: syntax error"));
  f.meta["config"] = "[1, 2]";
  CHECK_THAT(load_error(f.bytes()), Contains("metadata 'config' is not a JSON object"));
  json c = ModelFile().config();
  c["heads"] = 3;
  f.set_config(c);
  CHECK_THAT(load_error(f.bytes()),
             Contains("model file: its config is not valid: d_model: 16 is not divisible by heads = 3"));
  c = ModelFile().config();
  c["lr"] = "fast";
  f.set_config(c);
  CHECK_THAT(load_error(f.bytes()), Contains("model file") && Contains("lr"));
  c = ModelFile().config();
  c["wat"] = 1;
  f.set_config(c);
  CHECK_THAT(load_error(f.bytes()), Contains("unknown field 'wat'"));
  f.meta.erase("config");
  CHECK_THAT(load_error(f.bytes()), Contains("no 'config' entry"));
}

TEST_CASE("load: a config that disagrees with the tensors (another width) is refused", "[io][load]") {
  ModelFile f;
  json c = f.config();
  c["d_model"] = 32;
  f.set_config(c);
  CHECK_THAT(load_error(f.bytes()), Contains("has shape") && Contains("this config needs"));
}

TEST_CASE("load: tensors of the wrong shape, missing, NaN, negative moments, extra", "[io][load]") {
  {
    ModelFile f;
    auto& t = f.tensor("tok_emb.weight");
    t.shape = {t.shape[1], t.shape[0]};  // same size, transposed
    CHECK_THAT(load_error(f.bytes()), Contains("'tok_emb.weight' has shape"));
  }
  {
    ModelFile f;
    f.tensors.erase(f.tensors.begin());
    CHECK_THAT(load_error(f.bytes()), Contains("is missing"));
  }
  for (float bad : {std::nanf(""), INFINITY}) {
    ModelFile f;
    f.tensor("blocks.0.mlp.fc.weight").data[3] = bad;
    CHECK_THAT(load_error(f.bytes()), Contains("'blocks.0.mlp.fc.weight' holds NaN or infinite values"));
    ModelFile g;
    g.tensor("optimizer.exp_avg.blocks.0.mlp.fc.weight").data[0] = bad;
    CHECK_THAT(load_error(g.bytes()), Contains("optimizer.exp_avg.blocks.0.mlp.fc.weight"));
  }
  {
    ModelFile f;
    f.tensor("optimizer.exp_avg_sq.ln_f.weight").data[0] = -1.0f;
    CHECK_THAT(load_error(f.bytes()), Contains("'optimizer.exp_avg_sq.ln_f.weight' holds negative values"));
  }
  for (const char* extra : {"surprise", "optimizer.exp_avg.surprise", "optimizer.surprise"}) {
    ModelFile f;
    f.tensors.push_back({extra, {2}, {1.0f, 2.0f}});
    CHECK_THAT(load_error(f.bytes()), Contains(std::string("tensor '") + extra + "' is not part of"));
  }
}

TEST_CASE("load: step metadata must be a plain count", "[io][load]") {
  for (const char* step : {"-3", "12abc", "", "1e3", "99999999999", " 5"}) {
    ModelFile f;
    f.meta["step"] = step;
    INFO("step = '" << step << "'");
    CHECK_THAT(load_error(f.bytes()), Contains("metadata 'step'"));
  }
  ModelFile f;
  f.meta["optimizer_t"] = "-1";
  CHECK_THAT(load_error(f.bytes()), Contains("metadata 'optimizer_t'"));
  f.meta["format"] = "pt";
  CHECK_THAT(load_error(f.bytes()), Contains("format 'pt' is not supported"));
}

TEST_CASE("load: every truncation of a model file is refused with a message", "[io][load]") {
  const std::vector<uint8_t> b = ModelFile().bytes();
  for (size_t n = 0; n < b.size(); n += 1 + n / 16) {
    INFO("first " << n << " of " << b.size() << " bytes");
    const std::vector<uint8_t> cut(b.begin(), b.begin() + n);
    CHECK_THAT(load_error(cut), Contains("model file"));
  }
}

TEST_CASE("load: overrides are checked, and blamed on themselves", "[io][load]") {
  const std::vector<uint8_t> b = ModelFile().bytes();
  const std::string msg = load_error(b, {{"heads", 3}});
  CHECK_THAT(msg, Contains("d_model: 16 is not divisible by heads = 3"));
  CHECK_THAT(msg, !Contains("model file"));
  CHECK_THAT(load_error(b, {{"memory_limit_mb", 1}, {"batch", 4096}}), Contains("memory_limit_mb"));
  CHECK_THAT(load_error(b, json::array()), Contains("overrides must be a JSON object"));
}

TEST_CASE("configure: after a refused step, a lower lr lets training continue", "[model][config]") {
  ap::Session s(ap::Config::from_json(tiny({{"lr", 1.0}, {"clip", 0}})));
  s.train(3);
  // Poison one weight, as a diverging run ends up with: the loss becomes NaN and is refused.
  s.model().params().all_data()[0] = std::nanf("");
  const ap::StepMetrics m = s.step();
  REQUIRE(m.refused);
  CHECK_THAT(m.message, Contains("lower lr (now 1)") && Contains("clip (now 0)"));
  // The refused step went back to the weights of the last finite loss (before update 3).
  s.configure({{"lr", 1e-3}, {"clip", 1.0}, {"schedule", "cosine"}, {"steps", 50}});
  CHECK(s.config().lr == Approx(1e-3));
  CHECK(s.config().clip == 1.0f);
  CHECK(s.config().schedule == "cosine");
  CHECK(s.steps_done() == 2);
  const ap::StepMetrics next = s.train(5);
  CHECK_FALSE(next.refused);
  CHECK(s.steps_done() == 7);
  CHECK(next.lr < 1e-3f + 1e-9f);
}

TEST_CASE("configure: only optimizer fields, each validated, nothing changes on error", "[model][config]") {
  ap::Session s(ap::Config::from_json(tiny()));
  const json before = s.config().to_json();
  CHECK_THROWS_WITH(s.configure({{"d_model", 32}}), Contains("'d_model' cannot change") && Contains("lr, clip"));
  CHECK_THROWS_WITH(s.configure({{"lr", -1}}), Contains("lr: -1 is out of range"));
  CHECK_THROWS_WITH(s.configure({{"lr", 0.01}, {"schedule", "exp"}}), Contains("schedule"));
  CHECK_THROWS_WITH(s.configure({{"weight_decay", "x"}}), Contains("weight_decay"));
  CHECK_THROWS_WITH(s.configure(json::array()), Contains("JSON object"));
  CHECK(s.config().to_json() == before);
  s.configure({{"warmup", 0}, {"weight_decay", 0.1}});
  CHECK(s.config().warmup == 0);
  // The file keeps the new settings.
  const std::vector<uint8_t> b = s.save();
  CHECK(ap::Session::load(b.data(), b.size())->config().weight_decay == Approx(0.1));
}
