// core/cli/snapshots.hpp — `attnplay train --snapshots DIR`: the replay's frames as JSON files.
#pragma once
#include <string>

namespace ap {
class Session;
}

namespace ap::cli {

// DIR/step-NNNNNN.json for every kept snapshot and the last step (the frames of
// Session::snapshot_at), and DIR/index.json: {"steps", "files", "config", "max_count"}. The
// folder is created when missing; a file that cannot be written throws, naming it.
void write_snapshots(Session& s, const std::string& dir);

}  // namespace ap::cli
