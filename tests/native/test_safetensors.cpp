// tests/native/test_safetensors.cpp — core/io/safetensors: bit-exact round trips, the exact
// bytes of a tiny file (the layout PyTorch's safetensors writes), one rejection per malformed
// case with the field named in the message, every truncation, and random header corruption.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "io/safetensors.hpp"
#include "tensor/rng.hpp"

using Catch::Matchers::Contains;

namespace {

// A file from a hand-written header (not padded) and a buffer of `buffer_bytes` zero bytes.
std::vector<uint8_t> make_file(const std::string& header, size_t buffer_bytes) {
  std::vector<uint8_t> out(8 + header.size() + buffer_bytes, 0);
  for (int i = 0; i < 8; ++i) out[i] = uint8_t(uint64_t(header.size()) >> (8 * i));
  std::copy(header.begin(), header.end(), out.begin() + 8);
  return out;
}

ap::SafetensorsFile read(const std::vector<uint8_t>& b, size_t max_bytes = size_t(256) << 20) {
  return ap::safetensors_read(b.data(), b.size(), max_bytes);
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::vector<ap::NamedTensor> sample_tensors() {
  ap::Rng rng(7);
  std::vector<ap::NamedTensor> ts;
  ts.push_back({"blocks.0.attn.qkv.weight", {6, 4}, {}});
  for (int i = 0; i < 24; ++i) ts.back().data.push_back(rng.uniform() * 2 - 1);
  ts.push_back({"scale", {}, {3.25f}});       // 0-d scalar
  ts.push_back({"empty", {0}, {}});           // empty
  ts.push_back({"empty.2d", {3, 0, 2}, {}});  // empty, rank 3
  ts.push_back({"special",
                {2, 3},
                {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                 from_bits(0x7FC01234u),  // NaN with a payload
                 std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()}});
  ts.push_back({"wte", {5, 3}, {}});
  for (int i = 0; i < 15; ++i) ts.back().data.push_back(rng.uniform());
  return ts;
}

const std::map<std::string, std::string> kMeta = {{"format", "pt"},
                                                  {"config", "{\"n_layer\": 2, \"quote\": \"\\\"\"}"},
                                                  {"empty", ""},
                                                  {"unicode", "\xC3\xA9\xE2\x9C\x93"}};

}  // namespace

TEST_CASE("safetensors round trip is bit-identical", "[safetensors]") {
  const std::vector<ap::NamedTensor> ts = sample_tensors();
  const std::vector<uint8_t> bytes = ap::safetensors_write(ts, kMeta);
  REQUIRE(bytes.size() % 4 == 0);
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  CHECK(n % 8 == 0);  // header padded, buffer 8-byte aligned

  const ap::SafetensorsFile f = read(bytes);
  CHECK(f.metadata == kMeta);
  REQUIRE(f.tensors.size() == ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    INFO(ts[i].name);
    CHECK(f.tensors[i].name == ts[i].name);  // buffer order == write order
    CHECK(f.tensors[i].shape == ts[i].shape);
    REQUIRE(f.tensors[i].data.size() == ts[i].data.size());
    for (size_t j = 0; j < ts[i].data.size(); ++j) CHECK(bits(f.tensors[i].data[j]) == bits(ts[i].data[j]));
  }
  REQUIRE(f.find("scale") != nullptr);
  CHECK(f.find("scale")->data == std::vector<float>{3.25f});
  CHECK(f.find("nope") == nullptr);
  CHECK(ap::safetensors_write(f.tensors, f.metadata) == bytes);  // write(read(x)) == x
}

TEST_CASE("safetensors exact bytes of a tiny file", "[safetensors]") {
  // What safetensors.torch.save_file({"a": tensor([1., -2.]), "b": tensor(0.5)},
  // metadata={"format": "pt"}) writes: u64 LE header length, compact JSON with
  // "__metadata__" first and fields dtype, shape, data_offsets, padded with spaces to a
  // multiple of 8, then the little-endian float32 data.
  const std::string json = R"({"__metadata__":{"format":"pt"},)"
                           R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                           R"("b":{"dtype":"F32","shape":[],"data_offsets":[8,12]}})";
  REQUIRE(json.size() == 138);               // + 6 spaces = 144 = 0x90
  std::string raw("\x90\0\0\0\0\0\0\0", 8);  // u64 LE 144
  raw += json + std::string(6, ' ');
  raw += std::string(
      "\x00\x00\x80\x3F"   // 1.0f  = 0x3F800000
      "\x00\x00\x00\xC0"   // -2.0f = 0xC0000000
      "\x00\x00\x00\x3F",  // 0.5f  = 0x3F000000
      12);
  const std::vector<uint8_t> expected(raw.begin(), raw.end());
  REQUIRE(expected.size() == 8 + 144 + 12);

  const std::vector<uint8_t> got =
      ap::safetensors_write({{"a", {2}, {1.0f, -2.0f}}, {"b", {}, {0.5f}}}, {{"format", "pt"}});
  CHECK(got == expected);
  // Without metadata the key is omitted, as the reference writer does for metadata=None.
  const std::vector<uint8_t> bare = ap::safetensors_write({{"x", {1}, {1.0f}}}, {});
  const std::string bare_json(bare.begin() + 8, bare.end() - 4);
  CHECK(bare_json == R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}  )");  // 54 + 2
}

