// tests/native/test_json_limits.cpp — every JSON the engine reads is bounded (io/json.hpp): a
// value nested 10000 or 100000 levels deep (which once overflowed the stack in show(), dump()
// and copies) is refused with a message that names the input and the limit, for a config, a
// model file's config metadata, configure, run ids and a grads batch; over-long texts are refused
// before parsing; echoed values are cut to ~60 characters; the prompt tokenizer names unknown
// characters as UTF-8 characters and reads through NUL; the sweep grid is bounded.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "io/json.hpp"
#include "io/safetensors.hpp"
#include "config/grid.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"
#include "session/json.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string nested(size_t depth, const std::string& open = "[", const std::string& close = "]",
                   const std::string& inner = "1") {
  std::string s;
  s.reserve(depth * (open.size() + close.size()) + inner.size());
  for (size_t i = 0; i < depth; ++i) s += open;
  s += inner;
  for (size_t i = 0; i < depth; ++i) s += close;
  return s;
}

// The message of what f throws as std::invalid_argument ("" when nothing is thrown; any other
// exception type fails the test).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const nlohmann::json kTiny = {{"task", "copy"}, {"d_model", 16}, {"heads", 2},   {"layers", 1},
                              {"ffn", 16},      {"batch", 2},    {"seq_len", 8}, {"eval_every", 0}};

// A model file whose metadata "config" is the given text.
std::vector<uint8_t> model_with_config(const std::string& config_text) {
  ap::Session s(ap::Config::from_json(kTiny));
  const std::vector<uint8_t> good = s.save();
  ap::SafetensorsFile f = ap::safetensors_read(good.data(), good.size());
  f.metadata["config"] = config_text;
  return ap::safetensors_write(f.tensors, f.metadata);
}

}  // namespace

TEST_CASE("parse_json: depth, size and syntax errors in plain words", "[json]") {
  for (size_t depth : {size_t(10000), size_t(100000)}) {
    INFO("depth " << depth);
    const std::string e = error_of([&] { ap::parse_json(nested(depth), "config"); });
    CHECK_THAT(e, StartsWith("config: JSON nests arrays and objects deeper than the limit of 64 levels"));
    CHECK_THAT(e, Contains("at byte 65"));
    CHECK_THAT(error_of([&] { ap::parse_json(nested(depth, "{\"a\":", "}"), "ids"); }),
               StartsWith("ids: JSON nests arrays and objects deeper than the limit of 64"));
  }
  CHECK_NOTHROW(ap::parse_json(nested(64), "x"));
  CHECK_THAT(error_of([&] { ap::parse_json(nested(65), "x"); }), Contains("deeper than the limit of 64"));
  // Brackets inside strings are text, not nesting.
  CHECK_NOTHROW(ap::parse_json("[\"" + std::string(1000, '[') + "\\\"[\"]", "x"));
  // Size: refused before parsing.
  CHECK_THAT(error_of([&] {
               ap::parse_json(std::string(2000, ' '), "configure", {64, 1000});
             }),
             StartsWith("configure: 2000 bytes of JSON are above the limit of 1000 bytes"));
  // Values: a config has a few dozen; a text of millions is refused after the scan, unparsed.
  std::string many = "[";
  for (int i = 0; i < 20000; ++i) many += "1,";
  many += "1]";
  CHECK_THAT(error_of([&] { ap::parse_json(R"({"task":"copy","lr":)" + many + "}", "config", ap::kConfigJson); }),
             StartsWith("config: JSON holds more than 10000 values (at byte"));
  CHECK(ap::parse_json(many, "ids", ap::kSmallJson).size() == 20001);
  // Syntax: the byte and the reason, no "[json.exception...]".
  const std::string bad = error_of([&] { ap::parse_json("{\"lr\": 1e999}", "config"); });
  CHECK_THAT(bad, StartsWith("config: not valid JSON at byte"));
  CHECK_THAT(bad, Contains("1e999"));
  CHECK_THAT(bad, !Contains("json.exception"));
  CHECK_THAT(error_of([&] { ap::parse_json("{\n\"a\": 1,\n}", "config file 'c.json'"); }),
             Contains("(line 3, column 1)"));
}

