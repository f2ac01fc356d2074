// core/tasks/describe.cpp — a task's registry entry as JSON for the CLI and the UI: its options
// with a kind (from the default value's type), default and help, in the same form as the options
// of position encodings and normalizations. Ranges are checked by the task's make().
#include "tasks/task.hpp"

namespace ap {

nlohmann::json describe_task(const TaskEntry& t) {
  nlohmann::json options = nlohmann::json::array();
  for (auto& [key, help] : t.option_help.items()) {
    nlohmann::json def = t.defaults.contains(key) ? t.defaults[key] : nlohmann::json();
    std::string kind = def.is_boolean() ? "bool" : def.is_number_integer() ? "int"
                     : def.is_number() ? "float" : "string";
    options.push_back({{"key", key}, {"kind", kind}, {"default", def}, {"help", help}});
  }
  return {{"name", t.name}, {"description", t.description}, {"example", t.example},
          {"defaults", t.defaults}, {"options", options}};
}

}  // namespace ap
