// core/cli/corpus.cpp — the bundled corpus as the text task's default, and its summary in the
// JSON results (corpus.hpp).
#include "cli/corpus.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "cli/files.hpp"
#include "refusal/refusal.hpp"
#include "io/sha256.hpp"
#include "tasks/task.hpp"
#include "tasks/text.hpp"

#ifndef AP_BUNDLED_CORPUS
#define AP_BUNDLED_CORPUS "web/public/corpus/jargon.txt"
#endif

namespace ap::cli {

std::string bundled_corpus_path() {
  const char* env = std::getenv("ATTNPLAY_CORPUS");
  return env && *env ? env : AP_BUNDLED_CORPUS;
}

bool task_reads_text(const std::string& task) {
  for (const TaskEntry& e : task_registry())
    if (task == e.name)
      return std::any_of(e.options.begin(), e.options.end(), [](const OptionSpec& o) { return o.key == "text"; });
  return false;  // an unknown task is validation's to report
}

std::string default_text(nlohmann::json& j) {
  const auto task = j.find("task");  // a task of the wrong type is validation's to report
  if (task == j.end() || !task->is_string() || !task_reads_text(task->get_ref<const std::string&>())) return "";
  if (j.contains("text") && !(j["text"].is_string() && j["text"].get<std::string>().empty())) return "";
  const std::string path = bundled_corpus_path();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    refuse("cli.corpus_missing", "--text-file", {{"task", task->get<std::string>()}, {"path", path}});
  j["text"] = read_text_file(path, "the bundled corpus", kMaxTextBytes);
  return path;
}

nlohmann::json shown_config(nlohmann::json config, const std::string& name, nlohmann::json& corpus) {
  auto it = config.find("text");
  if (it == config.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) return config;
  const std::string& text = it->get_ref<const std::string&>();
  corpus = {{"name", name.empty() ? "config" : name},
            {"bytes", text.size()},
            {"sha256", sha256_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size())}};
  config.erase(it);
  return config;
}

}  // namespace ap::cli