TEST_CASE("a deep value is refused with the field named: config, metadata, configure, run, grads", "[json]") {
  ap::Session s(ap::Config::from_json(kTiny));
  for (size_t depth : {size_t(10000), size_t(100000)}) {
    INFO("depth " << depth);
    const std::string deep = nested(depth);
    const std::string config = R"({"task":"copy","lr":)" + deep + "}";
    CHECK_THAT(error_of([&] { ap::Config::from_json(ap::parse_json(config, "config", ap::kConfigJson)); }),
               StartsWith("config: JSON nests arrays and objects deeper than the limit of 64"));
    const auto file = model_with_config(config);
    CHECK_THAT(error_of([&] { ap::Session::load(file.data(), file.size()); }),
               StartsWith("model file: metadata 'config': JSON nests arrays and objects deeper than the limit of 64"));
    CHECK_THAT(error_of([&] { ap::configure_from_json(s, R"({"lr":)" + deep + "}"); }),
               StartsWith("configure: JSON nests arrays and objects deeper than the limit of 64"));
    CHECK_THAT(error_of([&] { ap::run_ids_from_json(deep); }),
               StartsWith("ids: JSON nests arrays and objects deeper than the limit of 64"));
    CHECK_THAT(error_of([&] { ap::batch_from_text(s, R"({"inputs":)" + deep + "}"); }),
               StartsWith("batch: JSON nests arrays and objects deeper than the limit of 64"));
  }
  // A header above 8 MiB is refused by its length, before any parsing.
  const std::string junk = R"({"__metadata__":{"junk":")" + std::string(9 << 20, 'x') + R"("}})";
  std::vector<uint8_t> huge(8 + junk.size());
  for (int i = 0; i < 8; ++i) huge[i] = uint8_t(uint64_t(junk.size()) >> (8 * i));
  std::copy(junk.begin(), junk.end(), huge.begin() + 8);
  CHECK_THAT(
      error_of([&] { ap::Session::load(huge.data(), huge.size()); }),
      StartsWith("model file: header length " + std::to_string(junk.size()) + " is above the limit of 8388608 bytes"));
  // The session is untouched and still works.
  CHECK(s.inspect().run(ap::run_ids_from_json("[1,2,3]"))["tokens"].size() == 3);
}

TEST_CASE("echoed values are cut to about 60 characters", "[json]") {
  auto message = [](const nlohmann::json& j) { return error_of([&] { ap::Config::from_json(j); }); };
  nlohmann::json big = nlohmann::json::array();
  for (int i = 0; i < 10000; ++i) big.push_back(i);
  for (const nlohmann::json& cfg :
       {nlohmann::json{{"task", "copy"}, {"lr", big}},
        nlohmann::json{{"task", "copy"}, {"lr", std::string(100000, 'x')}},
        nlohmann::json{{"task", "copy"}, {std::string(100000, 'k'), 1}},
        nlohmann::json{{"task", std::string(100000, 't')}},
        nlohmann::json{{"task", "copy"}, {"position", std::string(100000, 'p')}},
        nlohmann::json{{"task", "copy"}, {"anchors", std::string(100000, 'a')}},
        nlohmann::json{{"task", "copy"}, {"rope_base", big}}, nlohmann::json{{"task", "copy"}, {"vocab", big}}}) {
    const std::string e = message(cfg);
    INFO(e.substr(0, 300));
    CHECK_FALSE(e.empty());
    for (char c : std::string("xktpa")) CHECK(e.find(std::string(61, c)) == std::string::npos);
    CHECK(e.size() < 1000);  // the list of valid names may follow; the value is cut
    CHECK_THAT(e, Contains("..."));
  }
  // show_value: non-finite numbers, control characters, UTF-8 kept whole, deep values built in code.
  CHECK(ap::show_value(nlohmann::json(std::nan(""))) == "NaN");
  CHECK(ap::show_value(nlohmann::json(-INFINITY)) == "-inf");
  CHECK(ap::show_value("a\nb" + std::string(1, '\0') + "c") == "'a\\nb\\0c'");
  CHECK(ap::show_value(std::string(70, 'x')) == "'" + std::string(60, 'x') + "...'");
  CHECK(ap::show_text(std::string(59, 'x') + "é!") == "'" + std::string(59, 'x') + "é...'");
  CHECK(ap::show_value(nlohmann::json{{"a", {1, 2}}}) == R"({"a":[1,2]})");
  CHECK(ap::show_json("q\"x") == R"("q\"x")");
  CHECK(ap::show_json(std::string(100, 'x')) == "\"" + std::string(59, 'x') + "...");
  nlohmann::json deep = 1;
  for (int i = 0; i < 100000; ++i) {  // by moves: copying a deep value recurses
    nlohmann::json a = nlohmann::json::array();
    a.push_back(std::move(deep));
    deep = std::move(a);
  }
  CHECK(ap::show_value(deep) == std::string(60, '[') + "...");
}

