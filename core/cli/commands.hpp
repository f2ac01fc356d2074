// core/cli/commands.hpp — the subcommands of `attnplay`; each returns the process exit code.
#pragma once
#include <string>
#include <vector>

namespace ap::cli {

struct TrainArgs {
  std::string config_file, resume, out, metrics;  // resume: a model file to continue
  std::string text_file;                           // the text task's training text (--text-file)
  std::string snapshots;                           // the replay's frames go to this folder (JSON)
  std::vector<std::string> sets;
  bool json = false;
};
int list(const std::string& what, bool json);
int train(const TrainArgs& a);
// The config's (or a model file's) tensors, shapes and descriptions, without training.
int info(const std::string& config_file, const std::string& model, const std::vector<std::string>& sets,
         bool json);
int eval(const std::string& model, const std::vector<std::string>& sets, bool json);
int grads(const std::string& model, const std::string& batch_file, const std::string& out);
int sample(const std::string& model, const std::string& prompt, int tokens, float temperature,
           int top_k, long long seed, bool json);
int sweep(const std::vector<std::string>& sets, const std::string& grid, const std::string& out,
          int jobs, const std::string& self);


}  // namespace ap::cli
