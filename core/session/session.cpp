// core/session/session.cpp — training and evaluation. (Inspection: inspect.cpp; model files:
// io.cpp; the replay and the interventions a session owns: replay.cpp, interventions.cpp.)
#include "session/session.hpp"

#include <algorithm>
#include <cmath>

#include "io/json.hpp"
#include "io/sha256.hpp"
#include "session/inspect.hpp"
#include "session/interventions.hpp"
#include "session/json.hpp"
#include "session/replay.hpp"
#include "common/options.hpp"
#include "refusal/refusal.hpp"
#include "tensor/kernels.hpp"

namespace ap {

nlohmann::json StepMetrics::to_json() const {
  nlohmann::json j{{"step", step},
                   {"loss", loss},
                   {"token_accuracy", token_accuracy},
                   {"sequence_accuracy", sequence_accuracy},
                   {"bits_per_token", bits_per_token},
                   {"grad_norm", grad_norm},
                   {"lr", lr},
                   {"tokens_per_s", tokens_per_s},
                   {"refused", refused}};
  if (!message.empty()) j["message"] = message;
  return j;
}

nlohmann::json EvalMetrics::to_json() const {
  return {{"step", step},
          {"length", length},
          {"loss", loss},
          {"token_accuracy", token_accuracy},
          {"sequence_accuracy", sequence_accuracy},
          {"bits_per_token", bits_per_token}};
}

nlohmann::json TrainChunk::to_json() const {
  nlohmann::json j{{"steps", nlohmann::json::array()}, {"evals", nlohmann::json::array()}};
  for (auto& m : steps) j["steps"].push_back(m.to_json());
  for (auto& e : evals) j["evals"].push_back(e.to_json());
  return j;
}

Session::Session(const Config& cfg) : Session(cfg, cfg.checked_task()) {}

Session::Session(const Config& cfg, std::unique_ptr<Task> task) : cfg_(cfg), task_(std::move(task)) {
  const int anchor_tokens = cfg_.anchors == "cls_sep" ? 2 : (cfg_.anchors == "none" ? 0 : 1);
  model_ = std::make_unique<Transformer>(
      cfg_, ModelShape{task_->vocab_size() + anchor_tokens, task_->num_classes(), task_->per_sequence()});
  opt_ = std::make_unique<AdamW>(model_->params().size());
  Rng root(uint64_t(cfg_.seed) ^ 0xA77E17105EEDull);
  data_rng_ = root.fork(1);
  dropout_rng_ = root.fork(2);
  inspect_ = std::make_unique<Inspector>(*this);
  replay_ = std::make_unique<Replay>(*this);
  interventions_ = std::make_unique<Interventions>(*this);
}

Session::~Session() = default;

std::unique_ptr<Session> Session::from_json(const nlohmann::json& config) {
  const Config c = Config::parse(config);
  return std::unique_ptr<Session>(new Session(c, c.checked_task()));  // validated once
}

std::string Session::token_name(int id) const {
  const int V = task_->vocab_size();
  if (id < V) return task_->token_name(id);
  if (cfg_.anchors == "bos") return "[BOS]";
  return id == V ? "[CLS]" : "[SEP]";
}

Batch Session::make_batch(Rng& rng, int B, int T, Split split) const {
  Batch raw;
  task_->generate(rng, B, T, split, raw);
  const int k = cfg_.anchor_count();
  if (k == 0) return raw;
  const int V = task_->vocab_size(), Tm = T + k;
  const int lead = 1;  // cls, cls_sep and bos all put one token in front
  Batch out;
  out.B = B, out.T = Tm;
  out.inputs.assign(size_t(B) * Tm, 0);
  for (int b = 0; b < B; ++b) {
    out.inputs[size_t(b) * Tm] = V;  // [CLS] or <bos>
    for (int t = 0; t < T; ++t) out.inputs[size_t(b) * Tm + lead + t] = raw.inputs[size_t(b) * T + t];
    if (cfg_.anchors == "cls_sep") out.inputs[size_t(b) * Tm + Tm - 1] = V + 1;  // [SEP]
  }
  if (task_->per_sequence()) {
    out.targets = raw.targets;
    return out;
  }
  out.targets.assign(size_t(B) * Tm, 0);
  out.mask.assign(size_t(B) * Tm, 0);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      out.targets[size_t(b) * Tm + lead + t] = raw.targets[size_t(b) * T + t];
      out.mask[size_t(b) * Tm + lead + t] = raw.mask[size_t(b) * T + t];
    }
  return out;
}

