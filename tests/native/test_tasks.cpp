// tests/native/test_tasks.cpp — the synthetic tasks. Registry-wide checks run over every entry
// of task_registry() (a new task is covered without new test code): shapes and id ranges at
// several lengths, determinism, train / held-out disjointness, the documented example, option
// errors. Then one semantic check per task proving its generator computes the right answer.
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tasks/task.hpp"
#include "tasks/text.hpp"

using namespace ap;
using json = nlohmann::json;

namespace {

std::vector<std::string> registry_names() {
  std::vector<std::string> names;
  for (const TaskEntry& e : task_registry()) names.push_back(e.name);
  return names;
}

std::unique_ptr<Task> make(const std::string& name, const json& extra = json::object()) {
  json config = find_task(name).defaults;
  config.update(extra);
  return find_task(name).make(config);
}

Batch gen(const Task& task, uint64_t seed, int B, int T, Split split = Split::Train) {
  Rng rng(seed);
  Batch b;
  task.generate(rng, B, T, split, b);
  return b;
}

int seq_len_of(const std::string& name) { return find_task(name).defaults.at("seq_len"); }

// min_len, the default seq_len, twice it and an odd length, within [min_len, max_len]
std::vector<int> lengths_for(const std::string& name, const Task& task) {
  const int L = seq_len_of(name);
  std::vector<int> Ts = {task.min_len(), L, 2 * L, L + (L % 2 ? 2 : 3)};
  std::vector<int> out;
  for (int T : Ts)
    if (T >= task.min_len() && T <= task.max_len() && std::find(out.begin(), out.end(), T) == out.end())
      out.push_back(T);
  return out;
}

int id_of(const Task& task, const std::string& token) {
  for (int i = 0; i < task.vocab_size(); ++i)
    if (task.token_name(i) == token) return i;
  FAIL("token '" << token << "' not in the vocabulary");
  return -1;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Row b of a per-token batch.
struct Row {
  const int32_t* x;
  const int32_t* y;
  const uint8_t* m;
};
Row row(const Batch& b, int i) {
  const size_t o = size_t(i) * b.T;
  return {&b.inputs[o], &b.targets[o], &b.mask[o]};
}

}  // namespace

// ---- registry-wide ------------------------------------------------------------------------------
TEST_CASE("every task makes well-formed batches at several lengths", "[tasks]") {
  const std::string name = GENERATE(from_range(registry_names()));
  INFO("task " << name);
  auto task = make(name);
  REQUIRE(task->vocab_size() >= 1);
  REQUIRE(task->num_classes() >= 1);
  REQUIRE(task->min_len() >= 1);
  REQUIRE(task->min_len() <= seq_len_of(name));
  REQUIRE(task->max_len() >= seq_len_of(name));
  const int B = 7;
  for (int T : lengths_for(name, *task)) {
    INFO("T = " << T);
    for (Split split : {Split::Train, Split::Heldout}) {
      const Batch b = gen(*task, 11, B, T, split);
      CHECK(b.B == B);
      CHECK(b.T == T);
      REQUIRE(b.inputs.size() == size_t(B) * T);
      for (int32_t x : b.inputs) REQUIRE((x >= 0 && x < task->vocab_size()));
      for (int32_t y : b.targets) REQUIRE((y >= 0 && y < task->num_classes()));
      if (task->per_sequence()) {
        CHECK(b.targets.size() == size_t(B));
        CHECK(b.mask.empty());
      } else {
        REQUIRE(b.targets.size() == size_t(B) * T);
        REQUIRE(b.mask.size() == size_t(B) * T);
        for (int i = 0; i < B; ++i) {
          const Row r = row(b, i);
          CHECK(std::count(r.m, r.m + T, uint8_t(1)) >= 1);
          for (int t = 0; t < T; ++t) REQUIRE(r.m[t] <= 1);
        }
      }
    }
  }
  CHECK_THROWS_AS(gen(*task, 1, 4, task->min_len() - 1), std::invalid_argument);
  CHECK_THROWS_AS(gen(*task, 1, 0, seq_len_of(name)), std::invalid_argument);
}

TEST_CASE("every task is deterministic in its seed and splits train from held-out", "[tasks]") {
  const std::string name = GENERATE(from_range(registry_names()));
  INFO("task " << name);
  auto task = make(name);
  // with a single input token every example is the same (probe): nothing to vary or split
  const bool one_example = task->vocab_size() == 1;
  for (int T : lengths_for(name, *task)) {
    INFO("T = " << T);
    const Batch a = gen(*task, 5, 16, T), again = gen(*task, 5, 16, T);
    CHECK(a.inputs == again.inputs);
    CHECK(a.targets == again.targets);
    CHECK(a.mask == again.mask);
    if (one_example) continue;
    const Batch other = gen(*task, 6, 16, T);
    CHECK((a.inputs != other.inputs || a.targets != other.targets));
    const Batch held = gen(*task, 5, 16, T, Split::Heldout);
    CHECK((a.inputs != held.inputs || a.targets != held.targets));
  }
  if (one_example) return;
  // at the default length no held-out input row appears among the train rows
  const int T = seq_len_of(name);
  const Batch train = gen(*task, 21, 256, T), held = gen(*task, 22, 64, T, Split::Heldout);
  std::set<std::vector<int32_t>> seen;
  for (int i = 0; i < train.B; ++i) seen.emplace(train.inputs.begin() + i * T, train.inputs.begin() + (i + 1) * T);
  int shared = 0;
  for (int i = 0; i < held.B; ++i)
    shared += seen.count(std::vector<int32_t>(held.inputs.begin() + i * T, held.inputs.begin() + (i + 1) * T)) > 0;
  CHECK(shared == 0);
}

TEST_CASE("every task documents an example in its own tokens, and its defaults", "[tasks]") {
  const std::string name = GENERATE(from_range(registry_names()));
  INFO("task " << name);
  const TaskEntry& e = find_task(name);
  auto task = make(name);
  // the prose is in native builds only (core/common/doc.hpp: the wasm builds leave it out)
  if (kDocs) CHECK(std::string(e.description.c_str()).size() > 10);
  // defaults: the core keys only; every other key is a declared option with its default and help
  const std::set<std::string> core = {"seq_len", "eval_len", "causal", "steps", "lr",
                                      "d_model", "heads",    "layers", "batch"};
  for (const std::string& k : core) CHECK(e.defaults.contains(k));
  CHECK(e.defaults.at("eval_len").get<int>() >= e.defaults.at("seq_len").get<int>());
  for (auto it = e.defaults.begin(); it != e.defaults.end(); ++it) CHECK(core.count(it.key()));
  for (const auto& o : e.options) {
    CHECK(!o.default_value.is_null());
    if (kDocs) CHECK(o.help.size() > 5);
  }
  // make() with an empty config falls back on the defaults
  auto bare = find_task(name).make(json::object());
  CHECK(bare->vocab_size() == task->vocab_size());
  CHECK(bare->num_classes() == task->num_classes());

  // the example: "in: ... | tgt: ... | mask: ..." or "in: ... | label: ..."
  if (!kDocs) return;
  const std::string ex = e.example.c_str();
  REQUIRE(ex.rfind("in: ", 0) == 0);
  std::vector<std::string> valid_tokens, valid_classes;
  for (int i = 0; i < task->vocab_size(); ++i) valid_tokens.push_back(task->token_name(i));
  for (int i = 0; i < task->num_classes(); ++i) valid_classes.push_back(task->class_name(i));
  auto is_token = [&](const std::string& w) { return std::count(valid_tokens.begin(), valid_tokens.end(), w) > 0; };
  auto is_class = [&](const std::string& w) { return std::count(valid_classes.begin(), valid_classes.end(), w) > 0; };
  if (task->per_sequence()) {
    const size_t at = ex.find(" | label: ");
    REQUIRE(at != std::string::npos);
    const auto in = words(ex.substr(4, at - 4));
    const auto label = words(ex.substr(at + 10));
    CHECK(int(in.size()) >= task->min_len());
    for (const auto& w : in) CHECK(is_token(w));
    REQUIRE(label.size() == 1);
    CHECK(is_class(label[0]));
  } else {
    const size_t at_t = ex.find(" | tgt: "), at_m = ex.find(" | mask: ");
    REQUIRE(at_t != std::string::npos);
    REQUIRE(at_m != std::string::npos);
    const auto in = words(ex.substr(4, at_t - 4));
    const auto tgt = words(ex.substr(at_t + 8, at_m - at_t - 8));
    const auto mask = words(ex.substr(at_m + 9));
    CHECK(int(in.size()) >= task->min_len());
    REQUIRE(tgt.size() == in.size());
    REQUIRE(mask.size() == in.size());
    for (const auto& w : in) CHECK(is_token(w));
    for (size_t i = 0; i < in.size(); ++i) {
      INFO("position " << i);
      REQUIRE((mask[i] == "0" || mask[i] == "1"));
      if (mask[i] == "1")
        CHECK(is_class(tgt[i]));
      else
        CHECK(tgt[i] == ".");
    }
    CHECK(std::count(mask.begin(), mask.end(), "1") >= 1);
  }
}

TEST_CASE("every task option rejects a bad value, naming the field", "[tasks]") {
  const std::string name = GENERATE(from_range(registry_names()));
  const TaskEntry& e = find_task(name);
  for (const auto& o : e.options) {
    const json& good = o.default_value;
    const json bad = good.is_string() ? json("x") : good.is_boolean() ? json("yes") : json(-1000);
    INFO("task " << name << ", option " << o.key << " = " << bad.dump());
    json config = ap::task_defaults(e);
    config[o.key] = bad;
    if (o.key == std::string("custom_pairs"))  // a text of lines: named first, with its line, not echoed
      CHECK_THROWS_WITH(e.make(config), Catch::StartsWith("custom_pairs: line 1: "));
    else
      CHECK_THROWS_WITH(e.make(config), Catch::Contains("'" + o.key + "'") && Catch::Contains(bad.dump()) &&
                                            Catch::Contains("allowed"));
    if (!good.is_string()) {
      config[o.key] = "not a number";
      CHECK_THROWS_AS(e.make(config), std::invalid_argument);
    }
  }
  CHECK_THROWS_AS(e.make(json::array({1, 2})), std::invalid_argument);
}

TEST_CASE("find_task on an unknown name lists the valid names", "[tasks]") {
  CHECK(std::string(find_task("copy").name) == "copy");
  try {
    find_task("kopy");
    FAIL("no exception");
  } catch (const std::invalid_argument& err) {
    const std::string msg = err.what();
    CHECK_THAT(msg, Catch::Contains("'kopy'"));
    for (const std::string& n : registry_names()) CHECK_THAT(msg, Catch::Contains(n));
  }
  std::set<std::string> unique;
  for (const std::string& n : registry_names()) CHECK(unique.insert(n).second);
}

// ---- per-task semantics ---------------------------------------------------------------------
// Calls check(row, T) on 32 rows of train and held-out batches at each test length.
template <class Check>
void for_rows(const std::string& name, const Task& task, Check check) {
  for (int T : lengths_for(name, task))
    for (Split split : {Split::Train, Split::Heldout}) {
      INFO("T = " << T);
      const Batch b = gen(task, 3, 32, T, split);
      for (int i = 0; i < b.B; ++i) check(row(b, i), T);
    }
}

TEST_CASE("copy, reverse, sort: the answer slots hold the transformed question", "[tasks]") {
  for (const char* name : {"copy", "reverse", "sort"}) {
    INFO("task " << name);
    auto task = make(name);
    const int slot = id_of(*task, "_"), pad = id_of(*task, ".");
    for_rows(name, *task, [&](Row r, int T) {
      const int n = T / 2;
      std::vector<int32_t> q(r.x, r.x + n), a(r.y + n, r.y + 2 * n);
      for (int i = 0; i < n; ++i) {
        REQUIRE(q[size_t(i)] < 10);
        REQUIRE(r.m[i] == 0);
        REQUIRE(r.x[n + i] == slot);
        REQUIRE(r.m[n + i] == 1);
      }
      if (T % 2) REQUIRE((r.x[T - 1] == pad && r.m[T - 1] == 0));
      std::vector<int32_t> want = q;
      if (std::string(name) == "reverse") std::reverse(want.begin(), want.end());
      if (std::string(name) == "sort") std::sort(want.begin(), want.end());
      REQUIRE(a == want);
    });
  }
}

TEST_CASE("repeat: slots continue the pattern before the separator", "[tasks]") {
  auto task = make("repeat");
  const int sep = id_of(*task, "|");
  for_rows("repeat", *task, [&](Row r, int T) {
    const int p = int(std::find(r.x, r.x + T, sep) - r.x);
    REQUIRE((p >= 1 && p <= 4 && p <= T - 2));
    for (int t = 0; t <= p; ++t) REQUIRE(r.m[t] == 0);
    for (int t = p + 1; t < T; ++t) {
      REQUIRE(r.m[t] == 1);
      REQUIRE(r.y[t] == r.x[(t - p - 1) % p]);
    }
  });
}

TEST_CASE("parity: targets are the running parity", "[tasks]") {
  auto task = make("parity");
  for_rows("parity", *task, [&](Row r, int T) {
    int p = 0;
    for (int t = 0; t < T; ++t) {
      p ^= r.x[t];
      REQUIRE(r.y[t] == p);
    }
  });
}

TEST_CASE("addition: the answer digits are the sum, least significant first", "[tasks]") {
  auto task = make("addition");
  const int plus = id_of(*task, "+"), eq = id_of(*task, "=");
  for_rows("addition", *task, [&](Row r, int T) {
    const int n = (T - 3) / 3;
    REQUIRE(r.x[n] == plus);
    REQUIRE(r.x[2 * n + 1] == eq);
    // compare digit by digit as decimal numbers (n can exceed 18 digits at 2x length)
    std::vector<int> sum(size_t(n) + 1, 0);
    int carry = 0;
    for (int i = 0; i <= n; ++i) {
      const int s = (i < n ? r.x[i] + r.x[n + 1 + i] : 0) + carry;
      sum[size_t(i)] = s % 10;
      carry = s / 10;
    }
    for (int i = 0; i <= n; ++i) {
      REQUIRE(r.m[2 * n + 2 + i] == 1);
      REQUIRE(r.y[2 * n + 2 + i] == sum[size_t(i)]);
    }
    REQUIRE(std::count(r.m, r.m + T, uint8_t(1)) == n + 1);
  });
  // one worked case at T = 12: a 3-digit sum of the digits shown in the row
  const Batch b = gen(*task, 9, 1, 12);
  const Row r = row(b, 0);
  const int a = r.x[0] + 10 * r.x[1] + 100 * r.x[2], c = r.x[4] + 10 * r.x[5] + 100 * r.x[6];
  CHECK(r.y[8] + 10 * r.y[9] + 100 * r.y[10] + 1000 * r.y[11] == a + c);
}

TEST_CASE("modular_addition: the answer is the sum of the terms mod p", "[tasks]") {
  for (int p : {11, 97}) {
    auto task = make("modular_addition", {{"modular_p", p}});
    CHECK(task->vocab_size() == p + 4);
    const int eq = id_of(*task, "=");
    for_rows("modular_addition", *task, [&](Row r, int T) {
      const int k = (T - 1) / 2;
      int sum = 0;
      for (int i = 0; i < k; ++i) {
        REQUIRE(r.x[2 * i] < p);
        sum += r.x[2 * i];
      }
      REQUIRE(r.x[2 * k - 1] == eq);
      REQUIRE(r.m[2 * k] == 1);
      REQUIRE(r.y[2 * k] == sum % p);
      REQUIRE(std::count(r.m, r.m + T, uint8_t(1)) == 1);
    });
  }
  // the default a + b table: held-out pairs are never train pairs
  auto task = make("modular_addition");
  const Batch train = gen(*task, 1, 2000, 5), held = gen(*task, 2, 200, 5, Split::Heldout);
  std::set<std::pair<int, int>> tr, he;
  const int32_t* x = train.inputs.data();
  for (int i = 0; i < 2000; ++i) tr.emplace(x[5 * i], x[5 * i + 2]);
  x = held.inputs.data();
  for (int i = 0; i < 200; ++i) he.emplace(x[5 * i], x[5 * i + 2]);
  for (const auto& ab : he) CHECK(tr.count(ab) == 0);
  CHECK(tr.size() + he.size() == 121);  // all of the 11 x 11 table is reachable
  CHECK(he.size() >= 5);
}

TEST_CASE("marked_addition: the answer is the sum of the marked digits mod 10", "[tasks]") {
  for (int count : {2, 3}) {
    auto task = make("marked_addition", {{"marked_addition_count", count}});
    for_rows("marked_addition", *task, [&](Row r, int T) {
      int marked = 0, sum = 0;
      for (int t = 0; t < T - 2; ++t)
        if (r.x[t] >= 10) {
          ++marked;
          sum += r.x[t] - 10;
        }
      REQUIRE(marked == count);
      REQUIRE(r.m[T - 1] == 1);
      REQUIRE(r.y[T - 1] == sum % 10);
    });
  }
}

TEST_CASE("two_sum: yes iff a pair sums to the target mod 10, both answers occur", "[tasks]") {
  auto task = make("two_sum");
  const int yes = id_of(*task, "yes"), no = id_of(*task, "no");
  int yeses = 0, nos = 0;
  for_rows("two_sum", *task, [&](Row r, int T) {
    const int n = T - 3, s = r.x[n + 1];
    REQUIRE(s < 10);
    bool found = false;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) found |= (r.x[i] + r.x[j]) % 10 == s;
    REQUIRE(r.m[T - 1] == 1);
    REQUIRE(r.y[T - 1] == (found ? yes : no));
    (found ? yeses : nos) += 1;
  });
  CHECK(yeses > 50);
  CHECK(nos > 50);
}

