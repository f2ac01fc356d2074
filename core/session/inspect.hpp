// core/session/inspect.hpp — what a front end looks at in a model, an object of its own beside the
// Session that owns it (Session::inspect()), as the replay (replay.hpp) and the interventions
// (interventions.hpp) are: predictions on held-out data, attention maps, the position view, a
// forward on given ids, the Explore view and generation. The worker's `inspect` bundle and the
// CLI's `inspect` command are made of these. None of them trains or changes the weights. It holds
// a reference to its session and reads it through its public face (config, model, task, batches),
// so it lives exactly as long as its session. inspect.cpp, explore.cpp, generate.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

namespace ap {

class Session;
class Transformer;

class Inspector {
 public:
  explicit Inspector(Session& s);
  ~Inspector();
  Inspector(const Inspector&) = delete;
  Inspector& operator=(const Inspector&) = delete;

  // A batch of n examples (held-out unless train=true) at `length` (0 = seq_len), with the model's
  // outputs: {"per_sequence", "examples": [{"inputs", "prediction", "confidence", "target",
  // "correct", "mask"}]}.
  nlohmann::json predictions(int n, int length = 0, bool train = false);
  // Attention logits and weights of every layer and head for one example (the first of a
  // held-out batch at `length`): {"tokens": [...], "layers": [{"heads": [{"weights": T×T,
  // "logits": T×T, "row_sums": T}]}]}.
  nlohmann::json attention(int length = 0, int example = 0);
  // Forward on given token ids (B=1, no targets): attention as attention(), class probabilities
  // per row, hidden states.
  nlohmann::json run(const std::vector<int32_t>& ids);
  // The position encoding's view at `length` (0 = the model's length) and its description.
  nlohmann::json positions(int length = 0);
  // The Explore view (position/explore.hpp) for a request {"length", "layer", "pair", "position",
  // "scaling", "factor", "seed"} (each optional and bounded; see explore.cpp):
  // {"now": the encoding's explore() with this model's q/k probes, "init": the same from a fresh
  // model of this config and seed (its initialisation), "describe"}. Throws std::invalid_argument
  // naming the field.
  nlohmann::json explore(const nlohmann::json& request);
  // Continue a prompt (task token ids, anchors excluded; Session::tokenize). Next-token tasks
  // (text, elman, ...) sample autoregressively and need a causal model; answer-slot tasks (copy,
  // sort, addition ...) fill max_new answer slots after the prompt in one forward. temperature 0
  // = greedy; top_k 0 = all classes. Result: {"mode", "ids", "tokens", "probs" (model probability
  // of each chosen token), "text" (joined)}. See generate.cpp.
  nlohmann::json generate(const std::vector<int32_t>& prompt, int max_new, float temperature, int top_k, uint64_t seed);

 private:
  Session& s_;
  std::unique_ptr<Transformer> init_model_;  // explore()'s "at init" model, built on first use
};

}  // namespace ap
