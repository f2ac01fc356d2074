// core/model/head_stats.hpp — what one attention head does, measured on one map of weights
// a (T, T) (query i, key j; the rows the model computed, anchors included) and labelled with
// stated thresholds. Measures (p_ij = a_ij / r_i, r_i = Σ_j a_ij over the visible keys: j ≤ i
// when causal, all j otherwise; rows with r_i ≈ 0 are skipped):
//   entropy        mean over rows with n_i ≥ 2 keys of H(p_i) / log n_i   (0 = one key, 1 = uniform)
//   distance       mean over rows of Σ_j p_ij |i − j|                       (positions)
//   first_share    mean over rows i ≥ 1 of p_i0                             (the first token)
//   anchor_share   mean over non-anchor rows of Σ_{j anchor} p_ij           (-1 without anchors)
//   row_sum_spread max_i r_i − min_i r_i                                    (0 for row-stochastic maps)
//   prev_share     mean over rows i ≥ 1 of p_{i,i−1}
//   offset, offset_share  the offset d = i − j (d ≠ 1) whose mean p_{i,i−d}, over the rows where
//                  key i − d is visible (at least half the rows), is largest
//   induction      mean over rows i with an earlier j − 1 < i where ids[j−1] = ids[i] of
//                  Σ_{such j} p_ij (the token after an earlier copy of the current one);
//                  -1 when fewer than a quarter of the rows have such a j (no repeats to use)
//   induction_chance  the same mean for a uniform row: Σ_i (number of such j) / n_i over those
//                  rows (with a small vocabulary it is large: a spread-out head is not an
//                  induction head)
// Labels (kThresholds): previous-token (prev_share ≥ 0.5), first-token / sink (first_share or
// anchor_share ≥ 0.5), uniform (entropy ≥ 0.9), positional at offset d (offset_share ≥ 0.5),
// induction (induction ≥ 0.4 and ≥ 2 × induction_chance, and a previous-token head in an earlier
// layer: apply_induction_rule). A head may carry several labels, each with its evidence.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ap {

struct HeadThresholds {
  static constexpr float kPrevious = 0.5f, kSink = 0.5f, kUniform = 0.9f, kOffset = 0.5f, kInduction = 0.4f;
  static constexpr float kInductionRows = 0.25f;  // share of rows that must have a repeat to look for induction
  static constexpr float kInductionLift = 2.0f;   // induction must be this many times a uniform row's share
};

struct HeadLabel {
  std::string name;      // "previous-token", "first-token / sink", "uniform", "positional", "induction"
  std::string evidence;  // "62% of each row on the previous token (threshold 50%)"
};

struct HeadStats {
  float entropy = 0, distance = 0, first_share = 0, anchor_share = -1, row_sum_spread = 0, prev_share = 0;
  int offset = 0;
  float offset_share = 0, induction = -1, induction_chance = -1;
  std::vector<HeadLabel> labels;
  std::string withheld;  // why a head whose share reached the induction threshold is not labelled so ("" if not)
  nlohmann::json to_json() const;
};

// a: (T, T) weights of one head; ids: (T) the example's token ids; anchors: positions of anchor
// tokens ([CLS], [SEP], <bos>) in the row.
HeadStats head_stats(const float* a, int T, const int32_t* ids, bool causal, const std::vector<int>& anchors);

// An induction head finds the token after an earlier copy of the current one through a
// previous-token head in an earlier layer (which wrote "my previous token was x" into each
// position): the label stays only on heads with one below them, so never in layer 1 or in a
// one-layer model; the others lose it and say why in `withheld`. layers: (L, NH) of one frame.
void apply_induction_rule(std::vector<std::vector<HeadStats>>& layers);

// The thresholds as the UI states them: [{label, measure, threshold, rule}].
nlohmann::json head_thresholds_json();

}  // namespace ap