TEST_CASE("dyck: brackets are well nested and targets are the depth", "[tasks]") {
  auto task = make("dyck", {{"dyck_types", 3}, {"dyck_max_depth", 5}});
  CHECK(task->vocab_size() == 6);
  CHECK(task->num_classes() == 6);
  for_rows("dyck", *task, [&](Row r, int T) {
    std::vector<int> stack;
    for (int t = 0; t < T; ++t) {
      if (r.x[t] % 2 == 0) {
        stack.push_back(r.x[t]);
      } else {
        REQUIRE(!stack.empty());
        REQUIRE(stack.back() + 1 == r.x[t]);  // closes the innermost open bracket
        stack.pop_back();
      }
      REQUIRE(int(stack.size()) <= 5);
      REQUIRE(r.y[t] == int(stack.size()));
    }
  });
}

TEST_CASE("elman: targets are the next word of grammatical sentences", "[tasks]") {
  auto task = make("elman");
  const std::set<std::string> first_words = {"man", "woman", "cat", "mouse", "book", "rock", "dragon", "monster"};
  const int stop = id_of(*task, ".");
  for_rows("elman", *task, [&](Row r, int T) {
    int since_stop = -1;  // words since the last "." (-1: none seen yet)
    for (int t = 0; t < T; ++t) {
      if (t + 1 < T) REQUIRE(r.y[t] == r.x[t + 1]);
      if (r.x[t] == stop) {
        if (since_stop >= 0) REQUIRE((since_stop == 2 || since_stop == 3));
        since_stop = 0;
        if (t + 1 < T) REQUIRE(first_words.count(task->token_name(r.x[t + 1])) == 1);
      } else if (since_stop >= 0) {
        ++since_stop;
      }
    }
  });
}

