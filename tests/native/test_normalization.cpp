// tests/native/test_normalization.cpp — the attention normalizations, registry-wide: the
// reference's one-row vectors (shared reference §7.9) and row sums (§7.8), row-level gradient
// checks with masked keys, masking and n = 0, stability at logits ±80 and 512 keys, the
// prefix-sum form of linear attention, FAVOR+ convergence to softmax, and config rules.
// Probe outcomes (reference §4) are in test_normalization_probe.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <vector>

#include "normalization/kernel_attention.hpp"
#include "normalization/normalization.hpp"
#include "config/variants.hpp"
#include "model/act_tensor.hpp"
#include "model/layers.hpp"
#include "model_check.hpp"
#include "position/position.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"

namespace {

using Catch::Matchers::Contains;

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (auto& e : ap::normalization_registry()) out.push_back(e.name);
  return out;
}

struct Made {
  ap::ParamStore ps;
  std::unique_ptr<ap::Normalization> norm;
};
// The entry `name` for a config with these options (parameters allocated: cosine reads them).
std::unique_ptr<Made> make(const std::string& name, nlohmann::json options = nlohmann::json::object(), int d_model = 16,
                           int heads = 2) {
  ap::Config cfg;
  cfg.normalization = name;
  cfg.d_model = d_model, cfg.heads = heads, cfg.layers = 1;
  cfg.options = options;
  auto m = std::make_unique<Made>();
  m->norm = ap::make_variant(ap::find_normalization(name), cfg, m->ps);
  ap::Rng rng(1);
  m->ps.allocate(rng);
  return m;
}

// Kernel entries (no logits) take kernel values s ≥ 0 as their row input.
bool kernel_entry(const std::string& name) { return !ap::find_normalization(name).accepts_bias; }

std::vector<float> random_row(ap::Rng& rng, int n, bool positive, float scale = 1.5f) {
  std::vector<float> s(n);
  for (auto& x : s) {
    x = scale * rng.normal();
    // Kernel values as a model forms them: φ(q)·φ(k) of order HS, never near 0.
    if (positive) x = 4.0f * std::exp(0.2f * x);
  }
  return s;
}

}  // namespace

TEST_CASE("one-row forward/backward vectors of reference §7.9, to 1e-5", "[normalization]") {
  const std::vector<float> s = {0.5f, -1.0f, 2.0f, 0.0f}, g = {1.0f, 2.0f, -1.0f, 0.5f};
  struct Vec {
    const char* name;
    nlohmann::json opts;
    std::vector<double> a, ds;
    double sum;
  };
  const std::vector<Vec> table = {
      {"softmax", {}, {0.158445, 0.035354, 0.7101, 0.096102}, {0.227035, 0.086012, -0.4027, 0.089653}, 1.0},
      {"l2", {}, {0.215649, 0.048118, 0.966474, 0.130798}, {0.24305, 0.0976, -0.416128, 0.075479}, 1.361039},
      {"softmax1", {}, {0.144553, 0.032254, 0.647841, 0.087676}, {0.201643, 0.077247, -0.391981, 0.078465}, 0.912324},
      {"sigmoid", {}, {0.291875, 0.084224, 0.648786, 0.2}, {0.206684, 0.15426, -0.227863, 0.08}, 1.224885},
      {"relu2", {{"relu2_divisor", "visible"}}, {0.0625, 0.0, 1.0, 0.0}, {0.25, 0.0, -1.0, 0.0}, 1.0625},
      {"relu2", {{"relu2_divisor", "fixed"}, {"relu2_n", 4}}, {0.0625, 0.0, 1.0, 0.0}, {0.25, 0.0, -1.0, 0.0}, 1.0625},
      {"exp", {}, {1.648721, 0.367879, 7.389056, 1.0}, {1.648721, 0.735759, -7.389056, 0.5}, 10.405657},
      {"swish_l2", {}, {0.172047, -0.14867, 0.973805, 0.0}, {0.486399, 0.073434, 0.042395, 0.138199}, 0.997182},
  };
  for (auto& v : table) {
    INFO(v.name << " " << v.opts.dump());
    auto m = make(v.name, v.opts.is_null() ? nlohmann::json::object() : v.opts);
    // Row of T = 6 with n = 4 visible keys: the two masked slots must stay untouched.
    std::vector<float> sr = {s[0], s[1], s[2], s[3], 7.0f, -7.0f}, a(6, 0.0f), ds(6, 0.0f);
    std::vector<float> gr = {g[0], g[1], g[2], g[3], 3.0f, 3.0f};
    m->norm->row_forward(sr.data(), a.data(), 4);
    m->norm->row_backward(sr.data(), a.data(), gr.data(), ds.data(), 4);
    double sum = 0;
    for (int j = 0; j < 4; ++j) {
      // Reference values are printed to 6 decimals: 1e-5 absolute covers their rounding.
      CHECK(a[j] == Approx(v.a[j]).margin(1e-5));
      CHECK(ds[j] == Approx(v.ds[j]).margin(1e-5));
      sum += a[j];
    }
    CHECK(sum == Approx(v.sum).margin(1e-5));
    CHECK(a[4] == 0.0f);
    CHECK(a[5] == 0.0f);
    CHECK(ds[4] == 0.0f);
    CHECK(ds[5] == 0.0f);
  }
}

