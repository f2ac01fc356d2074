// core/io/json.hpp — the one door through which the engine reads JSON text, and the one way it
// echoes a value back in a message.
//
// parse_json() bounds what a hostile text can cost before nlohmann/json builds anything: the
// size is checked first, then one linear scan checks the nesting depth (and says at which
// byte it passes the limit), and only then is the text parsed. nlohmann's parser is iterative,
// but dump(), operator==, copies and some conversions recurse over the tree: a 100000-deep
// value overflowed the native stack (SIGSEGV) and, in wasm, threw a RangeError that leaked the
// heap. With the depth bounded at parse time every later recursion is bounded too. Errors are
// std::invalid_argument("<what>: ...") in plain words: the byte, the reason, the limit; never
// nlohmann's "[json.exception...]" prefix.
//
// show_value() prints a value for a message in at most ~60 characters and never recurses more
// deeply than it prints, so it is safe on any value, parsed or built in code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "refusal/refusal.hpp"

namespace ap {

struct JsonLimits {
  size_t depth = 64;                // arrays/objects nested deeper than this are refused
  size_t bytes = size_t(4) << 20;   // longer texts are refused before parsing
  size_t values = size_t(1) << 20;  // texts with more values (about: commas + brackets) too
};

// Limits of the engine's JSON inputs. A config has a few dozen values, but may carry a text
// corpus (option text; tiny-shakespeare is 1.1 MB), hence megabytes of bytes and few values;
// configure and run ids are small; a grads batch file holds B*T ids three times. Parsing a
// value costs far more than scanning a byte: a 7.9 MB config of 4 million numbers took 1.4 s
// to parse and refuse natively; the values limit refuses it after the scan.
constexpr size_t kJsonMaxDepth = 64;
constexpr JsonLimits kConfigJson{kJsonMaxDepth, size_t(4) << 20, 10000};
constexpr JsonLimits kSmallJson{kJsonMaxDepth, size_t(1) << 20, size_t(1) << 20};
constexpr JsonLimits kBatchJson{kJsonMaxDepth, size_t(64) << 20, size_t(64) << 20};

// Parse `text` as one JSON document; `what` names the input in messages ("config", "ids", ...).
// Throws a Refusal (json.*) with `what` as its context, e.g. "<what>: N bytes of JSON are above the limit of M bytes",
// "<what>: JSON nests arrays and objects deeper than the limit of 64 levels (at byte N)",
// "<what>: more than 10000 JSON values (at byte N), the limit", "<what>: not valid JSON at
// byte N (line L, column C): <reason>". The scan for depth and values is exact for valid JSON;
// on invalid text the parser's own error may come instead.
nlohmann::json parse_json(std::string_view text, const std::string& what, JsonLimits limits = {});

// A value for a message: strings in single quotes with control characters escaped, NaN/inf
// by name, anything else as compact JSON; cut to about max_chars (at a UTF-8 boundary) with
// "..." when longer.
std::string show_value(const nlohmann::json& v, size_t max_chars = 60);
// The same as compact JSON (strings in double quotes), cut likewise.
std::string show_json(const nlohmann::json& v, size_t max_chars = 60);
// Text from the user (a key, a token, a word) the same way: quoted, escaped, cut.
std::string show_text(std::string_view s, size_t max_chars = 60);
// A number in a message as `std::ostream << x` prints it (printf "%g": 6 significant digits).
// Messages are built with it and std::to_string, not with string streams: those pull the
// whole of libc++'s locale machinery into the wasm module (about 20 KB gzipped).
std::string num_text(double x);

// The one escaping function for bytes from outside (a file, a model's metadata, a CSV cell) on
// their way to a terminal: s with C0 controls, DEL, the C1 controls (U+0080..U+009F) and invalid
// UTF-8 bytes escaped (\x1B, \n, \u009B, \xFF), so no ESC or BEL reaches stderr or stdout
// raw; not quoted, not cut. keep_lines keeps newlines and tabs as they are (sampled text).
std::string escape_text(std::string_view s, bool keep_lines = false);

// "" when s is well-formed UTF-8; else where it breaks and how to mend it: "line 3: byte 5 of
// the line (byte 20 of the text) is 0xFF, which is not UTF-8; save the text as UTF-8". The
// readers of a task's text (text, custom_pairs) check it, so that CLI files, --set and the page
// are refused before training, not when the model's JSON metadata is written.
std::string utf8_problem(std::string_view s);
// The same as refusal parameters: line, column (the byte in the line), byte (in the text), all
// from 1, and hex (the byte's two hex digits); empty when s is well-formed UTF-8.
RefusalParams utf8_fault(std::string_view s);

// s with every byte that is not part of well-formed UTF-8 replaced by U+FFFD, so that a JSON
// writer takes it (a character model samples bytes, and may stop inside a character).
std::string utf8_repaired(std::string_view s);

// Length of the well-formed UTF-8 sequence at s[i] (1..4), or 0 when the bytes there are not one
// (stray continuation byte, overlong form, UTF-16 surrogate, beyond U+10FFFF, truncated).
size_t utf8_at(std::string_view s, size_t i);

// A JSON array of whole numbers that fit in int32, as ids; anything else throws a Refusal
// "<what>: expected ..." naming the first offending element. max_count bounds the length.
std::vector<int32_t> int_array(const nlohmann::json& v, const std::string& what, size_t max_count);

}  // namespace ap
