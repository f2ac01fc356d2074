// core/bindings/bindings.cpp — the Embind surface of the wasm module over the Session facade.
// The only file that includes <emscripten/...>. Structured results cross as JSON strings (the
// same objects the CLI prints); model files cross as Uint8Array copies, never as views into
// wasm memory. Every C++ exception becomes a JS Error with its message, and the module lives on.
#include <emscripten/bind.h>
#include <emscripten/em_asm.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "normalization/normalization.hpp"
#include "position/position.hpp"
#include "refusal/refusal.hpp"
#include "io/json.hpp"
#include "session/inspect.hpp"
#include "session/interventions.hpp"
#include "session/json.hpp"
#include "session/replay.hpp"
#include "session/session.hpp"
#include "tasks/task.hpp"
#include "tensor/kernels.hpp"
#include "tensor/thread_pool.hpp"

using emscripten::val;

namespace {

// A refusal's structure as JS sees it: {code, field, params, where} (core/refusal/refusal.hpp).
// Any other exception (a library's, out of memory) has the code "engine.other".
nlohmann::json refusal_json(const std::exception& e) {
  auto* r = dynamic_cast<const ap::Refusal*>(&e);
  if (!r) return {{"code", "engine.other"}, {"field", ""}, {"params", nlohmann::json::object()}, {"where", ""}};
  nlohmann::json params = nlohmann::json::object();
  for (auto& [k, v] : r->params()) params[k] = v;
  return {{"code", r->code()}, {"field", r->field()}, {"params", params}, {"where", r->where()}};
}

// The JSON text of `j`, safe for any bytes a message quotes (invalid UTF-8 is replaced).
std::string dump_safe(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A JS Error with the message and, as its `refusal` property, the refusal's structure.
[[noreturn]] void throw_js(const std::exception& e) {
  val err = val::global("Error").new_(std::string(e.what()));
  err.set("refusal", val::global("JSON").call<val>("parse", dump_safe(refusal_json(e))));
  err.throw_();
  __builtin_unreachable();
}

template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    throw_js(e);
  }
}

// Strings from JS arrive as val and are copied inside C++. An Embind std::string argument is a
// buffer that the generated JS invoker mallocs and frees only after the call returns, so every
// call that threw (a rejected config) leaked its whole argument: 400 rejections of a 200 KB
// config grew the heap by 77 MB. The copy made here is freed by C++ unwinding like any local.
std::string text_of(const val& v, const char* what) {
  if (!v.isString()) ap::refuse("bindings.not_text", what, {});
  return v.as<std::string>();
}

// Bounded in size and nesting (io/json.hpp): a 100000-deep config once overflowed the stack,
// which in wasm is a RangeError that names nothing and leaks the heap.
nlohmann::json parse(const std::string& text, const char* what) { return ap::parse_json(text, what, ap::kConfigJson); }

// The registry JSON of the CLI's `list --json` (with live_keys), without its prose (common/doc.hpp):
// the page imports the whole of it from web/src/state/registry.gen.js; tests/node/registry.test.mjs
// holds the two to the same structure.
std::string registry_json() { return ap::registry_with_live_keys().dump(); }

// {"ok": true, "config": the full config (with task defaults)} or {"ok": false, "error": message},
// for any input (not JSON, deep, huge, not a string): it never throws.
std::string check_config(const val& text) {
  try {
    ap::Config c = ap::Config::from_json(parse(text_of(text, "config"), "config"));
    return nlohmann::json{{"ok", true}, {"config", c.to_json()}}.dump();
  } catch (const std::exception& e) {
    // safe: a message that quotes invalid UTF-8 must not make dump() throw here
    return dump_safe({{"ok", false}, {"error", e.what()}, {"refusal", refusal_json(e)}});
  } catch (...) {  // never throw to JS: the page shows this message
    return dump_safe(
        {{"ok", false},
         {"error", "config: could not be checked"},
         {"refusal", {{"code", "engine.other"}, {"field", "config"}, {"params", nlohmann::json::object()}}}});
  }
}

