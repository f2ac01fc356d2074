// core/io/json.cpp — bounded JSON parsing and bounded echoes of values (see json.hpp).
#include "io/json.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace ap {

namespace {

// A refusal of the input `what` ("config", "ids", ...): its name before the message.
[[noreturn]] void refuse_input(const std::string& what, const char* code, RefusalParams params) {
  try {
    refuse(code, "", std::move(params));
  } catch (const Refusal& r) {
    refuse_within(what, r);
  }
}

}  // namespace

size_t utf8_at(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
  if (c == 0xED && b(1) >= 0xA0) return 0;  // UTF-16 surrogate
  if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
  if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
  return n;
}

namespace {

std::string hex_byte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", c);
  return buf;
}

// Appends s with control characters (C0, DEL and C1: ESC, BEL, CSI ... never reach a terminal
// raw) and invalid UTF-8 bytes escaped, at most `cap` bytes of it; returns false when it was
// cut. json=true escapes like JSON (quote and backslash too); lines=true keeps newlines and tabs.
bool put_text(std::string& out, std::string_view s, size_t cap, bool json, bool lines = false) {
  for (size_t i = 0; i < s.size();) {
    if (out.size() >= cap) return false;
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (lines && (c == '\n' || c == '\t'))
      out += char(c);
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (c == 0)
      out += "\\0";
    else if (json && (c == '"' || c == '\\'))
      out += '\\', out += char(c);
    else if (c < 0x20 || c == 0x7F)
      out += hex_byte(c);
    else if (const size_t n = utf8_at(s, i); n > 0) {
      const unsigned char c1 = n == 2 && c == 0xC2 ? static_cast<unsigned char>(s[i + 1]) : 0;
      if (c1 >= 0x80 && c1 <= 0x9F) {  // U+0080..U+009F: the C1 controls (U+009B is a CSI)
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04X", c1);
        out += buf;
      } else {
        out.append(s.data() + i, n);
      }
      i += n;
      continue;
    } else
      out += hex_byte(c);
    ++i;
  }
  return true;
}

// Compact JSON of v, stopping once `out` holds more than `cap` bytes. Every level writes a
// bracket before it descends, so the recursion is never deeper than cap.
void put_json(std::string& out, const nlohmann::json& v, size_t cap) {
  if (out.size() > cap) return;
  switch (v.type()) {
    case nlohmann::json::value_t::object:
    case nlohmann::json::value_t::array: {
      const bool obj = v.is_object();
      out += obj ? '{' : '[';
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (out.size() > cap) return;
        if (it != v.begin()) out += ',';
        if (obj) {
          out += '"';
          if (!put_text(out, it.key(), cap, true)) return;
          out += "\":";
        }
        put_json(out, it.value(), cap);
      }
      out += obj ? '}' : ']';
      return;
    }
    case nlohmann::json::value_t::string:
      out += '"';
      if (put_text(out, v.get_ref<const std::string&>(), cap, true)) out += '"';
      return;
    case nlohmann::json::value_t::number_float: {
      const double d = v.get<double>();
      if (!std::isfinite(d)) {  // dump() would say null
        out += std::isnan(d) ? "NaN" : d > 0 ? "inf" : "-inf";
        return;
      }
      out += v.dump();
      return;
    }
    default:
      out += v.dump();  // null, booleans, integers, binary: never nested
  }
}

// Cut `s` to max_chars code points; true when something was cut.
bool cut_chars(std::string& s, size_t max_chars) {
  size_t chars = 0, i = 0;
  while (i < s.size() && chars < max_chars) {
    const size_t n = utf8_at(s, i);
    i += n ? n : 1;
    ++chars;
  }
  if (i >= s.size()) return false;
  s.resize(i);
  return true;
}

// One pass before nlohmann builds anything: nesting depth and (about) the number of values.
void check_nesting(std::string_view text, const std::string& what, const JsonLimits& limits) {
  size_t depth = 0, values = 1;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > limits.depth)
          refuse_input(what, "json.too_deep", {{"max", std::to_string(limits.depth)}, {"byte", std::to_string(i + 1)}});
        [[fallthrough]];
      case ',':  // a container or a comma: one more value (an upper bound for valid JSON)
        if (++values > limits.values)
          refuse_input(what, "json.too_many_values",
                       {{"max", std::to_string(limits.values)}, {"byte", std::to_string(i + 1)}});
        break;
      case ']':
      case '}':
        depth -= depth > 0;
        break;
      default:
        break;
    }
  }
}