TEST_CASE("every entry declares its properties and prefixes its options with its name", "[normalization]") {
  for (auto& e : ap::normalization_registry()) {
    INFO(e.name);
    auto j = ap::describe_normalization(e, ap::Config{});
    CHECK((j["row_sum"] == "one" || j["row_sum"] == "varies"));
    CHECK(j.contains("accepts_bias"));
    CHECK(j.contains("stable"));
    for (auto& o : e.options) CHECK(o.key.rfind(std::string(e.name) + "_", 0) == 0);
  }
  // The row-stochastic family and the rest (reference §3.12).
  std::map<std::string, bool> one = {
      {"softmax", true}, {"cosine", true},    {"linear", true},         {"performer", true}, {"l2", false},
      {"relu2", false},  {"swish_l2", false}, {"exp", false},           {"sigmoid", false},  {"softmax1", false},
      {"sink", false},   {"topk", true},      {"stick_breaking", false}};
  for (auto& [name, is_one] : one) CHECK((ap::find_normalization(name).row_sum == ap::RowSum::One) == is_one);
  CHECK_FALSE(ap::find_normalization("linear").accepts_bias);
  CHECK_FALSE(ap::find_normalization("performer").accepts_bias);
}

// Row-level central differences in float: h = 1e-3, L = Σ g_j a_j; the bound is norm-wise,
// ‖analytic − numeric‖ ≤ 1e-2 ‖numeric‖ + 1e-3. Skipped points: relu2 logits within 0.05 of its
// kink at 0 are moved away from it. Masked slots (n < T) and n = 0 must be left untouched.
TEST_CASE("row gradients match central differences, masked and unmasked, every entry", "[normalization][grad]") {
  auto name = GENERATE(from_range(names()));
  const std::vector<nlohmann::json> variants =
      name == "relu2" ? std::vector<nlohmann::json>{{{"relu2_divisor", "fixed"}},
                                                    {{"relu2_divisor", "row"}},
                                                    {{"relu2_divisor", "visible"}}}
      : name == "exp" ? std::vector<nlohmann::json>{nlohmann::json::object(), {{"exp_softcap", 3.0}}}
      : name == "sigmoid"
          ? std::vector<nlohmann::json>{nlohmann::json::object(), {{"sigmoid_bias", "fixed"}, {"sigmoid_b", -1.5}}}
          : std::vector<nlohmann::json>{nlohmann::json::object()};
  ap::Rng rng(42);
  for (auto& v : variants) {
    auto m = make(name, v);
    const int T = 7;
    ap::AttnShape shape{1, T, 1, 8, true, true};
    m->norm->prepare_rows(0, shape);
    for (int n : {0, 1, 3, 7}) {
      INFO(name << " " << v.dump() << " n = " << n);
      std::vector<float> s = random_row(rng, T, kernel_entry(name)), g = random_row(rng, T, false);
      if (name == "relu2")
        for (auto& x : s)
          if (std::fabs(x) < 0.05f) x = 0.3f;
      std::vector<float> a(T, -5.0f), ds(T, -5.0f);  // sentinels in the masked slots
      std::fill(a.begin(), a.begin() + n, 0.0f);
      std::fill(ds.begin(), ds.begin() + n, 0.0f);
      m->norm->row_forward(s.data(), a.data(), n);
      m->norm->row_backward(s.data(), a.data(), g.data(), ds.data(), n);
      for (int j = n; j < T; ++j) {
        CHECK(a[j] == -5.0f);
        CHECK(ds[j] == -5.0f);
      }
      double d2 = 0, n2 = 0;
      for (int k = 0; k < n; ++k) {
        CHECK(std::isfinite(a[k]));
        auto loss = [&](float sk) {
          std::vector<float> sp = s, ap_(T, 0.0f);
          sp[k] = sk;
          m->norm->row_forward(sp.data(), ap_.data(), n);
          double L = 0;
          for (int j = 0; j < n; ++j) L += double(g[j]) * ap_[j];
          return L;
        };
        const float h = 1e-3f;
        const double num = (loss(s[k] + h) - loss(s[k] - h)) / (2.0 * h);
        d2 += (num - ds[k]) * (num - ds[k]);
        n2 += num * num;
      }
      CHECK(std::sqrt(d2) <= 1e-2 * std::sqrt(n2) + 1e-3);
    }
  }
}

