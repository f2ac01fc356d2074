// core/bindings/wasm_eh_threads.cpp — makes `catch (const T&)` work in the threaded wasm build
// (linked only there, bindings/wasm.cmake). Debian's Emscripten 3.1.6 pairs its clang 14 with
// the libunwind of a newer LLVM:
//
//   compiled code (clang 14, WasmEHPrepare): a catch clause writes the landing pad's index and
//     LSDA into `__wasm_lpad_context` as a plain global (R_WASM_MEMORY_ADDR_*), calls
//     _Unwind_CallPersonality, then reads the selector back from the same place;
//   libunwind-mt-except.a (Unwind-wasm.c): declares `__wasm_lpad_context` thread_local, a TLS
//     symbol, and the personality function reads and writes the TLS copy.
//
// With -pthread TLS is real, so the two sides meet at different addresses: the personality
// function sees no LSDA, matches no clause, and every typed catch is skipped (catch (...) needs no
// personality and still works). The exception leaves the module as a bare WebAssembly.Exception.
// Single-threaded builds lower thread_local to a plain global, which is why they work.
//
// This file defines every symbol of Unwind-wasm.o with a plain `__wasm_lpad_context`, the
// layout and behaviour of libunwind's Unwind-wasm.c; wasm-ld then never loads that archive member
// (if it did, its duplicate definitions would fail the link, loudly). The cost of a plain global:
// two threads inside catch clauses at the same moment would share it. Only the calling thread
// throws here: the pool's tasks (tensor/thread_pool.hpp) are kernels that never throw.
#include <stdint.h>

// Only for clang 14: from LLVM 15 on the compiler's own accesses are thread-local too, and
// libunwind's definition is the right one.
#if defined(__EMSCRIPTEN__) && defined(__wasm_exception_handling__) && defined(__EMSCRIPTEN_PTHREADS__) && \
    __clang_major__ < 15

extern "C" {

// The Itanium unwinding ABI, declared here as libunwind's unwind.h has it (clang's own unwind.h,
// the one on the include path, differs in return types; in wasm both are i32).
using _Unwind_Reason_Code = int;
constexpr _Unwind_Reason_Code _URC_FOREIGN_EXCEPTION_CAUGHT = 1;
constexpr int _UA_CLEANUP_PHASE = 2;
struct _Unwind_Context;
struct _Unwind_Exception {
  uint64_t exception_class;
  void (*exception_cleanup)(_Unwind_Reason_Code, _Unwind_Exception*);
};

// The channel between a landing pad and the personality function (layout fixed by the compiler:
// lpad_index at 0, lsda at 4, selector at 8).
struct _Unwind_LandingPadContext {
  uintptr_t lpad_index;  // in: the landing pad's index in the function's LSDA
  uintptr_t lsda;        // in: the function's LSDA
  uintptr_t selector;    // out: the matching catch clause (0: none, a cleanup)
};
_Unwind_LandingPadContext __wasm_lpad_context;

_Unwind_Reason_Code __gxx_personality_wasm0(int version, int actions, uint64_t exception_class,
                                            _Unwind_Exception* exception, _Unwind_Context* context);

// Called by every catch clause's landing pad. The VM unwinds the stack itself, so there is only
// the cleanup phase: the personality function looks the clause up and sets the selector.
_Unwind_Reason_Code _Unwind_CallPersonality(void* exception_ptr) {
  auto* exception = static_cast<_Unwind_Exception*>(exception_ptr);
  __wasm_lpad_context.selector = 0;
  return __gxx_personality_wasm0(1, _UA_CLEANUP_PHASE, exception->exception_class, exception,
                                 reinterpret_cast<_Unwind_Context*>(&__wasm_lpad_context));
}

// Called by __cxa_throw: tag 0 is the C++ exception tag.
_Unwind_Reason_Code _Unwind_RaiseException(_Unwind_Exception* exception) { __builtin_wasm_throw(0, exception); }

// Called by __cxa_end_catch.
void _Unwind_DeleteException(_Unwind_Exception* exception) {
  if (exception->exception_cleanup) exception->exception_cleanup(_URC_FOREIGN_EXCEPTION_CAUGHT, exception);
}

// The personality function's accessors. Register 1 is the selector; the "IP" is the 1-based
// call-site index the personality function decrements, hence + 2.
void _Unwind_SetGR(_Unwind_Context* context, int index, uintptr_t value) {
  if (index == 1) reinterpret_cast<_Unwind_LandingPadContext*>(context)->selector = value;
}
uintptr_t _Unwind_GetIP(_Unwind_Context* context) {
  return reinterpret_cast<_Unwind_LandingPadContext*>(context)->lpad_index + 2;
}
void _Unwind_SetIP(_Unwind_Context*, uintptr_t) {}
uintptr_t _Unwind_GetLanguageSpecificData(_Unwind_Context* context) {
  return reinterpret_cast<_Unwind_LandingPadContext*>(context)->lsda;
}
uintptr_t _Unwind_GetRegionStart(_Unwind_Context*) { return 0; }

}  // extern "C"

#endif
