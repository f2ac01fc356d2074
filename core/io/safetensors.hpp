// core/io/safetensors.hpp — reading and writing model files in the safetensors format
// (https://github.com/huggingface/safetensors), the format PyTorch's `safetensors.torch` uses.
//
// Layout: u64 little-endian N | N bytes of UTF-8 JSON header, padded with spaces to a multiple of
// 8 | byte buffer. The header maps each tensor name to {"dtype", "shape", "data_offsets": [begin,
// end]} (offsets relative to the buffer, row-major little-endian data) and may hold a
// "__metadata__" object of string values. We write F32 only; we read F32, F16, BF16 and F64,
// converting to float (F64 rounds to nearest; values beyond float range become +-inf).
//
// The reader treats its input as hostile: every problem (truncation, bad JSON, wrong types,
// overflowing shapes, offsets outside the buffer, overlaps, gaps, duplicate names, ...) throws
// std::invalid_argument with a one-sentence message that names the tensor and the field.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ap {

struct NamedTensor {
  std::string name;
  std::vector<int64_t> shape;  // () for a scalar; a 0 anywhere makes an empty tensor
  std::vector<float> data;     // row-major, product(shape) elements
};

// Largest JSON header the reader accepts (the reference implementation allows 100 MB). A tiny
// transformer's header is a few KiB, plus its config: at most 4 MiB (io/json.hpp, a text corpus),
// which escaping inside a JSON string can at worst double. Parsing costs ~15 ns a byte, so a
// header above the limit is refused at once, and the largest one accepted parses in ~0.1 s.
constexpr size_t kSafetensorsMaxHeaderBytes = size_t(8) << 20;

// Largest model file any loader accepts (the CLI's --model/--resume, the page's import and its
// saved work: all through safetensors_read). Config validation refuses a model whose file would
// be larger (Config::model_file_bytes), so what `train` writes, every loader reads.
constexpr size_t kMaxModelFileBytes = size_t(256) << 20;

// Serialize F32 tensors + string metadata. Tensors are laid out contiguously in the given order;
// the header lists "__metadata__" first (omitted when empty), then the tensors in that order,
// each as {"dtype","shape","data_offsets"}: the same bytes the Rust/PyTorch writer produces for
// the same order. Throws std::invalid_argument on duplicate or reserved names, negative dims,
// data.size() != product(shape), or names/values that are not valid UTF-8.
std::vector<uint8_t> safetensors_write(const std::vector<NamedTensor>& tensors,
                                       const std::map<std::string, std::string>& metadata);

struct SafetensorsFile {
  std::vector<NamedTensor> tensors;  // in buffer order (order of data_offsets)
  std::map<std::string, std::string> metadata;
  // The tensor with this name, or nullptr. Linear search (model files hold few tensors).
  const NamedTensor* find(const std::string& name) const;
};

// Parse and validate a whole file held in memory; messages start with "model file: ".
// max_bytes bounds both the input size and the decoded float data. Duplicate keys anywhere in
// the header are rejected (plain JSON parsers silently keep the last one), and so are unknown
// fields in a tensor entry, gaps or overlaps between tensors, and unused trailing bytes (as the
// reference Rust reader does).
SafetensorsFile safetensors_read(const uint8_t* bytes, size_t size, size_t max_bytes = kMaxModelFileBytes);

// File helpers; messages start with "model file '<path>': ".
void safetensors_save(const std::string& path, const std::vector<NamedTensor>& tensors,
                      const std::map<std::string, std::string>& metadata);
SafetensorsFile safetensors_load(const std::string& path, size_t max_bytes = kMaxModelFileBytes);

}  // namespace ap
