// core/torch/normalizations.cpp — the PyTorch form of each attention normalization (the table
// snippet.hpp describes): `class Normalization(NormalizationBase)` with rows(s, visible) mapping
// logits (B, NH, T, T) to weights, masked keys 0, as core/normalization/<name>.cpp computes them
// (same max shifts, same ε guards, float32 but where the engine works in double). This file: the
// table and the row maps; the entries that map q and k or form the scores themselves (cosine,
// linear, performer) are in normalizations_qk.cpp. Every registry entry has a row.
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

const char* const kSink = R"PY(class Normalization(NormalizationBase):
    """Learned sink: softmax over the row and one extra logit z_h = blocks.{l}.attn.sinks[h] whose key
    has no value, dropped after (gpt-oss sdpa; core/normalization/sink.cpp)."""

    def rows(self, m, layer, s, visible):
        z = m.get_parameter(f"blocks.{layer}.attn.sinks")[:, None, None].expand(*s.shape[:-1], 1)
        return torch.cat([s.masked_fill(~visible, float("-inf")), z], -1).softmax(-1)[..., :-1])PY";

std::string sink(const MakeContext&) { return kSink; }

const char* const kTopk = R"PY(class Normalization(NormalizationBase):
    """Top-k: softmax over the keys whose logit is >= the row's K-th largest (ties kept; a row of at
    most K visible keys is a plain softmax) (core/normalization/topk.cpp; evaluation: forward only)."""
    K = $a

    def rows(self, m, layer, s, visible):
        s = s.masked_fill(~visible, float("-inf"))
        if s.shape[-1] > self.K:
            s = s.masked_fill(s < s.topk(self.K, dim=-1).values[..., -1:], float("-inf"))
        return s.softmax(-1))PY";

std::string topk(const MakeContext& ctx) { return fill(kTopk, {ctx.options.integer("topk_k")}); }

const char* const kStick = R"PY(class Normalization(NormalizationBase):
    """Stick-breaking, nearest key first: a_ij = exp(-softplus(-s_ij) - sum over j < k < i of softplus(s_ik))
    in float64, keys j < i (j <= i when CURRENT); causal only (core/normalization/stick_breaking.cpp)."""
    CURRENT = $a

    def rows(self, m, layer, s, visible):
        keys = visible if self.CURRENT else visible.tril(-1)
        sp = lambda x: x.clamp(min=0.0) + torch.log1p(torch.exp(-x.abs()))  # ln(1 + e^x), stable
        s = s.double()
        spent = sp(s).masked_fill(~keys, 0.0)
        spent = spent.flip(-1).cumsum(-1).flip(-1) - spent  # the nearer keys' sum
        return torch.exp(-sp(-s) - spent).float().masked_fill(~keys, 0.0))PY";

std::string stick_breaking(const MakeContext& ctx) {
  return fill(kStick, {ctx.options.flag("stick_breaking_current")});
}

}  // namespace

const std::vector<TorchSnippet>& torch_normalization_snippets() {
  using namespace torch_py;
  static const std::vector<TorchSnippet> table = {
      {"softmax", softmax},   {"l2", l2},       {"relu2", relu2},   {"swish_l2", swish_l2},
      {"exp", exp},           {"sigmoid", sigmoid}, {"softmax1", softmax1}, {"sink", sink},
      {"topk", topk},         {"stick_breaking", stick_breaking}, {"cosine", cosine},
      {"linear", linear},     {"performer", performer},
  };
  return table;
}

}  // namespace ap
