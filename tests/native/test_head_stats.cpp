// tests/native/test_head_stats.cpp — head diagnostics (model/head_stats.hpp) on constructed
// attention maps whose measures are known by hand, one per label; then a trained session whose
// copy_back (k = 1) solution needs a previous-token head, and the history over the replay.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/head_stats.hpp"
#include "session/session.hpp"
#include "session/replay.hpp"

using namespace ap;
using Catch::Matchers::WithinAbs;

namespace {
bool has(const HeadStats& h, const std::string& label) {
  for (auto& l : h.labels)
    if (l.name == label) return true;
  return false;
}
std::vector<float> map_of(int T, int (*key)(int i)) {  // one-hot rows: row i on key(i)
  std::vector<float> a(size_t(T) * T, 0.0f);
  for (int i = 0; i < T; ++i) a[size_t(i) * T + key(i)] = 1.0f;
  return a;
}
const std::vector<int32_t> kIds = {0, 1, 2, 3, 4, 5, 6, 7};
}  // namespace

TEST_CASE("head stats: a previous-token head", "[heads]") {
  const auto a = map_of(8, [](int i) { return i == 0 ? 0 : i - 1; });
  const HeadStats h = head_stats(a.data(), 8, kIds.data(), true, {});
  CHECK_THAT(h.prev_share, WithinAbs(1.0, 1e-6));
  CHECK_THAT(h.distance, WithinAbs(7.0 / 8.0, 1e-6));  // row 0 at distance 0, the rest at 1
  CHECK_THAT(h.entropy, WithinAbs(0.0, 1e-6));
  CHECK(has(h, "previous-token"));
  CHECK_FALSE(has(h, "uniform"));
  CHECK_FALSE(has(h, "positional"));  // offset 1 is the previous-token label's
  REQUIRE_FALSE(h.labels.empty());
  CHECK_THAT(h.labels[0].evidence, Catch::Contains("100%") && Catch::Contains("threshold 50%"));
}

TEST_CASE("head stats: a first-token (sink) head and anchors", "[heads]") {
  const auto a = map_of(8, [](int) { return 0; });
  const HeadStats h = head_stats(a.data(), 8, kIds.data(), true, {});
  CHECK_THAT(h.first_share, WithinAbs(1.0, 1e-6));
  CHECK(has(h, "first-token / sink"));
  CHECK_THAT(h.anchor_share, WithinAbs(-1.0, 1e-6));
  // bidirectional, every row on the [SEP] anchor at the end
  const auto b = map_of(8, [](int) { return 7; });
  const HeadStats s = head_stats(b.data(), 8, kIds.data(), false, {0, 7});
  CHECK_THAT(s.anchor_share, WithinAbs(1.0, 1e-6));
  CHECK(has(s, "first-token / sink"));
  CHECK_THAT(s.labels[0].evidence, Catch::Contains("anchor"));
}

TEST_CASE("head stats: a uniform head, and the row-sum spread", "[heads]") {
  const int T = 6;
  std::vector<float> a(size_t(T) * T, 0.0f);
  for (int i = 0; i < T; ++i)
    for (int j = 0; j <= i; ++j) a[size_t(i) * T + j] = 1.0f / float(i + 1);
  const HeadStats h = head_stats(a.data(), T, kIds.data(), true, {});
  CHECK_THAT(h.entropy, WithinAbs(1.0, 1e-5));
  CHECK_THAT(h.row_sum_spread, WithinAbs(0.0, 1e-6));
  CHECK(has(h, "uniform"));
  // mean distance of a uniform causal row i: i/2; over rows 0..5: (0+.5+1+1.5+2+2.5)/6
  CHECK_THAT(h.distance, WithinAbs(7.5 / 6.0, 1e-5));
  for (int i = 0; i < T; i += 2)
    for (int j = 0; j <= i; ++j) a[size_t(i) * T + j] *= 0.5f;  // rows 0, 2, 4 sum to 1/2
  CHECK_THAT(head_stats(a.data(), T, kIds.data(), true, {}).row_sum_spread, WithinAbs(0.5, 1e-6));
}