TEST_CASE("copy_memory: the last k targets are the first k symbols", "[tasks]") {
  auto task = make("copy_memory", {{"copy_memory_k", 3}});
  CHECK(task->min_len() == 7);
  const int blank = id_of(*task, "-"), delim = id_of(*task, ":");
  for_rows("copy_memory", *task, [&](Row r, int T) {
    for (int i = 0; i < 3; ++i) {
      REQUIRE(r.x[i] < 8);
      REQUIRE(r.y[T - 3 + i] == r.x[i]);
      REQUIRE(r.m[T - 3 + i] == 1);
      REQUIRE(r.x[T - 3 + i] == blank);
    }
    REQUIRE(r.x[T - 4] == delim);
    for (int t = 3; t < T - 4; ++t) REQUIRE(r.x[t] == blank);
    REQUIRE(std::count(r.m, r.m + T, uint8_t(1)) == 3);
  });
}

TEST_CASE("temporal_order and order: the label is the order of the marked tokens", "[tasks]") {
  auto to = make("temporal_order");
  const int X = id_of(*to, "X"), Y = id_of(*to, "Y");
  auto order = make("order");
  const int A = id_of(*order, "A"), Bt = id_of(*order, "B");
  std::set<int> to_labels, order_labels;
  for (int T : {2, 16, 33}) {
    const Batch b = gen(*to, 4, 64, T);
    for (int i = 0; i < b.B; ++i) {
      std::vector<int> marks;
      for (int t = 0; t < T; ++t)
        if (b.inputs[size_t(i) * T + t] == X || b.inputs[size_t(i) * T + t] == Y)
          marks.push_back(b.inputs[size_t(i) * T + t] == Y);
      REQUIRE(marks.size() == 2);
      REQUIRE(b.targets[size_t(i)] == 2 * marks[0] + marks[1]);
      to_labels.insert(b.targets[size_t(i)]);
    }
    const Batch o = gen(*order, 4, 64, T);
    for (int i = 0; i < o.B; ++i) {
      const int32_t* x = &o.inputs[size_t(i) * T];
      REQUIRE(std::count(x, x + T, A) == 1);
      REQUIRE(std::count(x, x + T, Bt) == 1);
      const bool a_first = std::find(x, x + T, A) < std::find(x, x + T, Bt);
      REQUIRE(o.targets[size_t(i)] == (a_first ? 1 : 0));
      REQUIRE(order->class_name(o.targets[size_t(i)]) == (a_first ? "AB" : "BA"));
      order_labels.insert(o.targets[size_t(i)]);
    }
  }
  CHECK(to_labels.size() == 4);
  CHECK(order_labels.size() == 2);
}

