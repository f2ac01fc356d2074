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

const char* const kRelu2 = R"PY(class Normalization(NormalizationBase):
    """relu(s)^2 / N, N = FIXED_N (fixed), the row length T (row) or the visible keys (visible)
    (core/normalization/relu2.cpp)."""
    DIVISOR, FIXED_N = "$a", $b

    def rows(self, m, layer, s, visible):
        if self.DIVISOR == "visible":
            n = visible.sum(-1, keepdim=True).float()
        else:
            n = torch.tensor(float(s.shape[-1] if self.DIVISOR == "row" else self.FIXED_N))
        return (torch.relu(s).square() * (1.0 / n)).masked_fill(~visible, 0.0))PY";

std::string relu2(const MakeContext& ctx) {
  const std::string d = ctx.options.text("relu2_divisor");
  const int n = ctx.options.integer("relu2_n");
  return fill(kRelu2, {d == "row" ? "row" : d == "visible" ? "visible" : "fixed", n > 0 ? n : ctx.sizes.model_len});
}

std::string swish_l2(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    def rows(self, m, layer, s, visible):  # silu(s) / sqrt(sum silu(s)^2 + 1e-12) (core/normalization/swish_l2.cpp)
        u = F.silu(s).masked_fill(~visible, 0.0)
        return u / (u.square().sum(-1, keepdim=True) + 1e-12).sqrt())PY";
}

const char* const kExp = R"PY(class Normalization(NormalizationBase):
    """e^s, no denominator; s -> CAP tanh(s / CAP) first when CAP > 0 (core/normalization/exp.cpp)."""
    CAP = $a

    def rows(self, m, layer, s, visible):
        if self.CAP > 0:
            s = self.CAP * torch.tanh(s / self.CAP)
        return torch.exp(s).masked_fill(~visible, 0.0))PY";

std::string exp(const MakeContext& ctx) { return fill(kExp, {double(float(ctx.options.number("exp_softcap")))}); }

const char* const kSigmoid = R"PY(class Normalization(NormalizationBase):
    """sigmoid(s + b), b = -ln(visible keys) when AUTO, else B (core/normalization/sigmoid.cpp)."""
    AUTO, B = $a, $b

    def rows(self, m, layer, s, visible):
        b = -torch.log(visible.sum(-1, keepdim=True).float()) if self.AUTO else self.B
        return torch.sigmoid(s + b).masked_fill(~visible, 0.0))PY";

std::string sigmoid(const MakeContext& ctx) {
  return fill(kSigmoid, {bool(ctx.options.text("sigmoid_bias") != "fixed"), double(float(ctx.options.number("sigmoid_b")))});
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
