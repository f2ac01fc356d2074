// The one CSV rule, from the vectors both sides read (tests/data/csv-vectors.json; the page's side:
// tests/node/csv-vectors.test.mjs): how a field is written, how records are read back (cells
// restored), and which texts are refused.
#include <catch2/catch.hpp>

#ifdef AP_HAVE_SWEEP
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/csv.hpp"

using namespace ap::cli;

namespace {
nlohmann::json vectors() {
  std::ifstream in(std::string(AP_TEST_DATA_DIR) + "/csv-vectors.json");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}
}  // namespace

TEST_CASE("csv: each field is written as the shared vectors say, and a line ends in line_end", "[csv]") {
  const nlohmann::json v = vectors();
  CsvRow cells;
  std::string line;
  for (const auto& f : v.at("fields")) {
    INFO("field " << f.dump());
    CHECK(csv_field(f.at(0).get<std::string>()) == f.at(1).get<std::string>());
    cells.push_back(f.at(0).get<std::string>());
    line += (line.empty() ? "" : ",") + f.at(1).get<std::string>();
  }
  CHECK(csv_line(cells) == line + v.at("line_end").get<std::string>());
  // and every field reads back as it was
  const CsvTable back = csv_parse(csv_line(cells), "vectors");
  REQUIRE(back.size() == 1);
  CHECK(back[0] == cells);
}

TEST_CASE("csv: records are read as the shared vectors say; the malformed ones are refused", "[csv]") {
  const nlohmann::json v = vectors();
  for (const auto& r : v.at("records")) {
    INFO("text " << r.at("text").dump());
    CHECK(csv_parse(r.at("text").get<std::string>(), "vectors") == r.at("rows").get<CsvTable>());
  }
  for (const auto& e : v.at("errors")) {
    INFO(e.at("why").get<std::string>());
    CHECK_THROWS_AS(csv_parse(e.at("text").get<std::string>(), "vectors"), std::invalid_argument);
  }
}
#endif