// ap::Session as JS sees it (module.Session): the same object under the same name, with JSON
// strings and Uint8Arrays at the doors. Owns its ap::Session; JS must .delete() it. Its objects
// (the Inspector's views, the Replay, the Interventions) stay methods of this one JS object, under
// the names the web has always called (predictions, replayFrame, setInterventions ...).
class Session {
 public:
  explicit Session(const val& config)
      : s_(guarded([&] { return ap::Session::from_json(parse(text_of(config, "config"), "config")); })) {}
  explicit Session(std::unique_ptr<ap::Session> s) : s_(std::move(s)) {}

  // n steps (Session::train_chunk): JSON {"steps": [metrics...], "evals": [new evaluations...]}.
  std::string train_chunk(int n) {
    return guarded([&] { return s_->train_chunk(n).to_json().dump(); });
  }
  std::string evaluate(int length) {
    return guarded([&] { return s_->evaluate(length).to_json().dump(); });
  }
  std::string predictions(int n, int length) {
    return guarded([&] { return s_->inspect().predictions(n, length).dump(); });
  }
  std::string attention(int length, int example) {
    return guarded([&] { return s_->inspect().attention(length, example).dump(); });
  }
  std::string run(const val& ids) {
    return guarded([&] { return s_->inspect().run(ap::run_ids_from_json(text_of(ids, "ids"))).dump(); });
  }
  std::string positions(int length) {
    return guarded([&] { return s_->inspect().positions(length).dump(); });
  }
  // explore('{"length":64,"pair":1,"scaling":"ntk","factor":4}'): the Explore view's data.
  std::string explore(const val& request) {
    return guarded([&] { return s_->inspect().explore(parse(text_of(request, "explore"), "explore")).dump(); });
  }
  std::string generate(const val& prompt, int max_new, float temperature, int top_k, double seed) {
    return guarded([&] {
      return s_->inspect()
          .generate(s_->tokenize(text_of(prompt, "prompt")), max_new, temperature, top_k, uint64_t(seed))
          .dump();
    });
  }
  std::string info() {
    return guarded([&] { return s_->info().dump(); });
  }
  // Head interventions (core/session/interventions.hpp): setInterventions('[{"layer":0,"head":1,
  // "kind":"zero"}]') replaces the list and returns it as kept; intervened(n) evaluates with and
  // without it ({base, intervened, predictions}); clearInterventions() empties it.
  std::string set_interventions(const val& list) {
    return guarded([&] {
      return s_->interventions()
          .set(ap::parse_json(text_of(list, "interventions"), "interventions", ap::kSmallJson))
          .dump();
    });
  }
  void clear_interventions() { s_->interventions().clear(); }
  std::string intervened(int n) {
    return guarded([&] { return s_->interventions().evaluate(n).dump(); });
  }
  // configure('{"lr":0.001,"clip":1}'): optimizer fields of the live session (Session::configure);
  // returns the whole config after the change.
  std::string configure(const val& fields) {
    return guarded([&] {
      ap::configure_from_json(*s_, text_of(fields, "configure"));
      return s_->config().to_json().dump();
    });
  }
  int steps_done() const { return s_->steps_done(); }
  // The replay (core/session/replay.hpp, Replay::index / frame): the kept steps, then one frame by
  // step; set_replay(false) keeps no more frames. ("ReplayFrame" names nothing here: replay frames,
  // the worker's `inspect` bundle and the page's crash-recovery checkpoints are three things.)
  std::string replay_index() {
    return guarded([&] { return s_->replay().index().dump(); });
  }
  std::string replay_frame(int step) {
    return guarded([&] { return s_->replay().frame(step).dump(); });
  }
  void set_replay(bool on) { s_->replay().set_enabled(on); }
  // Head diagnostics (core/session/diagnostics.cpp): measures and labels of every head at one
  // replay step (-1: the latest), and each measure over the replay's steps.
  std::string head_diagnostics(int step) {
    return guarded([&] { return s_->replay().head_diagnostics(step).dump(); });
  }
  std::string head_diagnostics_history() {
    return guarded([&] { return s_->replay().head_diagnostics_history().dump(); });
  }
  // The model as one PyTorch file (Session::export_torch): Python source, the same as the CLI's.
  std::string export_torch() {
    return guarded([&] { return s_->export_torch(); });
  }
  val save() {
    return guarded([&] {
      std::vector<uint8_t> bytes = s_->save();
      // The Uint8Array constructor copies out of wasm memory.
      return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
    });
  }
  // Session.loadWith(bytes, overridesJson): a session from a model file with config fields
  // replaced (e.g. '{"rope_scaling":"ntk","rope_factor":4}' for an evaluation); Session.load(bytes)
  // without. The C++ names are the JS names.
  static Session* load_with(const val& bytes, const val& overrides) {
    return guarded([&] {
      if (!bytes.instanceof (val::global("Uint8Array"))) ap::refuse("bindings.not_bytes", "model file", {});
      std::vector<uint8_t> b = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
      const std::string text = overrides.isUndefined() ? "" : text_of(overrides, "overrides");
      auto o = text.empty() ? nlohmann::json::object() : parse(text, "overrides");
      return new Session(ap::Session::load(b.data(), b.size(), o));
    });
  }
  static Session* load(const val& bytes) { return load_with(bytes, val::undefined()); }