// Loss-free metrics of the model's last forward on batch b.
float Session::metrics_of(const Batch& b, float* token_acc, float* seq_acc) const {
  const auto& probs = model_->probs();
  const int O = model_->shape().O;
  auto argmax = [&](size_t row) {
    const float* p = &probs[row * O];
    int best = 0;
    for (int c = 1; c < O; ++c)
      if (p[c] > p[best]) best = c;
    return best;
  };
  long correct = 0, counted = 0, seq_ok = 0;
  for (int s = 0; s < b.B; ++s) {
    bool all = true;
    if (task_->per_sequence()) {
      bool ok = argmax(s) == b.targets[s];
      correct += ok, counted += 1, all = ok;
    } else {
      for (int t = 0; t < b.T; ++t) {
        size_t r = size_t(s) * b.T + t;
        if (!b.mask[r]) continue;
        bool ok = argmax(r) == b.targets[r];
        correct += ok, counted += 1, all = all && ok;
      }
    }
    seq_ok += all;
  }
  *token_acc = counted ? float(correct) / counted : 0.0f;
  *seq_acc = float(seq_ok) / b.B;
  return float(counted);
}

const std::vector<std::string>& Session::live_keys() {
  static const std::vector<std::string> keys = {"lr", "clip", "warmup", "schedule", "weight_decay", "steps"};
  return keys;
}

void Session::configure(const nlohmann::json& fields) {
  const auto& live = live_keys();
  if (!fields.is_object()) refuse("session.configure_not_object", "");
  nlohmann::json j = cfg_.to_json();
  for (auto& [k, v] : fields.items()) {
    if (std::find(live.begin(), live.end(), k) == live.end())
      refuse("session.configure_not_live", k, {{"name", show_text(k)}, {"live", join_names(live)}});
    j[k] = v;
  }
  cfg_ = Config::from_json(j);  // validates the whole config; nothing changes when it throws
}

StepMetrics Session::step() {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  StepMetrics m;
  replay_->before_step();  // the first step seen takes a frame (0 for a new run)
  Batch b = make_batch(data_rng_, cfg_.batch, cfg_.seq_len, Split::Train);
  ParamStore& ps = model_->params();
  ps.zero_grad();
  m.loss = model_->forward(b.inputs.data(), b.B, b.T, b.targets.data(), b.mask.empty() ? nullptr : b.mask.data(), true,
                           &dropout_rng_);
  metrics_of(b, &m.token_accuracy, &m.sequence_accuracy);
  m.bits_per_token = m.loss / std::log(2.0f);
  m.lr = learning_rate(cfg_, step_);
  if (std::isfinite(m.loss)) model_->backward();
  const double norm = grad_norm(ps, ps.all_grads());
  m.grad_norm = float(norm);
  if (!std::isfinite(m.loss) || !std::isfinite(norm)) {
    m.refused = true;
    // A non-finite loss means the current weights are already bad: go back to the weights of the
    // last finite loss (saved before the previous update). Non-finite gradients with a finite
    // loss: the current weights are good, only this update is refused.
    const int attempted = step_ + 1;
    const bool rolled_back = !std::isfinite(m.loss) && good_.valid;
    if (rolled_back) {
      ps.all_data() = good_.weights;
      opt_->m = good_.m, opt_->v = good_.v, opt_->t = good_.t;
      step_ = good_.step;
      replay_->truncate(step_);
    }
    m.message = "step " + std::to_string(attempted) + ": the " + (std::isfinite(m.loss) ? "gradients" : "loss") +
                " became " + (std::isnan(std::isfinite(m.loss) ? norm : m.loss) ? "NaN" : "infinite") +
                ", so the update was refused and training paused at the last good weights (step " +
                std::to_string(step_) + "); lower lr (now " + num_text(cfg_.lr) + ") or set clip (now " +
                num_text(cfg_.clip) + "), then continue";
    stopped_ = m.message;
  } else {
    stopped_.clear();
    good_.weights = ps.all_data();  // these weights gave a finite loss
    good_.m = opt_->m, good_.v = opt_->v, good_.t = opt_->t, good_.step = step_, good_.valid = true;
    const float scale = (cfg_.clip > 0 && norm > cfg_.clip) ? float(cfg_.clip / norm) : 1.0f;
    opt_->step(ps, cfg_, m.lr, scale);
    ++step_;
  }
  m.step = step_;
  const double secs = std::chrono::duration<double>(clock::now() - t0).count();
  m.tokens_per_s = float(double(b.B) * b.T / std::max(secs, 1e-9));
  if (!m.refused) replay_->after_step();  // after the timing: a frame is inspection, not training
  return m;
}