TEST_CASE("row sums: the softmax family sums to 1, the others match reference §7.8", "[normalization]") {
  ap::Rng rng(3);
  for (auto& e : ap::normalization_registry()) {
    if (e.row_sum != ap::RowSum::One) continue;
    auto m = make(e.name);
    for (int n : {1, 4, 16, 128, 512}) {
      INFO(e.name << " n = " << n);
      auto s = random_row(rng, n, kernel_entry(e.name));
      std::vector<float> a(n);
      m->norm->row_forward(s.data(), a.data(), n);
      double sum = 0;
      for (float x : a) sum += x;
      CHECK(std::fabs(sum - 1.0) <= 1e-6);
    }
  }
  // Zero logits (relu2: logits 1), row sum R(n) — the table of §7.8 and Lemma 3.
  struct Expect {
    const char* name;
    nlohmann::json opts;
    float logit;
    double (*R)(int);
  };
  const std::vector<Expect> expect = {
      {"l2", {}, 0.0f, [](int n) { return std::sqrt(double(n)); }},
      {"softmax1", {}, 0.0f, [](int n) { return n / (n + 1.0); }},
      {"sigmoid", {}, 0.0f, [](int n) { return n / (n + 1.0); }},
      {"sigmoid", {{"sigmoid_bias", "fixed"}, {"sigmoid_b", 0.0}}, 0.0f, [](int n) { return n / 2.0; }},
      {"exp", {}, 0.0f, [](int n) { return double(n); }},
      {"relu2", {{"relu2_divisor", "visible"}}, 1.0f, [](int) { return 1.0; }},
      {"relu2", {{"relu2_divisor", "fixed"}, {"relu2_n", 8}}, 1.0f, [](int n) { return n / 8.0; }},
      {"swish_l2", {}, 0.0f, [](int) { return 0.0; }},
      {"sink", {}, 0.0f, [](int n) { return n / (n + 1.0); }},  // z = 0 at init: softmax1
      // β = 1/2 over the n − 1 keys before the query (the diagonal is out): 1 − 2^{−(n−1)}
      {"stick_breaking", {}, 0.0f, [](int n) { return 1.0 - std::pow(0.5, n - 1); }},
  };
  for (auto& e : ap::normalization_registry()) {
    if (e.row_sum == ap::RowSum::One) continue;
    bool covered = false;
    for (auto& x : expect) covered |= e.name == std::string(x.name);
    INFO("entry " << e.name << " needs a zero-logit row-sum expectation here");
    CHECK(covered);
  }
  const std::map<int, std::map<std::string, double>> table = {
      {8, {{"l2", 2.828427}, {"softmax1", 0.888889}, {"exp", 8}}},
      {16, {{"l2", 4.0}, {"softmax1", 0.941176}, {"exp", 16}}},
      {32, {{"l2", 5.656854}, {"softmax1", 0.969697}, {"exp", 32}}},
      {64, {{"l2", 8.0}, {"softmax1", 0.984615}, {"exp", 64}}},
      {128, {{"l2", 11.313708}, {"softmax1", 0.992248}, {"exp", 128}}}};
  for (auto& x : expect) {
    auto m = make(x.name, x.opts.is_null() ? nlohmann::json::object() : x.opts);
    for (int n : {1, 2, 3, 5, 8, 16, 32, 64, 128}) {
      INFO(x.name << " " << x.opts.dump() << " n = " << n);
      std::vector<float> s(n, x.logit), a(n);
      m->norm->row_forward(s.data(), a.data(), n);
      double sum = 0;
      for (float w : a) sum += w;
      CHECK(sum == Approx(x.R(n)).epsilon(1e-6).margin(1e-6));
      auto t = table.find(n);
      if (t != table.end() && t->second.count(x.name) && x.opts.is_null())
        CHECK(sum == Approx(t->second.at(x.name)).epsilon(1e-6));
    }
  }
  // Bidirectional n = 8, logits −0.5|i−j| (symmetric ALiBi): mirror-symmetric row sums (§7.8).
  const std::vector<double> l2_sym = {1.983964, 2.200283, 2.349389, 2.422233, 2.422233, 2.349389, 2.200283, 1.983964};
  const std::vector<double> sm1_sym = {0.713872, 0.754377, 0.772177, 0.77927, 0.77927, 0.772177, 0.754377, 0.713872};
  auto l2 = make("l2"), sm1 = make("softmax1");
  for (int i = 0; i < 8; ++i) {
    std::vector<float> s(8), a(8), b(8);
    for (int j = 0; j < 8; ++j) s[j] = -0.5f * std::abs(i - j);
    l2->norm->row_forward(s.data(), a.data(), 8);
    sm1->norm->row_forward(s.data(), b.data(), 8);
    double ra = 0, rb = 0;
    for (int j = 0; j < 8; ++j) ra += a[j], rb += b[j];
    CHECK(ra == Approx(l2_sym[i]).margin(1e-5));
    CHECK(rb == Approx(sm1_sym[i]).margin(1e-5));
  }
}

