// core/cli/runs.hpp — one sweep run as a CSV row (docs/sweeps.md lists the columns): the axis
// cells, the seed, the metrics of `attnplay train --json`'s result, the engine, the full config
// and the error. The same function makes the row in `train --row-out`, in the in-process sweep
// (for a run that wrote none) and thus in every emitter's files, so that they merge alike.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/csv.hpp"
#include "config/config.hpp"

namespace ap::cli {

using Assignments = std::vector<std::pair<std::string, std::string>>;  // key=value, in order

// The metric columns between "seed" and "weights_sha256" (eval_at adds two per multiple).
std::vector<std::string> metric_columns(const std::vector<int>& eval_at);
// Axes, "seed", the metrics, "weights_sha256", "engine", "config", "corpus_sha256", "error".
// The column of a grid axis: its key, except "steps", which is "budget".
std::string axis_column(const std::string& axis);
CsvRow row_header(const std::vector<std::string>& axes, const std::vector<int>& eval_at);
// A run's row. An axis cell is the text of the run's last assignment of that key (empty when the
// run does not assign it); the seed is the result config's (else the last "seed" assignment).
// The config cell is row_config's. `result` is train's JSON result (null when the run produced none); `error` is empty
// on success.
CsvRow result_row(const std::vector<std::string>& axes, const std::vector<int>& eval_at, const Assignments& run,
                  const nlohmann::json& result, const std::string& error);
// The config cell: the run's full resolved config (every core field, and every option of its task,
// position encoding and normalization, defaults included), without a text or custom-pairs value
// over 1 KiB (a --text-file corpus: give the file again). Null for a result without a config.
nlohmann::json row_config(const nlohmann::json& config);
// The corpus_sha256 cell: the SHA-256 of the run's training text (the text task's corpus, or a
// custom task's pairs), "" when it has none.
std::string corpus_sha256(const nlohmann::json& config);
// "2,4,8" -> {2, 4, 8}: whole multiples 1..64, at most 16, no repeats (throws naming `what`).
std::vector<int> parse_eval_at(const std::string& text, const std::string& what);
// Before training: refuses a multiple whose evaluation (batch sequences of m seq_len tokens plus
// anchors; multiples of `base`, or of seq_len when 0) exceeds the config's memory_limit_mb, naming `what` (--eval-at)
// and the multiple, as train refuses eval_len. `addressable` (may be empty) skips the lengths the run would not
// evaluate.
void check_eval_at_memory(const Config& c, const std::vector<int>& eval_at, const std::string& what,
                          const std::function<bool(int)>& addressable = {}, int base = 0);
// "a,b" -> {"a", "b"} (empty items skipped).
std::vector<std::string> split_list(const std::string& text);

}  // namespace ap::cli

namespace ap::cli {

// Header and the one row, to `path` (its folder created when missing).
void write_row_file(const std::string& path, const CsvRow& header, const CsvRow& row);
// The config JSON of data row `row` (1 = the first row after the header) of a sweep's CSV.
// Throws naming the file for a missing "config" column, a row out of range, or a row whose run
// failed (no config). corpus_sha (when given) receives the row's corpus_sha256 cell ("" without one).
nlohmann::json config_from_row(const std::string& csv_path, const std::string& row, std::string* corpus_sha = nullptr);

}  // namespace ap::cli
