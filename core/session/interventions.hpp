// core/session/interventions.hpp — head interventions on a trained model (issue 19 §1), an object
// of its own beside the Session that owns it (Session::interventions()): head edits
// (model/intervention.hpp) that apply to evaluate() here only, never to training, to
// Session::evaluate(), the views or the weights. A new or loaded session has none. It holds a
// reference to its session and reads it through its public face (config, model, held-out data).
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "model/intervention.hpp"

namespace ap {

class Session;

class Interventions {
 public:
  static constexpr int kMax = 64;  // edits in one list

  explicit Interventions(Session& s) : s_(s) {}
  Interventions(const Interventions&) = delete;
  Interventions& operator=(const Interventions&) = delete;

  // Replace the list by a JSON array of {"layer", "head", "kind", and per kind "position",
  // "offset" or "donor"} (at most kMax; declared fields only); throws std::invalid_argument
  // naming the entry and field ("interventions[0].head: ..."), and then nothing changes.
  // Returns the list as kept (fields in order, with a "label").
  const nlohmann::json& set(const nlohmann::json& list);
  void clear();
  const nlohmann::json& list() const { return json_; }
  // The held-out evaluation at seq_len with and without the interventions, and the predictions of
  // n held-out examples (0..64; 0: none) both ways: {"step", "interventions", "base", "intervened"
  // (EvalMetrics), "predictions": {"base", "intervened"} (as Inspector::predictions())}. Not kept
  // in Session::evals().
  nlohmann::json evaluate(int n);

 private:
  void fill_donors();  // the Patch edits' donor outputs, from a clean forward
  Session& s_;
  std::vector<HeadEdit> edits_;
  nlohmann::json json_ = nlohmann::json::array();  // edits_ as set() returned them
};

}  // namespace ap
