// tests/fuzz/fuzz_safetensors.cpp — libFuzzer target for the safetensors reader and, on top of
// it, Session::load (config JSON from the metadata, tensor names, shapes and values), and then
// what a person does with a loaded file: evaluate it once and generate once from it. Any input
// must either load or throw std::invalid_argument, and so must the evaluation and the
// generation of a loaded model (weights that overflow the forward pass included); anything else
// (a crash, an out-of-bounds read or UB caught by the sanitizers, another exception type) is a
// finding. The seeds in
// tests/fuzz/corpus/fuzz_safetensors/ include a whole tiny model file, so that mutations reach
// the session loader.
//
// Built and run by build-scripts/fuzz.sh (tests/fuzz/CMakeLists.txt). The reader alone, by hand
// (clang 14, from the repository root):
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
//     -Icore tests/fuzz/fuzz_safetensors.cpp core/io/safetensors.cpp -o /tmp/fuzz_safetensors
//   mkdir -p /tmp/st-corpus && python3 -c "import json,struct; h=json.dumps({'__metadata__':
//     {'format':'pt'},'a':{'dtype':'F32','shape':[2],'data_offsets':[0,8]},'b':{'dtype':'F16',
//     'shape':[],'data_offsets':[8,10]}}).encode(); open('/tmp/st-corpus/seed','wb').write(
//     struct.pack('<Q',len(h))+h+bytes(10))"
//   /tmp/fuzz_safetensors -max_len=4096 -max_total_time=300 /tmp/st-corpus
// Inputs starting with "SEED" also drive the writer -> reader round trip.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/safetensors.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Low max_bytes so that hostile sizes meet the limit checks too.
  try {
    ap::safetensors_read(data, size, 1u << 16);
  } catch (const std::invalid_argument&) {
  }
  // The session loader: a hostile file must not get past the memory limit the caller sets (the
  // page keeps its own limit the same way), so that the fuzzer never allocates gigabytes.
  std::unique_ptr<ap::Session> s;
  try {
    s = ap::Session::load(data, size, {{"memory_limit_mb", 64}});
  } catch (const std::invalid_argument&) {
  }
  if (s) {  // evaluate and generate once, as `attnplay eval` and `attnplay sample` would
    try {
      s->evaluate();
    } catch (const std::invalid_argument&) {
    }
    try {
      s->inspect().generate({0}, 4, 1.0f, 0, size);
    } catch (const std::invalid_argument&) {  // per-sequence tasks, encoders, NaN outputs
    }
  }
  // Also fuzz the writer -> reader path: bytes become names, shapes and values.
  if (size >= 4 && data[0] == 'S' && data[1] == 'E' && data[2] == 'E' && data[3] == 'D') {
    std::vector<ap::NamedTensor> ts;
    size_t i = 4;
    while (i + 2 <= size && ts.size() < 8) {
      const size_t len = data[i] % 8, dims = data[i + 1] % 3;
      i += 2;
      ap::NamedTensor t;
      t.name.assign(reinterpret_cast<const char*>(data + i), std::min(len, size - i));
      i += t.name.size();
      size_t count = 1;
      for (size_t d = 0; d < dims && i < size; ++d, ++i) {
        t.shape.push_back(data[i] % 5);
        count *= size_t(data[i] % 5);
      }
      for (size_t k = 0; k < count; ++k) t.data.push_back(float(k) * 0.5f);
      ts.push_back(t);
    }
    try {
      const std::vector<uint8_t> bytes = ap::safetensors_write(ts, {{"k", "v"}});
      const ap::SafetensorsFile f = ap::safetensors_read(bytes.data(), bytes.size());
      if (f.tensors.size() != ts.size()) __builtin_trap();  // the round trip lost a tensor
    } catch (const std::invalid_argument&) {                // duplicate names, invalid UTF-8, reserved name
    }
  }
  return 0;
}
