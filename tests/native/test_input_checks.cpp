// tests/native/test_input_checks.cpp — bad input is refused before the work, in the core that the
// CLI and the page share: a task text that is not UTF-8 (every kind of broken sequence) is refused
// when the config is read, naming the line and the byte; the one escaping function lets no
// control byte through for any input; sampled bytes are mended into UTF-8; and an evaluation at a
// length beyond memory_limit_mb is refused before anything is allocated. tests/native/
// input_test.sh checks the same through the `attnplay` command line.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "io/json.hpp"
#include "session/session.hpp"

using namespace ap;
using json = nlohmann::json;
using Catch::Matchers::Contains;

namespace {

// Every kind of broken UTF-8, with the byte the message must name.
struct Broken {
  const char* bytes;
  const char* first;
};
const Broken kBroken[] = {
    {"\x80", "0x80"},              // a continuation byte without a lead
    {"\xC3(", "0xC3"},             // a lead byte without its continuation
    {"\xC0\xAF", "0xC0"},          // overlong '/'
    {"\xE0\x80\xAF", "0xE0"},      // overlong, three bytes
    {"\xED\xA0\x80", "0xED"},      // a UTF-16 surrogate
    {"\xF4\x90\x80\x80", "0xF4"},  // above U+10FFFF
    {"\xF5\x80\x80\x80", "0xF5"},  // a byte that never occurs
    {"\xE9t", "0xE9"},             // Latin-1
    {"\xFF", "0xFF"},
    {"\xE2\x82", "0xE2"},  // cut at the end of the text
};

std::string refusal(const json& config) {
  try {
    Session::from_json(config);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool has_control(const std::string& s, bool lines) {
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && !(lines && (c == '\n' || c == '\t'))) || c == 0x7F) return true;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F) return true;  // C1
  }
  return false;
}

}  // namespace

TEST_CASE("utf8_problem names the line and the byte of every kind of broken UTF-8", "[input][utf8]") {
  for (const Broken& b : kBroken) {
    const bool at_end = std::string(b.bytes) == "\xE2\x82";
    const std::string text = std::string("one\nab") + b.bytes + (at_end ? "" : "cd\nthree");
    INFO(show_text(text));
    const std::string p = utf8_problem(text);
    CHECK_THAT(p, Contains("line 2: byte 3 of the line (byte 7 of the text) is " + std::string(b.first) +
                           ", which is not UTF-8"));
  }
  for (const char* ok : {"", "plain ASCII\n", "caf\xC3\xA9", "\xE2\x80\x94", "\xF0\x9F\x90\x95", "\xF4\x8F\xBF\xBF",
                         "\xC2\x80", "\xEF\xBF\xBD"})
    CHECK(utf8_problem(ok).empty());
}

TEST_CASE("text and custom_pairs that are not UTF-8 are refused when the config is read", "[input][utf8]") {
  // Session::from_json is the door of the page (bindings) and of the CLI (--text-file, --task-file,
  // --set): one check in the task readers covers them, before a step is trained or a file written.
  std::string essay;
  for (int i = 0; i < 40; ++i) essay += "The quick brown fox jumps over the lazy dog.\n";
  for (const Broken& b : kBroken) {
    INFO(b.first);
    const std::string text = essay + "ab" + b.bytes + "\n" + essay;
    const std::string m = refusal({{"task", "text"}, {"seq_len", 16}, {"text", text}});
    CHECK_THAT(m, Contains("field 'text'") && Contains("line 41: byte 3 of the line") && Contains(b.first) &&
                      Contains("not UTF-8"));
    const std::string pairs = std::string("a b -> b a\nb ") + b.bytes + " -> a\n";
    CHECK_THAT(refusal({{"task", "custom"}, {"custom_pairs", pairs}}),
               Contains("custom_pairs: line 2: byte 3") && Contains(b.first));
  }
  // UTF-8 with characters of every length trains and saves (saving is where the old failure was).
  const std::string utf8 = essay + "caf\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x90\x95\n";
  auto s = Session::from_json({{"task", "text"}, {"seq_len", 16}, {"steps", 2}, {"text", utf8}});
  s->step();
  CHECK(!s->save().empty());
  auto c =
      Session::from_json({{"task", "custom"}, {"custom_pairs", "a \xC3\xA9 -> \xC3\xA9 a\nb c -> c b\nd e -> e d\n"}});
  c->step();
  CHECK(!c->save().empty());
}

TEST_CASE("custom_pairs refuses C0, DEL and C1 controls in a token", "[input][escape]") {
  for (const char* tok : {"\x1B[31m", "\x07", "a\x7F",
                          "\xC2\x9B"
                          "2J",
                          "\xC2\x80"}) {
    INFO(show_text(tok));
    CHECK_THAT(refusal({{"task", "custom"}, {"custom_pairs", std::string("a b -> b a\nb ") + tok + " -> a\n"}}),
               Contains("line 2: a control character"));
  }
}