TEST_CASE("head stats: a positional head at offset 2 (and ahead when bidirectional)", "[heads]") {
  const auto a = map_of(8, [](int i) { return i < 2 ? i : i - 2; });
  const HeadStats h = head_stats(a.data(), 8, kIds.data(), true, {});
  CHECK(h.offset == 2);
  CHECK_THAT(h.offset_share, WithinAbs(1.0, 1e-6));  // every row where key i-2 is visible
  CHECK(has(h, "positional"));
  CHECK_FALSE(has(h, "previous-token"));
  const auto b = map_of(8, [](int i) { return i < 7 ? i + 1 : 7; });
  const HeadStats n = head_stats(b.data(), 8, kIds.data(), false, {});
  CHECK(n.offset == -1);
  CHECK(has(n, "positional"));
  CHECK_THAT(n.labels[0].evidence, Catch::Contains("1 ahead"));
}

TEST_CASE("head stats: an induction head on a repeated sequence", "[heads]") {
  const std::vector<int32_t> ids = {5, 6, 7, 8, 5, 6, 7, 8};  // a b c d a b c d
  // rows 4..7 attend the token after the earlier copy of their own token: j = i - 3
  const auto a = map_of(8, [](int i) { return i < 4 ? i : i - 3; });
  const HeadStats h = head_stats(a.data(), 8, ids.data(), true, {});
  CHECK_THAT(h.induction, WithinAbs(1.0, 1e-6));
  CHECK(has(h, "induction"));
  // without repeats the measure is not taken
  CHECK(head_stats(a.data(), 8, kIds.data(), true, {}).induction < 0);
  // the same ids, a previous-token head: induction share 0, no label
  const auto p = map_of(8, [](int i) { return i == 0 ? 0 : i - 1; });
  const HeadStats q = head_stats(p.data(), 8, ids.data(), true, {});
  CHECK_THAT(q.induction, WithinAbs(0.0, 1e-6));
  CHECK_FALSE(has(q, "induction"));
  // a uniform row's share of those keys: rows 4..7 have one each among 5..8 visible keys
  CHECK_THAT(h.induction_chance, WithinAbs((1.0 / 5 + 1.0 / 6 + 1.0 / 7 + 1.0 / 8) / 4, 1e-6));
  for (const auto& l : h.labels)
    if (l.name == "induction") CHECK_THAT(l.evidence, Catch::Contains("a uniform row: 16%"));
}

TEST_CASE("head stats: a uniform head on a one-token vocabulary is not an induction head", "[heads]") {
  // Every token the same: row i (causal) has i keys after an earlier copy among its i + 1, so a
  // uniform row already puts i / (i + 1) there. The share passes 0.4, but it is chance.
  const int T = 8;
  const std::vector<int32_t> same(size_t(T), 3);
  std::vector<float> a(size_t(T) * T, 0.0f);
  for (int i = 0; i < T; ++i)
    for (int j = 0; j <= i; ++j) a[size_t(i) * T + j] = 1.0f / float(i + 1);
  const HeadStats h = head_stats(a.data(), T, same.data(), true, {});
  double mean = 0;
  for (int i = 1; i < T; ++i) mean += double(i) / (i + 1) / (T - 1);
  CHECK_THAT(h.induction, WithinAbs(mean, 1e-5));
  CHECK(h.induction >= HeadThresholds::kInduction);
  CHECK_THAT(h.induction_chance, WithinAbs(mean, 1e-5));
  CHECK(has(h, "uniform"));
  CHECK_FALSE(has(h, "induction"));
  // Where every key qualifies, no head can show more than chance: none is labelled. With two
  // tokens alternating (a b a b ...), a uniform row puts about a third there (0.35), and a head
  // that reads exactly the token after the earlier copy (here the previous one) is labelled.
  const auto b = map_of(T, [](int i) { return i == 0 ? 0 : 1; });
  CHECK_FALSE(has(head_stats(b.data(), T, same.data(), true, {}), "induction"));
  const std::vector<int32_t> ab = {1, 2, 1, 2, 1, 2, 1, 2};
  const HeadStats u = head_stats(a.data(), T, ab.data(), true, {});
  CHECK_THAT(u.induction_chance, WithinAbs((1.0 / 3 + 1.0 / 4 + 2.0 / 5 + 2.0 / 6 + 3.0 / 7 + 3.0 / 8) / 6, 1e-5));
  CHECK_FALSE(has(u, "induction"));
  const auto c = map_of(T, [](int i) { return i == 0 ? 0 : i - 1; });
  const HeadStats k = head_stats(c.data(), T, ab.data(), true, {});
  CHECK_THAT(k.induction, WithinAbs(1.0, 1e-6));
  CHECK(has(k, "induction"));
}

