// core/refusal/refusal.cpp — rendering a refusal's English text from its code's template.
#include "refusal/refusal.hpp"

#include <algorithm>
#include <cctype>

namespace ap {
namespace {

const RefusalCode* find_code(const std::string& code) {
  const auto& all = refusal_codes();
  auto it = std::find_if(all.begin(), all.end(), [&](const RefusalCode& c) { return code == c.code; });
  return it == all.end() ? nullptr : &*it;
}

const std::string* param(const RefusalParams& params, const std::string& name) {
  for (auto& [k, v] : params)
    if (k == name) return &v;
  return nullptr;
}

}  // namespace

std::string render_refusal(const std::string& code, const std::string& field, const RefusalParams& params) {
  const RefusalCode* c = find_code(code);
  if (!c) throw std::logic_error("refusal code '" + code + "' is not declared in core/refusal/codes.cpp");
  if (!*c->en) return code;  // a build without the templates (AP_NO_TEMPLATES): the page says it by code
  // {name} with a name of letters, digits and underscores is a parameter; any other brace is
  // text (the page's t() in web/src/common/messages.js reads templates by the same rule).
  std::string out;
  const std::string en = c->en;
  for (size_t i = 0; i < en.size();) {
    size_t end = en[i] == '{' ? en.find('}', i + 1) : std::string::npos;
    std::string name = end == std::string::npos ? "" : en.substr(i + 1, end - i - 1);
    const bool ident = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
    });
    if (!ident) {
      out += en[i++];
      continue;
    }
    const std::string* v = name == "field" ? &field : param(params, name);
    if (!v) throw std::logic_error("refusal code '" + code + "': parameter {" + name + "} not given");
    out += *v;
    i = end + 1;
  }
  return out;
}

Refusal::Refusal(std::string code, std::string field, RefusalParams params, std::string where)
    : std::invalid_argument((where.empty() ? "" : where + ": ") + render_refusal(code, field, params)),
      code_(std::move(code)),
      field_(std::move(field)),
      where_(std::move(where)),
      params_(std::move(params)) {}

void refuse(const char* code, std::string field, RefusalParams params) {
  throw Refusal(code, std::move(field), std::move(params));
}

void refuse_within(const std::string& where, const Refusal& inner) {
  throw Refusal(inner.code(), inner.field(), inner.params(),
                inner.where().empty() ? where : where + ": " + inner.where());
}

}  // namespace ap