TEST_CASE("safetensors_write escapes names and refuses invalid UTF-8", "[safetensors]") {
  // Names and metadata that need JSON escapes read back as written.
  const std::string odd = "q\"uote\\back\tslash/\u00e9";
  const std::vector<uint8_t> bytes =
      ap::safetensors_write({{odd, {1}, {2.0f}}, {"b", {1, 2}, {1.0f, 3.0f}}}, {{"k\"ey", "v\nal"}});
  const ap::SafetensorsFile f = ap::safetensors_read(bytes.data(), bytes.size(), bytes.size());
  REQUIRE(f.tensors.size() == 2);
  CHECK(f.tensors[0].name == odd);
  CHECK(f.tensors[0].data == std::vector<float>{2.0f});
  CHECK(f.tensors[1].shape == std::vector<int64_t>{1, 2});
  CHECK(f.metadata.at("k\"ey") == "v\nal");
  CHECK(ap::safetensors_write(f.tensors, f.metadata) == bytes);
  // Invalid UTF-8 is refused, naming what holds it.
  CHECK_THROWS_WITH(ap::safetensors_write({{"bad\xff", {1}, {1.0f}}}, {}),
                    Contains("safetensors_write: a tensor name is not valid UTF-8"));
  CHECK_THROWS_WITH(ap::safetensors_write({{"a", {1}, {1.0f}}}, {{"format", "p\xfe"}}),
                    Contains("safetensors_write: a metadata string is not valid UTF-8"));
}