StepMetrics Session::step_then_evaluate(std::vector<EvalMetrics>* evals) {
  StepMetrics m = step();
  if (!m.refused && cfg_.eval_every > 0 && step_ % cfg_.eval_every == 0) {
    auto made = evaluate_periodic();
    if (evals) evals->insert(evals->end(), made.begin(), made.end());
  }
  return m;
}

StepMetrics Session::train(int n) {
  StepMetrics last;
  for (int i = 0; i < n && !last.refused; ++i) last = step_then_evaluate(nullptr);
  return last;
}

TrainChunk Session::train_chunk(int n) {
  if (n < 0 || n > kMaxChunk)
    refuse("session.train_n", "n", {{"lo", "0"}, {"hi", std::to_string(kMaxChunk)}, {"value", std::to_string(n)}});
  TrainChunk chunk;
  for (int i = 0; i < n && (chunk.steps.empty() || !chunk.steps.back().refused); ++i)
    chunk.steps.push_back(step_then_evaluate(&chunk.evals));
  return chunk;
}

bool Session::can_address(int length) const {
  const int limit = model_->position().max_length();
  return limit < 0 || length + cfg_.anchor_count() <= limit;
}

std::vector<EvalMetrics> Session::evaluate_periodic() {
  std::vector<EvalMetrics> made{evaluate(cfg_.seq_len)};
  const int L = cfg_.effective_eval_len();
  if (L != cfg_.seq_len && can_address(L)) made.push_back(evaluate(L));
  return made;
}

EvalMetrics Session::evaluate(int length) {
  EvalMetrics e = held_out(length);
  evals_.push_back(e);
  return e;
}

EvalMetrics Session::held_out(int length) {
  const int T = length > 0 ? length : cfg_.seq_len;
  // Any length a caller asks for (the page's evaluate(length), the CLI's eval_len) within the
  // memory limit, checked before the batches are made; the config's own lengths always pass.
  model_->position().check_length(T + cfg_.anchor_count());  // the encoding's own reason first
  check_evaluation_memory(cfg_, cfg_.batch, T + cfg_.anchor_count(), T);
  Rng rng(uint64_t(cfg_.seed) ^ 0x5EED0E7A1ull);  // the same held-out examples every time
  EvalMetrics e;
  e.step = step_, e.length = T;
  double loss = 0, tok = 0, seq = 0;
  for (int i = 0; i < cfg_.eval_batches; ++i) {
    Batch b = make_batch(rng, cfg_.batch, T, Split::Heldout);
    loss += model_->forward(b.inputs.data(), b.B, b.T, b.targets.data(), b.mask.empty() ? nullptr : b.mask.data(),
                            false, nullptr);
    float ta, sa;
    metrics_of(b, &ta, &sa);
    tok += ta, seq += sa;
  }
  const int n = cfg_.eval_batches;
  e.loss = float(loss / n), e.token_accuracy = float(tok / n), e.sequence_accuracy = float(seq / n);
  e.bits_per_token = e.loss / std::log(2.0f);
  return e;
}

float Session::gradients(const Batch& b, std::vector<std::pair<std::string, std::vector<float>>>& out) {
  const int V = model_->shape().V, O = model_->shape().O;
  const bool per_seq = task_->per_sequence();
  if (b.B < 1 || b.T < 1 || b.inputs.size() != size_t(b.B) * b.T) refuse("batch.inputs_shape", "inputs");
  if (b.targets.size() != (per_seq ? size_t(b.B) : size_t(b.B) * b.T))
    refuse(per_seq ? "batch.targets_per_sequence" : "batch.shape_of_inputs", "targets");
  if (!per_seq && b.mask.size() != b.inputs.size()) refuse("batch.shape_of_inputs", "mask");
  for (int id : b.inputs)
    if (id < 0 || id >= V)
      refuse("batch.input_id", "inputs", {{"id", std::to_string(id)}, {"vocab", std::to_string(V)}});
  for (int id : b.targets)
    if (id < 0 || id >= O)
      refuse("batch.target_id", "targets", {{"id", std::to_string(id)}, {"classes", std::to_string(O)}});
  ParamStore& ps = model_->params();
  ps.zero_grad();
  float loss = model_->forward(b.inputs.data(), b.B, b.T, b.targets.data(), b.mask.empty() ? nullptr : b.mask.data(),
                               false, nullptr);
  model_->backward();
  out.clear();
  for (auto& p : ps.infos())
    out.emplace_back(p.name,
                     std::vector<float>(ps.all_grads().begin() + p.offset, ps.all_grads().begin() + p.offset + p.size));
  return loss;
}

std::string Session::weights_sha256() const {
  const auto& w = model_->params().all_data();
  return sha256_hex(reinterpret_cast<const uint8_t*>(w.data()), w.size() * sizeof(float));
}

}  // namespace ap
