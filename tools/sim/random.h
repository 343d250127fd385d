// The simulators' random numbers and signatures (the engines themselves draw no random numbers).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>

namespace felt::sim {

// A 64-bit running hash of words: multiply-xorshift mixing, order-sensitive.
struct Hash {
    std::uint64_t h = 0xcbf29ce484222325ull;
    void add(std::uint64_t v) {
        h = (h ^ v) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
};

// splitmix64: a small, fast generator for shuffles and choices. Same seed, same run, on every
// platform.
struct Rng {
    std::uint64_t x;
    explicit Rng(std::uint64_t seed) : x(seed) {}
    std::uint64_t operator()() {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // In 0..n-1, for n below 2^32: the high half of 32 random bits times n (Lemire), with no
    // division, which costs tens of cycles. Uniform enough: the bias is below n / 2^32.
    std::uint64_t below(std::uint64_t n) { return ((*this)() >> 32) * n >> 32; }
    int below(int n) { return static_cast<int>(below(static_cast<std::uint64_t>(n))); }
};

// Fisher-Yates.
template <class T>
void shuffle(std::span<T> v, Rng& rng) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

// 16 hex digits.
std::string hex(std::uint64_t v);

} // namespace felt::sim
