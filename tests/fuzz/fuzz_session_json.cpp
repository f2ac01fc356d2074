// tests/fuzz/fuzz_session_json.cpp — libFuzzer target for the JSON a live session takes from its
// callers (core/session_json.cpp): run ids (Session.run in wasm), configure fields
// (Session.configure) and a grads batch (`attnplay grads --batch`).
//   byte 0: which door (0 run, 1 configure, 2 grads batch) and which model (a per-token task,
//           a per-sequence task, one with anchors); the rest: the JSON text.
// Each must succeed or throw std::invalid_argument; anything else (nlohmann's own exceptions,
// std::bad_alloc, a crash, UB) is a finding. What is accepted is checked: run() gives one row
// per id, configure() keeps weights and step and the config validates, gradients() gives a
// finite-or-not loss and one gradient per parameter. memory_limit_mb is 4, so long id lists
// and big batches meet the forward-pass bound.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "session/inspect.hpp"
#include "session/session.hpp"
#include "session/json.hpp"

namespace {

nlohmann::json config(int which) {
  nlohmann::json c = {{"d_model", 16}, {"heads", 2},   {"layers", 1},     {"ffn", 16},
                      {"batch", 2},    {"seq_len", 8}, {"eval_every", 0}, {"memory_limit_mb", 4}};
  const char* tasks[] = {"copy", "parity", "sort"};
  c["task"] = tasks[which % 3];
  if (which % 3 == 2) c["anchors"] = "cls_sep", c["position"] = "learned";
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::vector<std::unique_ptr<ap::Session>> sessions;
  if (sessions.empty())
    for (int i = 0; i < 3; ++i) sessions.push_back(std::make_unique<ap::Session>(ap::Config::from_json(config(i))));
  if (size < 1) return 0;
  const int door = data[0] % 3, which = (data[0] / 3) % 3;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  ap::Session& s = *sessions[which];
  try {
    if (door == 0) {
      const std::vector<int32_t> ids = ap::run_ids_from_json(text);
      const nlohmann::json r = s.inspect().run(ids);
      if (r["tokens"].size() != ids.size()) __builtin_trap();
    } else if (door == 1) {
      ap::Session fresh(ap::Config::from_json(config(which)));  // configure changes the session
      const std::string sha = fresh.weights_sha256();
      ap::configure_from_json(fresh, text);
      fresh.config().validate();  // what configure accepted is a valid config
      if (fresh.weights_sha256() != sha || fresh.steps_done() != 0) __builtin_trap();
      if (fresh.config().steps > 0) fresh.step();
    } else {
      const ap::Batch b = ap::batch_from_text(s, text);
      std::vector<std::pair<std::string, std::vector<float>>> g;
      s.gradients(b, g);
      if (g.size() != s.model().params().infos().size()) __builtin_trap();
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
