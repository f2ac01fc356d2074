// core/torch/normalizations_qk.cpp — the PyTorch form of the normalizations that map q and k
// (cosine, linear) or form the scores themselves (performer), rows of the table in
// normalizations.cpp (snippet.hpp); as core/normalization/<name>.cpp computes them.
#include <string>

#include "torch/snippet.hpp"

namespace ap {

namespace torch_py {

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

// Performer's features are the engine's draw (FIXED_TENSORS, written by the export from
// Normalization::fixed_tensors), never redrawn in Python; the shifts are the engine's too.
std::string performer(const MakeContext&) {
  return R"PY(class Normalization(NormalizationBase):
    """Performer FAVOR+: s_ij = phi(q_i).phi(k_j), phi(x) = M^-1/2 exp(w x' - |x'|^2/2 - c), x' = HS^-1/4 x,
    w = blocks.{l}.attn.performer.omega (M, HS) the engine's draw, c the max per query row and per (batch,
    head) over the keys; a = s / (sum s + 1e-12) (core/normalization/performer.cpp)."""

    def scores(self, m, layer, q, k):
        w = m.get_buffer(f"blocks.{layer}.attn.performer.omega")
        inv = torch.tensor(1.0 / math.sqrt(w.shape[0])).float()

        def phi(x, keys):
            x = x * torch.tensor(float(w.shape[1])).pow(-0.25)
            f = x @ w.t() - (0.5 * x.double().square().sum(-1, keepdim=True)).float()
            c = f.amax((-2, -1) if keys else -1, keepdim=True)
            return torch.exp(f - c) * inv
        return phi(q, False) @ phi(k, True).transpose(-2, -1)

    def rows(self, m, layer, s, visible):
        s = s.masked_fill(~visible, 0.0)
        return (s / (s.double().sum(-1, keepdim=True) + 1e-12)).float())PY";
}

}  // namespace torch_py

}  // namespace ap
