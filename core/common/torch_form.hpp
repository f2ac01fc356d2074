// core/common/torch_form.hpp — a registry entry's PyTorch form, held in its entry (position/<name>.cpp,
// normalization/<name>.cpp) so that a variant is one file: the Python text of its class
// (`class Position(PositionBase)` or `class Normalization(NormalizationBase)`, overriding the
// hooks of core/torch/core_py.cpp) as a template with named placeholders `${name}`, and the
// values for them. The substitution is not here: `attnplay export-torch` (core/torch/) hands the
// entry its one filler (torch/snippet.hpp `fill`), which writes numbers as exact Python literals
// and refuses a placeholder it was given no value for, or a value no placeholder reads.
// Nothing from the config becomes code but validated values: numbers, and choices among fixed
// strings made by comparison in C++. An entry that has no PyTorch form says why (`cannot`).
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "common/make_context.hpp"

namespace ap {

// One named value of a template: text (which must outlive the call), a number (written so that
// it reads back to the same double), a whole number, a bool (True/False) or a list of numbers.
// Plain values, so that a call makes no temporaries: a snippet stays a literal and a few stores.
struct PyArg {
  enum Kind { Text, Num, Int, Bool, List };
  const char* name;
  Kind kind;
  const char* text = nullptr;
  double num = 0;
  long long integer = 0;
  const std::vector<double>* list = nullptr;
  PyArg(const char* n, const char* t) : name(n), kind(Text), text(t) {}
  PyArg(const char* n, const std::string& t) : name(n), kind(Text), text(t.c_str()) {}
  PyArg(const char* n, double x) : name(n), kind(Num), num(x) {}
  PyArg(const char* n, int i) : name(n), kind(Int), integer(i) {}
  PyArg(const char* n, bool b) : name(n), kind(Bool), integer(b) {}
  PyArg(const char* n, const std::vector<double>& l) : name(n), kind(List), list(&l) {}
};

// The filler: tmpl with every ${name} replaced by the value of that name; throws
// std::logic_error for a placeholder without a value or a value without a placeholder.
using PyFill = std::string (*)(const char* tmpl, std::initializer_list<PyArg> args);

struct TorchForm {
  // The entry's Python class for these sizes and options: its template filled by `fill`.
  // Throws std::invalid_argument naming the option when a setting cannot be expressed.
  std::string (*python)(const MakeContext& ctx, PyFill fill) = nullptr;
  // When python is null: why this entry has no PyTorch form (a sentence for the refusal).
  const char* cannot = nullptr;
};

}  // namespace ap
