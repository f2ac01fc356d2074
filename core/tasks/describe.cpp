// core/tasks/describe.cpp — a task's registry entry as JSON for the CLI and the UI: its options
// in the same form as the options of position encodings and normalizations (OptionSpec), and
// the defaults that choosing the task sets.
#include "tasks/task.hpp"

namespace ap {

nlohmann::json task_defaults(const TaskEntry& t) {
  nlohmann::json out = t.defaults;
  for (auto& o : t.options) out[o.key] = o.default_value;
  return out;
}

nlohmann::json describe_task(const TaskEntry& t) {
  nlohmann::json options = nlohmann::json::array();
  for (auto& o : t.options) options.push_back(o.to_json());
  return {{"name", t.name},
          {"description", t.description.c_str()},
          {"example", t.example.c_str()},
          {"defaults", task_defaults(t)},
          {"options", options}};
}

}  // namespace ap
