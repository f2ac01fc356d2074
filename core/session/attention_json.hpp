// core/session/attention_json.hpp — one layer's heads as Inspector::attention() and the replay's
// frames report them (inspect.cpp): from (NH, T, T) weights and logits, per head {"weights": T×T,
// "logits": T×T (keys a causal query cannot see: null), "row_sums": T}.
#pragma once
#include <nlohmann/json.hpp>

namespace ap {

nlohmann::json attention_heads_json(const float* weights, const float* logits, int NH, int T, bool causal);

}  // namespace ap
