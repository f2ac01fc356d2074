// core/position/explore.hpp — the data of the playground's "Explore" view (issue 17 §3): what an
// encoding does as a function of the relative distance d = i − j (query − key; d > 0 is a key to
// the left), computed by the encoding's own code. PositionEncoding::explore(query) returns one of
//   {"kind": "rotary",   "distance", "score" {probe: NH×D}, "scaled"?, "pair" {...}}   rope, xpos
//   {"kind": "bias",     "distance", "heads" NH×D, "quantity": bias|multiplier, ...}   alibi, t5, fire, shaw, urpe
//   {"kind": "absolute", "distance", "mean", "from"}                                   sinusoidal, learned
// with "formula" (LaTeX of the plotted quantity) and "source" (file · function). The samplers
// below are shared by the entries so that each entry's explore() is a few lines.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ap {

// One pair of query and key vectors per head, (NH, HS) each, before any rotation.
struct QKProbe {
  std::string name;         // "trained", "init", "ones", "random"
  std::vector<float> q, k;  // (NH, HS)
};

struct ExploreQuery {
  int length = 16;               // D: distances 0..D−1 (and −(D−1)..−1 for bidirectional biases)
  int layer = 0;                 // per-layer tables (Shaw, layerwise learned)
  int pair = 0;                  // rotary: the 2-D pair i shown on its own
  int position = 0;              // rotary: the slider position m; absolute: the reference position
  std::string scaling = "none";  // rotary: none | pi | ntk | yarn, at `factor`
  double factor = 2.0;
  float tau = 1.0f;              // the normalization's logit scale (Shaw's key term τ q·w^K)
  int heads = 1, head_size = 1;  // NH, HS
  bool causal = true;
  // probes[0] is the model's own: head h's mean query and key over a held-out example (layer
  // `layer`, before rotation); the rotary views add reference probes (all ones, seeded random).
  std::vector<QKProbe> probes;
};

// f(h, i, j) sampled along d = i − j: keys to the left from the last query row of a length-D
// sequence (i = D−1, j = D−1−d), keys to the right (bidirectional only) from row 0 (j = −d).
// A Toeplitz bias gives the same value on every row; FIRE's depends on i (its normalizer), and
// the last row is the one a length-D sequence ends on.
// {"distance": [...], "heads": NH × |distance|}.
nlohmann::json sample_by_distance(int NH, int D, bool causal, const std::function<double(int, int, int)>& f);

// Cosine similarity of the rows of P (n, C) against distance d = j − i, −(n−1)..n−1:
// "mean" over every pair at that distance, "from" cos(P_m, P_{m+d}) (null off the table).
nlohmann::json similarity_by_distance(const float* P, int n, int C, int m);

}  // namespace ap
