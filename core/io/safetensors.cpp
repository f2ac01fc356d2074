// core/io/safetensors.cpp — safetensors writer and hostile-input reader (format notes in the
// header). The reader never trusts a number from the file before checking it against the
// bytes it actually has: offsets against the buffer, shapes against the offsets, and both
// against max_bytes, so nothing is read out of bounds and no allocation exceeds the input size
// (times two for F16/BF16) or max_bytes.
#include "io/safetensors.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "refusal/refusal.hpp"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors I/O copies little-endian data as is: port the byte order first"
#endif

namespace ap {
namespace {

using json = nlohmann::json;

// Structural limits of the JSON header, enforced while parsing so that a hostile header cannot
// build a huge DOM. A valid header nests 3 deep (file object > tensor entry > shape array);
// 2^18 JSON values is ~30000 tensors, far beyond any model this project trains.
constexpr size_t kMaxJsonDepth = 3;
constexpr size_t kMaxJsonValues = size_t(1) << 18;

// A name from an untrusted file, quoted, shortened and without control characters.
std::string show(const std::string& s) {
  size_t n = std::min(s.size(), size_t(80));
  while (n > 0 && n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  std::string out = "'";
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out += (c < 0x20 || c == 0x7F) ? '?' : char(c);
  }
  return out + (n < s.size() ? "...'" : "'");
}

template <class T>
std::string list_str(const std::vector<T>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

// ---- dtypes --------------------------------------------------------------------------------

// IEEE half -> float, exact (every half is a float).
float f16_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
  uint32_t bits;
  if (exp == 0) {  // zero or subnormal: man * 2^-24
    const float m = std::ldexp(float(man), -24);
    return sign ? -m : m;
  } else if (exp == 31) {  // inf or NaN, payload kept
    bits = sign | 0x7F800000u | (man << 13);
  } else {  // rebias the exponent from 15 to 127
    bits = sign | ((exp + 112) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float decode_f32(const uint8_t* p) {
  float f;
  std::memcpy(&f, p, 4);
  return f;
}
float decode_f16(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return f16_to_float(h);
}
float decode_bf16(const uint8_t* p) {  // bfloat16 is the top half of a float
  uint16_t h;
  std::memcpy(&h, p, 2);
  const uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
// Rounds to nearest; IEEE narrowing turns out-of-range values into +-inf on all our targets.
float decode_f64(const uint8_t* p) {
  double d;
  std::memcpy(&d, p, 8);
  return float(d);
}

struct Dtype {
  const char* name;
  size_t size;
  float (*decode)(const uint8_t*);
};
constexpr Dtype kDtypes[] = {
    {"F32", 4, decode_f32}, {"F16", 2, decode_f16}, {"BF16", 2, decode_bf16}, {"F64", 8, decode_f64}};

// ---- header parsing --------------------------------------------------------------------------

// Parser callback state: rejects duplicate keys at any level (nlohmann would keep the last),
// too deep nesting and too many values, and records the top-level keys in file order.
struct HeaderGuard {
  struct Frame {
    std::set<std::string> keys;
    std::string last_key;
  };
  std::vector<Frame> stack;
  std::vector<std::string> top_keys;
  size_t values = 0;

  void count() {
    if (++values > kMaxJsonValues) refuse("safetensors.too_many_values", "", {{"max", std::to_string(kMaxJsonValues)}});
  }
  bool on_event(json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        count();
        if (stack.size() >= kMaxJsonDepth) refuse("safetensors.too_deep", "", {{"max", std::to_string(kMaxJsonDepth)}});
        stack.emplace_back();
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case json::parse_event_t::key: {
        count();
        const std::string& k = parsed.get_ref<const std::string&>();
        Frame& f = stack.back();
        if (!f.keys.insert(k).second) {
          if (stack.size() == 1) refuse("safetensors.duplicate_name", "", {{"name", show(k)}});
          refuse("safetensors.duplicate_key", "", {{"name", show(stack.front().last_key)}, {"key", show(k)}});
        }
        f.last_key = k;
        if (stack.size() == 1) top_keys.push_back(k);
        break;
      }
      case json::parse_event_t::value:
        count();
        break;
    }
    return true;
  }
};

// A non-negative JSON integer, or false.
bool as_u64(const json& v, uint64_t& out) {
  if (v.is_number_unsigned()) {
    out = v.get<uint64_t>();
    return true;
  }
  if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    out = uint64_t(v.get<int64_t>());
    return true;
  }
  return false;
}

struct Entry {
  std::string name;
  const Dtype* dtype;
  std::vector<int64_t> shape;
  uint64_t count, begin, end;
};

Entry parse_entry(const std::string& name, const json& e, size_t buf_size) {
  // A refusal about this tensor: "tensor '<name>': ..."
  auto bad = [&](const char* code, RefusalParams p = {}) {
    p.insert(p.begin(), {"name", show(name)});
    refuse(code, "", std::move(p));
  };
  if (!e.is_object()) bad("safetensors.entry_not_object", {{"type", e.type_name()}});
  for (const auto& item : e.items())
    if (item.key() != "dtype" && item.key() != "shape" && item.key() != "data_offsets")
      bad("safetensors.unexpected_field", {{"key", show(item.key())}});
  for (const char* field : {"dtype", "shape", "data_offsets"})
    if (!e.contains(field)) bad("safetensors.missing_field", {{"key", field}});

  Entry out{name, nullptr, {}, 1, 0, 0};
  const json& dt = e["dtype"];
  if (!dt.is_string()) bad("safetensors.dtype_not_string", {{"type", dt.type_name()}});
  for (const Dtype& d : kDtypes)
    if (dt.get_ref<const std::string&>() == d.name) out.dtype = &d;
  if (!out.dtype) bad("safetensors.dtype_unsupported", {{"dtype", show(dt.get<std::string>())}});

  const json& sh = e["shape"];
  if (!sh.is_array()) bad("safetensors.shape_not_array", {{"type", sh.type_name()}});
  for (size_t i = 0; i < sh.size(); ++i) {
    uint64_t d;
    if (!as_u64(sh[i], d) || d > uint64_t(std::numeric_limits<int64_t>::max()))
      bad("safetensors.bad_dimension", {{"index", std::to_string(i)}});
    out.shape.push_back(int64_t(d));
  }

  const json& off = e["data_offsets"];
  if (!off.is_array() || off.size() != 2 || !as_u64(off[0], out.begin) || !as_u64(off[1], out.end))
    bad("safetensors.bad_offsets");
  const std::string offs = list_str(std::vector<uint64_t>{out.begin, out.end});
  if (out.begin > out.end) bad("safetensors.offsets_reversed", {{"offsets", offs}});
  if (out.end > buf_size) bad("safetensors.offsets_past_end", {{"offsets", offs}, {"size", std::to_string(buf_size)}});

  // Byte count of the shape, every multiplication checked: a wrapped product could otherwise
  // match small offsets ([2^62, 4] of F32 is 2^66 bytes, 0 mod 2^64). A zero dimension wins.
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const bool empty = std::find(out.shape.begin(), out.shape.end(), 0) != out.shape.end();
  uint64_t nbytes = empty ? 0 : out.dtype->size;
  for (int64_t d : out.shape) {
    if (empty) break;
    if (nbytes > kMax / uint64_t(d))
      bad("safetensors.shape_overflow", {{"shape", list_str(out.shape)}, {"dtype", out.dtype->name}});
    nbytes *= uint64_t(d);
  }
  if (out.end - out.begin != nbytes)
    bad("safetensors.offsets_mismatch", {{"offsets", offs},
                                         {"shape", list_str(out.shape)},
                                         {"dtype", out.dtype->name},
                                         {"bytes", std::to_string(nbytes)}});
  out.count = nbytes / out.dtype->size;  // <= buf_size: the offsets lie inside the buffer
  return out;
}

std::map<std::string, std::string> parse_metadata(const json& m) {
  if (!m.is_object()) refuse("safetensors.metadata_not_object", "", {{"type", m.type_name()}});
  std::map<std::string, std::string> out;
  for (const auto& item : m.items()) {
    if (!item.value().is_string())
      refuse("safetensors.metadata_not_string", "", {{"key", show(item.key())}, {"type", item.value().type_name()}});
    out[item.key()] = item.value().get<std::string>();
  }
  return out;
}

// The tensors must tile the buffer exactly: sorted by offsets, each starts where the last ended.
void check_tiling(std::vector<Entry>& entries, size_t buf_size) {
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t pos = 0;
  const Entry* prev = nullptr;
  for (const Entry& e : entries) {
    const std::string offs = list_str(std::vector<uint64_t>{e.begin, e.end});
    if (e.begin < pos)
      refuse("safetensors.overlap", "",
             {{"name", show(e.name)},
              {"offsets", offs},
              {"other", show(prev->name)},
              {"begin", std::to_string(prev->begin)},
              {"end", std::to_string(pos)}});
    if (e.begin > pos)
      refuse("safetensors.gap", "",
             {{"name", show(e.name)},
              {"offsets", offs},
              {"begin", std::to_string(pos)},
              {"end", std::to_string(e.begin)}});
    pos = e.end;
    prev = &e;
  }
  if (pos != buf_size)
    refuse("safetensors.buffer_uncovered", "", {{"size", std::to_string(buf_size)}, {"covered", std::to_string(pos)}});
}

SafetensorsFile read_impl(const uint8_t* bytes, size_t size, size_t max_bytes) {
  if (size < 8) refuse("safetensors.too_short", "", {{"size", std::to_string(size)}});
  if (size > max_bytes)
    refuse("safetensors.too_big", "", {{"size", std::to_string(size)}, {"max", std::to_string(max_bytes)}});
  uint64_t n = 0;  // little-endian u64, read byte by byte
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  if (n > kSafetensorsMaxHeaderBytes)
    refuse("safetensors.header_too_long", "",
           {{"n", std::to_string(n)}, {"max", std::to_string(kSafetensorsMaxHeaderBytes)}});
  if (n > size - 8)
    refuse("safetensors.header_past_end", "", {{"n", std::to_string(n)}, {"size", std::to_string(size)}});

  HeaderGuard guard;
  json header;
  const char* text = reinterpret_cast<const char*>(bytes + 8);
  try {
    header = json::parse(text, text + n,
                         [&guard](int, json::parse_event_t ev, json& parsed) { return guard.on_event(ev, parsed); });
  } catch (const json::exception& e) {
    std::string why = e.what();  // may quote file bytes: keep it short
    if (why.size() > 160) why = why.substr(0, 160) + "...";
    refuse("safetensors.bad_header", "", {{"reason", why}});
  }
  if (!header.is_object()) refuse("safetensors.header_not_object", "", {{"type", header.type_name()}});

  const uint8_t* buf = bytes + 8 + n;
  const size_t buf_size = size - 8 - size_t(n);
  SafetensorsFile file;
  std::vector<Entry> entries;
  uint64_t decoded = 0;
  for (const std::string& name : guard.top_keys) {
    const json& value = header.at(name);
    if (name == "__metadata__") {
      file.metadata = parse_metadata(value);
      continue;
    }
    entries.push_back(parse_entry(name, value, buf_size));
    decoded += entries.back().count * sizeof(float);  // each term <= 2 * buf_size: no overflow
    if (decoded > max_bytes)
      refuse("safetensors.decoded_too_big", "", {{"name", show(name)}, {"max", std::to_string(max_bytes)}});
  }

  check_tiling(entries, buf_size);

  for (Entry& e : entries) {
    NamedTensor t{std::move(e.name), std::move(e.shape), std::vector<float>(size_t(e.count))};
    const uint8_t* src = buf + e.begin;
    if (e.dtype->decode == decode_f32) {
      if (e.count) std::memcpy(t.data.data(), src, size_t(e.count) * 4);
    } else {
      for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = e.dtype->decode(src + i * e.dtype->size);
    }
    file.tensors.push_back(std::move(t));
  }
  return file;
}

// Re-throw a reader's refusal with the file's name in front ("<where>: ...").
template <class F>
auto with_prefix(const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Refusal& e) {
    refuse_within(where, e);
  }
}

}  // namespace

// ---- public API ------------------------------------------------------------------------------

const NamedTensor* SafetensorsFile::find(const std::string& name) const {
  for (const NamedTensor& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

std::vector<uint8_t> safetensors_write(const std::vector<NamedTensor>& tensors,
                                       const std::map<std::string, std::string>& metadata) {
  // The header, written in order: "__metadata__" first, then the tensors in buffer order, fields
  // as dtype, shape, data_offsets, exactly as the Rust writer serializes them (compact, like
  // serde_json). Strings go through json's own serializer, which escapes them and refuses
  // invalid UTF-8; the rest is numbers. (Written by hand rather than as an ordered_json: that
  // type's instantiation was 4 KB of the widget's download, for this one header.)
  std::string text = "{";
  const auto str = [](const std::string& s) { return json(s).dump(); };
  try {
    if (!metadata.empty()) text += "\"__metadata__\":" + json(metadata).dump();
  } catch (const nlohmann::json::exception&) {
    refuse("safetensors.metadata_not_utf8", "");
  }
  std::set<std::string> seen;
  uint64_t offset = 0;
  for (const NamedTensor& t : tensors) {
    const std::string shown = show(t.name);
    if (t.name == "__metadata__") refuse("safetensors.reserved_name", "", {{"name", shown}});
    if (!seen.insert(t.name).second) refuse("safetensors.duplicate_tensor", "", {{"name", shown}});
    for (int64_t d : t.shape)
      if (d < 0) refuse("safetensors.negative_dimension", "", {{"name", shown}, {"shape", list_str(t.shape)}});
    // Multiply while the product can still equal data.size(), so it cannot overflow.
    const bool empty = std::find(t.shape.begin(), t.shape.end(), 0) != t.shape.end();
    uint64_t count = empty ? 0 : 1;
    for (int64_t d : t.shape)
      if (!empty) count = count > t.data.size() / uint64_t(d) ? t.data.size() + 1 : count * uint64_t(d);
    if (count != t.data.size())
      refuse("safetensors.shape_mismatch", "",
             {{"name", shown}, {"shape", list_str(t.shape)}, {"count", std::to_string(t.data.size())}});
    const uint64_t end = offset + count * 4;
    std::string name;
    try {
      name = str(t.name);
    } catch (const nlohmann::json::exception&) {
      refuse("safetensors.name_not_utf8", "");
    }
    if (text.size() > 1) text += ',';
    text += name + ":{\"dtype\":\"F32\",\"shape\":[";
    for (size_t i = 0; i < t.shape.size(); ++i) text += (i ? "," : "") + std::to_string(t.shape[i]);
    text += "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(end) + "]}";
    offset = end;
  }
  text += '}';
  text.append((8 - text.size() % 8) % 8, ' ');  // pad so the buffer starts 8-byte aligned

  std::vector<uint8_t> out(8 + text.size() + size_t(offset));
  for (int i = 0; i < 8; ++i) out[i] = uint8_t(uint64_t(text.size()) >> (8 * i));
  std::memcpy(out.data() + 8, text.data(), text.size());
  uint8_t* dst = out.data() + 8 + text.size();
  for (const NamedTensor& t : tensors) {
    if (!t.data.empty()) std::memcpy(dst, t.data.data(), t.data.size() * 4);
    dst += t.data.size() * 4;
  }
  return out;
}

SafetensorsFile safetensors_read(const uint8_t* bytes, size_t size, size_t max_bytes) {
  return with_prefix("model file", [&] { return read_impl(bytes, size, max_bytes); });
}

void safetensors_save(const std::string& path, const std::vector<NamedTensor>& tensors,
                      const std::map<std::string, std::string>& metadata) {
  const std::vector<uint8_t> bytes = safetensors_write(tensors, metadata);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) refuse("file.cannot_write", "", {{"path", path}});
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  out.close();
  if (!out) refuse("file.write_failed", "", {{"path", path}});
}

SafetensorsFile safetensors_load(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) refuse("file.cannot_read", "", {{"path", path}});
  const std::streamoff size = in.tellg();
  if (size < 0) refuse("file.no_size", "", {{"path", path}});
  if (uint64_t(size) > max_bytes)  // before allocating anything
    refuse("file.too_big", "", {{"path", path}, {"size", std::to_string(size)}, {"max", std::to_string(max_bytes)}});
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.seekg(0);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size))
    refuse("file.read_failed", "", {{"path", path}});
  return with_prefix("model file '" + path + "'", [&] { return read_impl(bytes.data(), bytes.size(), max_bytes); });
}

}  // namespace ap
