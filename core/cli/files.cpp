// core/cli/files.cpp — see files.hpp.
#include "cli/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "io/safetensors.hpp"

namespace ap::cli {

nlohmann::json read_json_file(const std::string& path, const char* what, JsonLimits limits) {
  const std::string name = std::string(what) + " '" + path + "'";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::invalid_argument(name + " cannot be opened");
  const std::streamoff size = in.tellg();
  if (size < 0) throw std::invalid_argument(name + " cannot be read");
  if (uint64_t(size) > limits.bytes)  // before reading it: refused at once, however large
    throw std::invalid_argument(name + ": " + std::to_string(size) + " bytes of JSON are above the limit of " +
                                std::to_string(limits.bytes) + " bytes");
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

std::vector<uint8_t> read_bytes(const std::string& path, const char* option) {
  const std::string name = std::string(option) + " '" + path + "'";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw std::invalid_argument(name + " cannot be opened (is the path right?)");
  if (!S_ISREG(st.st_mode))  // /dev/zero, a pipe or a folder would be read until memory runs out
    throw std::invalid_argument(
        name + " is not a regular file (a device, a pipe or a folder); give a model file (.safetensors)");
  if (uint64_t(st.st_size) > kMaxModelFileBytes)
    throw std::invalid_argument(name + " holds " + std::to_string(st.st_size) + " bytes, above the limit of " +
                                std::to_string(kMaxModelFileBytes) + " bytes (256 MiB) for a model file");
  std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(name + " cannot be opened");
  if (!bytes.empty() && !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
    throw std::invalid_argument(name + " cannot be read (it changed while being read?)");
  return bytes;
}

namespace {
constexpr size_t kBuffer = size_t(1) << 20;  // write() gathers this much before a system call

// The file a symbolic link points to, even one not created yet (so that the link stays a link,
// as when a file is written in place), else the path itself.
std::string resolved(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {  // the kernel's own limit on a chain of links
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char target[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0) return path;
    const std::string t(target, size_t(n));
    const size_t slash = path.rfind('/');
    path = t[0] == '/' || slash == std::string::npos ? t : path.substr(0, slash + 1) + t;
  }
  return path;
}

// Every byte, through partial writes and signals (the training's SIGINT handler does not restart).
bool write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k, n -= size_t(k);
  }
  return true;
}
}  // namespace

AtomicFile::AtomicFile(const std::string& path, std::string what)
    : shown_(path), path_(resolved(path)), what_(std::move(what)) {
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail("it is a folder");
  if (exists && !S_ISREG(st.st_mode)) {  // a device or a pipe: nothing to replace
    direct_ = true;
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail(std::strerror(errno));
    return;
  }
  const size_t slash = path_.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
  temp_ = dir + "." + path_.substr(dir.size()) + ".tmp-" + std::to_string(::getpid());
  for (int attempt = 0; attempt < 2 && fd_ < 0; ++attempt) {
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno == EEXIST) ::unlink(temp_.c_str());  // left by a killed process of this PID
  }
  if (fd_ < 0) {
    const int e = errno;
    temp_.clear();  // nothing of ours to remove
    fail(e == ENOENT ? "its folder does not exist" : std::strerror(e));
  }
  if (exists) (void)::fchmod(fd_, st.st_mode & 07777);  // the new file keeps the old one's mode
}

AtomicFile::~AtomicFile() { abandon(); }

void AtomicFile::abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  buf_.clear();
}

void AtomicFile::fail(const std::string& why) {
  abandon();
  throw std::invalid_argument("cannot write " + what_ + " '" + shown_ + "': " + why);
}

void AtomicFile::write(std::string_view bytes) {
  if (fd_ < 0) fail("it was already closed");
  if (buf_.size() + bytes.size() < kBuffer) {
    buf_.append(bytes);
    return;
  }
  if (!write_all(fd_, buf_.data(), buf_.size()) || !write_all(fd_, bytes.data(), bytes.size()))
    fail(std::strerror(errno));  // "No space left on device", ...
  buf_.clear();
}

void AtomicFile::commit() {
  if (fd_ < 0) fail("it was already closed");
  if (!write_all(fd_, buf_.data(), buf_.size())) fail(std::strerror(errno));
  buf_.clear();
  if (direct_) {
    ::close(fd_);
    fd_ = -1;
    return;
  }
  // On the disk before the rename, so that a crash after it cannot leave an empty file.
  if (::fsync(fd_) != 0) fail(std::strerror(errno));
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail(std::strerror(errno));
  }
  fd_ = -1;
  if (::rename(temp_.c_str(), path_.c_str()) != 0) fail(std::strerror(errno));
  temp_.clear();
  // The rename itself on the disk: the folder's entry (best effort; some file systems refuse).
  const size_t slash = path_.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path_.substr(0, slash);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) (void)::fsync(dfd), ::close(dfd);
}

void write_file(const std::string& path, std::string_view bytes, const char* what) {
  AtomicFile f(path, what);
  f.write(bytes);
  f.commit();
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes, const char* what) {
  write_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), what);
}

}  // namespace ap::cli
