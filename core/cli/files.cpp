// core/cli/files.cpp — see files.hpp.
#include "cli/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>

#include "refusal/refusal.hpp"
#include "io/safetensors.hpp"

namespace ap::cli {

nlohmann::json read_json_file(const std::string& path, const char* what, JsonLimits limits) {
  const std::string name = std::string(what) + " '" + path + "'";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) refuse("files.cannot_open", what, {{"path", path}});
  const std::streamoff size = in.tellg();
  if (size < 0) refuse("files.cannot_read", what, {{"path", path}});
  if (uint64_t(size) > limits.bytes)  // before reading it: refused at once, however large
    refuse("files.json_too_large", what,
           {{"path", path}, {"bytes", std::to_string(size)}, {"limit", std::to_string(limits.bytes)}});
  std::string text(static_cast<size_t>(size), '\0');
  in.seekg(0);
  if (size > 0 && !in.read(text.data(), size)) refuse("files.cannot_read", what, {{"path", path}});
  // Bounded depth, and errors that say where and why: "...: not valid JSON at byte 9 (line 2, ...)".
  return parse_json(text, name, limits);
}

std::string read_text_file(const std::string& path, const char* what, size_t max_bytes) {
  // Checked before opening: a folder "opens" and tells a size of 2^63 - 1, /dev/zero never ends.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) refuse("files.not_found", what, {{"path", path}});
  if (S_ISDIR(st.st_mode)) refuse("files.text_is_folder", what, {{"path", path}});
  if (!S_ISREG(st.st_mode)) refuse("files.text_not_regular", what, {{"path", path}});
  if (uint64_t(st.st_size) > max_bytes)  // before reading it: refused at once, however large
    refuse("files.text_too_large", what,
           {{"path", path}, {"bytes", std::to_string(st.st_size)}, {"limit", std::to_string(max_bytes)}});
  // Read to its end, not to the size stat() told: a /proc file tells 0 and holds text.
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("files.not_found", what, {{"path", path}});
  std::string text;
  std::vector<char> chunk(size_t(1) << 16);
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), size_t(in.gcount()));
    if (text.size() > max_bytes)
      refuse("files.text_grew", what, {{"path", path}, {"limit", std::to_string(max_bytes)}});
  }
  if (in.bad()) refuse("files.cannot_read", what, {{"path", path}});
  return text;
}

std::string read_set_file(const std::string& path, size_t max_bytes) {
  std::string text = read_text_file(path, "--set-file", max_bytes);
  if (text.empty()) refuse("files.empty", "--set-file", {{"path", path}});
  if (text.back() == '\n') text.pop_back();  // one only: the sweep's value files add one (plan.cpp)
  return text;
}

std::vector<uint8_t> read_bytes(const std::string& path, const char* option) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) refuse("files.not_found", option, {{"path", path}});
  if (!S_ISREG(st.st_mode))  // /dev/zero, a pipe or a folder would be read until memory runs out
    refuse("files.model_not_regular", option, {{"path", path}});
  if (uint64_t(st.st_size) > kMaxModelFileBytes)
    refuse("files.model_too_large", option,
           {{"path", path}, {"bytes", std::to_string(st.st_size)}, {"limit", std::to_string(kMaxModelFileBytes)}});
  std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("files.cannot_open", option, {{"path", path}});
  if (!bytes.empty() && !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
    refuse("files.changed_while_read", option, {{"path", path}});
  return bytes;
}

namespace {
constexpr size_t kBuffer = size_t(1) << 20;  // write() gathers this much before a system call

// The folder part of a path, for stat() and open(): "." for a bare name.
std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// The file a symbolic link points to, even one not created yet (so that the link stays a link,
// as when a file is written in place), else the path itself. The links are followed here, not
// by the kernel, so the kernel's rule (fs.protected_symlinks) is applied here: a link in a
// sticky, world-writable folder (/tmp) is followed only when it belongs to this user or to the
// folder's owner. Another user's link there is refused: `refused` gets the link, its owner and its
// folder (files.write_foreign_link), and "" is returned.
std::string resolved(std::string path, RefusalParams& refused) {
  for (int hops = 0; hops < 40; ++hops) {  // the kernel's own limit on a chain of links
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    const std::string dir = folder_of(path);
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) == 0 && (ds.st_mode & S_ISVTX) && (ds.st_mode & S_IWOTH) && st.st_uid != ::geteuid() &&
        st.st_uid != ds.st_uid) {
      refused = {{"link", path}, {"uid", std::to_string(st.st_uid)}, {"folder", dir}};
      return "";
    }
    char target[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0) return path;
    const std::string t(target, size_t(n));
    const size_t slash = path.rfind('/');
    path = t[0] == '/' || slash == std::string::npos ? t : path.substr(0, slash + 1) + t;
  }
  return path;
}

// What names a file whatever the spelling: its folder's real path and its name.
std::string spelled_out(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  char real[PATH_MAX];
  if (::realpath(folder_of(path).c_str(), real) == nullptr) return path;
  return std::string(real) + "/" + name;
}

