// core/session.hpp — the one facade over the engine, used by the CLI and the wasm bindings and
// nothing else: create from a config, train, evaluate, inspect (predictions, attention maps,
// position-encoding data), save and load (safetensors). Results cross as JSON objects so that
// every front end sees the same names.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/variants.hpp"
#include "model/transformer.hpp"
#include "optim/adamw.hpp"
#include "session_snapshots.hpp"
#include "tasks/task.hpp"

namespace ap {

struct StepMetrics {
  int step = 0;               // steps taken after this one
  float loss = 0, token_accuracy = 0, sequence_accuracy = 0, bits_per_token = 0;
  float grad_norm = 0, lr = 0, tokens_per_s = 0;
  bool refused = false;       // NaN/Inf: the update was not applied
  std::string message;        // why, in a sentence (empty when fine)
  nlohmann::json to_json() const;
};

struct EvalMetrics {
  int step = 0, length = 0;
  float loss = 0, token_accuracy = 0, sequence_accuracy = 0, bits_per_token = 0;
  nlohmann::json to_json() const;
};

// What one Session::train_chunk(n) did: the chunk a front end trains between two yields and posts.
struct TrainChunk {
  std::vector<StepMetrics> steps;  // one per step taken; a refused step is the last
  std::vector<EvalMetrics> evals;  // the periodic evaluations (eval_every) made meanwhile
  nlohmann::json to_json() const;  // {"steps": [...], "evals": [...]}
};

class Session {
 public:
  explicit Session(const Config& cfg);  // validates; throws std::invalid_argument
  static std::unique_ptr<Session> from_json(const nlohmann::json& config);

  // Change the optimizer settings of a live session (only lr, clip, warmup, schedule,
  // weight_decay and steps), e.g. to continue after a refused step: validated like a new config;
  // weights, optimizer moments and the step count are kept. Throws std::invalid_argument naming
  // the field (other fields need a new session).
  void configure(const nlohmann::json& fields);
  // The fields configure() may change: the one list (the registry JSON gives it to the UI as
  // "live_keys").
  static const std::vector<std::string>& live_keys();
  StepMetrics step();                   // one training step
  StepMetrics train(int n);             // n steps; evaluates every eval_every; returns the last
  // The same n steps as train(n), keeping every step's metrics and the evaluations made meanwhile
  // (the wasm worker's unit of work). Throws std::invalid_argument unless 0 <= n <= kMaxChunk.
  TrainChunk train_chunk(int n);
  static constexpr int kMaxChunk = 1000000;
  EvalMetrics evaluate(int length = 0); // held-out data at `length` (0 = seq_len)
  // At seq_len, and at eval_len too when it differs and the encoding can address it; returns
  // the evaluations made.
  std::vector<EvalMetrics> evaluate_periodic();
  bool can_address(int length) const;   // the position encoding reaches this length
  // Loss and every parameter's gradient for a given batch (ids in the model's vocabulary,
  // anchors included), without updating: {name -> gradient} in parameter order.
  float gradients(const Batch& b, std::vector<std::pair<std::string, std::vector<float>>>& out);
  // SHA-256 of the weights' bytes (little-endian float32, parameter order).
  std::string weights_sha256() const;

  // A batch of n examples (held-out unless train=true) at `length` (0 = seq_len), with the model's outputs:
  // {"inputs": [[tok...]], "targets", "predictions", "mask", "probs" (of the predicted class)}.
  nlohmann::json predictions(int n, int length = 0, bool train = false);
  // Attention logits and weights of every layer and head for one example (the first of a
  // held-out batch at `length`): {"tokens": [...], "layers": [{"heads": [{"weights": T×T,
  // "logits": T×T, "row_sums": T}]}]}.
  nlohmann::json attention(int length = 0, int example = 0);
  // Forward on given token ids (B=1, no targets): class probabilities per row, hidden states.
  nlohmann::json run(const std::vector<int32_t>& ids);
  nlohmann::json position_display(int length = 0);
  // The Explore view (position/explore.hpp) for a request {"length", "layer", "pair", "position",
  // "scaling", "factor", "seed"} (each optional and bounded; see session_explore.cpp):
  // {"now": the encoding's explore() with this model's q/k probes, "init": the same from a fresh
  // model of this config and seed (its initialisation), "describe"}. Throws std::invalid_argument
  // naming the field.
  nlohmann::json explore(const nlohmann::json& request);

  // Continue a prompt (task token ids, anchors excluded). Next-token tasks (text, elman, ...)
  // sample autoregressively and need a causal model; answer-slot tasks (copy, sort, addition
  // ...) fill max_new answer slots after the prompt in one forward. temperature 0 = greedy;
  // top_k 0 = all classes. Result: {"mode", "ids", "tokens", "probs" (model probability of
  // each chosen token), "text" (joined)}. See session_generate.cpp.
  nlohmann::json generate(const std::vector<int32_t>& prompt, int max_new, float temperature,
                          int top_k, uint64_t seed);
  // Text to task token ids: characters for character vocabularies, else whitespace-separated
  // token names. Throws naming the first unknown token.
  std::vector<int32_t> tokenize(const std::string& text) const;
  nlohmann::json info() const;          // config, vocabulary, parameter list, registry entries

  // Replay over training (session_snapshots.cpp): frames at log-spaced steps, taken after the
  // steps that land on the schedule, at most SnapshotStore::kMaxCount (the latest included) and
  // kMaxBytes. The index: {"steps": [kept..., the latest], "latest", "kept", "bytes",
  // "max_count", "max_bytes", "density", "enabled", "too_large"}. A frame: {"step", "attention":
  // {"tokens", "layers"} (as attention()), "positions" (as position_display()), "prediction"
  // (held-out example 0, as one of predictions()'s examples), "per_sequence"}; the latest step's
  // is made on demand. Throws std::invalid_argument for a step that has no frame.
  nlohmann::json snapshot_index() const;
  nlohmann::json snapshot_at(int step);
  void set_snapshots(bool on);           // off: none are taken, and the kept ones are dropped
  const SnapshotStore& snapshots() const { return snaps_; }

