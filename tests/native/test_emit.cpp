// tests/native/test_emit.cpp — nothing lost, nothing smuggled (core/cli, native only): CSV cells
// that a spreadsheet would run as formulas are written safe and read back exactly (numbers stay
// numbers); values too long for a command line, or with a line break, go to train by file; the
// paths of an emitted script are quoted for sbatch and refused with a control character.
#ifdef AP_HAVE_SWEEP
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "cli/csv.hpp"
#include "cli/emit.hpp"
#include "cli/plan.hpp"

using namespace ap::cli;
using Catch::Matchers::Contains;

namespace {

// What a spreadsheet would run: a cell (as the file holds it, unquoted) starting with = + - @ tab
// CR that is not a plain number.
bool runs_as_formula(const std::string& cell) {
  if (cell.empty() || std::string("=+-@\t\r").find(cell[0]) == std::string::npos) return false;
  std::istringstream in(cell);
  double x = 0;
  in >> x;
  return !(in && in.peek() == EOF && cell.find_first_of("xXnNiI") == std::string::npos);
}

// sbatch's reading of one #SBATCH argument (src/sbatch/opt.c _get_argument): quotes group, a
// backslash escapes the next character, an unquoted # starts a comment, whitespace ends it.
std::string sbatch_argument(const std::string& line) {
  std::string arg;
  bool escaped = false;
  char quote = 0;
  for (char c : line) {
    if (escaped)
      escaped = false, arg += c;
    else if (c == '\\')
      escaped = true;
    else if (quote)
      c == quote ? void(quote = 0) : void(arg += c);
    else if (c == '"' || c == '\'')
      quote = c;
    else if (c == '#' || std::isspace(static_cast<unsigned char>(c)))
      break;
    else
      arg += c;
  }
  return arg;
}

std::filesystem::path temp_dir(const char* name) {
  const auto d = std::filesystem::temp_directory_path() / (std::string(name) + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("CSV: formula-like cells are written safe and read back exactly; numbers stay numbers", "[sweep]") {
  for (const char* s : {"=1+1", "+5", "-", "-1+2", "-inf", "@SUM(A1)", "\tx", "\rx", "-0.5x", "'=x", "''-1"}) {
    const std::string field = csv_field(s);
    CHECK(field.rfind("\"'", 0) == 0);  // quoted, one more apostrophe first
    CHECK(csv_restored_text(csv_safe_text(s)) == s);
  }
  for (const char* n : {"-0.5", "-1e-05", "-3", "-.5", "-5.", "-1E+10", "0.25", "12"}) CHECK(csv_field(n) == n);
  CHECK(csv_restored_text("'-0.5") == "-0.5");  // a neutralised number from another writer reads as the number
  CHECK(csv_restored_text("'abc") == "'abc");   // an apostrophe before other text is the text's own
  // The class: every short cell over the characters that matter, in a row of a file and back.
  const std::string alphabet = "'=+-@\t\r0.5eE,\"\nax";
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    CsvRow row;
    for (int c = 0; c < 3; ++c) {
      std::string cell;
      for (int n = int(rng() % 7); n > 0; --n) cell += alphabet[rng() % alphabet.size()];
      row.push_back(cell);
    }
    const CsvTable t = csv_parse(csv_line({"a", "b", "c"}) + csv_line(row), "t");
    REQUIRE(t.size() == 2);
    REQUIRE(t[1] == row);
    for (auto& cell : row) {
      const std::string field = csv_field(cell);
      std::string held;  // what a spreadsheet sees: the field without its quotes
      for (size_t k = field[0] == '"'; k < field.size() - (field[0] == '"'); ++k)
        held += field[k], k += field[k] == '"';
      INFO("cell '" << cell << "' held as '" << held << "'");
      CHECK_FALSE(runs_as_formula(held));
    }
  }
}

TEST_CASE("plan: a value too long for a command line, or with a line break, goes by file", "[sweep]") {
  const std::string big(200 << 10, 'a'), lines = "ab\ncd";
  SweepPlan p = make_plan({{"task", "text"}, {"text", big}, {"tag", lines}}, {}, 2, {},
                          {{"tag", "short"}});  // tag's long value is overridden: it need not go
  CHECK_THROWS_WITH(train_argv(p, 0, "attnplay", "r.csv"), Contains("goes by file, but no file was written"));
  const auto dir = temp_dir("ap-values-");
  write_value_files(p, dir.string());
  for (size_t i = 0; i < p.runs.size(); ++i) {
    const std::vector<std::string> argv = train_argv(p, i, "attnplay", "r.csv");
    std::string files;
    for (size_t k = 0; k < argv.size(); ++k) {
      CHECK(argv[k].size() <= kMaxArgBytes);
      CHECK(argv[k].find_first_of("\r\n") == std::string::npos);
      if (argv[k] == "--set-file") files += argv[k + 1] + ";";
    }
    CHECK(files == "text=" + (dir / "values" / "value-0.txt").string() + ";");
    CHECK(shell_line(argv).find("tag=short") != std::string::npos);
  }
  std::ifstream in(dir / "values" / "value-0.txt", std::ios::binary);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == big + "\n");  // train --set-file takes the \n off
  std::filesystem::remove_all(dir);
}

TEST_CASE("emit: every control character in a path is refused, naming the field", "[sweep]") {
  for (int c = 1; c < 128; ++c) {
    const std::string path = std::string("/tmp/a") + char(c) + "b";
    if (c < 0x20 || c == 0x7f)
      CHECK_THROWS_WITH(check_emitted_path("--rows", path),
                        Contains("--rows: the path") && Contains("control character"));
    else
      CHECK_NOTHROW(check_emitted_path("--rows", path));
  }
  CHECK_THROWS_WITH(slurm_script(2, "/tmp/t.txt", "/tmp/a\nb/logs"), Contains("--emit slurm DIR"));
  CHECK_THROWS_WITH(slurm_script(2, "/tmp/t.txt", "/tmp/a\\b/logs"), Contains("backslash"));
}

TEST_CASE("emit: a folder's space, %, quotes and $(...) reach sbatch as they are", "[sweep]") {
  const std::string plain = slurm_script(4, "/j/tasks.txt", "/j/logs");
  for (const std::string dir : {"/tmp/a b", "/tmp/50%", "/tmp/q\"uo'te", "/tmp/$(touch x)`y`", "/tmp/#h", "/tmp/é ü"}) {
    const std::string script = slurm_script(4, dir + "/tasks.txt", dir + "/logs");
    CHECK(std::count(script.begin(), script.end(), '\n') == std::count(plain.begin(), plain.end(), '\n'));
    const size_t at = script.find("#SBATCH --output=");
    REQUIRE(at != std::string::npos);
    const std::string line = script.substr(at + 8, script.find('\n', at) - at - 8);
    std::string expected = "--output=";
    for (char c : dir + "/logs/") expected += c == '%' ? std::string("%%") : std::string(1, c);
    CHECK(sbatch_argument(line) == expected + "%A_%a.out");
  }
}

#endif  // AP_HAVE_SWEEP
