// core/cli/version.cpp — see version.hpp. AP_VERSION and AP_GIT_DESCRIBE come from cli.cmake
// (the project version, and `git describe --always --dirty` when CMake configured the build).
#include "cli/version.hpp"

#ifndef AP_VERSION
#define AP_VERSION "0.0.0"
#endif
#ifndef AP_GIT_DESCRIBE
#define AP_GIT_DESCRIBE "unknown"
#endif

namespace ap::cli {

std::string version_string() { return std::string("attnplay ") + AP_VERSION + " (" + AP_GIT_DESCRIBE + ")"; }

}  // namespace ap::cli
