// core/cli/version.hpp — what `attnplay --version` prints and every sweep row records as its
// engine: "attnplay <package version> (<git describe at configure time, or 'unknown'>)".
#pragma once
#include <string>

namespace ap::cli {

std::string version_string();

}  // namespace ap::cli
