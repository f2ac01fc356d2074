// core/common/doc.hpp — the registries' prose: titles, formulas, notes, descriptions, examples and
// options' help. Native builds keep it (the CLI's `list`, and web/src/state/registry.gen.js, which
// build-scripts/registry.mjs writes from `attnplay list --json` for the page to import before the
// module loads). The wasm builds define AP_NO_DOCS: every Doc is then empty, its literal is never
// referenced and leaves the module's data segment (the page reads the prose from the generated
// file, never from the module).
#pragma once

namespace ap {

#ifdef AP_NO_DOCS
inline constexpr bool kDocs = false;
#else
inline constexpr bool kDocs = true;
#endif

class Doc {
 public:
  constexpr Doc(const char* text) : text_(kDocs && text ? text : "") {}  // NOLINT: implicit on purpose
  constexpr const char* c_str() const { return text_; }

 private:
  const char* text_;
};

}  // namespace ap