TEST_CASE("causal identical tokens: row sums per query i (reference §7.8)", "[normalization]") {
  struct Row {
    const char* name;
    nlohmann::json opts;
    float logit;
    std::vector<double> r;
  };
  const std::vector<Row> rows = {
      {"softmax", {}, 0.0f, {1, 1, 1, 1, 1, 1, 1, 1}},
      {"l2", {}, 0.0f, {1.0, 1.414214, 1.732051, 2.0, 2.236068, 2.44949, 2.645751, 2.828427}},
      {"exp", {}, 0.0f, {1, 2, 3, 4, 5, 6, 7, 8}},
      {"softmax1", {}, 0.0f, {0.5, 0.666667, 0.75, 0.8, 0.833333, 0.857143, 0.875, 0.888889}},
      {"sink", {}, 0.0f, {0.5, 0.666667, 0.75, 0.8, 0.833333, 0.857143, 0.875, 0.888889}},
      {"stick_breaking", {}, 0.0f, {0.0, 0.5, 0.75, 0.875, 0.9375, 0.96875, 0.984375, 0.9921875}},
      {"sigmoid",
       {{"sigmoid_bias", "fixed"}, {"sigmoid_b", -std::log(8.0)}},
       0.0f,
       {0.111111, 0.222222, 0.333333, 0.444444, 0.555556, 0.666667, 0.777778, 0.888889}},
      {"relu2", {{"relu2_divisor", "visible"}}, 1.0f, {1, 1, 1, 1, 1, 1, 1, 1}},
      {"relu2", {{"relu2_divisor", "fixed"}, {"relu2_n", 8}}, 1.0f, {0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0}},
  };
  for (auto& r : rows) {
    auto m = make(r.name, r.opts.is_null() ? nlohmann::json::object() : r.opts);
    for (int i = 0; i < 8; ++i) {
      INFO(r.name << " " << r.opts.dump() << " i = " << i);
      std::vector<float> s(8, r.logit), a(8, 0.0f);
      m->norm->row_forward(s.data(), a.data(), i + 1);
      double sum = 0;
      for (float w : a) sum += w;
      CHECK(sum == Approx(r.r[i]).margin(1e-5));
    }
  }
}