TEST_CASE("safetensors reads files from other writers", "[safetensors]") {
  SECTION("header order differs from buffer order, unpadded header, no metadata") {
    std::vector<uint8_t> b = make_file(R"({"second":{"data_offsets":[4,8],"shape":[1],"dtype":"F32"},)"
                                       R"( "first":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}})",
                                       8);
    const float v[2] = {1.5f, -7.0f};
    std::memcpy(b.data() + b.size() - 8, v, 8);
    const ap::SafetensorsFile f = read(b);
    REQUIRE(f.tensors.size() == 2);
    CHECK(f.tensors[0].name == "first");
    CHECK(f.tensors[0].shape == std::vector<int64_t>{1, 1});
    CHECK(f.tensors[0].data == std::vector<float>{1.5f});
    CHECK(f.tensors[1].data == std::vector<float>{-7.0f});
    CHECK(f.metadata.empty());
  }
  SECTION("F16, BF16 and F64 are converted to float") {
    std::vector<uint8_t> b = make_file(R"({"h":{"dtype":"F16","shape":[6],"data_offsets":[0,12]},)"
                                       R"("bf":{"dtype":"BF16","shape":[2],"data_offsets":[12,16]},)"
                                       R"("d":{"dtype":"F64","shape":[2],"data_offsets":[16,32]}})",
                                       32);
    uint8_t* p = b.data() + b.size() - 32;
    // 1.0, -2.0, 65504 (max), 2^-24 (smallest subnormal), +inf, -0.0
    const uint16_t h[6] = {0x3C00, 0xC000, 0x7BFF, 0x0001, 0x7C00, 0x8000};
    const uint16_t bf[2] = {0x3F80, 0xC2F7};  // 1.0, -123.5
    const double d[2] = {0.1, -1e300};
    std::memcpy(p, h, 12);
    std::memcpy(p + 12, bf, 4);
    std::memcpy(p + 16, d, 16);
    const ap::SafetensorsFile f = read(b);
    const std::vector<float>& fh = f.find("h")->data;
    CHECK(fh[0] == 1.0f);
    CHECK(fh[1] == -2.0f);
    CHECK(fh[2] == 65504.0f);
    CHECK(fh[3] == std::ldexp(1.0f, -24));
    CHECK(fh[4] == std::numeric_limits<float>::infinity());
    CHECK(bits(fh[5]) == 0x80000000u);
    CHECK(f.find("bf")->data == std::vector<float>{1.0f, -123.5f});
    CHECK(f.find("d")->data[0] == 0.1f);
    CHECK(f.find("d")->data[1] == -std::numeric_limits<float>::infinity());
  }
  SECTION("a zero dimension makes any other dimension harmless") {
    const ap::SafetensorsFile f =
        read(make_file(R"({"z":{"dtype":"F32","shape":[4611686018427387904,0],"data_offsets":[0,0]}})", 0));
    CHECK(f.tensors[0].data.empty());
  }
}

