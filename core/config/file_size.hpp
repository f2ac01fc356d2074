// core/config/file_size.hpp — the size of the model file a config's session saves, known before
// anything is built, so that validation refuses a model no loader would read back
// (kMaxModelFileBytes, io/safetensors.hpp: `attnplay train --out`, --resume, eval, the page's
// import and its saved work all read through the same limit).
#pragma once
#include <cstddef>

#include "config/config.hpp"

namespace ap {

class Task;

struct ModelFileSize {
  size_t parameters = 0;    // weights; the file holds them and AdamW's two moments, as F32
  size_t header_bytes = 0;  // upper bound of the JSON header (tensor entries and metadata)
  size_t bytes = 0;         // upper bound of the whole file: 8 + header + 12 bytes a parameter
};

// The layout of Transformer's constructor (core/model/transformer.cpp) and Session::save
// (core/session_io.cpp); tests/native/test_file_size.cpp pins it against saved files.
ModelFileSize model_file_size(const Config& cfg, const Task& task);
// Throws std::invalid_argument naming d_model, layers and ffn and the limit when the file would
// exceed kMaxModelFileBytes, or its header kSafetensorsMaxHeaderBytes. Part of validate().
void check_model_file_size(const Config& cfg, const Task& task);

}  // namespace ap
