// core/refusal/codes.cpp — the one table of the engine's refusals: each code once, with
// its English template ({name}: a parameter; {field}: the field it is about). A code is
// "<area>.<what>", lower case with underscores. Adding a refusal: one line here, its throw site
// calls refuse("code", field, {{"name", value}, ...}), and the page's tables
// (web/src/common/messages/refusals.{en,zh}.js) get its entry; tests/node/refusals.test.mjs fails
// until they have it with the same placeholders.
#include "refusal/refusal.hpp"

#include <iterator>

namespace ap {

#ifdef AP_NO_TEMPLATES
// The browser's module (core/bindings/wasm.cmake, ap_web) keeps the codes without their English
// templates: the page's worker says a refusal from its code with the same table
// (web/src/common/messages/refusals.en.js), so the text is not downloaded twice. A row's template
// is dropped here, at compile time; what() is then the code (refusal.cpp).
namespace {
struct Row {
  constexpr Row(const char* c, const char*) : code(c) {}
  const char* code;
};
}  // namespace
#define AP_ROW_TYPE Row
#else
#define AP_ROW_TYPE RefusalCode
#endif

const std::vector<RefusalCode>& refusal_codes() {
  static const AP_ROW_TYPE rows[] = {
#include "refusal/codes/session.inc"
#include "refusal/codes/engine.inc"
#ifndef __EMSCRIPTEN__
// The command line's own refusals: native only (the CLI is not in the wasm module), in English
// only, as the CLI is; the page's tables hold every other code.
#include "refusal/codes/cli.inc"
#endif
#include "refusal/codes/bindings.inc"
  };
#ifdef AP_NO_TEMPLATES
  static const std::vector<RefusalCode> table = [] {
    std::vector<RefusalCode> t;
    for (const Row& r : rows) t.push_back({r.code, ""});
    return t;
  }();
#else
  static const std::vector<RefusalCode> table(std::begin(rows), std::end(rows));
#endif
  return table;
}

}  // namespace ap
