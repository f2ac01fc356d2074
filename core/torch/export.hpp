// core/torch/export.hpp — a trained model as one standalone PyTorch file (`attnplay export-torch`,
// the playground's Export → PyTorch): a torch.nn.Module for the config (its position encoding,
// normalization and options), a safetensors loader that needs only torch, and a __main__ that
// evaluates one held-out batch stored in the file as token ids. The text is assembled here from
// the registry entries' own PyTorch forms (common/torch_form.hpp, filled by snippet.cpp), so the
// CLI and the page produce the same file. docs/model-format.md, "Export to PyTorch".
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/params.hpp"
#include "config/config.hpp"

namespace ap {

struct TorchExport {
  const Config* cfg = nullptr;  // validated
  int V = 0, O = 0;             // input vocabulary (anchors included), output classes
  bool per_sequence = false;
  const std::vector<ParamInfo>* params = nullptr;  // the weights, in parameter order
  std::vector<FixedTensor> fixed;                  // the normalization's fixed tensors (Normalization::fixed_tensors)

  // The stored batch (anchors included): inputs (B, T); targets (B, T) or (B); mask (B, T) or empty.
  int B = 0, T = 0;
  std::vector<int32_t> inputs, targets;
  std::vector<uint8_t> mask;
  float loss = 0, accuracy = 0;  // the engine's on that batch
  int step = 0;
  const char* engine = "";  // "attnplay 0.1.0" (a fixed string of the build)
};

// The Python file. Throws std::invalid_argument naming the entry (or option) when the config's
// position encoding or normalization has no PyTorch form (torch_entry_python, snippet.hpp).
std::string torch_export(const TorchExport& in);

// The entries that export, per family (for messages and tests).
std::vector<std::string> torch_exportable(bool positions);

}  // namespace ap
