// core/cli/corpus.hpp — the text task's corpus in the CLI. `attnplay train --set task=text`
// without a text trains on the page's bundled corpus (the Jargon File, build-scripts/corpus.mjs,
// docs/corpus.md) rather than the engine's 4 KB fallback essay, or is refused with a sentence
// naming --text-file when that file was never built. The JSON results name a corpus by name,
// size and sha256 instead of echoing its text.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace ap::cli {

// The bundled corpus's path: $ATTNPLAY_CORPUS when set, else web/public/corpus/jargon.txt of the
// source tree this CLI was built from (the native build writes it when node is installed).
std::string bundled_corpus_path();

// Whether the task reads a text: it declares the option "text" (text, mlm). False for an unknown
// task (validation reports it).
bool task_reads_text(const std::string& task);

// For a new config of a task that reads a text (text, mlm) `j` without a text: sets j["text"] to the bundled corpus and
// returns its path; refuses (cli.corpus_missing) naming --text-file when it is missing. Any other config: returns ""
// and changes nothing.
std::string default_text(nlohmann::json& j);

// The config as `train --json` shows it: without its text, which goes into `corpus` as
// {"name", "bytes", "sha256"} (name: the file it came from, or "config" for a --set/--config text).
// Returns the shown config; `corpus` stays null when the config has no text.
nlohmann::json shown_config(nlohmann::json config, const std::string& name, nlohmann::json& corpus);

}  // namespace ap::cli
