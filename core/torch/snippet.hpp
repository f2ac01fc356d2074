// core/torch/snippet.hpp — the per-family tables of Python snippets that `export-torch` pastes
// into the exported module (export.cpp), and the number formatting they share. A snippet is the
// Python text of one registry entry: `class Position(PositionBase)` or
// `class Normalization(NormalizationBase)` overriding the hooks of core_py.cpp, the same hooks in
// the same order as core/model/attention.cpp. Nothing from the config becomes code but validated
// values: an entry's name comes from its registry row, numbers through py_num, choices among
// fixed strings by comparison in C++. An entry without a row here cannot be exported: the export
// names it and refuses (new entries fail safe until someone writes their snippet).
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

// A finite number as a Python literal that reads back to the same double ("0.5", "1e-06",
// "10000.0"); throws on NaN or infinity (nothing the validated config can hold).
std::string py_num(double x);
// [a, b, c] of py_num.
std::string py_list(const std::vector<double>& xs);
// tmpl with $1..$9 replaced by args[0..8] (the snippets are templates: one literal each, little
// code in the wasm module).
std::string fill(const char* tmpl, std::initializer_list<std::string> args);
// "True" / "False".
inline const char* py_bool(bool b) { return b ? "True" : "False"; }

}  // namespace ap
