// core/cli/frames.hpp — `attnplay train --frames DIR`: the replay's frames as JSON files (the
// old option name --snapshots still works: main.cpp).
#pragma once
#include <string>

namespace ap {
class Session;
}

namespace ap::cli {

// DIR/step-NNNNNN.json for every kept frame and the last step (Replay::frame), and
// DIR/index.json: {"steps", "files", "config", "max_count"}. The folder is created when missing; a file that cannot be
// written throws, naming it.
void write_frames(Session& s, const std::string& dir);

}  // namespace ap::cli
