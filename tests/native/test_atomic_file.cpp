// tests/native/test_atomic_file.cpp — AtomicFile (core/cli/files.hpp) on a shared machine:
// another user's symbolic link in a sticky, world-writable folder is refused (the kernel's
// fs.protected_symlinks rule), a taken temporary name is passed over (never removed), the old
// file's owner and mode are kept, a name too long for its temporary file and a pipe nobody reads
// are refused at once, a failed rename keeps the complete temporary file when asked, and
// same_file() sees one file through different spellings. The tests that need another user's
// files (chown) run as root only.
#ifdef AP_HAVE_SWEEP
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "cli/files.hpp"

using namespace ap::cli;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kNobody = 65534;

// A fresh folder, removed with its files when the test ends.
struct TempDir {
  fs::path path;
  explicit TempDir(const char* name) {
    path = fs::temp_directory_path() / (std::string(name) + "-" + std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string error_of(const std::string& path, const std::string& bytes = "new") {
  try {
    write_file(path, bytes, "model file");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("AtomicFile refuses another user's symbolic link in a sticky, world-writable folder", "[files]") {
  if (::geteuid() != 0) {
    WARN("skipped: giving a link to another user needs root");
    return;
  }
  TempDir d("ap-symlink");
  const std::string target = d / "target.txt", shared = d / "shared";
  spit(target, "old");
  fs::create_directory(shared);
  REQUIRE(::chmod(shared.c_str(), 01777) == 0);  // as /tmp
  const std::string link = shared + "/link";
  fs::create_symlink(target, link);
  REQUIRE(::lchown(link.c_str(), kNobody, kNobody) == 0);
  const std::string e = error_of(link);
  CHECK_THAT(e, Contains("cannot write model file '" + link + "'"));
  CHECK_THAT(e, Contains("symbolic link owned by another user (uid 65534)"));
  CHECK_THAT(e, Contains("sticky, world-writable folder '" + shared + "'"));
  CHECK_THAT(e, Contains("fs.protected_symlinks"));
  CHECK(slurp(target) == "old");
  CHECK(fs::is_symlink(link));

  SECTION("the user's own link there, or one in a folder that is not sticky, is written through") {
    REQUIRE(::lchown(link.c_str(), 0, 0) == 0);
    CHECK(error_of(link) == "");
    CHECK(slurp(target) == "new");
    CHECK(fs::is_symlink(link));
    const std::string plain = d / "plain";
    fs::create_directory(plain);
    REQUIRE(::chmod(plain.c_str(), 0777) == 0);
    fs::create_symlink(target, plain + "/link");
    REQUIRE(::lchown((plain + "/link").c_str(), kNobody, kNobody) == 0);
    CHECK(error_of(plain + "/link", "newer") == "");
    CHECK(slurp(target) == "newer");
  }
  SECTION("a link owned by the folder's owner is followed") {
    REQUIRE(::chown(shared.c_str(), kNobody, kNobody) == 0);
    CHECK(error_of(link) == "");
    CHECK(slurp(target) == "new");
  }
}

TEST_CASE("AtomicFile's temporary name is random, and a taken one is passed over, not removed", "[files]") {
  TempDir d("ap-tempname");
  const std::string target = d / "m.csv";
  // What the old name (.NAME.tmp-PID) would have been, taken first by someone else: a folder
  // that cannot be unlinked.
  const std::string squat = d / (".m.csv.tmp-" + std::to_string(::getpid()));
  fs::create_directory(squat);
  spit(squat + "/theirs", "x");
  CHECK(error_of(target) == "");
  CHECK(slurp(target) == "new");
  CHECK(fs::exists(squat + "/theirs"));

  AtomicFile a(target, "metrics file"), b(target, "metrics file");
  const std::string stem = d / (".m.csv.tmp-" + std::to_string(::getpid()) + "-");
  CHECK(a.temp_path().rfind(stem, 0) == 0);
  CHECK(b.temp_path().rfind(stem, 0) == 0);
  CHECK(a.temp_path().size() > stem.size());
  CHECK(a.temp_path() != b.temp_path());
}

TEST_CASE("AtomicFile keeps an existing file's owner and mode", "[files]") {
  TempDir d("ap-owner");
  const std::string target = d / "m.csv";
  spit(target, "old");
  REQUIRE(::chmod(target.c_str(), 0640) == 0);
  const bool root = ::geteuid() == 0;
  if (root) REQUIRE(::chown(target.c_str(), kNobody, kNobody) == 0);
  CHECK(error_of(target) == "");
  struct stat st {};
  REQUIRE(::stat(target.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  if (root) {
    CHECK(st.st_uid == kNobody);
    CHECK(st.st_gid == kNobody);
  }
  CHECK(slurp(target) == "new");
}

TEST_CASE("AtomicFile refuses at once what it could never write", "[files]") {
  TempDir d("ap-refuse");
  SECTION("a name too long for its temporary file") {
    const std::string name(255, 'm');  // a valid name; ".NAME.tmp-..." is not
    const std::string e = error_of(d / name);
    CHECK_THAT(e, Contains("its name is too long for the temporary file written beside it"));
    CHECK_THAT(e, Contains("give a shorter name"));
    CHECK(fs::is_empty(d.path));
  }
  SECTION("a folder, a missing folder") {
    CHECK_THAT(error_of(d.path.string()), Contains("it is a folder"));
    CHECK_THAT(error_of(d / "no/m.csv"), Contains("its folder does not exist"));
  }
  SECTION("a named pipe that no program reads (not waited on)") {
    const std::string fifo = d / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THAT(error_of(fifo), Contains("it is a named pipe (FIFO) that no program reads"));
  }
}

TEST_CASE("AtomicFile keeps the complete temporary file when its rename fails, if asked", "[files]") {
  TempDir d("ap-keep");
  const std::string target = d / "m.safetensors";
  std::string temp, e;
  {
    AtomicFile f(target, "model file");
    f.keep_if_complete();
    temp = f.temp_path();
    f.write("weights");
    fs::create_directory(target);  // the rename over a folder that is not empty fails
    spit(target + "/x", "x");
    try {
      f.commit();
    } catch (const std::invalid_argument& ex) {
      e = ex.what();
    }
  }
  CHECK_THAT(e, Contains("the complete file is kept as '" + temp + "'"));
  CHECK(slurp(temp) == "weights");
}

TEST_CASE("same_file sees one file however it is spelled", "[files]") {
  TempDir d("ap-same");
  fs::create_directory(d.path / "sub");
  const std::string a = d / "sub/m.csv";
  CHECK(same_file(a, d / "sub/./m.csv"));  // not there yet: the folders' real paths
  CHECK(same_file(a, d / "sub/../sub/m.csv"));
  CHECK_FALSE(same_file(a, d / "sub/n.csv"));
  spit(a, "x");
  fs::create_symlink(a, d / "link.csv");
  CHECK(same_file(a, d / "link.csv"));
  fs::create_hard_link(a, d / "hard.csv");
  CHECK(same_file(d / "hard.csv", d / "sub/m.csv"));
  fs::create_symlink(d / "sub", d / "subl");
  CHECK(same_file(d / "subl/new.csv", d / "sub/new.csv"));
}

#endif  // AP_HAVE_SWEEP
