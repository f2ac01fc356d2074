// core/cli/files.cpp — see files.hpp.
#include "cli/files.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace ap::cli {

nlohmann::json read_json_file(const std::string& path, const char* what, JsonLimits limits) {
  const std::string name = std::string(what) + " '" + path + "'";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::invalid_argument(name + " cannot be opened");
  const std::streamoff size = in.tellg();
  if (size < 0) throw std::invalid_argument(name + " cannot be read");
  if (uint64_t(size) > limits.bytes)  // before reading it: refused at once, however large
    throw std::invalid_argument(name + ": " + std::to_string(size) +
                                " bytes of JSON are above the limit of " + std::to_string(limits.bytes) + " bytes");
  std::string text(static_cast<size_t>(size), '\0');
  in.seekg(0);
  if (size > 0 && !in.read(text.data(), size)) throw std::invalid_argument(name + " cannot be read");
  // Bounded depth, and errors that say where and why: "...: not valid JSON at byte 9 (line 2, ...)".
  return parse_json(text, name, limits);
}

std::string read_text_file(const std::string& path, const char* what, size_t max_bytes) {
  const std::string name = std::string(what) + " '" + path + "'";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::invalid_argument(name + " cannot be opened (is the path right?)");
  const std::streamoff size = in.tellg();
  if (size < 0) throw std::invalid_argument(name + " cannot be read (a directory?)");
  if (uint64_t(size) > max_bytes)
    throw std::invalid_argument(name + " holds " + std::to_string(size) + " bytes; the limit is " +
                                std::to_string(max_bytes) + " bytes");
  std::string text(static_cast<size_t>(size), '\0');
  in.seekg(0);
  if (size > 0 && !in.read(text.data(), size)) throw std::invalid_argument(name + " cannot be read");
  return text;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("model file '" + path + "' cannot be opened");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) throw std::invalid_argument("cannot write '" + path + "'");
}

}  // namespace ap::cli
