// core/session/torch.cpp — Session::export_torch: the model as one standalone PyTorch file
// (core/torch/export.hpp), with the first held-out batch that evaluate() scores stored in it, so
// that `python3 model.py model.safetensors` reproduces the engine's loss on that batch (with
// eval_batches = 1, the loss `attnplay eval` prints).
#include "session/session.hpp"
#include "torch/export.hpp"

namespace ap {

std::string Session::export_torch() {
  Rng rng(uint64_t(cfg_.seed) ^ 0x5EED0E7A1ull);  // held_out()'s generator: its first batch
  Batch b = make_batch(rng, cfg_.batch, cfg_.seq_len, Split::Heldout);
  TorchExport in;
  in.cfg = &cfg_;
  in.V = model_->shape().V, in.O = model_->shape().O;
  in.per_sequence = task_->per_sequence();
  in.params = &model_->params().infos();
  in.fixed = model_->normalization().fixed_tensors();
  in.loss = model_->forward(b.inputs.data(), b.B, b.T, b.targets.data(), b.mask.empty() ? nullptr : b.mask.data(),
                            false, nullptr);
  float seq_acc = 0;
  metrics_of(b, &in.accuracy, &seq_acc);
  in.B = b.B, in.T = b.T, in.inputs = std::move(b.inputs), in.targets = std::move(b.targets);
  if (!in.per_sequence) in.mask = std::move(b.mask);
  in.step = step_;
  in.engine = "attnplay " AP_VERSION;
  return torch_export(in);
}

}  // namespace ap
