// core/torch/snippet.hpp — what `export-torch` does with the registry entries' PyTorch forms
// (common/torch_form.hpp; each entry's template lives in its own file, core/position/<name>.cpp or
// core/normalization/<name>.cpp): the one substitution of named placeholders `${name}`, the
// number formatting it uses, and the refusal of an entry that has no form. export.cpp's own
// templates (the module's head, constants and stored batch) go through the same `fill`.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "common/make_context.hpp"
#include "common/torch_form.hpp"

namespace ap {

// tmpl with every ${name} replaced by the value of args named so: text as it is, numbers by
// py_num, whole numbers in decimal, bools as True/False, lists by py_list. Throws
// std::logic_error naming the placeholder when one has no value, is malformed (a '$' not
// followed by {name}), or when a value is given that no placeholder reads: a template and its
// values are written together, so either is a mistake of the code, never of the config.
std::string fill(const char* tmpl, std::initializer_list<PyArg> args);

// The Python class of the registry entry `name` (position = true: a position encoding, else a
// normalization) whose PyTorch form is `form`, for ctx. Throws std::invalid_argument
// "export-torch: the position encoding 'NAME' cannot be exported to PyTorch (REASON); these
// export: ..." when the entry has none.
std::string torch_entry_python(bool position, const std::string& name, const TorchForm& form, const MakeContext& ctx);

// A finite number as a Python literal that reads back to the same double ("0.5", "1e-06",
// "10000.0"); throws on NaN or infinity (nothing the validated config can hold).
std::string py_num(double x);
// [a, b, c] of py_num.
std::string py_list(const std::vector<double>& xs);
// "True" / "False".
inline const char* py_bool(bool b) { return b ? "True" : "False"; }

}  // namespace ap
