// core/session/interventions.cpp — head interventions on a trained model (interventions.hpp): the JSON
// door (declared fields only, bounded, messages that name the entry, the field and the allowed
// values) and the evaluation with and without them. The edits themselves are
// model/intervention.cpp; the attention forward applies them at evaluation only.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "session/interventions.hpp"

#include "io/json.hpp"
#include "session/inspect.hpp"
#include "session/session.hpp"

namespace ap {

namespace {

const std::vector<std::string> kFields = {"layer", "head", "kind", "position", "offset", "donor"};

std::string kind_names() {
  std::string s;
  for (auto& k : edit_kinds()) s += (s.empty() ? "" : ", ") + std::string(k.name);
  return s;
}

// A whole number in [lo, hi] at entry.field, else a message naming both and the range.
int whole(const nlohmann::json& e, const std::string& at, const char* field, int lo, int hi,
          const std::string& range_note) {
  if (!e.contains(field)) throw std::invalid_argument(at + "." + field + " is missing (" + range_note + ")");
  const nlohmann::json& v = e[field];
  if (!v.is_number_integer())
    throw std::invalid_argument(at + "." + field + ": expected a whole number, not " + show_value(v));
  const long long x = v.get<long long>();
  if (x < lo || x > hi)
    throw std::invalid_argument(at + "." + field + ": " + std::to_string(x) + " is out of range; " + range_note);
  return int(x);
}

// The fields each kind takes besides layer, head and kind.
std::vector<std::string> extra_fields(EditKind k) {
  switch (k) {
    case EditKind::Position:
      return {"position"};
    case EditKind::Offset:
      return {"offset"};
    case EditKind::Patch:
      return {"donor", "position"};
    default:
      return {};
  }
}

}  // namespace

const nlohmann::json& Interventions::set(const nlohmann::json& list) {
  const Config& cfg = s_.config();
  if (!list.is_array())
    throw std::invalid_argument("interventions: expected an array of {\"layer\", \"head\", \"kind\"} objects, not " +
                                std::string(list.type_name()));
  if (list.size() > size_t(kMax))
    throw std::invalid_argument("interventions: " + std::to_string(list.size()) + " are above the limit of " +
                                std::to_string(kMax));
  const int L = cfg.layers, NH = cfg.heads, T = cfg.seq_len + cfg.anchor_count();
  std::vector<HeadEdit> edits;
  nlohmann::json kept = nlohmann::json::array();
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = "interventions[" + std::to_string(i) + "]";
    const nlohmann::json& e = list[i];
    if (!e.is_object()) throw std::invalid_argument(at + ": expected an object, not " + show_value(e));
    for (auto& [k, v] : e.items())
      if (std::find(kFields.begin(), kFields.end(), k) == kFields.end())
        throw std::invalid_argument(at + ": unknown field " + show_text(k) +
                                    "; the fields are layer, head, kind, position, offset, donor");
    if (!e.contains("kind") || !e["kind"].is_string())
      throw std::invalid_argument(at + ".kind: expected one of " + kind_names());
    const std::string name = e["kind"].get<std::string>();
    auto info = std::find_if(edit_kinds().begin(), edit_kinds().end(), [&](auto& k) { return name == k.name; });
    if (info == edit_kinds().end())
      throw std::invalid_argument(at + ".kind: unknown kind " + show_text(name) + "; the kinds are " + kind_names());
    HeadEdit h;
    h.kind = info->kind;
    h.layer = whole(e, at, "layer", 0, L - 1, "this model has layers 0 to " + std::to_string(L - 1));
    h.head = whole(e, at, "head", 0, NH - 1, "this model has heads 0 to " + std::to_string(NH - 1));
    const auto extra = extra_fields(h.kind);
    for (const char* f : {"position", "offset", "donor"})
      if (e.contains(f) && std::find(extra.begin(), extra.end(), f) == extra.end())
        throw std::invalid_argument(at + "." + f + ": kind '" + name + "' takes no " + f);
    const std::string positions = "positions are 0 to " + std::to_string(T - 1) + " (anchors included)";
    nlohmann::json out{{"layer", h.layer}, {"head", h.head}, {"kind", name}};
    std::string label = "layer " + std::to_string(h.layer) + " head " + std::to_string(h.head) + ": " + name;
    if (h.kind == EditKind::Position || (h.kind == EditKind::Patch && e.contains("position"))) {
      h.position = whole(e, at, "position", 0, T - 1, positions);
      out["position"] = h.position;
      label += (h.kind == EditKind::Patch ? " at " : " ") + std::to_string(h.position);
    }
    if (h.kind == EditKind::Offset) {
      h.offset = whole(e, at, "offset", 0, T - 1, "offsets are 0 to " + std::to_string(T - 1));
      out["offset"] = h.offset;
      label += " " + std::to_string(h.offset);
    }
    if (h.kind == EditKind::Patch) {
      h.donor = whole(e, at, "donor", 0, cfg.batch - 1,
                      "the donor is a held-out example 0 to " + std::to_string(cfg.batch - 1) + " (batch)");
      out["donor"] = h.donor;
      label += " from example " + std::to_string(h.donor);
    }
    out["label"] = label;
    edits.push_back(std::move(h));
    kept.push_back(std::move(out));
  }
  edits_ = std::move(edits);  // nothing changes when an entry throws
  json_ = std::move(kept);
  return json_;
}

void Interventions::clear() {
  edits_.clear();
  json_ = nlohmann::json::array();
}

void Interventions::fill_donors() {
  const Config& cfg = s_.config();
  Transformer& model = s_.model();
  if (std::none_of(edits_.begin(), edits_.end(), [](auto& e) { return e.kind == EditKind::Patch; })) return;
  Rng rng(uint64_t(cfg.seed) ^ 0x5EED0E7A1ull);  // the evaluation's first held-out batch
  Batch b = s_.make_batch(rng, cfg.batch, cfg.seq_len, Split::Heldout);
  model.set_edits(nullptr);  // the donor's own, unmodified run
  model.forward(b.inputs.data(), b.B, b.T, nullptr, nullptr, false, nullptr);
  const int NH = cfg.heads, HS = cfg.d_model / NH, T = b.T;
  for (HeadEdit& e : edits_) {
    if (e.kind != EditKind::Patch) continue;
    const float* o = model.attention(e.layer).o.data() + (size_t(e.donor) * NH + e.head) * T * HS;  // (B,NH,T,HS)
    e.donor_out.assign(o, o + size_t(T) * HS);
  }
}

nlohmann::json Interventions::evaluate(int n) {
  const int L = s_.config().seq_len;
  Transformer& model = s_.model();
  if (n < 0 || n > 64) throw std::invalid_argument("interventions: n (the examples shown) must be from 0 to 64");
  // The model holds a pointer to the list only for the forwards below, even when one throws.
  struct Scope {
    Transformer& m;
    ~Scope() { m.set_edits(nullptr); }
  } scope{model};
  nlohmann::json out{{"step", s_.steps_done()}, {"interventions", json_}};
  out["base"] = s_.held_out(L).to_json();
  nlohmann::json base_pred = n > 0 ? s_.inspect().predictions(n) : nlohmann::json();
  fill_donors();
  model.set_edits(edits_.empty() ? nullptr : &edits_);
  out["intervened"] = s_.held_out(L).to_json();
  if (n > 0) out["predictions"] = {{"base", std::move(base_pred)}, {"intervened", s_.inspect().predictions(n)}};
  return out;
}

}  // namespace ap