TEST_CASE("safetensors rejects malformed files, naming the field", "[safetensors]") {
  struct Case {
    const char* what;
    std::string header;
    size_t buffer;
    const char* expect;
  };
  const std::string ok_b = R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]})";
  const std::vector<Case> cases = {
      {"empty header", "", 0, "not valid JSON"},
      {"not JSON", "{not json", 0, "not valid JSON"},
      {"invalid UTF-8", "{\"\xFF\":{}}", 0, "not valid JSON"},
      {"not an object", "[1,2]", 0, "not a JSON object"},
      {"entry not object", R"({"a":5})", 0, "tensor 'a': entry is number"},
      {"missing dtype", R"({"a":{"shape":[1],"data_offsets":[0,4]}})", 4, "'dtype' is missing"},
      {"missing shape", R"({"a":{"dtype":"F32","data_offsets":[0,4]}})", 4, "'shape' is missing"},
      {"missing offsets", R"({"a":{"dtype":"F32","shape":[1]}})", 4, "'data_offsets' is missing"},
      {"extra field", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"junk":[]}})", 4, "field 'junk'"},
      {"dtype not string", R"({"a":{"dtype":32,"shape":[1],"data_offsets":[0,4]}})", 4, "dtype is number"},
      {"dtype I64", R"({"a":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})", 8,
       "dtype 'I64' is not supported (only F32"},
      {"shape not array", R"({"a":{"dtype":"F32","shape":4,"data_offsets":[0,16]}})", 16, "shape is number"},
      {"negative dim", R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4, "shape dimension 0"},
      {"fractional dim", R"({"a":{"dtype":"F32","shape":[2,1.5],"data_offsets":[0,12]}})", 12, "shape dimension 1"},
      {"string dim", R"({"a":{"dtype":"F32","shape":["2"],"data_offsets":[0,8]}})", 8, "shape dimension 0"},
      {"dim above int64", R"({"a":{"dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,4]}})", 4,
       "shape dimension 0"},
      // 2^62 * 4 elements * 4 bytes wraps to 0 in 64 bits: a naive check would accept [0, 0].
      {"product wraps", R"({"a":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,0]}})", 0,
       "shape [4611686018427387904, 4] of F32 overflows"},
      {"product overflows", R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,4]}})", 4,
       "shape"},
      {"offsets not array", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":4}})", 4, "data_offsets must be"},
      {"one offset", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4]}})", 4, "data_offsets must be"},
      {"three offsets", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}})", 8, "data_offsets must be"},
      {"negative offset", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}})", 4, "data_offsets must be"},
      {"float offset", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4.0]}})", 4, "data_offsets must be"},
      {"begin after end", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", 8,
       "data_offsets [8, 4] have begin after end"},
      {"end past buffer", R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4,
       "data_offsets [0, 8] run past the end of the 4-byte"},
      {"size mismatch", R"({"a":{"dtype":"F32","shape":[96,32],"data_offsets":[0,100]}})", 100,
       "tensor 'a': data_offsets [0, 100] do not match shape [96, 32] of F32 (12288 bytes)"},
      {"overlap",
       R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
       12, "tensor 'b': data_offsets [4, 12] overlap tensor 'a'"},
      {"empty tensor inside another",
       R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"e":{"dtype":"F32","shape":[0],"data_offsets":[4,4]}})",
       8, "overlap"},
      {"gap",
       R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
       12, "tensor 'b': data_offsets [8, 12] leave buffer bytes [4, 8) unused"},
      {"leading gap", "{" + ok_b + "}", 8, "unused"},
      {"trailing bytes", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 8, "data_offsets cover only 4"},
      {"buffer without tensors", "{}", 4, "cover only 0"},
      {"duplicate name",
       R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
       4, "name 'a' appears twice"},
      {"duplicate field", R"({"a":{"dtype":"F32","dtype":"F64","shape":[1],"data_offsets":[0,4]}})", 4,
       "entry 'a' has the key 'dtype' twice"},
      {"metadata not object", R"({"__metadata__":"pt"})", 0, "__metadata__ is string"},
      {"metadata value not string", R"({"__metadata__":{"step":3}})", 0, "__metadata__ key 'step' is number"},
      {"metadata nested", R"({"__metadata__":{"cfg":{"a":"b"}}})", 0, "__metadata__ key 'cfg' is object"},
      {"too deep", R"({"a":{"dtype":"F32","shape":[[1]],"data_offsets":[0,4]}})", 4, "deeper"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK_THROWS_AS(read(make_file(c.header, c.buffer)), std::invalid_argument);
    CHECK_THROWS_WITH(read(make_file(c.header, c.buffer)), Contains("model file: ") && Contains(c.expect));
  }

  SECTION("file and header sizes") {
    const std::vector<uint8_t> tiny = {1, 2, 3};
    CHECK_THROWS_WITH(read(tiny), Contains("3 bytes, too short"));
    std::vector<uint8_t> b = make_file("{}", 0);
    b[0] = 100;  // header length 100 in a 10-byte file
    CHECK_THROWS_WITH(read(b), Contains("header length 100 runs past the end"));
    b[0] = 0;
    b[5] = 1;  // 2^40
    CHECK_THROWS_WITH(read(b), Contains("header length 1099511627776 is above the limit"));
    for (int i = 0; i < 8; ++i) b[i] = 0xFF;  // 2^64 - 1: no wrap-around in size arithmetic
    CHECK_THROWS_WITH(read(b), Contains("header length"));
  }
  SECTION("max_bytes bounds the file and the decoded data") {
    const std::vector<uint8_t> b = ap::safetensors_write(sample_tensors(), {});
    CHECK_NOTHROW(read(b, b.size()));
    CHECK_THROWS_WITH(read(b, b.size() - 1), Contains("above the limit of"));
    // 1000 F16 values: 2000 bytes in the file, 4000 bytes once decoded.
    const std::vector<uint8_t> h = make_file(R"({"h":{"dtype":"F16","shape":[1000],"data_offsets":[0,2000]}})", 2000);
    CHECK_NOTHROW(read(h, 4000));
    CHECK_THROWS_WITH(read(h, 3999), Contains("tensor 'h': decoded data exceed the limit"));
  }
  SECTION("hostile structure is cut short while parsing") {
    const std::string deep(size_t(1) << 20, '[');  // 1 MiB of nesting: no stack overflow
    CHECK_THROWS_WITH(read(make_file(deep, 0)), Contains("deeper"));
    std::string many = R"({"__metadata__":{)";
    for (int i = 0; i < 300000; ++i) many += (i ? ",\"" : "\"") + std::to_string(i) + "\":\"\"";
    CHECK_THROWS_WITH(read(make_file(many + "}}", 0)), Contains("more than 262144 JSON values"));
  }
}

