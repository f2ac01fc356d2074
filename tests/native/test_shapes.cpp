// tests/native/test_shapes.cpp — the xtensor seams (core/tensor/xt.hpp): parameters and
// activations read as shaped views, a shape mistake throws ShapeError naming the tensor, and the
// tables written as xtensor expressions equal the scalar formulas they replaced, bit for bit.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "model/layers.hpp"
#include "model/params.hpp"
#include "position/absolute.hpp"
#include "position/relative.hpp"
#include "position/rotary.hpp"
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
  CHECK_THROWS_AS(ap::linear_forward(ap::mat(out, 2, 2), ap::cmat(x.data(), 3, 2), ps.tensor<2>(w),
                                     ps.tensor<1>(b)),
                  ap::ShapeError);
  // output buffer shaped (N, I) instead of (N, O)
  std::vector<float> wrong(6);
  CHECK_THROWS_WITH(ap::linear_forward(ap::mat(wrong, 2, 3), ap::cmat(x.data(), 2, 3),
                                       ps.tensor<2>(w), ps.tensor<1>(b)),
                    Contains("linear output") && Contains("(2, 3)") && Contains("(2, 2)"));
  // backward: dinp of the wrong shape
  std::vector<float> dout(4, 1.0f), dx(4);
  CHECK_THROWS_AS(ap::linear_backward(ap::mat(dx, 2, 2), ps.grad_tensor<2>(w), ps.grad_tensor<1>(b),
                                      ap::cmat(dout.data(), 2, 2), ap::cmat(x.data(), 2, 3),
                                      ps.tensor<2>(w)),
                  ap::ShapeError);
}

TEST_CASE("tables as xtensor expressions equal the scalar formulas exactly", "[shapes][position]") {
  // sinusoidal (T, C), both layouts, odd C
  for (bool concat : {false, true})
    for (int C : {7, 8, 64}) {
      const int T = 33, half = C / 2;
      const auto P = ap::sinusoidal_table(T, C, 10000.0, concat);
      for (int p = 0; p < T; ++p)
        for (int i = 0; i < half; ++i) {
          const double w = std::pow(10000.0, -2.0 * i / C);
          CHECK(P[size_t(p) * C + (concat ? i : 2 * i)] == float(std::sin(p * w)));
          CHECK(P[size_t(p) * C + (concat ? half + i : 2 * i + 1)] == float(std::cos(p * w)));
        }
      if (C % 2) CHECK(P[size_t(T) * C - 1] == 0.0f);
    }
  // RoPE cos/sin with mscale
  const auto theta = ap::rope_thetas(12, 500.0);
  std::vector<float> c, s;
  ap::rope_tables(c, s, 9, theta, 1.25);
  for (int t = 0; t < 9; ++t)
    for (int i = 0; i < 6; ++i) {
      CHECK(theta[i] == std::pow(500.0, -2.0 * i / 12));
      CHECK(c[size_t(t) * 6 + i] == float(1.25 * std::cos(t * theta[i])));
      CHECK(s[size_t(t) * 6 + i] == float(1.25 * std::sin(t * theta[i])));
    }
  // T5 buckets of the whole grid = the bucket of each distance
  const ap::IndexGrid rel = ap::key_minus_query(40);
  for (bool bidir : {false, true}) {
    const ap::IndexGrid g = ap::t5_bucket(rel, bidir, 16, 24);
    for (int i = 0; i < 40; ++i)
      for (int j = 0; j < 40; ++j) CHECK(g(i, j) == ap::t5_bucket(j - i, bidir, 16, 24));
  }
  // ALiBi slopes, 6 heads: 2^(−8h/4) for h = 1..4, then 2^(−8h/8) for h = 1, 3
  const auto m = ap::alibi_slopes(6);
  const double want[6] = {std::exp2(-2.0), std::exp2(-4.0), std::exp2(-6.0), std::exp2(-8.0),
                          std::exp2(-1.0), std::exp2(-3.0)};
  REQUIRE(m.size() == 6);
  for (int h = 0; h < 6; ++h) CHECK(m[h] == want[h]);
}
