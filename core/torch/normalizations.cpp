// core/torch/normalizations.cpp — the PyTorch form of each attention normalization (the table
// snippet.hpp describes): `class Normalization(NormalizationBase)` with rows(s, visible) mapping
// logits (B, NH, T, T) to weights, masked keys 0, as core/normalization/<name>.cpp computes them
// (same max shifts, same ε guards, float32 throughout). Not here, so refused by the export:
// performer (its random features are drawn by the engine's generator, which Python cannot
// replay).
#include <string>

#include "torch/snippet.hpp"

namespace ap {

namespace {

std::string softmax(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # e^s / sum e^s (core/normalization/softmax.cpp)
        return s.masked_fill(~visible, float("-inf")).softmax(-1))PY";
}

std::string l2(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # e^s / sqrt(sum e^2s), max shifted (core/normalization/l2.cpp)
        s = s.masked_fill(~visible, float("-inf"))
        u = torch.exp(s - s.amax(-1, keepdim=True))
        return u / u.square().sum(-1, keepdim=True).sqrt())PY";
}

std::string relu2(const MakeContext& ctx) {
  const std::string d = ctx.options.text("relu2_divisor");
  int fixed = ctx.options.integer("relu2_n");
  if (fixed <= 0) fixed = ctx.sizes.model_len;
  const std::string n = d == "row"       ? "torch.tensor(float(s.shape[-1]))"
                        : d == "visible" ? "visible.sum(-1, keepdim=True).float()"
                                         : "torch.tensor(" + py_num(fixed) + ")";
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # relu(s)^2 / N (core/normalization/relu2.cpp)
        inv = 1.0 / )PY" + n + R"PY(
        return (torch.relu(s).square() * inv).masked_fill(~visible, 0.0))PY";
}

std::string swish_l2(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # silu(s) / sqrt(sum silu(s)^2 + 1e-12) (core/normalization/swish_l2.cpp)
        u = F.silu(s).masked_fill(~visible, 0.0)
        return u / (u.square().sum(-1, keepdim=True) + 1e-12).sqrt())PY";
}

std::string exp(const MakeContext& ctx) {
  const double cap = double(float(ctx.options.number("exp_softcap")));
  const std::string capped = cap > 0 ? py_num(cap) + " * torch.tanh(s / " + py_num(cap) + ")" : "s";
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # e^s, no denominator; s capped when exp_softcap > 0 (core/normalization/exp.cpp)
        return torch.exp()PY" + capped + R"PY().masked_fill(~visible, 0.0))PY";
}

std::string sigmoid(const MakeContext& ctx) {
  const bool autob = ctx.options.text("sigmoid_bias") != "fixed";
  const std::string b = autob ? "-torch.log(visible.sum(-1, keepdim=True).float())"
                              : py_num(double(float(ctx.options.number("sigmoid_b"))));
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # sigmoid(s + b), b = -ln(visible keys) or fixed (core/normalization/sigmoid.cpp)
        return torch.sigmoid(s + )PY" + b + R"PY().masked_fill(~visible, 0.0))PY";
}

std::string softmax1(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # e^s / (1 + sum e^s), shifted by max(0, max s) (core/normalization/softmax1.cpp)
        s = s.masked_fill(~visible, float("-inf"))
        top = s.amax(-1, keepdim=True).clamp(min=0.0)
        e = torch.exp(s - top)
        return e / (torch.exp(-top) + e.sum(-1, keepdim=True)))PY";
}

std::string cosine(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    """Swin v2 cosine attention: q <- tau_h q/|q|, k <- k/|k|, tau_h = exp(min(ln 10 + w_h, ln 100)),
    w = blocks.{l}.attn.cosine_scale; then softmax (core/normalization/cosine.cpp)."""

    def qk(self, m, layer, q, k):
        ln10, ln100 = torch.tensor(10.0).log(), torch.tensor(100.0).log()
        w = m.get_parameter(f"blocks.{layer}.attn.cosine_scale")
        tau = torch.exp(torch.minimum(ln10 + w, ln100))[None, :, None, None]
        unit = lambda x: x / x.norm(dim=-1, keepdim=True).clamp(min=1e-12)
        return unit(q) * tau, unit(k)

    def rows(self, m, layer, s, visible):
        return s.masked_fill(~visible, float("-inf")).softmax(-1))PY";
}

std::string linear(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    """Linear attention, phi = elu + 1: s = phi(q).phi(k), a = s / (sum s +- 1e-6, the sign of the
    sum) over the visible keys (core/normalization/linear.cpp)."""

    def qk(self, m, layer, q, k):
        phi = lambda x: torch.where(x > 0, x + 1.0, torch.exp(x))
        return phi(q), phi(k)

    def rows(self, m, layer, s, visible):
        s = s.masked_fill(~visible, 0.0)
        d = s.sum(-1, keepdim=True)
        return s / torch.where(d >= 0, d + 1e-6, d - 1e-6))PY";
}

}  // namespace

const std::vector<TorchSnippet>& torch_normalization_snippets() {
  static const std::vector<TorchSnippet> table = {
      {"softmax", softmax}, {"l2", l2},           {"relu2", relu2},   {"swish_l2", swish_l2},
      {"exp", exp},         {"sigmoid", sigmoid}, {"softmax1", softmax1}, {"cosine", cosine},
      {"linear", linear},
  };
  return table;
}

}  // namespace ap