TEST_CASE("slapjack: slap exactly the jacks (and doubles when asked)", "[tasks]") {
  for (bool doubles : {false, true}) {
    auto task = make("slapjack", {{"slapjack_doubles", doubles}});
    const int J = id_of(*task, "J");
    for_rows("slapjack", *task, [&](Row r, int T) {
      for (int t = 0; t < T; ++t) {
        const bool slap = r.x[t] == J || (doubles && t > 0 && r.x[t] == r.x[t - 1]);
        REQUIRE(r.y[t] == int(slap));
        REQUIRE(task->class_name(r.y[t]) == (slap ? "slap" : "-"));
      }
    });
  }
}

TEST_CASE("zeros and random: constant targets, and targets independent of inputs", "[tasks]") {
  auto zeros = make("zeros");
  for_rows("zeros", *zeros, [&](Row r, int T) {
    for (int t = 0; t < T; ++t) REQUIRE((r.y[t] == 0 && r.m[t] == 1));
  });
  auto random = make("random");
  const Batch b = gen(*random, 8, 64, 16);
  std::vector<int> counts(10, 0);
  int same = 0;
  for (size_t i = 0; i < b.targets.size(); ++i) {
    counts[size_t(b.targets[i])]++;
    same += b.targets[i] == b.inputs[i];
  }
  for (int c : counts) CHECK((c > 60 && c < 150));  // 1024 draws, ~102 each
  CHECK(same < 200);                                // ~102 by chance if independent
}