TEST_CASE("the induction label needs a previous-token head in an earlier layer", "[heads]") {
  const std::vector<int32_t> ids = {5, 6, 7, 8, 5, 6, 7, 8};
  const auto ind = map_of(8, [](int i) { return i < 4 ? i : i - 3; });
  const auto prev = map_of(8, [](int i) { return i == 0 ? 0 : i - 1; });
  const HeadStats I = head_stats(ind.data(), 8, ids.data(), true, {});
  const HeadStats P = head_stats(prev.data(), 8, ids.data(), true, {});
  REQUIRE(has(I, "induction"));
  REQUIRE(has(P, "previous-token"));
  // one layer: no earlier layer, no induction head; the head says why
  std::vector<std::vector<HeadStats>> one = {{I, P}};
  apply_induction_rule(one);
  CHECK_FALSE(has(one[0][0], "induction"));
  CHECK_THAT(one[0][0].withheld, Catch::Contains("no earlier layer has a previous-token head") &&
                                     Catch::Contains("(it is in the first layer)"));
  CHECK(one[0][0].to_json()["withheld"] == one[0][0].withheld);
  CHECK_FALSE(one[0][1].to_json().contains("withheld"));
  // the previous-token head in the same layer does not count; one in the layer below does
  std::vector<std::vector<HeadStats>> up = {{P, P}, {I, P}};
  apply_induction_rule(up);
  CHECK(has(up[1][0], "induction"));
  CHECK(up[1][0].withheld.empty());
  // two layers without a previous-token head below: withheld in layer 2 too
  std::vector<std::vector<HeadStats>> none = {{I, I}, {I, I}};
  apply_induction_rule(none);
  for (auto& layer : none)
    for (auto& h : layer) CHECK_FALSE(has(h, "induction"));
  CHECK_THAT(none[1][0].withheld, !Catch::Contains("first layer"));
}

TEST_CASE("head diagnostics of a trained session: copy_back k=1 grows a previous-token head", "[heads][learning]") {
  auto s = Session::from_json({{"task", "copy_back"},
                               {"copy_back_k", 1},
                               {"layers", 1},
                               {"heads", 2},
                               {"d_model", 32},
                               {"position", "rope"},
                               {"steps", 300},
                               {"seed", 1}});
  s->train(300);
  const nlohmann::json d = s->replay().head_diagnostics(-1);
  REQUIRE(d["layers"].size() == 1);
  REQUIRE(d["layers"][0]["heads"].size() == 2);
  CHECK(d["thresholds"].size() == 5);
  bool prev = false;
  for (auto& h : d["layers"][0]["heads"])
    for (auto& l : h["labels"]) prev = prev || l["name"] == "previous-token";
  INFO(d.dump());
  CHECK(prev);
  // one layer: no earlier layer to find the previous token, so no head is labelled induction
  for (auto& h : d["layers"][0]["heads"])
    for (auto& l : h["labels"]) CHECK(l["name"] != "induction");
  const nlohmann::json hist = s->replay().head_diagnostics_history();
  const auto steps = s->replay().index()["steps"];
  CHECK(hist["steps"] == steps);
  CHECK(hist["layers"][0]["heads"][1]["prev_share"].size() == steps.size());
  // a kept step gives the same numbers either way
  const int first = steps[0].get<int>();
  CHECK(s->replay().head_diagnostics(first)["layers"][0]["heads"][0]["entropy"] ==
        hist["layers"][0]["heads"][0]["entropy"][0]);
  CHECK_THROWS_WITH(s->replay().head_diagnostics(99999), Catch::Contains("no frame at step 99999"));
}