TEST_CASE("run ids, configure and grads batches: types and shapes named in plain words", "[json]") {
  ap::Session s(ap::Config::from_json(kTiny));
  CHECK(ap::run_ids_from_json("[1, 2.0, 3]") == std::vector<int32_t>{1, 2, 3});
  CHECK_THAT(error_of([&] { ap::run_ids_from_json("x"); }), StartsWith("ids: not valid JSON at byte 1"));
  CHECK_THAT(error_of([&] { ap::run_ids_from_json(R"({"a":1})"); }),
             StartsWith("ids: expected an array of whole numbers, not object"));
  CHECK_THAT(error_of([&] { ap::run_ids_from_json("[1, 1.5]"); }), StartsWith("ids[1]: 1.5 is not a whole number"));
  CHECK_THAT(error_of([&] { ap::run_ids_from_json("[\"a\"]"); }), StartsWith("ids[0]: 'a' is not a whole number"));
  CHECK_THAT(error_of([&] { ap::run_ids_from_json("[1e10]"); }), Contains("-2147483648 to 2147483647"));
  CHECK_THAT(error_of([&] { s.inspect().run(ap::run_ids_from_json("[99]")); }), Contains("outside the vocabulary"));
  // A run longer than the memory limit allows is refused before any allocation.
  CHECK_THAT(error_of([&] { s.inspect().run(std::vector<int32_t>(100000, 1)); }),
             StartsWith("run: a pass over 1 sequence of 100000 tokens needs about"));
  CHECK_THAT(error_of([&] { ap::configure_from_json(s, "[1]"); }), Contains("configure: expected a JSON object"));
  CHECK_THAT(error_of([&] { ap::configure_from_json(s, "{\"lr\": }"); }),
             StartsWith("configure: not valid JSON at byte"));

  auto batch = [&](const std::string& text) { return error_of([&] { ap::batch_from_text(s, text); }); };
  const std::string ok = R"({"inputs": [[1,2,3,10]], "targets": [[0,0,0,1]], "mask": [[0,0,0,1]]})";
  CHECK(batch(ok).empty());
  ap::Batch b = ap::batch_from_text(s, ok);
  CHECK((b.B == 1 && b.T == 4 && b.mask == std::vector<uint8_t>{0, 0, 0, 1}));
  CHECK(ap::batch_from_text(s, R"({"inputs": [[1,2]], "targets": [[0,1]]})").mask.size() == 2);
  CHECK_THAT(batch("[]"), StartsWith("batch: expected a JSON object"));
  CHECK_THAT(batch(R"({"inputs": [[1]]})"), StartsWith("batch: field 'targets' is missing"));
  CHECK_THAT(batch(R"({"inputs": [[1]], "targets": [[1]], "maks": 1})"), StartsWith("batch: unknown field 'maks'"));
  CHECK_THAT(batch(R"({"inputs": [[1,2],[3]], "targets": [[1,2],[3]]})"),
             StartsWith("batch: inputs[1]: has 1 entries"));
  CHECK_THAT(batch(R"({"inputs": [[1,2]], "targets": [[1]]})"),
             StartsWith("batch: targets must have the shape of inputs"));
  CHECK_THAT(batch(R"({"inputs": [[1,"x"]], "targets": [[1,2]]})"),
             StartsWith("batch: inputs[0][1]: 'x' is not a whole number"));
  CHECK_THAT(batch(R"({"inputs": [], "targets": []})"), StartsWith("batch: inputs must hold at least one row"));
  CHECK_THAT(batch(R"({"inputs": 3, "targets": []})"), StartsWith("batch: inputs: expected an array of rows"));
  CHECK_THAT(batch(R"({"inputs": [[1,2]], "targets": [[1,2]], "mask": [[1]]})"),
             StartsWith("batch: mask must have the shape"));
}