TEST_CASE("stable entries give finite outputs and gradients at logits ±80 and 512 keys", "[normalization]") {
  ap::Rng rng(9);
  for (auto& e : ap::normalization_registry()) {
    nlohmann::json opts = nlohmann::json::object();
    if (std::string(e.name) == "exp")
      opts["exp_softcap"] = 30.0;  // exp is stable only capped
    else if (!e.stable)
      continue;
    auto m = make(e.name, opts);
    for (int n : {1, 8, 512}) {
      for (float big : {80.0f, -80.0f, 0.0f}) {
        INFO(e.name << " n = " << n << " big = " << big);
        std::vector<float> s(n), g(n), a(n, 0.0f), ds(n, 0.0f);
        for (int j = 0; j < n; ++j) {
          // ±80 in random places, the rest spread: all-large, all-small and mixed rows.
          const float r = rng.uniform();
          s[j] = big == 0.0f ? (r < 0.5f ? 80.0f : -80.0f) : (r < 0.7f ? big : 3.0f * rng.normal());
          if (kernel_entry(e.name)) s[j] = std::fabs(s[j]);
          g[j] = rng.normal();
        }
        m->norm->row_forward(s.data(), a.data(), n);
        m->norm->row_backward(s.data(), a.data(), g.data(), ds.data(), n);
        bool finite = true;
        for (int j = 0; j < n; ++j) finite &= std::isfinite(a[j]) && std::isfinite(ds[j]);
        CHECK(finite);
      }
    }
  }
}

TEST_CASE("every entry in a causal model: masked keys weigh exactly 0, all finite", "[normalization]") {
  auto name = GENERATE(from_range(names()));
  INFO(name);
  ap::Session s(ap::Config::from_json(aptest::tiny({{"normalization", name}, {"position", "none"}})));
  s.train(2);
  auto att = s.inspect().attention();
  for (auto& layer : att["layers"])
    for (auto& head : layer["heads"]) {
      auto& w = head["weights"];
      for (size_t i = 0; i < w.size(); ++i)
        for (size_t j = 0; j < w[i].size(); ++j) {
          CHECK(std::isfinite(w[i][j].get<double>()));
          if (j > i) CHECK(w[i][j].get<double>() == 0.0);
        }
    }
}

TEST_CASE("whole-model gradients for the option variants of the entries", "[normalization][grad]") {
  auto extra = GENERATE(nlohmann::json{{"normalization", "relu2"}, {"relu2_divisor", "row"}},
                        nlohmann::json{{"normalization", "relu2"}, {"relu2_divisor", "visible"}},
                        nlohmann::json{{"normalization", "sigmoid"}, {"sigmoid_bias", "fixed"}, {"sigmoid_b", -2.0}},
                        nlohmann::json{{"normalization", "exp"}, {"exp_softcap", 5.0}},
                        nlohmann::json{{"normalization", "performer"}, {"performer_features", 24}},
                        nlohmann::json{{"normalization", "cosine"}, {"position", "learned"}},
                        nlohmann::json{{"normalization", "linear"}, {"position", "sinusoidal"}},
                        nlohmann::json{{"normalization", "linear"}, {"position", "rope"}, {"rope_base", 100.0}});
  auto causal = GENERATE(true, false);
  INFO(extra.dump() << " causal " << causal);
  nlohmann::json j = aptest::tiny(extra);
  j["causal"] = causal;
  if (!j.contains("position")) j["position"] = "none";
  ap::Session s(ap::Config::from_json(j));
  aptest::check_model_gradients(s);
}

