// core/refusal/refusal.hpp — every refusal of the engine is a code with parameters. A Refusal is
// the one error type the core throws: {code, field, params}, with an English message rendered
// from the code's template in the one table of codes (refusal/codes.cpp). The CLI prints what();
// the bindings hand the structure to the page, whose message tables hold one entry per code per
// language (web/src/common/messages/refusals.*.js; tests/node/refusals.test.mjs holds them to the
// table). A template names its parameters as {name}; {field} is the field the refusal is about.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ap {

using RefusalParams = std::vector<std::pair<std::string, std::string>>;

// One declared code and its English template.
struct RefusalCode {
  const char* code;
  const char* en;
};

// The table, in declaration order.
const std::vector<RefusalCode>& refusal_codes();

class Refusal : public std::invalid_argument {
 public:
  // Renders the code's template; an undeclared code or a template's parameter that is not given
  // is a programming error (std::logic_error, caught by tests/native/test_refusal.cpp's scan).
  Refusal(std::string code, std::string field, RefusalParams params, std::string where = "");
  const std::string& code() const { return code_; }
  const std::string& field() const { return field_; }
  const RefusalParams& params() const { return params_; }
  // A context before the message ("experiment 'x.json'"), empty for none: what() is
  // "<where>: <the template's text>".
  const std::string& where() const { return where_; }

 private:
  std::string code_, field_, where_;
  RefusalParams params_;
};

// Throw the refusal `code` about `field` (may be empty) with its parameters.
[[noreturn]] void refuse(const char* code, std::string field, RefusalParams params = {});

// Throw `inner` again with `where` put before its message (the same code, field and params).
[[noreturn]] void refuse_within(const std::string& where, const Refusal& inner);

// The English text of `code` with its parameters ({field} is `field`).
std::string render_refusal(const std::string& code, const std::string& field, const RefusalParams& params);

}  // namespace ap
