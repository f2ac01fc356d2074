// core/refusal/codes.cpp — the one table of the engine's refusals: each code once, with
// its English template ({name}: a parameter; {field}: the field it is about). A code is
// "<area>.<what>", lower case with underscores. Adding a refusal: one line here, its throw site
// calls refuse("code", field, {{"name", value}, ...}), and the page's tables
// (web/src/common/messages/refusals.{en,zh}.js) get its entry; tests/node/refusals.test.mjs fails
// until they have it with the same placeholders.
#include "refusal/refusal.hpp"

namespace ap {

const std::vector<RefusalCode>& refusal_codes() {
  static const std::vector<RefusalCode> table = {
#include "refusal/codes/session.inc"
#include "refusal/codes/engine.inc"
#ifndef __EMSCRIPTEN__
// The command line's own refusals: native only (the CLI is not in the wasm module), in English
// only, as the CLI is; the page's tables hold every other code.
#include "refusal/codes/cli.inc"
#endif
#include "refusal/codes/bindings.inc"
  };
  return table;
}

}  // namespace ap
