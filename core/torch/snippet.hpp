// core/torch/snippet.hpp — the per-family tables of Python snippets that `export-torch` pastes
// into the exported module (export.cpp), and the number formatting they share. A snippet is the
// Python text of one registry entry: `class Position(PositionBase)` or
// `class Normalization(NormalizationBase)` overriding the hooks of core_py.cpp, the same hooks in
// the same order as core/model/attention.cpp. Nothing from the config becomes code but validated
// values: an entry's name comes from its registry row, numbers through py_num, choices among
// fixed strings by comparison in C++. Every registry entry has a row (a registry-wide test checks
// it); an entry without one cannot be exported: torch_snippet names it and refuses, so a new entry
// fails safe until someone writes its snippet.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "common/make_context.hpp"

namespace ap {

struct TorchSnippet {
  const char* name;  // the registry entry's name
  // The Python class for this entry's options and the model's sizes; throws
  // std::invalid_argument naming the option when a setting cannot be expressed.
  std::string (*python)(const MakeContext& ctx);
};

const std::vector<TorchSnippet>& torch_position_snippets();       // positions.cpp
const std::vector<TorchSnippet>& torch_normalization_snippets();  // normalizations.cpp
// The row of a position encoding (position = true) or normalization by registry name; throws
// std::invalid_argument "export-torch: the position encoding 'NAME' cannot be exported to
// PyTorch (...); these export: ..." when the table has none.
const TorchSnippet& torch_snippet(bool position, const std::string& name);

// A finite number as a Python literal that reads back to the same double ("0.5", "1e-06",
// "10000.0"); throws on NaN or infinity (nothing the validated config can hold).
std::string py_num(double x);
// [a, b, c] of py_num.
std::string py_list(const std::vector<double>& xs);
// One argument of fill(): text (which must outlive the call), a number (py_num), an integer, a
// bool (True/False) or a list of numbers (py_list). Plain values, so that a call makes no
// temporaries: the snippets stay a literal and a few stores each in the wasm module.
struct PyArg {
  enum Kind { Text, Num, Int, Bool, List } kind;
  const char* text = nullptr;
  double num = 0;
  long long integer = 0;
  const std::vector<double>* list = nullptr;
  PyArg(const char* t) : kind(Text), text(t) {}
  PyArg(const std::string& t) : kind(Text), text(t.c_str()) {}
  PyArg(double x) : kind(Num), num(x) {}
  PyArg(int i) : kind(Int), integer(i) {}
  PyArg(bool b) : kind(Bool), integer(b) {}
  PyArg(const std::vector<double>& l) : kind(List), list(&l) {}
};
// tmpl with $a, $b, ... replaced by args[0], args[1], ... (the snippets are templates).
std::string fill(const char* tmpl, std::initializer_list<PyArg> args);
// "True" / "False".
inline const char* py_bool(bool b) { return b ? "True" : "False"; }

// The rows of the tables that live in other files than the table (one file per kind of entry).
namespace torch_py {
std::string alibi(const MakeContext&);  // positions_relative.cpp
std::string t5_bias(const MakeContext&);
std::string kerple(const MakeContext&);
std::string dynamic_bias(const MakeContext&);
std::string fire(const MakeContext&);
std::string shaw(const MakeContext&);
std::string urpe(const MakeContext&);
std::string contextual1(const MakeContext&);  // positions_contextual.cpp
std::string contextual2(const MakeContext&);
std::string cope(const MakeContext&);
std::string forget(const MakeContext&);
std::string cosine(const MakeContext&);  // normalizations_qk.cpp
std::string linear(const MakeContext&);
std::string performer(const MakeContext&);
}  // namespace torch_py
extern const char* const kPyT5Bucket;  // def _t5_bucket(...) (positions_relative.cpp)

}  // namespace ap
