// core/position/none.cpp — no position information (NoPE). With a bidirectional model and no
// anchors the transformer is then permutation-equivariant: f(πX) = πf(X) (seed 003, §2.2.4).
#include "position/position.hpp"

namespace ap {

namespace {
class NoPosition : public PositionEncoding {
 public:
  nlohmann::json display(int T) const override { return {{"kind", "none"}}; }
};

// The PyTorch form (common/torch_form.hpp): no hook.
std::string torch_none(const MakeContext&, PyFill fill) {
  return fill(R"PY(class Position(PositionBase):  # none: no position information
    pass)PY",
              {});
}
}  // namespace

PositionEntry position_none() {
  PositionEntry e{"none",
                  "No position encoding (NoPE)",
                  R"(h^0_p = E[t_p])",
                  "nowhere",
                  "Without positions an encoder sees a bag of tokens: permuting the input permutes the "
                  "outputs. A causal mask alone lets a decoder count how many tokens precede it.",
                  false,
                  false,
                  true,
                  {},
                  [](const MakeContext&, ParamStore&) -> std::unique_ptr<PositionEncoding> {
                    return std::make_unique<NoPosition>();
                  }};
  e.torch.python = torch_none;
  return e;
}

}  // namespace ap