TEST_CASE("linear attention: the prefix-sum form equals the materialized weights", "[normalization]") {
  const int T = 13, HS = 5;
  auto m = make("linear", nlohmann::json::object(), HS, 1);
  ap::Rng rng(5);
  std::vector<float> q(T * HS), k(T * HS), v(T * HS);
  for (auto* x : {&q, &k, &v})
    for (auto& e : *x) e = rng.normal();
  for (bool causal : {true, false}) {
    INFO("causal " << causal);
    std::vector<float> fq = q, fk = k;
    ap::AttnShape shape{1, T, 1, HS, causal, false};
    m->norm->qk_forward(0, fq.data(), fk.data(), shape);
    // Materialized: s = φ(q)φ(k)ᵀ (scale 1), a = row map over the visible keys, o = a v.
    std::vector<float> o1(T * HS, 0.0f), o2(T * HS);
    for (int i = 0; i < T; ++i) {
      std::vector<float> s(T, 0.0f), a(T, 0.0f);
      for (int j = 0; j < T; ++j)
        for (int c = 0; c < HS; ++c) s[j] += m->norm->scale(HS) * fq[i * HS + c] * fk[j * HS + c];
      m->norm->row_forward(s.data(), a.data(), causal ? i + 1 : T);
      for (int j = 0; j < T; ++j)
        for (int c = 0; c < HS; ++c) o1[i * HS + c] += a[j] * v[j * HS + c];
    }
    ap::kernel_attention_prefix(o2.data(), fq.data(), fk.data(), v.data(), T, HS, HS, causal, 1e-6);
    for (int i = 0; i < T * HS; ++i) CHECK(o1[i] == Approx(o2[i]).margin(1e-5));
  }
}

TEST_CASE("linear attention under RoPE follows RoFormer (eq. 19): against a float64 reference", "[normalization]") {
  // a_ij = φ(q_i)ᵀR_iR_jᵀφ(k_j) / (Σ_{j visible} φ(q_i)·φ(k_j) + ε): the numerator rotated, the
  // denominator not. The reference computes φ, the rotation (interleaved pairs, θ_p = base^(−2p/HS),
  // (a, b) → (a cos tθ − b sin tθ, b cos tθ + a sin tθ)) and the weights and outputs in double.
  for (bool causal : {true, false}) {
    INFO("causal " << causal);
    nlohmann::json j = aptest::tiny({{"normalization", "linear"}, {"position", "rope"}, {"rope_base", 100.0}});
    j["causal"] = causal;
    const ap::Config cfg = ap::Config::from_json(j);
    ap::ParamStore ps;
    auto pos = ap::make_variant(ap::find_position("rope"), cfg, ps);
    auto norm = ap::make_variant(ap::find_normalization("linear"), cfg, ps);
    const int B = 2, T = 12, NH = cfg.heads, HS = cfg.d_model / cfg.heads, C = cfg.d_model;
    const ap::AttnShape shape{B, T, NH, HS, causal, true};
    const ap::AttentionCtx ctx{0, shape, pos.get(), norm.get(), 0.0f, nullptr, 0.0f, nullptr};
    ap::ActTensor<3> qkv{"qkv"}, out{"attention output"};
    qkv.zeros({size_t(B), size_t(T), size_t(3 * C)});
    out.zeros({size_t(B), size_t(T), size_t(C)});
    ap::Rng rng(7);
    for (size_t i = 0; i < qkv.size(); ++i) qkv.data()[i] = rng.normal();
    ap::AttentionActs acts;
    ap::attention_forward(out.view(), acts, qkv.cview(), ctx);
    auto at = [&](int b, int t, int part, int h) {
      return qkv.data() + (size_t(b) * T + t) * 3 * C + part * C + h * HS;
    };
    auto phi = [](double x) { return x > 0 ? x + 1.0 : std::exp(x); };
    auto rotated = [&](const float* x, int t) {
      std::vector<double> r(HS);
      for (int p = 0; p < HS / 2; ++p) {
        const double th = t * std::pow(100.0, -2.0 * p / HS), a = phi(x[2 * p]), b = phi(x[2 * p + 1]);
        r[2 * p] = a * std::cos(th) - b * std::sin(th);
        r[2 * p + 1] = b * std::cos(th) + a * std::sin(th);
      }
      return r;
    };
    double werr = 0, oerr = 0, spread = 0;
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < NH; ++h)
        for (int i = 0; i < T; ++i) {
          const int n = causal ? i + 1 : T;
          double D = 0;
          for (int k = 0; k < n; ++k)
            for (int c = 0; c < HS; ++c) D += phi(at(b, i, 0, h)[c]) * phi(at(b, k, 1, h)[c]);
          D += 1e-6;
          const auto rq = rotated(at(b, i, 0, h), i);
          std::vector<double> o(HS, 0.0);
          double sum = 0;
          for (int k = 0; k < T; ++k) {
            double a = 0;
            if (k < n) {
              const auto rk = rotated(at(b, k, 1, h), k);
              for (int c = 0; c < HS; ++c) a += rq[c] * rk[c];
              a /= D;
            }
            sum += a;
            for (int c = 0; c < HS; ++c) o[c] += a * at(b, k, 2, h)[c];
            werr = std::max(werr, std::fabs(a - acts.weights.data()[((size_t(b) * NH + h) * T + i) * T + k]));
          }
          spread = std::max(spread, std::fabs(sum - 1.0));
          for (int c = 0; c < HS; ++c)
            oerr = std::max(oerr, std::fabs(o[c] - out.data()[(size_t(b) * T + i) * C + h * HS + c]));
        }
    CHECK(werr < 1e-5);
    CHECK(oerr < 1e-4);
    CHECK(spread > 1e-3);  // rotated numerators: the rows no longer sum to 1 (RoFormer's rule, not a row sum)
  }
}