 private:
  std::unique_ptr<ap::Session> s_;
};

// The declared refusal codes and their English templates (core/refusal/codes.cpp), for the
// page's message tables and the test that holds them to this table.
std::string refusal_codes_json() {
  nlohmann::json out = nlohmann::json::array();
  for (auto& c : ap::refusal_codes()) out.push_back({{"code", c.code}, {"en", c.en}});
  return out.dump();
}

std::string version() { return AP_VERSION; }
std::string simd_arch() { return ap::simd_arch_name(); }
bool simd_enabled() { return ap::simd_enabled(); }
// The threads the kernels use (tensor/thread_pool.hpp). The threaded build's JS starts
// pthreadPoolSize Web Workers with the module (threads-pre.js), and a thread beyond them would
// wait for a worker to load, which never happens while this one blocks: so at most that many + 1.
void set_threads(int n) {
  guarded([&] {
    const int most = EM_ASM_INT({ return Module['pthreadPoolSize'] | 0; }) + 1;
    if (n > most && ap::threads_supported())
      ap::refuse("bindings.threads_above", "threads", {{"n", std::to_string(n)}, {"max", std::to_string(most)}});
    ap::set_num_threads(n);
  });
}
int threads() { return ap::num_threads(); }
bool threads_supported() { return ap::threads_supported(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attnplay) {
  emscripten::function("version", &version);
  emscripten::function("simdArch", &simd_arch);
  emscripten::function("simdEnabled", &simd_enabled);
  emscripten::function("setThreads", &set_threads);
  emscripten::function("threads", &threads);
  emscripten::function("threadsSupported", &threads_supported);
  emscripten::function("registry", &registry_json);
  emscripten::function("checkConfig", &check_config);
  emscripten::function("refusalCodes", &refusal_codes_json);
  emscripten::class_<Session>("Session")
      .constructor<const val&>()
      .class_function("load", &Session::load, emscripten::allow_raw_pointers())
      .class_function("loadWith", &Session::load_with, emscripten::allow_raw_pointers())
      .function("trainChunk", &Session::train_chunk)
      .function("evaluate", &Session::evaluate)
      .function("predictions", &Session::predictions)
      .function("attention", &Session::attention)
      .function("run", &Session::run)
      .function("positions", &Session::positions)
      .function("explore", &Session::explore)
      .function("info", &Session::info)
      .function("setInterventions", &Session::set_interventions)
      .function("clearInterventions", &Session::clear_interventions)
      .function("intervened", &Session::intervened)
      .function("configure", &Session::configure)
      .function("generate", &Session::generate)
      .function("stepsDone", &Session::steps_done)
      .function("replayIndex", &Session::replay_index)
      .function("replayFrame", &Session::replay_frame)
      .function("setReplay", &Session::set_replay)
      .function("headDiagnostics", &Session::head_diagnostics)
      .function("headDiagnosticsHistory", &Session::head_diagnostics_history)
      .function("save", &Session::save)
      .function("exportTorch", &Session::export_torch);
}
