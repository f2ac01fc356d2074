// core/torch/core_py.hpp — the fixed parts of an exported model's Python text (core_py.cpp).
#pragma once

namespace ap {
extern const char* const kTorchLoaderPy;  // imports and load_safetensors
extern const char* const kTorchBasesPy;   // PositionBase, NormalizationBase (need TAU)
extern const char* const kTorchModelPy;   // the transformer, its loss and __main__
}  // namespace ap