TEST_CASE("probe: one input token, targets 0..T-1, classes max(seq_len, eval_len)", "[tasks]") {
  auto task = make("probe");
  CHECK(task->vocab_size() == 1);
  CHECK(task->num_classes() == 16);
  CHECK(task->max_len() == 16);
  CHECK(make("probe", {{"seq_len", 8}, {"eval_len", 40}})->num_classes() == 40);
  CHECK(make("probe", {{"seq_len", 24}, {"eval_len", 4}})->num_classes() == 24);
  for_rows("probe", *task, [&](Row r, int T) {
    for (int t = 0; t < T; ++t) REQUIRE((r.x[t] == 0 && r.y[t] == t && r.m[t] == 1));
  });
  CHECK_THROWS_AS(gen(*task, 1, 2, 17), std::invalid_argument);
}

TEST_CASE("copy_back and copy_first: y_t = x_{t-k} and y_t = x_0", "[tasks]") {
  for (int k : {1, 3}) {
    auto task = make("copy_back", {{"copy_back_k", k}});
    CHECK(task->min_len() == k + 1);
    for_rows("copy_back", *task, [&](Row r, int T) {
      for (int t = 0; t < T; ++t) {
        REQUIRE(r.m[t] == (t >= k));
        if (t >= k) REQUIRE(r.y[t] == r.x[t - k]);
      }
    });
  }
  auto first = make("copy_first");
  for_rows("copy_first", *first, [&](Row r, int T) {
    for (int t = 0; t < T; ++t) REQUIRE((r.y[t] == r.x[0] && r.m[t] == 1));
  });
}

