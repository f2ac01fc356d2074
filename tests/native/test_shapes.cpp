// tests/native/test_shapes.cpp — the xtensor seams (core/tensor/xt.hpp): parameters and
// activations read as shaped views, a shape mistake throws ShapeError naming the tensor, and the
// position tables equal their xtensor twins (position/tables_naive.hpp) bit for bit.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "model/layers.hpp"
#include "common/params.hpp"
#include "model_check.hpp"
#include "position/absolute.hpp"
#include "position/relative.hpp"
#include "position/rotary.hpp"
#include "position/tables_naive.hpp"
#include "tensor/xt.hpp"

using Catch::Matchers::Contains;

TEST_CASE("a parameter read with the wrong rank throws ShapeError naming it", "[shapes]") {
  ap::ParamStore ps;
  const int w = ps.add("blocks.0.attn.proj.weight", {3, 4}, ap::Init::Ones, 0, true);
  const int b = ps.add("blocks.0.attn.proj.bias", {3}, ap::Init::Zeros, 0, false);
  ap::Rng rng(1);
  ps.allocate(rng);
  const auto W = ps.tensor<2>(w);
  CHECK(W.shape(0) == 3);
  CHECK(W.shape(1) == 4);
  CHECK(W(2, 3) == 1.0f);
  CHECK(ps.grad_tensor<1>(b).size() == 3);
  CHECK_THROWS_AS(ps.tensor<1>(w), ap::ShapeError);
  CHECK_THROWS_WITH(ps.tensor<1>(w), Contains("blocks.0.attn.proj.weight") && Contains("(3, 4)"));
  CHECK_THROWS_WITH(ps.grad_tensor<2>(b), Contains("blocks.0.attn.proj.bias"));
}

TEST_CASE("an activation buffer of the wrong size throws ShapeError", "[shapes]") {
  std::vector<float> v(10);
  CHECK_NOTHROW(ap::mat(v, 2, 5));
  CHECK_THROWS_WITH(ap::mat(v, 3, 4), Contains("10 values") && Contains("(3, 4)"));
}

TEST_CASE("linear layer: shapes decide the sizes, a mismatch throws", "[shapes]") {
  ap::ParamStore ps;
  const int w = ps.add("fc.weight", {2, 3}, ap::Init::Ones, 0, true);  // (O, I) = (2, 3)
  const int b = ps.add("fc.bias", {2}, ap::Init::Constant, 0.5f, false);
  ap::Rng rng(1);
  ps.allocate(rng);
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, out(4);  // x (N=2, I=3)
  ap::linear_forward(ap::mat(out, 2, 2), ap::cmat(x.data(), 2, 3), ps.tensor<2>(w), ps.tensor<1>(b));
  CHECK(out == std::vector<float>{6.5f, 6.5f, 15.5f, 15.5f});
  // input with 2 features for a weight that expects 3
  CHECK_THROWS_AS(ap::linear_forward(ap::mat(out, 2, 2), ap::cmat(x.data(), 3, 2), ps.tensor<2>(w), ps.tensor<1>(b)),
                  ap::ShapeError);
  // output buffer shaped (N, I) instead of (N, O)
  std::vector<float> wrong(6);
  CHECK_THROWS_WITH(
      ap::linear_forward(ap::mat(wrong, 2, 3), ap::cmat(x.data(), 2, 3), ps.tensor<2>(w), ps.tensor<1>(b)),
      Contains("linear output") && Contains("(2, 3)") && Contains("(2, 2)"));
  // backward: dinp of the wrong shape
  std::vector<float> dout(4, 1.0f), dx(4);
  CHECK_THROWS_AS(ap::linear_backward(ap::mat(dx, 2, 2), ps.grad_tensor<2>(w), ps.grad_tensor<1>(b),
                                      ap::cmat(dout.data(), 2, 2), ap::cmat(x.data(), 2, 3), ps.tensor<2>(w)),
                  ap::ShapeError);
}

TEST_CASE("the tables equal their xtensor twins bit for bit", "[shapes][position]") {
  for (bool concat : {false, true})
    for (int C : {1, 7, 8, 64})
      CHECK(ap::sinusoidal_table(33, C, 10000.0, concat) == ap::sinusoidal_table_naive(33, C, 10000.0, concat));
  for (int d : {2, 12, 16, 32}) {
    CHECK(ap::rope_thetas(d, 500.0) == ap::rope_thetas_naive(d, 500.0));
    for (auto kind : {ap::RopeScaling::None, ap::RopeScaling::PI, ap::RopeScaling::NTK, ap::RopeScaling::YaRN}) {
      if (kind == ap::RopeScaling::NTK && d <= 2) continue;  // needs 4 rotated dims (check_rope)
      for (int L : {32, 128}) {
        const auto a = ap::rope_scale(d, 10000.0, kind, 3.0, L);
        const auto b = ap::rope_scale_naive(d, 10000.0, kind, 3.0, L);
        CHECK(a.theta == b.theta);
        CHECK(a.mscale == b.mscale);
        CHECK(a.base == b.base);
        std::vector<float> c1, s1, c2, s2;
        ap::rope_tables(c1, s1, 40, a.theta, a.mscale);
        ap::rope_tables_naive(c2, s2, 40, b.theta, b.mscale);
        CHECK(c1 == c2);
        CHECK(s1 == s2);
      }
    }
  }
  for (int n : {1, 2, 3, 5, 6, 8, 12, 16}) CHECK(ap::alibi_slopes(n) == ap::alibi_slopes_naive(n));
  const ap::IndexGrid rel = ap::key_minus_query(300);
  for (bool bidir : {false, true})
    for (int nb : {8, 32}) {
      const ap::IndexGrid g = ap::t5_bucket_naive(rel, bidir, nb, 128);
      bool same = true;
      for (int i = 0; i < 300; ++i)
        for (int j = 0; j < 300; ++j) same = same && g(i, j) == ap::t5_bucket(j - i, bidir, nb, 128);
      CHECK(same);
    }
  for (int T : {1, 9, 64}) {
    std::vector<float> q1, k1, q2, k2;
    ap::xpos_scales(q1, k1, T, 8, 32.0);
    ap::xpos_scales_naive(q2, k2, T, 8, 32.0);
    CHECK(q1 == q2);
    CHECK(k1 == k2);
  }
}

TEST_CASE("the ALiBi bias of every mode equals its xtensor twin bit for bit", "[shapes][position]") {
  for (const char* mode : {"causal", "symmetric", "asymmetric"}) {
    ap::Session s(ap::Config::from_json(aptest::tiny({{"position", "alibi"},
                                                      {"heads", 4},
                                                      {"causal", std::string(mode) == "causal"},
                                                      {"alibi_mode", mode},
                                                      {"alibi_ratio", 1.5}})));
    const int T = 7;
    const auto d = s.model().position().display(T);
    const auto want = ap::alibi_bias_naive(ap::alibi_slopes(4), T, mode, 1.5);
    bool same = true;
    for (int h = 0; h < 4; ++h)
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) same = same && d["bias"][h][i][j].get<float>() == want[(size_t(h) * T + i) * T + j];
    INFO(mode);
    CHECK(same);
  }
}
