// tests/native/test_custom_task.cpp — the custom task: its pairs reader (every kind of bad line is
// refused naming the line), the vocabulary and both layouts (answer slots, one label), the
// split, and that a model learns a small set of pairs. The registry-wide checks of
// test_tasks.cpp cover its shapes, determinism and example.
#include <set>
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "session/session.hpp"
#include "tasks/custom_pairs.hpp"
#include "tasks/task.hpp"

using namespace ap;
using json = nlohmann::json;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {
std::unique_ptr<Task> make_custom(const std::string& pairs, int seq_len = 8) {
  json c = find_task("custom").defaults;
  c["custom_pairs"] = pairs;
  c["seq_len"] = seq_len;
  return find_task("custom").make(c);
}
std::string message_of(const std::string& pairs, int seq_len = 8) {
  try {
    make_custom(pairs, seq_len);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("custom pairs: lines, comments, repeats and the vocabulary", "[tasks][custom]") {
  const CustomPairs p = parse_custom_pairs("# a comment\n10 2 -> a\r\n\n  2 10 ->  b \n10 2 -> a\nx -> 2\n");
  REQUIRE(p.pairs.size() == 3);  // the exact repeat is kept once
  CHECK(p.pairs[0].line == 2);
  CHECK(p.pairs[1].line == 4);
  CHECK(p.pairs[1].in == std::vector<std::string>{"2", "10"});
  CHECK(p.pairs[1].out == std::vector<std::string>{"b"});
  CHECK(p.tokens == std::vector<std::string>{"2", "10", "a", "b", "x"});  // numbers by value first
  CHECK(p.label);
  CHECK(p.longest_in == 2);
  CHECK(p.longest_out == 1);
}

TEST_CASE("custom pairs: each bad line is refused with its line number and what is allowed", "[tasks][custom]") {
  CHECK_THAT(message_of("1 2 -> 3\n1 2 3\n"), Contains("line 2") && Contains("no '->'"));
  CHECK_THAT(message_of("1 -> 2 -> 3\n1 -> 1\n"), Contains("line 1") && Contains("more than one '->'"));
  CHECK_THAT(message_of("1 2 -> 3\n -> 3\n"), Contains("line 2") && Contains("input is empty"));
  CHECK_THAT(message_of("1 2 -> 3\n4 ->  \n"), Contains("line 2") && Contains("output is empty"));
  CHECK_THAT(message_of("1 2 -> 3\n1 2 -> 4\n"), Contains("line 2") && Contains("on line 1 with another output"));
  CHECK_THAT(message_of("1 _ -> 3\n1 -> 2\n"), Contains("line 1") && Contains("reserved"));
  CHECK_THAT(message_of("a -> <pad>\n1 -> 2\n"), Contains("reserved"));
  CHECK_THAT(message_of("a\x01 -> b\nc -> d\n"), Contains("control character"));
  CHECK_THAT(message_of(std::string(40, 'z') + " -> b\nc -> d\n"), Contains("longer than 32 bytes"));
  CHECK_THAT(message_of("1 -> 2\n"), Contains("at least 2 pairs"));
  CHECK_THAT(message_of(std::string(300 << 10, ' ')), Contains("256 KiB"));
  std::string wide;
  for (int i = 0; i < 65; ++i) wide += "t ";
  CHECK_THAT(message_of(wide + "-> a\nb -> c\n"), Contains("more than 64 tokens"));
  std::string many;
  for (int i = 0; i < 600; ++i) many += "w" + std::to_string(i) + " -> x\n";
  CHECK_THAT(message_of(many), Contains("more than 512 distinct tokens"));
  // every message names the field
  CHECK_THAT(message_of("oops\nx -> y\n"), StartsWith("custom_pairs: line 1: "));
}

TEST_CASE("custom: answer slots hold the output, the rest is padding", "[tasks][custom]") {
  auto task = make_custom("3 1 2 -> 1 2 3\n4 4 -> 4\n9 -> 9 9 9 9\n");
  CHECK_FALSE(task->per_sequence());
  CHECK(task->min_len() == 8);  // the longest input, "->", the longest output: 3 + 1 + 4
  REQUIRE(task->answer_slot() >= 0);
  Rng rng(3);
  Batch b;
  task->generate(rng, 64, 10, Split::Train, b);
  std::set<std::string> seen;
  for (int r = 0; r < b.B; ++r) {
    std::string in, out;
    int arrow = -1;
    for (int t = 0; t < b.T; ++t) {
      const int x = b.inputs[size_t(r) * b.T + t];
      if (task->token_name(x) == "->")
        arrow = t;
      else if (arrow < 0)
        in += task->token_name(x) + " ";
      if (b.mask[size_t(r) * b.T + t]) {
        REQUIRE(x == task->answer_slot());
        out += task->class_name(b.targets[size_t(r) * b.T + t]) + " ";
      } else if (arrow >= 0 && t > arrow) {
        CHECK(task->token_name(x) == "<pad>");
      }
    }
    REQUIRE(arrow > 0);
    seen.insert(in + "-> " + out);
  }
  // the rows are pairs from the text, never a mix
  for (auto& s : seen) CHECK((s == "3 1 2 -> 1 2 3 " || s == "4 4 -> 4 " || s == "9 -> 9 9 9 9 "));
  CHECK_THAT(message_of("3 1 2 -> 1 2 3\n4 4 -> 4\n9 -> 9 9 9 9\n", 7),
             Contains("field 'seq_len'") && Contains("at least 8"));
}

TEST_CASE("custom: single-token outputs are one label per sequence", "[tasks][custom]") {
  auto task = make_custom("a b -> yes\nb a -> no\na a -> yes\nb b -> no\n", 4);
  CHECK(task->per_sequence());
  CHECK(task->num_classes() == 2);
  CHECK(task->class_name(0) == "no");
  CHECK(task->class_name(1) == "yes");
  Rng rng(1);
  Batch b;
  task->generate(rng, 32, 4, Split::Train, b);
  for (int r = 0; r < b.B; ++r) {
    const std::string in = task->token_name(b.inputs[size_t(r) * 4]) + task->token_name(b.inputs[size_t(r) * 4 + 1]);
    CHECK(task->class_name(b.targets[size_t(r)]) == (in == "ab" || in == "aa" ? "yes" : "no"));
    CHECK(task->token_name(b.inputs[size_t(r) * 4 + 3]) == "<pad>");
  }
}

TEST_CASE("custom: both splits hold pairs, and no held-out pair is trained on", "[tasks][custom]") {
  auto task = make_custom("");  // the built-in set: sort three digits 0-4, 125 pairs
  Rng r1(5), r2(6);
  Batch train, held;
  task->generate(r1, 512, 8, Split::Train, train);
  task->generate(r2, 128, 8, Split::Heldout, held);
  std::set<std::vector<int32_t>> tr, he;
  for (int i = 0; i < 512; ++i) tr.emplace(train.inputs.begin() + i * 8, train.inputs.begin() + i * 8 + 3);
  for (int i = 0; i < 128; ++i) he.emplace(held.inputs.begin() + i * 8, held.inputs.begin() + i * 8 + 3);
  CHECK(he.size() >= 5);
  CHECK(tr.size() >= 90);
  for (auto& h : he) CHECK(tr.count(h) == 0);
  // two pairs: one each way
  auto two = make_custom("a -> b\nc -> d\n", 4);
  Rng r3(1);
  Batch t2, h2;
  two->generate(r3, 8, 4, Split::Train, t2);
  two->generate(r3, 8, 4, Split::Heldout, h2);
  CHECK(t2.inputs[0] != h2.inputs[0]);
}

TEST_CASE("custom: a model learns a small set of pairs (reverse three letters)", "[tasks][custom][learning]") {
  std::string pairs;
  const char* L = "abcd";
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c)
        pairs += std::string{L[a], ' ', L[b], ' ', L[c]} + " -> " + std::string{L[c], ' ', L[b], ' ', L[a]} + "\n";
  json cfg = {{"task", "custom"},   {"custom_pairs", pairs}, {"seq_len", 7}, {"eval_len", 7},
              {"position", "rope"}, {"steps", 400},          {"seed", 1}};
  auto s = Session::from_json(cfg);
  s->train(400);
  const EvalMetrics ev = s->evaluate();
  INFO("loss " << ev.loss << " token accuracy " << ev.token_accuracy);
  CHECK(ev.token_accuracy > 0.9);
}
