// core/bindings/bindings.cpp — the Embind surface of the wasm module. The only file that
// includes <emscripten/...>. Every C++ exception is turned into a JS Error carrying its message,
// so that a bad config is an error the page can show, and the module stays alive.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "tensor/kernels.hpp"

namespace {

std::string version() { return AP_VERSION; }
std::string simd_arch() { return ap::simd_arch_name(); }
bool simd_enabled() { return ap::simd_enabled(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attnplay) {
  emscripten::function("version", &version);
  emscripten::function("simdArch", &simd_arch);
  emscripten::function("simdEnabled", &simd_enabled);
}
