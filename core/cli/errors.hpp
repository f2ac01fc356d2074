// core/cli/errors.hpp — what the user reads when a command fails: one line, in the engine's own
// words, with every byte from outside escaped (io/json.hpp escape_text).
#pragma once
#include <string>

namespace ap::cli {

// Call inside a catch block: the exception in flight as one sentence for `command`. The engine's
// std::invalid_argument messages pass as they are; a library's exception (nlohmann's
// "[json.exception...]", std::bad_alloc, "basic_string::substr", "stoi", a filesystem error)
// becomes a sentence of ours, never its own text. Escaped: no ESC or BEL reaches the terminal.
std::string error_sentence(const std::string& command);

}  // namespace ap::cli
