// core/session/session.hpp — the one facade over the engine, used by the CLI and the wasm bindings
// and nothing else: create from a config, train, evaluate, save and load (safetensors). Results
// cross as JSON objects so that every front end sees the same names. What a front end looks at
// (inspect.hpp: predictions, attention maps, the position view, Explore, generation), the replay
// over training (replay.hpp: frames, head diagnostics) and the head interventions
// (interventions.hpp) are objects of their own that a session owns and hands out (inspect(),
// replay(), interventions()); they read it through this public face. The rest of core/session/:
// io.cpp (model files), tokenize.cpp, torch.cpp (the PyTorch export), json.hpp (the JSON doors
// the front ends share).
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
#include "tasks/task.hpp"

namespace ap {

class Inspector;
class Replay;
class Interventions;

struct StepMetrics {
  int step = 0;  // steps taken after this one
  float loss = 0, token_accuracy = 0, sequence_accuracy = 0, bits_per_token = 0;
  float grad_norm = 0, lr = 0, tokens_per_s = 0;
  bool refused = false;  // NaN/Inf: the update was not applied
  std::string message;   // why, in a sentence (empty when fine)
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
  ~Session();
  Session(const Session&) = delete;  // its inspector, replay and interventions hold a reference to it
  Session& operator=(const Session&) = delete;
  static std::unique_ptr<Session> from_json(const nlohmann::json& config);

  // Change the optimizer settings of a live session (only lr, clip, warmup, schedule,
  // weight_decay and steps), e.g. to continue after a refused step: validated like a new config;
  // weights, optimizer moments and the step count are kept. Throws std::invalid_argument naming
  // the field (other fields need a new session).
  void configure(const nlohmann::json& fields);
  // The fields configure() may change: the one list (the registry JSON gives it to the UI as
  // "live_keys").
  static const std::vector<std::string>& live_keys();
  StepMetrics step();        // one training step
  StepMetrics train(int n);  // n steps; evaluates every eval_every; returns the last
  // The same n steps as train(n), keeping every step's metrics and the evaluations made meanwhile
  // (the wasm worker's unit of work). Throws std::invalid_argument unless 0 <= n <= kMaxChunk.
  TrainChunk train_chunk(int n);
  static constexpr int kMaxChunk = 1000000;
  EvalMetrics evaluate(int length = 0);  // held-out data at `length` (0 = seq_len)
  EvalMetrics held_out(int length);      // the same without keeping the result in evals()
  // At seq_len, and at eval_len too when it differs and the encoding can address it; returns
  // the evaluations made.
  std::vector<EvalMetrics> evaluate_periodic();
  bool can_address(int length) const;  // the position encoding reaches this length
  // Loss and every parameter's gradient for a given batch (ids in the model's vocabulary,
  // anchors included), without updating: {name -> gradient} in parameter order.
  float gradients(const Batch& b, std::vector<std::pair<std::string, std::vector<float>>>& out);
  // SHA-256 of the weights' bytes (little-endian float32, parameter order).
  std::string weights_sha256() const;

  // Text to task token ids: characters for character vocabularies, else whitespace-separated
  // token names. Throws naming the first unknown token.
  std::vector<int32_t> tokenize(const std::string& text) const;
  nlohmann::json info() const;  // config, vocabulary, parameter list, registry entries

  // What a front end looks at (inspect.hpp), the replay over training (replay.hpp: frames, head
  // diagnostics) and the head interventions (interventions.hpp), each owned by this session.
  Inspector& inspect() { return *inspect_; }
  Replay& replay() { return *replay_; }
  const Replay& replay() const { return *replay_; }
  Interventions& interventions() { return *interventions_; }

  // The model as one standalone PyTorch file (core/torch/export.hpp; torch.cpp), with the
  // first held-out batch of evaluate() stored in it. Throws std::invalid_argument naming the
  // position encoding or normalization that has no PyTorch form.
  std::string export_torch();
  std::vector<uint8_t> save() const;  // safetensors bytes (weights, optimizer, metadata)
  // `overrides` replaces config fields of the file (e.g. rope_scaling for an evaluation); the
  // result must still validate and match the file's tensors.
  static std::unique_ptr<Session> load(const uint8_t* bytes, size_t size,
                                       const nlohmann::json& overrides = nlohmann::json::object());

  // Bytes the engine holds for this model: parameters and their gradients, the optimizer's
  // moments (and the last good copy of weights and moments), and the activations and backward
  // scratch at the largest batch seen so far (their capacities). Position-encoding tables,
  // task data and replay frames are not counted. io.cpp.
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
  // One step, then the periodic evaluation when it falls due (appended to *evals when given).
  StepMetrics step_then_evaluate(std::vector<EvalMetrics>* evals);
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
  std::unique_ptr<Inspector> inspect_;
  std::unique_ptr<Replay> replay_;
  std::unique_ptr<Interventions> interventions_;
  friend struct SessionIO;
};

}  // namespace ap
