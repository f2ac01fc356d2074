// core/session/interventions.cpp — head interventions on a trained model (interventions.hpp): the JSON
// door (declared fields only, bounded, messages that name the entry, the field and the allowed
// values) and the evaluation with and without them. The edits themselves are
// model/intervention.cpp; the attention forward applies them at evaluation only.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "session/interventions.hpp"

#include "refusal/refusal.hpp"
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

// A whole number in [lo, hi] at entry.field, else a message naming both and the range: the
// refusal `missing` when it is absent, `out_of_range` when outside [lo, hi].
int whole(const nlohmann::json& e, const std::string& at, const char* field, int lo, int hi, const char* missing,
          const char* out_of_range) {
  const std::string name = at + "." + field;
  const RefusalParams range{{"lo", std::to_string(lo)}, {"hi", std::to_string(hi)}};
  if (!e.contains(field)) refuse(missing, name, range);
  const nlohmann::json& v = e[field];
  if (!v.is_number_integer()) refuse("interventions.not_whole", name, {{"value", show_value(v)}});
  const long long x = v.get<long long>();
  if (x < lo || x > hi) refuse(out_of_range, name, {{"value", std::to_string(x)}, range[0], range[1]});
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

// The kind of entry `at` (an object of declared fields only), else a refusal naming the entry.
const EditKindInfo& entry_kind(const nlohmann::json& e, const std::string& at) {
  if (!e.is_object()) refuse("interventions.not_object", at, {{"value", show_value(e)}});
  for (auto& [k, v] : e.items())
    if (std::find(kFields.begin(), kFields.end(), k) == kFields.end())
      refuse("interventions.unknown_field", at, {{"name", show_text(k)}});
  if (!e.contains("kind") || !e["kind"].is_string())
    refuse("interventions.kind_missing", at + ".kind", {{"kinds", kind_names()}});
  const std::string name = e["kind"].get<std::string>();
  auto info = std::find_if(edit_kinds().begin(), edit_kinds().end(), [&](auto& k) { return name == k.name; });
  if (info == edit_kinds().end())
    refuse("interventions.kind_unknown", at + ".kind", {{"name", show_text(name)}, {"kinds", kind_names()}});
  return *info;
}

}  // namespace

const nlohmann::json& Interventions::set(const nlohmann::json& list) {
  const Config& cfg = s_.config();
  if (!list.is_array())
    refuse("interventions.not_array", "interventions",
           {{"shape", R"({"layer", "head", "kind"})"}, {"type", list.type_name()}});
  if (list.size() > size_t(kMax))
    refuse("interventions.too_many", "interventions",
           {{"n", std::to_string(list.size())}, {"max", std::to_string(kMax)}});
  const int L = cfg.layers, NH = cfg.heads, T = cfg.seq_len + cfg.anchor_count();
  std::vector<HeadEdit> edits;
  nlohmann::json kept = nlohmann::json::array();
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = "interventions[" + std::to_string(i) + "]";
    const nlohmann::json& e = list[i];
    const EditKindInfo& info = entry_kind(e, at);
    const std::string name = info.name;
    HeadEdit h;
    h.kind = info.kind;
    h.layer = whole(e, at, "layer", 0, L - 1, "interventions.layer_missing", "interventions.layer_range");
    h.head = whole(e, at, "head", 0, NH - 1, "interventions.head_missing", "interventions.head_range");
    const auto extra = extra_fields(h.kind);
    for (const char* f : {"position", "offset", "donor"})
      if (e.contains(f) && std::find(extra.begin(), extra.end(), f) == extra.end())
        refuse("interventions.takes_no", at + "." + f, {{"kind", name}, {"name", f}});
    nlohmann::json out{{"layer", h.layer}, {"head", h.head}, {"kind", name}};
    std::string label = "layer " + std::to_string(h.layer) + " head " + std::to_string(h.head) + ": " + name;
    if (h.kind == EditKind::Position || (h.kind == EditKind::Patch && e.contains("position"))) {
      h.position = whole(e, at, "position", 0, T - 1, "interventions.position_missing", "interventions.position_range");
      out["position"] = h.position;
      label += (h.kind == EditKind::Patch ? " at " : " ") + std::to_string(h.position);
    }
    if (h.kind == EditKind::Offset) {
      h.offset = whole(e, at, "offset", 0, T - 1, "interventions.offset_missing", "interventions.offset_range");
      out["offset"] = h.offset;
      label += " " + std::to_string(h.offset);
    }
    if (h.kind == EditKind::Patch) {
      h.donor = whole(e, at, "donor", 0, cfg.batch - 1, "interventions.donor_missing", "interventions.donor_range");
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
  if (n < 0 || n > 64) refuse("interventions.examples_range", "n", {{"lo", "0"}, {"hi", "64"}});
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