TEST_CASE("performer: FAVOR+ approaches softmax as features grow, error ~ m^-1/2", "[normalization]") {
  // n = 32 keys, d = 16 (reference §5 D10b): ‖A_FAVOR+ − A_softmax‖_F / ‖A_softmax‖_F, mean over
  // 6 feature draws, for m = 16, 64, 256, 1024. Orthogonal features: every weight positive.
  const int T = 32, d = 16;
  ap::Rng rng(11);
  std::vector<float> q(T * d), k(T * d);
  for (auto* x : {&q, &k})
    for (auto& e : *x) e = 0.5f * rng.normal();
  std::vector<double> ref(T * T);
  for (int i = 0; i < T; ++i) {
    std::vector<float> s(T), a(T);
    for (int j = 0; j < T; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += q[i * d + c] * k[j * d + c];
      s[j] = float(dot / std::sqrt(double(d)));
    }
    make("softmax")->norm->row_forward(s.data(), a.data(), T);
    for (int j = 0; j < T; ++j) ref[i * T + j] = a[j];
  }
  std::vector<double> err;
  for (int m : {16, 64, 256, 1024}) {
    double total = 0;
    for (int seed = 1; seed <= 6; ++seed) {
      ap::Config cfg;
      cfg.d_model = d, cfg.heads = 1, cfg.layers = 1, cfg.seed = seed;
      cfg.options = {{"performer_features", m}};
      ap::ParamStore ps;
      auto norm = ap::make_variant(ap::find_normalization("performer"), cfg, ps);
      ap::AttnShape shape{1, T, 1, d, false, false};
      std::vector<float> logits(T * T, 0.0f), a(T * T, 0.0f);
      norm->scores_forward(0, q.data(), k.data(), logits.data(), shape);
      double num = 0, den = 0;
      bool positive = true;
      for (int i = 0; i < T; ++i) {
        norm->row_forward(&logits[i * T], &a[i * T], T);
        for (int j = 0; j < T; ++j) {
          positive &= a[i * T + j] > 0.0f;
          num += (a[i * T + j] - ref[i * T + j]) * (a[i * T + j] - ref[i * T + j]);
          den += ref[i * T + j] * ref[i * T + j];
        }
      }
      CHECK(positive);
      total += std::sqrt(num / den);
    }
    err.push_back(total / 6);
  }
  INFO("relative errors m = 16, 64, 256, 1024: " << err[0] << " " << err[1] << " " << err[2] << " " << err[3]);
  for (size_t i = 1; i < err.size(); ++i) CHECK(err[i] < err[i - 1]);
  // log-log slope over 16 → 1024 (ideal −0.5; orthogonal features do a little better).
  const double slope = std::log(err[3] / err[0]) / std::log(1024.0 / 16.0);
  INFO("slope " << slope);
  CHECK(slope < -0.35);
  CHECK(slope > -0.9);
  CHECK(err[3] < 0.1);
}