TEST_CASE("assoc_recall: the answer is the value stored under the query key", "[tasks]") {
  auto task = make("assoc_recall", {{"assoc_recall_keys", 6}});
  const int query = id_of(*task, "?");
  for_rows("assoc_recall", *task, [&](Row r, int T) {
    const int n = std::min((T - 2) / 2, 6);
    REQUIRE(r.x[2 * n] == query);
    std::set<int> keys;
    int value = -1;
    for (int i = 0; i < n; ++i) {
      REQUIRE(r.x[2 * i] < 6);
      REQUIRE(task->token_name(r.x[2 * i + 1]).size() == 1);
      REQUIRE(std::isdigit(static_cast<unsigned char>(task->token_name(r.x[2 * i + 1])[0])));
      REQUIRE(keys.insert(r.x[2 * i]).second);  // distinct keys
      if (r.x[2 * i] == r.x[2 * n + 1]) value = r.x[2 * i + 1];
    }
    REQUIRE(value >= 0);
    REQUIRE(r.m[2 * n + 1] == 1);
    REQUIRE(r.y[2 * n + 1] == value);
    REQUIRE(std::count(r.m, r.m + T, uint8_t(1)) == 1);
  });
}

TEST_CASE("text: the vocabulary is the text's alphabet and windows are next characters", "[tasks]") {
  // 44 characters: the first 39 are train, the last 5 ("_wxyz") held out
  const std::string text = "the_quick_brown_fox_jumps_over_lazy_dog_wxyz";
  auto task = make("text", {{"text", text}, {"seq_len", 4}});  // 41 characters are enough for seq_len 4
  std::set<char> alphabet(text.begin(), text.end());
  REQUIRE(task->vocab_size() == int(alphabet.size()));
  int i = 0;
  for (char c : alphabet) CHECK(task->token_name(i++) == std::string(1, c));  // sorted
  const int cut = int(text.size()) * 9 / 10;
  const std::string train = text.substr(0, size_t(cut)), held = text.substr(size_t(cut));
  auto decode = [&](const int32_t* ids, int n) {
    std::string s;
    for (int t = 0; t < n; ++t) s += task->token_name(ids[t]);
    return s;
  };
  for (int T : {1, 3, 8, 20}) {
    INFO("T = " << T);
    for (Split split : {Split::Train, Split::Heldout}) {
      const std::string& region = split == Split::Train ? train : held;
      std::string ring;  // windows wrap around within short regions
      while (ring.size() < 3 * region.size() + size_t(T) + 1) ring += region;
      const Batch b = gen(*task, 2, 16, T, split);
      for (int r = 0; r < b.B; ++r) {
        const Row rw = row(b, r);
        const std::string in = decode(rw.x, T);
        const std::string full = in + task->token_name(rw.y[T - 1]);
        REQUIRE(ring.find(full) != std::string::npos);
        for (int t = 0; t + 1 < T; ++t) REQUIRE(rw.y[t] == rw.x[t + 1]);
      }
    }
  }
  // the built-in corpus: space and newline are named, and every window is printable text
  auto builtin = make("text");
  CHECK(builtin->vocab_size() > 30);
  CHECK(id_of(*builtin, "\u2423") >= 0);
  CHECK(id_of(*builtin, "\\n") >= 0);
  CHECK_THROWS_WITH(make("text", {{"text", "too short"}}), Catch::Contains("'text'"));
  // an underscore in the text is a character, not an answer slot (generation continues the text)
  CHECK(make("text", {{"text", text}, {"seq_len", 4}})->answer_slot() == -1);
}

