// core/cli/commands.hpp — the subcommands of `attnplay`; each returns the process exit code.
#pragma once
#include <string>
#include <vector>

namespace ap::cli {

struct TrainArgs {
  std::string config_file, resume, out, metrics;  // resume: a model file to continue
  std::string text_file;                          // the text task's training text (--text-file)
  std::string task_file;                          // the custom task's pairs (--task-file)
  std::string frames;                             // the replay's frames go to this folder (JSON)
  std::vector<std::string> sets;
  std::vector<std::string> set_files;  // --set-file key=FILE: the file's text, after every --set
  std::vector<std::string> from_row;   // --config-from-row CSV ROW
  std::string eval_at;                 // "2,4": also evaluate at these multiples of seq_len
  int eval_at_base = 0;                // --eval-at multiplies this length (0: seq_len)
  std::string row_out, row_axes;       // the run's one-row sweep CSV, and its axis columns
  std::vector<std::string> row_cells;  // --row-cell key=value: an axis cell, over the --set's
  bool json = false;
};
int list(const std::string& what, bool json);
int train(const TrainArgs& a);
// The config's (or a model file's) tensors, shapes and descriptions, without training.
int info(const std::string& config_file, const std::string& model, const std::vector<std::string>& sets, bool json);
int eval(const std::string& model, const std::vector<std::string>& sets, bool json);
// eval with head interventions: --ablate LAYER.HEAD and --intervene JSON (each repeatable).
int eval_interventions(const std::string& model, const std::vector<std::string>& ablate,
                       const std::vector<std::string>& intervene, bool json);
// What each attention head does, with labels and their evidence (Session::head_diagnostics).
int heads(const std::string& model, bool json);
int grads(const std::string& model, const std::string& batch_file, const std::string& out);
// The model as one standalone PyTorch file (Session::export_torch).
int export_torch(const std::string& model, const std::string& out);
int sample(const std::string& model, const std::string& prompt, int tokens, float temperature, int top_k,
           long long seed, bool json);
struct SweepArgs {
  std::vector<std::string> sets;  // --set key=value: every run (after the experiment's fields)
  std::string grid;               // --grid "k=a,b k2=c"
  int seeds = 0;                  // --seeds N: seeds 1..N per grid point (0: not given)
  std::string eval_at;            // --eval-at 2,4
  std::string text_file;          // --text-file: the text task's text, for every run
  std::string task_file;          // --task-file: the custom task's pairs, for every run
  std::string experiment;         // --experiment FILE (docs/experiments/<id>.json)
  bool quick = false;             // --quick: the experiment's "quick" overrides
  std::string out, summary;       // --out CSV, --summary CSV
  int jobs = 2;
  std::vector<std::string> emit;  // --emit gnu-parallel FILE | --emit slurm DIR
  std::string rows;               // --rows DIR: where the emitted runs write their rows
  std::string attnplay;           // --attnplay CMD: the program the emitted lines call
};
int sweep(const SweepArgs& a);
// One figure of a model file as SVG or JSON (inspect.cpp): an attention map or a position matrix.
struct InspectArgs {
  std::string model, what = "attention", format = "svg", out;
  std::string values = "weights";                    // attention: weights | logits
  std::string key;                                   // positions: the display's key (default: its first matrix)
  int layer = 0, head = 0, example = 0, length = 0;  // 0-based, as --ablate; length 0 = seq_len
};
int inspect(const InspectArgs& a);
// The runs a sweep makes (sweep.cpp): the experiment's or the flags' grid, with the text and task
// files' absolute paths.
struct SweepPlan;
SweepPlan plan_of(const SweepArgs& a);
// merge OUT.csv [--summary S.csv] [--experiment FILE] IN...: the rows of every IN (same header), in
// the order given. With the experiment its runs were emitted from (IN named run-NNNN.csv), the
// runs' curves too (<OUT>.curves.csv) and the count of its runs merged: a partial sweep merges
// what is done.
int merge(const std::string& out, const std::string& summary, const std::vector<std::string>& inputs,
          const std::string& experiment = "");

}  // namespace ap::cli
