// core/session/json.hpp — the JSON doors of a Session that front ends share (the wasm bindings,
// the CLI, the fuzz targets): token ids for run(), the fields of configure(), a batch for
// gradients(); and the memory bound of one forward pass at a length the caller chose. Every
// text goes through parse_json (io/json.hpp), so size and depth are bounded and errors name the
// input ("ids: ...", "configure: ...", "batch: inputs[2][5]: ...") in plain words.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "session/session.hpp"

namespace ap {

// run('[1,2,3]'): an array of whole numbers (range-checked against the vocabulary by run()).
std::vector<int32_t> run_ids_from_json(std::string_view text);
// configure('{"lr":0.001}'): parsed with the limits, then Session::configure.
void configure_from_json(Session& s, std::string_view text);
// {"inputs": [[ids]], "targets": [[ids]] (or [class] per sequence), "mask": [[0|1]] (optional,
// all ones when absent)}: rows of equal length; unknown fields are refused; the batch must fit
// the session's memory_limit_mb. Ids are range-checked by Session::gradients().
Batch batch_from_text(const Session& s, std::string_view text);  // parse_json, then the below
Batch batch_from_json(const Session& s, const nlohmann::json& j);

// The registry the page and the CLI's `list --json` share: config/variants.hpp registry_json()
// plus "live_keys" (Session::live_keys, the fields a live session's configure() may change). In
// the wasm builds its prose is empty (common/doc.hpp); web/src/state/registry.gen.js holds it.
nlohmann::json registry_with_live_keys();

// Throws "<what>: a pass over B sequences of T tokens needs about N MB ..." when one
// forward (and backward) pass at that size exceeds the config's memory limit.
void check_forward_memory(const Config& c, int B, int T, const std::string& what);
// The same for the held-out evaluation at `length`: "evaluation at length L: a pass over ...".
void check_evaluation_memory(const Config& c, int B, int T, int length);

}  // namespace ap