TEST_CASE("performer: the features estimate e^{q'·k'} without bias (reference §7.10)", "[normalization]") {
  // d = 4, q, k of §7.10: exact e^{q'·k'} = 0.9851119396. With keys k and 0 (e^0 = 1), the
  // weight ratio a_0/a_1 estimates K(q,k)/K(q,0); m = 65536 features, tolerance ~3/√m · 2.
  const int d = 4, m = 65536;
  std::vector<float> q = {0.3f, -0.2f, 0.5f, 0.1f, 0, 0, 0, 0}, k = {0.4f, 0.1f, -0.3f, 0.2f, 0, 0, 0, 0};
  ap::Config cfg;
  cfg.d_model = d, cfg.heads = 1, cfg.layers = 1, cfg.seed = 3;
  cfg.options = {{"performer_features", m}};
  ap::ParamStore ps;
  auto norm = ap::make_variant(ap::find_normalization("performer"), cfg, ps);
  std::vector<float> logits(4, 0.0f), a(4, 0.0f);
  norm->scores_forward(0, q.data(), k.data(), logits.data(), ap::AttnShape{1, 2, 1, d, false, false});
  norm->row_forward(logits.data(), a.data(), 2);
  CHECK(a[0] / a[1] == Approx(0.9851119396).epsilon(6.0 / std::sqrt(double(m))));
}

TEST_CASE("performer: features are fixed, or redrawn at every training forward", "[normalization]") {
  const int T = 6, d = 8;
  ap::Rng rng(2);
  std::vector<float> q(T * d), k(T * d);
  for (auto* x : {&q, &k})
    for (auto& e : *x) e = rng.normal();
  for (bool redraw : {false, true}) {
    auto m = make("performer", {{"performer_redraw", redraw}}, d, 1);
    auto scores = [&](bool training) {
      std::vector<float> s(T * T, 0.0f);
      m->norm->scores_forward(0, q.data(), k.data(), s.data(), ap::AttnShape{1, T, 1, d, false, training});
      return s;
    };
    auto eval0 = scores(false), eval1 = scores(false);
    CHECK(eval0 == eval1);  // evaluation never redraws
    auto train1 = scores(true), train2 = scores(true);
    CHECK((train1 != train2) == redraw);
  }
}

TEST_CASE("cosine: logits stay within the temperature, which starts at 10", "[normalization]") {
  ap::Session s(ap::Config::from_json(aptest::tiny({{"normalization", "cosine"}, {"position", "none"}})));
  auto att = s.inspect().attention();
  double mx = 0;
  for (auto& layer : att["layers"])
    for (auto& head : layer["heads"])
      for (size_t i = 0; i < head["logits"].size(); ++i)
        for (size_t j = 0; j <= i; ++j) mx = std::max(mx, std::fabs(head["logits"][i][j].get<double>()));
  CHECK(mx <= 10.0 + 1e-4);
  CHECK(mx > 1.0);
  CHECK(s.model().params().find("blocks.0.attn.cosine_scale") >= 0);
}

TEST_CASE("linear and performer refuse logit-bias position encodings with a clear message", "[normalization][config]") {
  int biasing = 0;  // every entry flagged biases_logits (test_registry_flags.cpp checks the flags)
  for (auto& e : ap::position_registry()) {
    if (!e.biases_logits) continue;
    ++biasing;
    for (const char* n : {"linear", "performer"}) {
      INFO(n << " with " << e.name);
      CHECK_THROWS_WITH(ap::Config::from_json(aptest::tiny({{"normalization", n}, {"position", e.name}})),
                        Contains("cannot take") && Contains(e.name));
    }
    CHECK_NOTHROW(ap::Config::from_json(aptest::tiny({{"normalization", "l2"}, {"position", e.name}})));
  }
  CHECK(biasing >= 3);  // alibi, t5_bias, shaw, ...
}

TEST_CASE("normalization options are validated with the key and what is allowed", "[normalization][config]") {
  auto err = [](nlohmann::json extra) {
    try {
      ap::Config::from_json(aptest::tiny(extra));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(err({{"normalization", "relu2"}, {"relu2_divisor", "half"}}),
             Contains("relu2_divisor") && Contains("visible"));
  CHECK_THAT(err({{"normalization", "exp"}, {"exp_softcap", -1}}), Contains("exp_softcap"));
  CHECK_THAT(err({{"normalization", "sigmoid"}, {"sigmoid_bias", "auto"}, {"sigmoid_b", "x"}}), Contains("sigmoid_b"));
  CHECK(err({{"normalization", "performer"}, {"performer_features", 64}, {"performer_redraw", true}}) == "no error");
}