TEST_CASE("safetensors writer rejects bad input", "[safetensors]") {
  using T = std::vector<ap::NamedTensor>;
  CHECK_THROWS_WITH(ap::safetensors_write(T{{"a", {2, 2}, {1, 2, 3}}}, {}),
                    Contains("tensor 'a': shape [2, 2] does not match its 3 values"));
  CHECK_THROWS_WITH(ap::safetensors_write(T{{"a", {-1}, {}}}, {}), Contains("negative"));
  CHECK_THROWS_WITH(ap::safetensors_write(T{{"a", {1LL << 62, 1LL << 62, 16}, {}}}, {}), Contains("does not match"));
  CHECK_THROWS_WITH(ap::safetensors_write(T{{"a", {}, {1}}, {"a", {}, {2}}}, {}), Contains("twice"));
  CHECK_THROWS_WITH(ap::safetensors_write(T{{"__metadata__", {}, {1}}}, {}), Contains("reserved"));
  CHECK_THROWS_WITH(ap::safetensors_write(T{{"bad\xFF", {}, {1}}}, {}), Contains("UTF-8"));
}

TEST_CASE("safetensors rejects every truncation", "[safetensors]") {
  const std::vector<uint8_t> full = ap::safetensors_write(sample_tensors(), kMeta);
  size_t rejected = 0;
  for (size_t len = 0; len < full.size(); ++len) {
    const std::vector<uint8_t> cut(full.begin(), full.begin() + len);  // exact-size copy
    try {
      read(cut);
    } catch (const std::invalid_argument&) {
      ++rejected;
    }
  }
  CHECK(rejected == full.size());
}

TEST_CASE("safetensors survives random header corruption", "[safetensors]") {
  const std::vector<uint8_t> full = ap::safetensors_write(sample_tensors(), kMeta);
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | full[i];
  const std::string alphabet = "{}[]\",:-.0123456789eE \\uFabdhst_";
  ap::Rng rng(2024);
  int loaded = 0, rejected = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    std::vector<uint8_t> b = full;
    const int flips = rng.range(1, 3);
    for (int k = 0; k < flips; ++k) {
      // Mostly the JSON, sometimes the length prefix; JSON-ish bytes reach deeper checks.
      const size_t at = rng.uniform_int(10) == 0 ? size_t(rng.uniform_int(8)) : 8 + size_t(rng.uniform_int(int(n)));
      b[at] = rng.uniform_int(2) ? uint8_t(alphabet[size_t(rng.uniform_int(int(alphabet.size())))])
                                 : uint8_t(rng.uniform_int(256));
    }
    try {
      const ap::SafetensorsFile f = read(b);
      for (const ap::NamedTensor& t : f.tensors) {  // whatever loads is self-consistent
        size_t count = 1;
        for (int64_t d : t.shape) count *= size_t(d);
        CHECK(t.data.size() == count);
      }
      ++loaded;
    } catch (const std::invalid_argument&) {
      ++rejected;
    } catch (const std::exception& e) {
      FAIL("unexpected exception type: " << e.what());
    }
  }
  INFO("loaded " << loaded << ", rejected " << rejected);
  CHECK(rejected > 2000);
  CHECK(loaded > 0);  // e.g. flips inside names or metadata values
}

TEST_CASE("safetensors file helpers name the path", "[safetensors]") {
  const std::string path = "ap_test_safetensors.tmp";
  ap::safetensors_save(path, sample_tensors(), kMeta);
  const ap::SafetensorsFile f = ap::safetensors_load(path);
  CHECK(f.metadata == kMeta);
  CHECK(f.tensors.size() == sample_tensors().size());
  CHECK_THROWS_WITH(ap::safetensors_load(path, 64), Contains("model file '" + path + "': file is"));
  std::remove(path.c_str());
  CHECK_THROWS_WITH(ap::safetensors_load("no/such/file.safetensors"),
                    Contains("model file 'no/such/file.safetensors': cannot open"));
  CHECK_THROWS_WITH(ap::safetensors_save("no/such/dir/x.safetensors", sample_tensors(), {}),
                    Contains("model file 'no/such/dir/x.safetensors'"));
}