// "<what>: not valid JSON at byte N (line L, column C): <reason>"; reason may quote the input.
[[noreturn]] void refuse_invalid(std::string_view text, const std::string& what, const std::string& reason,
                                 size_t byte) {
  std::string shown;
  if (!put_text(shown, reason, 160, false)) shown += "...";
  byte = std::min(byte, text.size());
  size_t line = 1, col = 1;
  for (size_t i = 0; i + 1 < byte; ++i) text[i] == '\n' ? (++line, col = 1) : ++col;
  if (byte == 0) refuse_input(what, "json.invalid", {{"reason", shown}});
  if (line == 1) refuse_input(what, "json.invalid_at", {{"byte", std::to_string(byte)}, {"reason", shown}});
  refuse_input(what, "json.invalid_at_line",
               {{"byte", std::to_string(byte)},
                {"line", std::to_string(line)},
                {"column", std::to_string(col)},
                {"reason", shown}});
}

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& what, JsonLimits limits) {
  if (text.size() > limits.bytes)
    refuse_input(what, "json.too_big", {{"bytes", std::to_string(text.size())}, {"max", std::to_string(limits.bytes)}});
  check_nesting(text, what, limits);
  // nlohmann's what(): "[json.exception.parse_error.101] parse error at line 1, column 24: <reason>"
  // or "[json.exception.out_of_range.406] number overflow parsing '1e999'".
  auto reason_of = [](const std::string& w) {
    const size_t column = w.find(", column ");
    size_t at = column != std::string::npos ? w.find(": ", column) : w.find("] ");
    return at == std::string::npos ? w : w.substr(at + 2);
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    refuse_invalid(text, what, reason_of(e.what()), e.byte);
  } catch (const nlohmann::json::exception& e) {  // number overflow: the byte of that number
    const std::string reason = reason_of(e.what());
    const size_t q = reason.find('\''), q2 = reason.rfind('\'');
    const size_t pos =
        q != std::string::npos && q2 > q ? text.find(reason.substr(q + 1, q2 - q - 1)) : std::string::npos;
    refuse_invalid(text, what, reason, pos == std::string::npos ? 0 : pos + 1);
  }
}

std::string escape_text(std::string_view s, bool keep_lines) {
  std::string out;
  put_text(out, s, std::string::npos, false, keep_lines);
  return out;
}

RefusalParams utf8_fault(std::string_view s) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_at(s, i);
    if (n == 0)
      return {{"line", std::to_string(line)},
              {"column", std::to_string(i - line_start + 1)},
              {"byte", std::to_string(i + 1)},
              {"hex", hex_byte(static_cast<unsigned char>(s[i])).substr(2)}};
    if (s[i] == '\n') ++line, line_start = i + 1;
    i += n;
  }
  return {};
}

std::string utf8_problem(std::string_view s) {
  const RefusalParams p = utf8_fault(s);
  if (p.empty()) return "";
  return "line " + p[0].second + ": byte " + p[1].second + " of the line (byte " + p[2].second + " of the text) is 0x" +
         p[3].second + ", which is not UTF-8; save the text as UTF-8";
}

std::string utf8_repaired(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_at(s, i);
    out += n ? s.substr(i, n) : std::string_view("\xEF\xBF\xBD");
    i += n ? n : 1;
  }
  return out;
}

std::string num_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string show_text(std::string_view s, size_t max_chars) {
  std::string out;
  bool whole = put_text(out, s, 4 * max_chars + 8, false);
  whole = !cut_chars(out, max_chars) && whole;
  return "'" + out + (whole ? "'" : "...'");
}

std::string show_value(const nlohmann::json& v, size_t max_chars) {
  if (v.is_string()) return show_text(v.get_ref<const std::string&>(), max_chars);
  return show_json(v, max_chars);
}

std::string show_json(const nlohmann::json& v, size_t max_chars) {
  std::string out;
  put_json(out, v, 4 * max_chars + 8);
  if (cut_chars(out, max_chars)) out += "...";
  return out;
}

std::vector<int32_t> int_array(const nlohmann::json& v, const std::string& what, size_t max_count) {
  if (!v.is_array()) refuse_input(what, "json.not_int_array", {{"type", v.type_name()}, {"value", show_value(v)}});
  if (v.size() > max_count)
    refuse_input(what, "json.too_many_entries", {{"n", std::to_string(v.size())}, {"max", std::to_string(max_count)}});
  std::vector<int32_t> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const nlohmann::json& x = v[i];
    const double d = x.is_number() ? x.get<double>() : NAN;
    if (!(std::floor(d) == d && d >= -2147483648.0 && d <= 2147483647.0))
      refuse_input(what + "[" + std::to_string(i) + "]", "json.not_int32", {{"value", show_value(x)}});
    out.push_back(x.is_number_integer() ? int32_t(x.get<int64_t>()) : int32_t(d));
  }
  return out;
}

}  // namespace ap
