// core/cli/files.hpp — the CLI's file access: whole files in and out, and JSON files read with
// the engine's limits. Every failure is a std::invalid_argument that names the file.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/json.hpp"

namespace ap::cli {

// Size and depth bounded by `limits` (io/json.hpp); the message names the file.
nlohmann::json read_json_file(const std::string& path, const char* what, JsonLimits limits = kConfigJson);
std::vector<uint8_t> read_bytes(const std::string& path);
// A text file of at most max_bytes (refused before reading when larger); the message names the file.
std::string read_text_file(const std::string& path, const char* what, size_t max_bytes);
void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace ap::cli
