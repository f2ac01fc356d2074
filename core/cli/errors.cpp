// core/cli/errors.cpp — see errors.hpp.
#include "cli/errors.hpp"

#include <filesystem>
#include <new>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/json.hpp"

namespace ap::cli {

namespace {

std::string translate(const std::string& command) {
  const std::string internal = command +
                               ": an internal error stopped the command; please report it with the "
                               "command line (no file was left half written)";
  try {
    throw;
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    // Ours are sentences that name the field; the library's are a bare name ("stoi").
    return m.find(' ') == std::string::npos ? internal : m;
  } catch (const std::bad_alloc&) {
    return command +
           ": out of memory: this needs more memory than the machine gives; lower batch, seq_len, "
           "eval_len, --eval-at, d_model or layers, or lower memory_limit_mb so that such a run is "
           "refused before it starts";
  } catch (const nlohmann::json::exception& e) {
    // 316: a string that is not UTF-8 reached a JSON writer; the readers should have refused it.
    if (e.id == 316)
      return command +
             ": a text holds bytes that are not UTF-8, so it cannot be written as JSON; save the "
             "input files (--text-file, --task-file, configs) as UTF-8";
    return internal;
  } catch (const std::filesystem::filesystem_error& e) {
    return command + ": the file or folder '" + e.path1().string() + "' cannot be used (" + e.code().message() + ")";
  } catch (...) {
    return internal;
  }
}

}  // namespace

std::string error_sentence(const std::string& command) { return escape_text(translate(command)); }

}  // namespace ap::cli
