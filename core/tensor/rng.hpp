// core/tensor/rng.hpp — the one seeded random number generator of the project.
// xoshiro128+-style state seeded by splitmix64: the same seed gives the same stream on every
// platform and build (std:: distributions are implementation-defined, so none are used).
#pragma once
#include <array>
#include <cmath>
#include <cstdint>

namespace ap {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (auto& s : s_) s = splitmix(seed);
  }
  // The whole state, for saving a session and continuing it bit-identically.
  std::array<uint64_t, 4> state() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void set_state(const std::array<uint64_t, 4>& st) {
    for (int i = 0; i < 4; ++i) s_[i] = st[i];
  }
  // A child stream, independent of this one's future draws (for train vs held-out data, ...).
  Rng fork(uint64_t salt) { return Rng(next_u64() ^ (salt * 0x9E3779B97F4A7C15ull)); }
  uint64_t next_u64() {  // xoshiro256**
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [0, n) (n > 0); Lemire's multiply-shift, bias < 2^-32 for our sizes.
  int uniform_int(int n) { return int(((next_u64() >> 32) * uint64_t(n)) >> 32); }
  // Uniform integer in [lo, hi] inclusive.
  int range(int lo, int hi) { return lo + uniform_int(hi - lo + 1); }
  // Uniform float in [0, 1).
  float uniform() { return float(next_u64() >> 40) * (1.0f / 16777216.0f); }
  bool bernoulli(float p) { return uniform() < p; }
  // Standard normal (Box-Muller, one value per call).
  float normal() {
    double u1 = (double(next_u64() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
    double u2 = double(next_u64() >> 11) * (1.0 / 9007199254740992.0);
    return float(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }
  // Fisher-Yates shuffle of [first, first+n).
  template <class T>
  void shuffle(T* first, int n) {
    for (int i = n - 1; i > 0; --i) {
      int j = uniform_int(i + 1);
      T tmp = first[i];
      first[i] = first[j];
      first[j] = tmp;
    }
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace ap
