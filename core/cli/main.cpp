// core/cli/main.cpp — `attnplay`: argument parsing (CLI11) and dispatch. Every error is one line
// on stderr and a non-zero exit code, never a crash.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/version.hpp"
#include "tensor/thread_pool.hpp"

int main(int argc, char** argv) {
  CLI::App app{"attnplay — train tiny transformers and see how they learn position"};
  app.require_subcommand(1);
  app.set_version_flag("--version", ap::cli::version_string());

  std::string what;
  bool json = false;
  auto* list = app.add_subcommand("list", "list tasks, position encodings and normalizations");
  list->add_option("what", what, "tasks | positions | normalizations (default: all)")
      ->check(CLI::IsMember({"tasks", "positions", "normalizations"}));
  list->add_flag("--json", json, "print JSON");

  ap::cli::TrainArgs ta;
  auto* train = app.add_subcommand("train", "train a model from a config");
  auto* config = train->add_option("--config", ta.config_file, "JSON config file")->check(CLI::ExistingFile);
  auto* from_row = train
                       ->add_option("--config-from-row", ta.from_row,
                                    "CSV ROW: the config of run ROW (1 = the first "
                                    "row after the header) of a sweep's CSV, to reproduce that run alone")
                       ->expected(2)
                       ->excludes(config);
  train
      ->add_option(
          "--resume", ta.resume,
          "continue a saved model (to its config's total steps); "
          "--set then changes lr, clip, warmup, schedule, weight_decay or steps, or any other field the "
          "file's weights fit (e.g. seq_len=256 rope_scaling=pi rope_factor=4 rope_train_len=64 "
          "steps=1200 schedule_start=1000: a short fine-tune at a longer length, with its own warmup and decay)")
      ->check(CLI::ExistingFile)
      ->excludes(config)
      ->excludes(from_row);
  train->add_option("--set", ta.sets, "override a field: key=value (repeatable)");
  train->add_option("--set-file", ta.set_files,
                    "override a field with a file's text: key=FILE (repeatable; after "
                    "every --set; for values too long for a command line, as a sweep passes them)");
  train
      ->add_option("--text-file", ta.text_file,
                   "train the text task on this file's text (UTF-8, at most 2 MiB, "
                   "at least 10 seq_len + 1 characters; the last 10% is held out)")
      ->excludes("--resume");
  train
      ->add_option("--task-file", ta.task_file,
                   "train the custom task on this file's input -> output pairs "
                   "(one per line, e.g. '3 1 2 -> 1 2 3'; at most 256 KiB)")
      ->excludes("--resume")
      ->excludes("--text-file");
  train->add_option("--out", ta.out, "write the trained model (safetensors)");
  train->add_option("--metrics", ta.metrics, "write per-step metrics (CSV)");
  auto* frames = train->add_option("--frames", ta.frames,
                                   "write the replay's frames (attention, positions, prediction of held-out "
                                   "example 0 at log-spaced steps, at most 64) as JSON files to this folder");
  // The option's name before the replay's frames had one name (issue 30): still read, with a note.
  train->add_option("--snapshots", ta.frames, "the old name of --frames (deprecated; still works)")
      ->excludes(frames)
      ->each([](const std::string&) {
        std::cerr << "attnplay: --snapshots is the old name of --frames; it still works\n";
      });
  train->add_flag("--json", ta.json, "print one JSON object as the last line");
  train->add_option("--eval-at", ta.eval_at, "also evaluate at these multiples of seq_len, e.g. 2,4,8");
  train
      ->add_option("--eval-at-base", ta.eval_at_base,
                   "the length --eval-at multiplies (default: seq_len), e.g. the length a model "
                   "was trained at before a fine-tune at a longer one")
      ->check(CLI::Range(1, 1 << 20));
  train->add_option("--row-cell", ta.row_cells,
                    "key=value: the row's cell of axis key (default: the last --set of key); a sweep "
                    "gives a fine-tune its grid point's cells this way");
  train->add_option("--row-out", ta.row_out,
                    "write the run's row of a sweep CSV (header + one row) to this file, "
                    "even when the run fails");
  train->add_option("--row-axes", ta.row_axes,
                    "the row's axis columns, e.g. position,placement (values: the "
                    "last --set of each)");
  int threads = 1;
  train
      ->add_option("--threads", threads,
                   "threads for the GEMMs and attention heads (bit-identical "
                   "results for any count; default 1)")
      ->check(CLI::Range(1, ap::kMaxThreads));

  std::string model, info_config;
  std::vector<std::string> sets;
  auto* info = app.add_subcommand("info", "tensor names and shapes of a config or a model file, without training");
  auto* info_cfg = info->add_option("--config", info_config, "JSON config file")->check(CLI::ExistingFile);
  info->add_option("--set", sets, "a config field: key=value (repeatable)");
  info->add_option("--model", model, "a model file (safetensors) instead of a config")
      ->check(CLI::ExistingFile)
      ->excludes(info_cfg);
  info->add_flag("--json", json, "print JSON");
  auto* eval = app.add_subcommand("eval", "evaluate a saved model on held-out data");
  eval->add_option("--model", model, "model file (safetensors)")->required()->check(CLI::ExistingFile);
  eval->add_option("--set", sets, "override eval_len, eval_batches: key=value");
  eval->add_flag("--json", json, "print JSON");
  std::vector<std::string> ablate, intervene;
  eval->add_option("--ablate", ablate,
                   "zero head LAYER.HEAD (e.g. 0.1) and report the loss with and without "
                   "(repeatable)")
      ->excludes("--set");
  eval->add_option("--intervene", intervene,
                   "an intervention as JSON, e.g. '{\"layer\":0,\"head\":1,"
                   "\"kind\":\"uniform\"}'; kinds: zero, uniform, previous, position (+position), offset "
                   "(+offset), patch (+donor, position); repeatable")
      ->excludes("--set");

  auto* heads =
      app.add_subcommand("heads",
                         "what each attention head of a model file does: entropy, distance, "
                         "first-token share, row-sum spread, previous-token share, offset, induction, labels");
  heads->add_option("--model", model, "model file (safetensors)")->required()->check(CLI::ExistingFile);
  heads->add_flag("--json", json, "print JSON");

  std::string batch, out;
  auto* grads = app.add_subcommand("grads", "loss and every parameter's gradient for a batch");
  grads->add_option("--model", model, "model file")->required()->check(CLI::ExistingFile);
  grads->add_option("--batch", batch, "batch JSON: {inputs, targets, mask}")->required()->check(CLI::ExistingFile);
  grads->add_option("--out", out, "gradients (safetensors)")->required();

  auto* export_torch = app.add_subcommand("export-torch",
                                          "write a standalone PyTorch file (torch.nn.Module, "
                                          "safetensors loader, a stored held-out batch) for a model file");
  export_torch->add_option("--model", model, "model file")->required()->check(CLI::ExistingFile);
  export_torch->add_option("--out", out, "the Python file to write (model.py)")->required();

  std::string prompt;
  int tokens = 32, top_k = 0;
  float temperature = 1.0f;
  long long seed = 1;
  auto* sample = app.add_subcommand("sample", "continue a prompt with a trained causal model");
  sample->add_option("--model", model, "model file")->required()->check(CLI::ExistingFile);
  sample->add_option("--prompt", prompt, "prompt text (characters, or space-separated tokens)");
  sample->add_option("--tokens", tokens, "tokens to generate")->check(CLI::Range(1, 4096));
  sample->add_option("--temperature", temperature, "0 = greedy")->check(CLI::Range(0.0, 100.0));
  sample->add_option("--top-k", top_k, "sample among the k most likely (0 = all)")->check(CLI::NonNegativeNumber);
  sample->add_option("--seed", seed, "sampling seed");
  sample->add_flag("--json", json, "print JSON");

  ap::cli::SweepArgs sw;
  auto* sweep = app.add_subcommand("sweep",
                                   "train a grid of configs with seeds (child processes, or emitted "
                                   "for GNU parallel or Slurm); one CSV row per run");
  auto* exp = sweep->add_option("--experiment", sw.experiment, "an experiment definition (docs/experiments/<id>.json)")
                  ->check(CLI::ExistingFile);
  sweep->add_flag("--quick", sw.quick, "apply the experiment's \"quick\" overrides");
  sweep->add_option("--set", sw.sets, "fields shared by every run: key=value (after the experiment's)");
  sweep->add_option("--grid", sw.grid, "\"position=a,b normalization=c,d\": the runs are the product")->excludes(exp);
  sweep->add_option("--seeds", sw.seeds, "train every grid point with seeds 1..N")->check(CLI::Range(1, 100));
  sweep->add_option("--eval-at", sw.eval_at, "also evaluate at these multiples of seq_len, e.g. 2,4,8")->excludes(exp);
  sweep
      ->add_option("--text-file", sw.text_file,
                   "the text task's text for every run (train --text-file; "
                   "the rows' config leaves it out)")
      ->check(CLI::ExistingFile);
  sweep
      ->add_option("--task-file", sw.task_file,
                   "the custom task's input -> output pairs for every run (train "
                   "--task-file; the rows' config leaves a set over 1 KiB out)")
      ->check(CLI::ExistingFile)
      ->excludes("--text-file");
  sweep->add_option("--out", sw.out, "results CSV, one row per run");
  sweep->add_option("--summary", sw.summary, "summary CSV: mean, sd, min, max of each metric per grid point");
  sweep->add_option("--jobs", sw.jobs, "parallel processes")->check(CLI::Range(1, 64));
  sweep
      ->add_option("--emit", sw.emit,
                   "write the runs' command lines instead of running them: "
                   "gnu-parallel FILE | slurm DIR")
      ->expected(2);
  sweep->add_option("--rows", sw.rows, "with --emit: the folder the runs write their rows to");
  sweep->add_option("--attnplay", sw.attnplay, "with --emit: the program the lines call (default: this one's path)");

  ap::cli::InspectArgs ia;
  auto* inspect =
      app.add_subcommand("inspect",
                         "one figure of a model file, as the playground's Download gives it: an "
                         "attention map or a position-encoding matrix, as SVG (axes, labels, colour scale) or JSON");
  inspect->add_option("--model", ia.model, "model file (safetensors)")->required()->check(CLI::ExistingFile);
  inspect->add_option("--what", ia.what, "attention | positions")->check(CLI::IsMember({"attention", "positions"}));
  inspect->add_option("--format", ia.format, "svg | json | csv (json, csv: the numbers behind the figure)")
      ->check(CLI::IsMember({"svg", "json", "csv"}));
  inspect->add_option("--layer", ia.layer, "attention: the layer, from 0 (as --ablate)")->check(CLI::NonNegativeNumber);
  inspect->add_option("--head", ia.head, "the head, from 0 (attention; positions with a matrix per head)")
      ->check(CLI::NonNegativeNumber);
  inspect->add_option("--example", ia.example, "attention: the held-out example, 0 to 63 (0: the page's)")
      ->check(CLI::Range(0, 63));
  inspect->add_option("--length", ia.length, "the sequence length (default: the model's seq_len)")
      ->check(CLI::Range(1, 4096));
  inspect->add_option("--values", ia.values, "attention: weights | logits")
      ->check(CLI::IsMember({"weights", "logits"}));
  inspect->add_option("--key", ia.key,
                      "positions: which matrix of the encoding's display (bias, similarity, matrix, "
                      "angles ...; nested keys joined by dots); default: the first");
  inspect->add_option("--out", ia.out, "write the figure to this file (default: standard output)");

  std::vector<std::string> inputs;
  auto* merge = app.add_subcommand("merge", "merge per-run sweep CSVs (one header) into one CSV and its summary");
  merge->add_option("out", out, "the merged CSV")->required();
  merge->add_option("inputs", inputs, "the per-run CSVs, in run order (run-*.csv)")
      ->required()
      ->check(CLI::ExistingFile);
  merge->add_option("--summary", sw.summary, "summary CSV");
  merge->add_option("--experiment", sw.experiment,
                    "the experiment the rows were emitted from (docs/experiments/<id>.json): writes the runs' "
                    "curves (<OUT>.curves.csv) and counts the runs merged");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (*list) return ap::cli::list(what, json);
    if (*train) {
      ap::set_num_threads(threads);
      return ap::cli::train(ta);
    }
    if (*info) return ap::cli::info(info_config, model, sets, json);
    if (*eval && (!ablate.empty() || !intervene.empty()))
      return ap::cli::eval_interventions(model, ablate, intervene, json);
    if (*eval) return ap::cli::eval(model, sets, json);
    if (*heads) return ap::cli::heads(model, json);
    if (*grads) return ap::cli::grads(model, batch, out);
    if (*export_torch) return ap::cli::export_torch(model, out);
    if (*sample) return ap::cli::sample(model, prompt, tokens, temperature, top_k, seed, json);
    if (*sweep) return ap::cli::sweep(sw);
    if (*merge) return ap::cli::merge(out, sw.summary, inputs, sw.experiment);
    if (*inspect) return ap::cli::inspect(ia);
  } catch (...) {  // one line in our words, escaped (cli/errors.hpp)
    std::cerr << "attnplay: " << ap::cli::error_sentence(app.get_subcommands().at(0)->get_name()) << "\n";
    return 2;
  }
  return 0;
}
