// tests/native/test_sha256.cpp — SHA-256 against the FIPS 180-4 / NIST example vectors.
#include <catch2/catch.hpp>

#include <string>

#include "io/sha256.hpp"

static std::string sha(const std::string& s) {
  return ap::sha256_hex(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

TEST_CASE("sha256 matches the NIST example vectors", "[io]") {
  CHECK(sha("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