// A random suffix for a temporary file's name (so that no other user can create it first).
std::string random_suffix() {
  static std::random_device rd;
  static std::mt19937_64 gen((uint64_t(rd()) << 32) ^ rd() ^ uint64_t(::getpid()));
  static const char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string s(10, '0');
  for (char& c : s) c = kDigits[gen() % 36];
  return s;
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

AtomicFile::AtomicFile(const std::string& path, std::string what) : shown_(path), what_(std::move(what)) {
  RefusalParams link;
  path_ = resolved(path, link);
  if (!link.empty()) fail("files.write_foreign_link", link);
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail("files.write_folder");
  if (exists && !S_ISREG(st.st_mode)) {  // a device or a pipe: nothing to replace
    direct_ = true;
    // Not blocking: a named pipe that no program reads is refused now, not waited on.
    fd_ = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0 && errno == ENXIO) fail("files.write_fifo_no_reader");
    if (fd_ < 0) fail("files.write_failed", {{"reason", std::strerror(errno)}});
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0) (void)::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    return;
  }
  const size_t slash = path_.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
  const std::string stem = dir + "." + path_.substr(dir.size()) + ".tmp-" + std::to_string(::getpid()) + "-";
  // A new name each time, created only if it does not exist (O_EXCL): a name someone else took
  // (another user in a shared folder) is passed over, never removed.
  int e = EEXIST;
  for (int attempt = 0; attempt < 100 && fd_ < 0 && e == EEXIST; ++attempt) {
    temp_ = stem + random_suffix();
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies
    e = fd_ < 0 ? errno : 0;
  }
  if (fd_ < 0) {
    const std::string temp = temp_;
    temp_.clear();  // nothing of ours to remove
    if (e == ENOENT) fail("files.write_no_folder");
    if (e == ENAMETOOLONG)
      fail("files.write_name_too_long",
           {{"temp", temp.substr(dir.size())}, {"bytes", std::to_string(temp.size() - dir.size())}});
    if (e == EEXIST) fail("files.write_names_taken", {{"temp", temp}});
    if (e == EACCES || e == EPERM || e == EROFS)
      fail("files.write_temp_denied", {{"reason", std::strerror(e)}, {"folder", folder_of(path_)}});
    fail("files.write_failed", {{"reason", std::strerror(e)}});
  }
  if (exists) {
    // The new file keeps the old one's owner (when permitted: a user may only give a file to
    // themselves) and then its mode (chown clears the set-user-ID bits).
    (void)::fchown(fd_, st.st_uid, st.st_gid);
    (void)::fchmod(fd_, st.st_mode & 07777);
  }
}

AtomicFile::~AtomicFile() { abandon(); }

void AtomicFile::abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  buf_.clear();
}

void AtomicFile::fail(const char* code, RefusalParams params) {
  abandon();
  params.insert(params.begin(), {"path", shown_});
  refuse(code, what_, std::move(params));
}

void AtomicFile::write(std::string_view bytes) {
  if (fd_ < 0) fail("internal.cli_write_closed");
  if (buf_.size() + bytes.size() < kBuffer) {
    buf_.append(bytes);
    return;
  }
  if (!write_all(fd_, buf_.data(), buf_.size()) || !write_all(fd_, bytes.data(), bytes.size()))
    fail("files.write_failed", {{"reason", std::strerror(errno)}});  // "No space left on device", ...
  buf_.clear();
}

void AtomicFile::commit() {
  if (fd_ < 0) fail("internal.cli_write_closed");
  if (!write_all(fd_, buf_.data(), buf_.size())) fail("files.write_failed", {{"reason", std::strerror(errno)}});
  buf_.clear();
  if (direct_) {
    ::close(fd_);
    fd_ = -1;
    return;
  }
  // On the disk before the rename, so that a crash after it cannot leave an empty file.
  if (::fsync(fd_) != 0) fail("files.write_failed", {{"reason", std::strerror(errno)}});
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail("files.write_failed", {{"reason", std::strerror(errno)}});
  }
  fd_ = -1;
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    if (keep_) {  // whole and on the disk: kept for the user, under its temporary name
      const std::string kept = temp_;
      temp_.clear();
      fail("files.write_kept", {{"reason", why}, {"kept", kept}});
    }
    fail("files.write_failed", {{"reason", why}});
  }
  temp_.clear();
  // The rename itself on the disk: the folder's entry (best effort; some file systems refuse).
  const std::string dir = folder_of(path_);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) (void)::fsync(dfd), ::close(dfd);
}

bool same_file(const std::string& a, const std::string& b) {
  RefusalParams link;
  const std::string ra = resolved(a, link), rb = resolved(b, link);
  struct stat sa {
  }, sb{};
  if (::stat(ra.empty() ? a.c_str() : ra.c_str(), &sa) == 0 && ::stat(rb.empty() ? b.c_str() : rb.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);  // a device is shared
  return spelled_out(ra.empty() ? a : ra) == spelled_out(rb.empty() ? b : rb);
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
