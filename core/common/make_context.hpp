// core/common/make_context.hpp — what the make() of a position encoding or a normalization may
// read: the model's sizes and its own declared options, not the whole Config. The config layer
// (core/config/variants.cpp) fills it; the variants never see a Config.
#pragma once
#include <cstdint>

#include "common/options.hpp"

namespace ap {

struct ModelSizes {
  int d_model = 0, heads = 1, layers = 0;
  int model_len = 0;  // training length including anchor tokens (seq_len + anchors)
  int table_len = 0;  // learned table size: max_len, else model_len
  bool causal = true;
  bool layerwise = false;  // absolute encodings: added at every block input (placement=layerwise)
  uint64_t seed = 0;       // the run's seed (random features are drawn from it)
  int head_size() const { return d_model / heads; }  // HS
};

struct MakeContext {
  ModelSizes sizes;
  OptionValues options;  // the entry's own options; an absent one reads its declared default
};

}  // namespace ap