TEST_CASE("text: too short a text for seq_len, or too large a one, is refused in words", "[tasks]") {
  using Catch::Contains;
  // 49 characters at seq_len 64: the held-out part would be 5 characters (the case)
  const std::string s49(49, 'a');
  CHECK_THROWS_WITH(make("text", {{"text", s49}, {"seq_len", 64}}),
                    Contains("field 'text' = \"aaaa") &&
                        Contains("allowed: a text of at least 641 characters (bytes) for seq_len 64") &&
                        Contains("its last 10% is held out and must hold seq_len + 1 = 65 characters") &&
                        Contains("this one has 49 (5 held out); add text or lower seq_len to 4"));
  // the bound is exact: 10 seq_len + 1 characters leave seq_len + 1 held out
  for (int T : {1, 4, 64}) {
    const size_t n = ap::text_min_chars(T);
    CHECK(n - n * 9 / 10 == size_t(T) + 1);
    CHECK_NOTHROW(make("text", {{"text", std::string(n, 'b')}, {"seq_len", T}}));
    CHECK_THROWS_WITH(make("text", {{"text", std::string(n - 1, 'b')}, {"seq_len", T}}),
                      Contains("a text of at least"));
  }
  CHECK(ap::text_length_problem(641, 64).empty());
  CHECK_THROWS_WITH(make("text", {{"text", std::string(ap::kMaxTextBytes + 1, 'c')}, {"seq_len", 8}}),
                    Contains("allowed: at most 2097152 bytes (2 MiB); this one has 2097153"));
  CHECK_NOTHROW(make("text", {{"text", std::string(ap::kMaxTextBytes, 'c')}, {"seq_len", 8}}));
}

