// core/cli/files.hpp — the CLI's file access: whole files in and out, and JSON files read with
// the engine's limits. Every failure is a refusal (refusal/refusal.hpp) that names the file.
//
// Every file the CLI writes (models, metrics, rows, replay frames, figures, PyTorch modules, CSVs)
// goes through AtomicFile: the bytes go to a temporary file beside the target, named
// ".NAME.tmp-PID-RANDOM" (a random part, created exclusively, so that no one can take the name
// first), are flushed to the disk (fsync) and renamed over NAME. A write killed at any moment
// leaves NAME as it was or complete, never half-written; a failed or abandoned write removes its
// temporary file (only a killed process can leave one, recognisable by its name). A NAME that
// exists keeps its owner (where permitted) and mode; a hard link to it keeps the old contents (the
// rename gives NAME a new file). A symbolic link is written through, except another user's link
// in a sticky, world-writable folder (/tmp), refused as the kernel would (fs.protected_symlinks).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "refusal/refusal.hpp"
#include "io/json.hpp"

namespace ap::cli {

// Size and depth bounded by `limits` (io/json.hpp); the message names the file.
nlohmann::json read_json_file(const std::string& path, const char* what, JsonLimits limits = kConfigJson);
// A model file named by `option` ("--model", "--resume"): a regular file of at most
// kMaxModelFileBytes (io/safetensors.hpp), checked with stat() before a byte is read, so that
// /dev/zero or a huge file is refused at once; the message names the option.
std::vector<uint8_t> read_bytes(const std::string& path, const char* option = "--model");
// A text file of at most max_bytes (refused before reading when larger); the message names the file.
std::string read_text_file(const std::string& path, const char* what, size_t max_bytes);
// --set-file's value: the file's text, refused as read_text_file refuses (a folder, a device, a
// pipe, more than max_bytes) and when empty, without the one newline that ends its last line.
std::string read_set_file(const std::string& path, size_t max_bytes);

// One file written whole or not at all (see above). write() buffers; commit() flushes, fsyncs
// and renames. The destructor of an uncommitted file removes its temporary file. A target that
// exists and is not a regular file (/dev/null, /dev/stdout, a pipe) is written directly.
class AtomicFile {
 public:
  // Opens the temporary file; `what` names the file in messages ("metrics file").
  AtomicFile(const std::string& path, std::string what = "file");
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  void write(std::string_view bytes);
  void commit();
  // Removes the temporary file now (an error path); later writes and commit() are refused.
  void abandon();
  const std::string& temp_path() const { return temp_; }
  // A commit whose rename fails keeps the complete temporary file (its name in the message).
  void keep_if_complete() { keep_ = true; }

 private:
  // Removes the temporary file and refuses `code` about this file (its path first in the params).
  [[noreturn]] void fail(const char* code, RefusalParams params = {});
  std::string shown_, path_, temp_, what_;  // shown_: the path as given, for messages
  int fd_ = -1;
  bool direct_ = false;  // a device or pipe: written in place, nothing to rename
  bool keep_ = false;
  std::string buf_;
};

// Whether two paths name the same file, however spelled (symbolic links followed, the folders'
// real paths compared, or the same device and inode when both exist). Never true of a device or
// a pipe (written in place, /dev/null may take every output).
bool same_file(const std::string& a, const std::string& b);

// The whole file through AtomicFile.
void write_file(const std::string& path, std::string_view bytes, const char* what = "file");
void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes, const char* what = "file");

}  // namespace ap::cli
