// Activations carry their shapes (model/act_tensor.hpp): a layer handed an activation of the
// wrong shape throws ShapeError naming it, instead of reading or writing the wrong memory.
#include <catch2/catch.hpp>

#include <vector>

#include "common/params.hpp"
#include "model/act_tensor.hpp"
#include "model/layers.hpp"

using Catch::Matchers::Contains;

TEST_CASE("an activation keeps its shape and its views read with it", "[shapes][activation]") {
  ap::ActTensor<3> x{"block input x"};
  x.zeros({2, 3, 4});
  CHECK(x.shape() == ap::Shape<3>{2, 3, 4});
  CHECK(x.size() == 24);
  x.view()(1, 2, 3) = 7.0f;
  CHECK(x.data()[23] == 7.0f);
  CHECK(x.rows().shape(0) == 6);
  CHECK(x.rows().shape(1) == 4);
  CHECK(x.crows()(5, 3) == 7.0f);
  CHECK_NOTHROW(x.expect({2, 3, 4}));
  CHECK_THROWS_AS(x.expect({2, 4, 3}), ap::ShapeError);
  CHECK_THROWS_WITH(x.expect({2, 4, 3}), Contains("block input x") && Contains("(2, 3, 4)") && Contains("(2, 4, 3)"));
  // resizing to a smaller shape and back keeps the buffer (no allocation per step)
  const float* before = x.data();
  x.resize({1, 3, 4});
  x.resize({2, 3, 4});
  CHECK(x.data() == before);
}

TEST_CASE("LayerNorm and the nonlinearity refuse activations of the wrong shape", "[shapes][activation]") {
  ap::ParamStore ps;
  const int w = ps.add("ln.weight", {4}, ap::Init::Ones, 0, false);
  const int b = ps.add("ln.bias", {4}, ap::Init::Zeros, 0, false);
  ap::Rng rng(1);
  ps.allocate(rng);
  ap::ActTensor<3> x{"x"}, out{"ln output"};
  ap::ActTensor<1> mean{"ln mean"}, rstd{"ln rstd"};
  x.zeros({2, 3, 4});
  out.resize({2, 3, 4}), mean.resize({6}), rstd.resize({6});
  CHECK_NOTHROW(
      ap::layernorm_forward(out.rows(), mean.view(), rstd.view(), x.crows(), ps.tensor<1>(w), ps.tensor<1>(b)));
  mean.resize({5});  // one row short
  CHECK_THROWS_WITH(
      ap::layernorm_forward(out.rows(), mean.view(), rstd.view(), x.crows(), ps.tensor<1>(w), ps.tensor<1>(b)),
      Contains("LayerNorm mean") && Contains("(5)") && Contains("(6)"));
  out.resize({2, 3, 5});  // features do not match the input's
  mean.resize({6});
  CHECK_THROWS_AS(
      ap::layernorm_forward(out.rows(), mean.view(), rstd.view(), x.crows(), ps.tensor<1>(w), ps.tensor<1>(b)),
      ap::ShapeError);
  CHECK_THROWS_AS(ap::nonlinearity_forward(out.rows(), x.crows(), ap::Activation::Gelu), ap::ShapeError);
}

TEST_CASE("attention refuses a qkv or output that does not fit its shape", "[shapes][activation]") {
  // B 2, T 3, NH 2, HS 4: qkv must be (2, 3, 24) and the output (2, 3, 8). The shapes are
  // checked before any hook runs, so no encoding or normalization is needed here.
  const ap::AttnShape shape{2, 3, 2, 4, true, false};
  const ap::AttentionCtx ctx{0, shape, nullptr, nullptr, 0.0f, nullptr, 0.0f, nullptr};
  ap::AttentionActs acts;
  ap::ActTensor<3> qkv{"qkv"}, out{"attention output"};
  qkv.zeros({2, 3, 16});  // (B, T, 2C): a missing third
  out.zeros({2, 3, 8});
  CHECK_THROWS_WITH(ap::attention_forward(out.view(), acts, qkv.cview(), ctx),
                    Contains("attention input qkv") && Contains("(2, 3, 16)") && Contains("(2, 3, 24)"));
  qkv.zeros({2, 3, 24});
  out.zeros({3, 2, 8});  // B and T swapped
  CHECK_THROWS_AS(ap::attention_forward(out.view(), acts, qkv.cview(), ctx), ap::ShapeError);
  // backward without a forward of this shape: the saved q does not match
  out.zeros({2, 3, 8});
  CHECK_THROWS_WITH(ap::attention_backward(qkv.view(), out.cview(), acts, ctx), Contains("attention q"));
}
