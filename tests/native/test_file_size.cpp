// tests/native/test_file_size.cpp — what `train` can write, every loader reads: validation knows
// the model file's size before anything is built (config/file_size.hpp), as an upper bound close
// to the saved file, for every position encoding and normalization; a config whose file would
// pass the loaders' limit (kMaxModelFileBytes) is refused, naming d_model, layers, ffn and it.
#include <catch2/catch.hpp>

#include "config/file_size.hpp"
#include "config/variants.hpp"
#include "io/safetensors.hpp"
#include "model_check.hpp"
#include "session/session.hpp"

using aptest::tiny;
using Catch::Matchers::Contains;

namespace {
// The estimate against the file a session of this config saves; false when the config is invalid.
bool check_against_save(const nlohmann::json& j) {
  ap::Config c;
  std::unique_ptr<ap::Session> s;
  try {
    c = ap::Config::from_json(j);
    s = std::make_unique<ap::Session>(c);
  } catch (const std::invalid_argument&) {
    return false;
  }
  const ap::ModelFileSize est = ap::model_file_size(c, s->task());
  const size_t saved = s->save().size();
  INFO(j.dump() << ": estimate " << est.bytes << " bytes, saved " << saved);
  CHECK(est.parameters == s->model().params().size());
  CHECK(est.bytes >= saved);
  CHECK(est.bytes <= saved + (size_t(64) << 10));  // the header's slack: 256 bytes an entry
  return true;
}
}  // namespace

TEST_CASE("file size: the estimate bounds the saved file for every encoding and normalization", "[file_size]") {
  int checked = 0;
  for (auto& p : ap::position_registry()) checked += check_against_save(tiny({{"position", p.name}, {"causal", true}}));
  for (auto& n : ap::normalization_registry()) checked += check_against_save(tiny({{"normalization", n.name}}));
  CHECK(checked >= int(ap::position_registry().size()));
  // Tables per layer, anchors, a pooled head and the text task's config stored in the file.
  CHECK(check_against_save(tiny({{"position", "learned"}, {"placement", "layerwise"}, {"max_len", 40}})));
  CHECK(check_against_save(tiny({{"anchors", "cls_sep"}, {"task", "order"}, {"pool", "cls"}})));
  CHECK(check_against_save(tiny({{"task", "text"}, {"seq_len", 16}})));
}

TEST_CASE("file size: a model above the loaders' limit is refused in validation, naming the fields", "[file_size]") {
  // 8 layers x d_model 512 x ffn 2048 once trained and wrote a 303 MB file nothing could load.
  const auto big = nlohmann::json{{"task", "copy"}, {"d_model", 512}, {"heads", 8},  {"layers", 8},
                                  {"ffn", 2048},    {"batch", 1},     {"seq_len", 8}};
  CHECK_THROWS_WITH(ap::Config::from_json(big),
                    Contains("d_model=512") && Contains("layers=8") && Contains("ffn=2048") && Contains("256 MiB"));
  // Half the feed-forward width fits (about 200 MB): validation accepts it.
  nlohmann::json fits = big;
  fits["ffn"] = 1024;
  const ap::Config c = ap::Config::from_json(fits);
  const ap::ModelFileSize s = ap::model_file_size(c, *c.checked_task());
  CHECK(s.bytes < ap::kMaxModelFileBytes);
  CHECK(s.bytes > ap::kMaxModelFileBytes / 2);
}
