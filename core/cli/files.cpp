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
  // Checked before opening: a folder "opens" and tells a size of 2^63 - 1, /dev/zero never ends.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw std::invalid_argument(name + " cannot be opened (is the path right?)");
  if (S_ISDIR(st.st_mode)) throw std::invalid_argument(name + " is a folder; give a text file");
  if (!S_ISREG(st.st_mode))
    throw std::invalid_argument(name + " is not a regular file (a device or a pipe); give a text file");
  if (uint64_t(st.st_size) > max_bytes)  // before reading it: refused at once, however large
    throw std::invalid_argument(name + " holds " + std::to_string(st.st_size) + " bytes; the limit is " +
                                std::to_string(max_bytes) + " bytes");
  // Read to its end, not to the size stat() told: a /proc file tells 0 and holds text.
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(name + " cannot be opened (is the path right?)");
  std::string text;
  std::vector<char> chunk(size_t(1) << 16);
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), size_t(in.gcount()));
    if (text.size() > max_bytes)
      throw std::invalid_argument(name + " holds more than " + std::to_string(max_bytes) + " bytes, the limit");
  }
  if (in.bad()) throw std::invalid_argument(name + " cannot be read");
  return text;
}

std::string read_set_file(const std::string& path, size_t max_bytes) {
  std::string text = read_text_file(path, "--set-file", max_bytes);
  if (text.empty()) throw std::invalid_argument("--set-file '" + path + "' is empty");
  if (text.back() == '\n') text.pop_back();  // one only: the sweep's value files add one (plan.cpp)
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

// The folder part of a path, for stat() and open(): "." for a bare name.
std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// The file a symbolic link points to, even one not created yet (so that the link stays a link,
// as when a file is written in place), else the path itself. The links are followed here, not
// by the kernel, so the kernel's rule (fs.protected_symlinks) is applied here: a link in a
// sticky, world-writable folder (/tmp) is followed only when it belongs to this user or to the
// folder's owner. Another user's link there is refused: `why` says so, and "" is returned.
std::string resolved(std::string path, std::string& why) {
  for (int hops = 0; hops < 40; ++hops) {  // the kernel's own limit on a chain of links
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    const std::string dir = folder_of(path);
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) == 0 && (ds.st_mode & S_ISVTX) && (ds.st_mode & S_IWOTH) && st.st_uid != ::geteuid() &&
        st.st_uid != ds.st_uid) {
      why = "'" + path + "' is a symbolic link owned by another user (uid " + std::to_string(st.st_uid) +
            ") in the sticky, world-writable folder '" + dir +
            "', which is not followed (the kernel's fs.protected_symlinks rule); remove the link or give "
            "the path of the file it points to";
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
  std::string why;
  path_ = resolved(path, why);
  if (!why.empty()) fail(why);
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail("it is a folder");
  if (exists && !S_ISREG(st.st_mode)) {  // a device or a pipe: nothing to replace
    direct_ = true;
    // Not blocking: a named pipe that no program reads is refused now, not waited on.
    fd_ = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0 && errno == ENXIO) fail("it is a named pipe (FIFO) that no program reads; start the reader first");
    if (fd_ < 0) fail(std::strerror(errno));
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
    if (e == ENOENT) fail("its folder does not exist");
    if (e == ENAMETOOLONG)
      fail("its name is too long for the temporary file written beside it ('" + temp.substr(dir.size()) + "', " +
           std::to_string(temp.size() - dir.size()) +
           " bytes, above the file system's limit, usually 255); give a shorter name");
    if (e == EEXIST) fail("100 temporary names beside it were all taken ('" + temp + "' the last)");
    if (e == EACCES || e == EPERM || e == EROFS)
      fail(std::string(std::strerror(e)) + ": a temporary file cannot be created in its folder '" + folder_of(path_) +
           "'");
    fail(std::strerror(e));
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
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    if (keep_) {  // whole and on the disk: kept for the user, under its temporary name
      const std::string kept = temp_;
      temp_.clear();
      fail(why + "; the complete file is kept as '" + kept + "'");
    }
    fail(why);
  }
  temp_.clear();
  // The rename itself on the disk: the folder's entry (best effort; some file systems refuse).
  const std::string dir = folder_of(path_);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) (void)::fsync(dfd), ::close(dfd);
}

bool same_file(const std::string& a, const std::string& b) {
  std::string why;
  const std::string ra = resolved(a, why), rb = resolved(b, why);
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
