// core/cli/frames.cpp — writes the replay's frames (core/session/frames.cpp) as one JSON
// file per kept step, for notebooks: json.load(open("step-000128.json"))["attention"]["layers"].
#include "cli/frames.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "cli/files.hpp"
#include "refusal/refusal.hpp"
#include "session/session.hpp"
#include "session/replay.hpp"

namespace ap::cli {

namespace {
void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file(path.string(), text + '\n', "--frames file");  // whole or not at all (files.hpp)
}
}  // namespace

void write_frames(Session& s, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) {
    if (ec) refuse("cli.frames_folder_failed", "--frames", {{"folder", dir}, {"reason", ec.message()}});
    refuse("cli.frames_folder", "--frames", {{"folder", dir}});
  }
  const nlohmann::json index = s.replay().index();
  nlohmann::json files = nlohmann::json::array();
  for (int step : index["steps"].get<std::vector<int>>()) {
    char name[32];
    std::snprintf(name, sizeof name, "step-%06d.json", step);
    write_text(std::filesystem::path(dir) / name, s.replay().frame(step).dump());
    files.push_back(name);
  }
  write_text(std::filesystem::path(dir) / "index.json", nlohmann::json{{"steps", index["steps"]},
                                                                       {"files", files},
                                                                       {"max_count", index["max_count"]},
                                                                       {"config", s.config().to_json()}}
                                                            .dump(1));
}

}  // namespace ap::cli
