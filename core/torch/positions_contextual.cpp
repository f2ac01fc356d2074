// core/torch/positions_contextual.cpp — the PyTorch form of the position encodings whose logit
// bias depends on the content, q or k (rows of the table in positions.cpp; snippet.hpp):
// contextual1 and contextual2 (DeBERTa-like, the T5 buckets of positions_relative.cpp), CoPE and
// the forget gate. Each computes what core/position/<name>.cpp's bias_forward adds, on the q and
// k the hook sees (after the normalization's map and the rotation), in float32 but for the
// forget gate's running sum (float64, as the engine's).
#include <string>

#include "torch/snippet.hpp"

namespace ap {

namespace torch_py {

namespace {

const char* const kContextual = R"PY(class Position(PositionBase):
    """contextual1 (c2p): s_ij += tau q_i.(E[x] W_r^T)_h; contextual2 (c2p + p2c): s_ij += tau (q_i.(E[x] W_K^T)_h
    + k_j.(E[x] W_Q^T)_h), W_Q, W_K the layer's own; x = the T5 bucket of i - j (one-sided when causal),
    E = contextual.rel_emb.weight (NB, C), ( )_h head h's slice (core/position/contextual.cpp)."""
    NB, MAX_DISTANCE, P2C = $a, $b, $c

    def bias(self, m, layer, s, q, k, tau):
        T, HS = s.shape[-1], q.shape[-1]
        x = torch.tensor([[_t5_bucket(b - a if CAUSAL else a - b, not CAUSAL, self.NB, self.MAX_DISTANCE)
                           for b in range(T)] for a in range(T)], device=s.device)
        i, j = torch.arange(T, device=s.device)[:, None], torch.arange(T, device=s.device)[None, :]
        E = m.get_parameter("contextual.rel_emb.weight")
        W = m.get_parameter(f"blocks.{layer}.attn.qkv.weight" if self.P2C else "contextual.to_r.weight")
        heads = lambda R: R.reshape(self.NB, HEADS, HS).permute(1, 2, 0)  # (NB, C) -> (NH, HS, NB)
        c2p = tau * (q @ heads(E @ W[D_MODEL:2 * D_MODEL].t() if self.P2C else E @ W.t()))  # (B, NH, T, NB)
        s = s + c2p[:, :, i, x]
        if self.P2C:
            s = s + (tau * (k @ heads(E @ W[:D_MODEL].t())))[:, :, j, x]
        return s)PY";

const char* const kCope = R"PY(class Position(PositionBase):
    """CoPE: g_ij = sigmoid(tau q_i.k_j), p_ij = the sum of g_ik over k from j to i (either side), clamped to
    NPOS - 1; s_ij += q_i.e(p_ij), e linear between the rows floor(p), ceil(p) of
    blocks.{l}.attn.cope.pos_emb.weight (NPOS, HS) (core/position/cope.cpp)."""

    def bias(self, m, layer, s, q, k, tau):
        E = m.get_parameter(f"blocks.{layer}.attn.cope.pos_emb.weight")
        g = torch.sigmoid(tau * (q @ k.transpose(-2, -1)))
        left = torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).tril()  # keys j <= i
        p = torch.where(left, g.masked_fill(~left, 0.0).flip(-1).cumsum(-1).flip(-1),
                        g.masked_fill(left.tril(-1), 0.0).cumsum(-1)).clamp(max=E.shape[0] - 1)
        w, qe = p - p.floor(), q @ E.t()  # qe (B, NH, T, NPOS)
        return s + (1 - w) * qe.gather(-1, p.floor().long()) + w * qe.gather(-1, p.ceil().long()))PY";

const char* const kForget = R"PY(class Position(PositionBase):
    """Forget gate: s_ij += c_i - c_j, c_t = the sum over l <= t of ln sigmoid(w_h.k_l + b_h) in float64,
    w, b = blocks.{l}.attn.forget.weight (NH, HS), .bias (NH); causal only (core/position/forget.cpp)."""

    def bias(self, m, layer, s, q, k, tau):
        p = lambda name: m.get_parameter(f"blocks.{layer}.attn.forget.{name}")
        z = ((k * p("weight")[:, None, :]).sum(-1) + p("bias")[:, None]).double()  # (B, NH, T)
        c = (-F.softplus(-z)).cumsum(-1)
        return s + (c[..., :, None] - c[..., None, :]).float())PY";

std::string contextual(const MakeContext& ctx, bool p2c) {
  return kPyT5Bucket + fill(kContextual, {ctx.options.integer("contextual_num_buckets"),
                                          ctx.options.integer("contextual_max_distance"), p2c});
}

}  // namespace

std::string contextual1(const MakeContext& ctx) { return contextual(ctx, false); }
std::string contextual2(const MakeContext& ctx) { return contextual(ctx, true); }
std::string cope(const MakeContext&) { return kCope; }
std::string forget(const MakeContext&) { return kForget; }

}  // namespace torch_py

}  // namespace ap