TEST_CASE("mlm: 15% of each window chosen and scored; 80% [MASK], 10% random, 10% kept; targets the text", "[tasks]") {
  const std::string text = "the_quick_brown_fox_jumps_over_lazy_dog_wxyz";
  auto task = make("mlm", {{"text", text}, {"seq_len", 4}});
  std::set<char> alphabet(text.begin(), text.end());
  const int chars = int(alphabet.size());
  REQUIRE(task->num_classes() == chars);     // the targets: characters
  REQUIRE(task->vocab_size() == chars + 1);  // the inputs: characters and [MASK]
  const int mask = id_of(*task, "[MASK]");
  CHECK(mask == chars);
  CHECK(task->answer_slot() == -1);
  CHECK(find_task("mlm").defaults.at("causal") == false);  // a bidirectional model, as BERT's
  const int cut = int(text.size()) * 9 / 10;
  const std::string train = text.substr(0, size_t(cut)), held = text.substr(size_t(cut));
  size_t masked = 0, randomised = 0, kept = 0;
  for (int T : {1, 7, 20, 64}) {
    INFO("T = " << T);
    const int k = std::max(1, int(std::lround(0.15 * T)));
    for (Split split : {Split::Train, Split::Heldout}) {
      const std::string& region = split == Split::Train ? train : held;
      std::string ring;
      while (ring.size() < 3 * region.size() + size_t(T) + 1) ring += region;
      const Batch b = gen(*task, 3, 200, T, split);
      for (int r = 0; r < b.B; ++r) {
        const Row rw = row(b, r);
        std::string original;  // the targets are the window of the text, at every position
        for (int t = 0; t < T; ++t) original += task->class_name(rw.y[t]);
        REQUIRE(ring.find(original) != std::string::npos);
        int chosen = 0;
        for (int t = 0; t < T; ++t) {
          if (!rw.m[t]) {
            REQUIRE(rw.x[t] == rw.y[t]);  // a position not chosen is shown as it is, and not scored
            continue;
          }
          ++chosen;
          if (rw.x[t] == mask)
            ++masked;
          else if (rw.x[t] != rw.y[t])
            ++randomised;
          else
            ++kept;  // kept, or a random character that happened to be the same
        }
        REQUIRE(chosen == k);
      }
    }
  }
  const double n = double(masked + randomised + kept);
  // 80 / 10 / 10; a random draw equals the original 1 time in `chars`, which moves it to "kept"
  CHECK(masked / n == Approx(0.8).margin(0.02));
  CHECK(randomised / n == Approx(0.1 * (chars - 1) / chars).margin(0.015));
  CHECK(kept / n == Approx(0.1 + 0.1 / chars).margin(0.015));
  // the same seed gives the same masks
  const Batch a = gen(*task, 9, 4, 20), c = gen(*task, 9, 4, 20);
  CHECK(a.inputs == c.inputs);
  CHECK(a.mask == c.mask);
}