TEST_CASE("the tokenizer names unknown characters as UTF-8 characters and reads through NUL", "[json][generate]") {
  ap::Session text(ap::Config::from_json({{"task", "text"}, {"seq_len", 8}, {"d_model", 16}, {"heads", 2}}));
  CHECK_THAT(error_of([&] { text.tokenize("The é"); }), StartsWith("prompt: 'é' (U+00E9) is not a token of task text"));
  CHECK_THAT(error_of([&] { text.tokenize("a 😀"); }), StartsWith("prompt: '😀' (U+1F600) is not a token"));
  CHECK_THAT(error_of([&] { text.tokenize("a\xC3"); }),
             StartsWith("prompt: '\\xC3' (byte 0xC3, not UTF-8) is not a token"));
  // NUL in the middle: named (the message does not end there), and it is not an end of text.
  const std::string nul = error_of([&] { text.tokenize(std::string("The\0 end", 8)); });
  CHECK_THAT(nul, StartsWith("prompt: '\\0' (U+0000) is not a token of task text; its tokens are:"));
  CHECK(nul.find('\0') == std::string::npos);
  CHECK(text.tokenize(std::string("The end", 7)).size() == 7);
  // A corpus in UTF-8: its characters are bytes of the vocabulary, so 'é' is two tokens.
  ap::Session utf8(ap::Config::from_json({{"task", "text"},
                                          {"text", "héllo wörld, héllo again and again"},
                                          {"seq_len", 2},
                                          {"d_model", 16},
                                          {"heads", 2}}));
  CHECK(utf8.tokenize("hé").size() == 3);
  // Token-name vocabularies: the word and its first unknown character.
  ap::Session copy(ap::Config::from_json(kTiny));
  CHECK(copy.tokenize("1 2 3").size() == 3);
  CHECK_THAT(error_of([&] { copy.tokenize(std::string("1 2\0003", 5)); }),
             StartsWith("prompt: '2\\03' is not a token, nor is its character '\\0' (U+0000), of task copy"));
  CHECK_THAT(error_of([&] { copy.tokenize("1 ü"); }), StartsWith("prompt: 'ü' (U+00FC) is not a token of task copy"));
  CHECK_THAT(error_of([&] { copy.tokenize(std::string(100000, 'z')); }), Contains("...' is not a token"));
}

TEST_CASE("sweep grid: parsed, type-checked and bounded", "[json][grid]") {
  const ap::GridAxes axes = ap::parse_grid("position=none,learned  seed=1,2,3");
  REQUIRE(axes.size() == 2);
  CHECK(axes[1].second == std::vector<std::string>{"1", "2", "3"});
  const auto runs = ap::grid_runs(axes);
  REQUIRE(runs.size() == 6);
  CHECK(runs[1] == std::vector<std::string>{"none", "2"});
  CHECK_THAT(error_of([] { ap::parse_grid("  "); }), StartsWith("grid: give at least one"));
  CHECK_THAT(error_of([] { ap::parse_grid("seed=,"); }), StartsWith("grid: 'seed' has no values"));
  CHECK_THAT(error_of([] { ap::parse_grid("lr=fast"); }), StartsWith("lr: 'fast' is not a number"));
  CHECK_THAT(error_of([] { ap::parse_grid("bogus=1"); }), StartsWith("config: unknown field 'bogus'"));
  CHECK_THAT(error_of([] {
               ap::parse_grid(
                   "seed=1,2,3,4,5,6,7,8,9,10 steps=1,2,3,4,5,6,7,8,9,10 "
                   "batch=1,2,3,4,5,6,7,8,9,10 warmup=1,2,3,4,5,6,7,8,9,10,11");
             }),
             StartsWith("grid: more than 10000 runs"));
}