  // Head diagnostics (session_diagnostics.cpp, model/head_stats.hpp): per layer and head, the
  // measures and labels of one replay frame (step as snapshot_at; -1 = the latest):
  // {"step", "thresholds", "layers": [{"heads": [HeadStats::to_json()]}]}; and every measure over
  // the kept frames: {"steps", "measures": [names], "layers": [{"heads": [{measure: [value per
  // step]}]}]}. Throws as snapshot_at for a step without a frame.
  nlohmann::json head_diagnostics(int step);
  nlohmann::json head_diagnostics_history();

  // Interventions (session_interventions.cpp): head edits (model/intervention.hpp) that apply to
  // evaluate_interventions() only, never to training, to evaluate(), the views or the weights.
  // set_interventions takes a JSON array of {"layer", "head", "kind", and per kind "position",
  // "offset" or "donor"} (at most kMaxInterventions; declared fields only) and replaces the list;
  // it throws std::invalid_argument naming the entry and field ("interventions[0].head: ...").
  // Returns the list as kept (fields in order, with a "label"). A new or loaded session has none.
  nlohmann::json set_interventions(const nlohmann::json& list);
  void clear_interventions();
  const nlohmann::json& interventions() const { return edits_json_; }
  // The held-out evaluation at seq_len with and without the interventions, and the predictions of
  // n held-out examples (0..64; 0: none) both ways: {"step", "interventions", "base", "intervened"
  // (EvalMetrics), "predictions": {"base", "intervened"} (as predictions())}. Not kept in evals().
  nlohmann::json evaluate_interventions(int n);
  static constexpr int kMaxInterventions = 64;

  // The model as one standalone PyTorch file (core/torch/export.hpp; session_torch.cpp), with the
  // first held-out batch of evaluate() stored in it. Throws std::invalid_argument naming the
  // position encoding or normalization that has no PyTorch form.
  std::string export_torch();
  std::vector<uint8_t> save() const;    // safetensors bytes (weights, optimizer, metadata)
  // `overrides` replaces config fields of the file (e.g. rope_scaling for an evaluation); the
  // result must still validate and match the file's tensors.
  static std::unique_ptr<Session> load(const uint8_t* bytes, size_t size,
                                       const nlohmann::json& overrides = nlohmann::json::object());

  // Bytes the engine holds for this model: parameters and their gradients, the optimizer's
  // moments (and the last good copy of weights and moments), and the activations and backward
  // scratch at the largest batch seen so far (their capacities). Position-encoding tables,
  // task data and replay snapshots are not counted. session_io.cpp.
  size_t memory_bytes() const;
  const Config& config() const { return cfg_; }
  int steps_done() const { return step_; }
  // Why training last stopped on a refused step ("" after a step that went through). Saved in
  // the model file's metadata ("stopped"), so a file written after a divergence says so.
  const std::string& stopped() const { return stopped_; }
  // Marks the session as stopped for the caller's reason (`attnplay train` interrupted by a
  // signal), saved and cleared as a refused step's mark is.
  void mark_stopped(const std::string& why) { stopped_ = why.substr(0, 1000); }
  const std::vector<EvalMetrics>& evals() const { return evals_; }
  Transformer& model() { return *model_; }
  const Task& task() const { return *task_; }

  // A task batch with the anchors added: inputs (B, T + anchors), targets/mask shifted.
  Batch make_batch(Rng& rng, int B, int T, Split split) const;
  std::string token_name(int id) const;

 private:
  // cfg already validated; task is the one its validation built (checked_task()).
  Session(const Config& cfg, std::unique_ptr<Task> task);
  float metrics_of(const Batch& b, float* token_acc, float* seq_acc) const;
  EvalMetrics held_out(int length);  // evaluate() without keeping the result
  void fill_donors();                // the Patch edits' donor outputs, from a clean forward
  // One step, then the periodic evaluation when it falls due (appended to *evals when given).
  StepMetrics step_then_evaluate(std::vector<EvalMetrics>* evals);
  Snapshot capture();              // the replay frame of the current weights (compact)
  nlohmann::json frame_json(const Snapshot& f) const;  // the frame as snapshot_at() returns it
  // One layer's heads as attention() reports them, from (NH, T, T) weights and logits.
  static nlohmann::json heads_json(const float* weights, const float* logits, int NH, int T, bool causal);
  void maybe_snapshot();           // keep a frame when step_ is on the schedule
  Config cfg_;
  std::unique_ptr<Task> task_;
  std::unique_ptr<Transformer> model_;
  std::unique_ptr<AdamW> opt_;
  Rng data_rng_, dropout_rng_;
  int step_ = 0;
  std::string stopped_;
  // The weights and optimizer state of the last step whose loss was finite, taken before its
  // update: where training goes back to when a loss turns NaN/Inf.
  struct Good {
    std::vector<float> weights, m, v;
    int t = 0, step = 0;
    bool valid = false;
  } good_;
  std::vector<EvalMetrics> evals_;
  std::unique_ptr<Transformer> init_model_;  // explore()'s "at init" model, built on first use
  SnapshotStore snaps_;
  std::vector<HeadEdit> edits_;  // the interventions, and as JSON (set_interventions)
  nlohmann::json edits_json_ = nlohmann::json::array();
  bool snapshots_on_ = true;
  friend struct SessionIO;
};

}  // namespace ap
