// core/tensor/simd_info.cpp — reports which instruction set the kernels were compiled for, so
// tests and the benchmark can tell a build that silently lost SIMD.
#include "tensor/kernels.hpp"
#include "tensor/simd.hpp"

namespace ap {

const char* simd_arch_name() {
#if AP_SIMD
  return xsimd::default_arch::name();
#else
  return "scalar";
#endif
}

bool simd_enabled() { return AP_SIMD != 0; }

}  // namespace ap
