// core/torch/snippet.cpp — see snippet.hpp: the substitution of ${name} placeholders, the
// number formatting, and an entry's Python class or the refusal naming it.
#include "torch/snippet.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "normalization/normalization.hpp"
#include "position/position.hpp"
#include "torch/export.hpp"

namespace ap {

std::string py_num(double x) {
  if (!std::isfinite(x)) refuse("torch.not_finite", "");
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";  // a float literal
  return s;
}

std::string py_list(const std::vector<double>& xs) {
  std::string s = "[";
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + py_num(xs[i]);
  return s + "]";
}

std::string fill(const char* tmpl, std::initializer_list<PyArg> args) {
  std::vector<bool> used(args.size(), false);
  std::string out;
  for (const char* c = tmpl; *c; ++c) {
    if (*c != '$') {
      out += *c;
      continue;
    }
    const char* end = c[1] == '{' ? std::strchr(c + 2, '}') : nullptr;
    if (!end) refuse("internal.torch_bad_dollar", "", {{"form", "${name}"}});
    const std::string name(c + 2, end);
    size_t k = 0;
    while (k < args.size() && name != args.begin()[k].name) ++k;
    if (k == args.size()) refuse("internal.torch_no_value", "", {{"placeholder", "${" + name + "}"}});
    used[k] = true;
    const PyArg& x = args.begin()[k];
    switch (x.kind) {
      case PyArg::Text:
        out += x.text;
        break;
      case PyArg::Num:
        out += py_num(x.num);
        break;
      case PyArg::Int:
        out += std::to_string(x.integer);
        break;
      case PyArg::Bool:
        out += py_bool(x.integer != 0);
        break;
      case PyArg::List:
        out += py_list(*x.list);
        break;
    }
    c = end;
  }
  for (size_t k = 0; k < args.size(); ++k)
    if (!used[k])
      refuse("internal.torch_unused_value", "",
             {{"name", args.begin()[k].name}, {"placeholder", "${" + std::string(args.begin()[k].name) + "}"}});
  return out;
}

std::string torch_entry_python(bool position, const std::string& name, const TorchForm& form, const MakeContext& ctx) {
  if (form.python) return form.python(ctx, fill);
  std::string names;
  for (const std::string& n : torch_exportable(position)) names += (names.empty() ? "" : ", ") + n;
  if (form.cannot)  // the entry's own reason, in its words
    refuse(position ? "torch.position_not_exportable_because" : "torch.normalization_not_exportable_because", "",
           {{"name", name}, {"reason", form.cannot}, {"names", names}});
  refuse(position ? "torch.position_not_exportable" : "torch.normalization_not_exportable", "",
         {{"name", name}, {"names", names}});
}

std::vector<std::string> torch_exportable(bool positions) {
  std::vector<std::string> out;
  if (positions) {
    for (const PositionEntry& e : position_registry())
      if (e.torch.python) out.push_back(e.name);
  } else {
    for (const NormalizationEntry& e : normalization_registry())
      if (e.torch.python) out.push_back(e.name);
  }
  return out;
}

}  // namespace ap
