// core/io/sha256.hpp — SHA-256 (FIPS 180-4) of a byte buffer, as lowercase hex. Used to
// fingerprint trained weights (`attnplay train --json` reports weights_sha256).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ap {
std::string sha256_hex(const uint8_t* data, size_t size);
}