TEST_CASE("escape_text and show_text let no control byte through, for any byte and any C1", "[input][escape]") {
  std::vector<std::string> inputs;
  for (int c = 0; c < 256; ++c) inputs.push_back("a" + std::string(1, char(c)) + "b");
  for (int c = 0x80; c <= 0x9F; ++c) inputs.push_back(std::string("x\xC2") + char(c) + "y");  // C1 as UTF-8
  inputs.push_back("\x1B]0;title\x07\x1B[2J\r\n\t\x9B");
  for (const std::string& in : inputs) {
    INFO(show_text(in));
    for (bool lines : {false, true}) {
      const std::string out = escape_text(in, lines);
      CHECK(!has_control(out, lines));
      CHECK(utf8_problem(out).empty());
    }
    CHECK(!has_control(show_text(in), false));
    CHECK(!has_control(show_value(json::array({json(in)})), false));
  }
  CHECK(escape_text("a\x1B[31mb\x07") == "a\\x1B[31mb\\x07");
  CHECK(escape_text("x\xC2\x9By") == "x\\u009By");
  CHECK(escape_text("line\n\tnext", true) == "line\n\tnext");
  CHECK(escape_text("line\n\tnext") == "line\\n\\tnext");
  CHECK(escape_text("caf\xC3\xA9 \xE2\x80\x94") == "caf\xC3\xA9 \xE2\x80\x94");  // printable UTF-8 unchanged
}

TEST_CASE("utf8_repaired makes any bytes UTF-8 that a JSON writer takes", "[input][utf8]") {
  for (const Broken& b : kBroken) {
    const std::string r = utf8_repaired(std::string("ab") + b.bytes);
    CHECK(utf8_problem(r).empty());
    CHECK_NOTHROW(json(r).dump());
    CHECK(r.rfind("ab", 0) == 0);
  }
  CHECK(utf8_repaired("caf\xC3\xA9") == "caf\xC3\xA9");
}

TEST_CASE("an evaluation length beyond memory_limit_mb is refused before anything is allocated", "[input][memory]") {
  // seq_len 12, batch 32: a pass over 48 tokens needs more than 16 MB. The page's evaluate(length)
  // and the CLI's eval_len and --eval-at reach Session::evaluate.
  auto s = Session::from_json({{"task", "copy"}, {"position", "rope"}, {"seq_len", 12}, {"memory_limit_mb", 16}});
  for (int L : {48, 600, 16384}) {
    INFO(L);
    try {
      s->evaluate(L);
      FAIL("evaluate(" << L << ") was not refused");
    } catch (const std::invalid_argument& e) {
      CHECK_THAT(e.what(), Contains("evaluation at length " + std::to_string(L)) && Contains("memory_limit_mb"));
    }
  }
  CHECK(s->evaluate(24).length == 24);
  CHECK(s->evaluate_periodic().size() == 2);  // the config's own lengths always fit
}

#ifdef AP_HAVE_SWEEP
#include <filesystem>
#include <functional>
#include <new>
#include <regex>

#include "cli/errors.hpp"

TEST_CASE("the CLI's catch site puts no library exception text in front of the user", "[input][errors]") {
  // Each throws what a library throws (nlohmann, std, the filesystem); error_sentence() must give a
  // sentence of ours naming the command, never the library's what().
  const std::regex leak(
      R"(json\.exception|basic_string|bad_alloc|std::|stoi|stod|vector|_M_|type_error|parse_error|out_of_range|length_error)");
  const std::vector<std::pair<const char*, std::function<void()>>> throws = {
      {"nlohmann type_error 316 (dump of bytes that are not UTF-8)", [] { (void)json(std::string("\xFF")).dump(); }},
      {"nlohmann type_error 302 (get<int> of a string)", [] { (void)json("ten").get<int>(); }},
      {"nlohmann out_of_range 403 (at() of a missing key)", [] { (void)json::object().at("steps"); }},
      {"nlohmann parse_error",
       [] {
         const json j = json::parse("{");
         (void)j;
       }},
      {"std::bad_alloc", [] { throw std::bad_alloc(); }},
      {"std::length_error (vector too large)",
       [] {
         std::vector<double> v;
         v.reserve(v.max_size() + 1);
       }},
      {"std::out_of_range (basic_string::substr)", [] { (void)std::string("ab").substr(5); }},
      {"std::invalid_argument (stoi)", [] { (void)std::stoi("x"); }},
      {"std::out_of_range (stoi)", [] { (void)std::stoi("99999999999"); }},
      {"filesystem_error", [] { std::filesystem::directory_iterator("/nonexistent-folder-\x1B"); }},
      {"a non-std exception", [] { throw 42; }},
  };
  for (auto& [what, f] : throws) {
    INFO(what);
    std::string m;
    try {
      f();
      FAIL("did not throw");
    } catch (...) {
      m = ap::cli::error_sentence("train");
    }
    INFO(m);
    CHECK(!std::regex_search(m, leak));
    CHECK(m.rfind("train: ", 0) == 0);
    CHECK(!has_control(m, false));
  }
  // The engine's own messages pass as they are, with bytes from a file escaped.
  try {
    throw std::invalid_argument("merge: column 'a\x1B[31m' is not a number");
  } catch (...) {
    CHECK(ap::cli::error_sentence("merge") == "merge: column 'a\\x1B[31m' is not a number");
  }
}
#endif
