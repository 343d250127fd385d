// Strength: how any ranking says how good a hand is, so that hands of every ranking compare alike.
//
// A Strength is a short byte string compared lexicographically (greater is stronger), padded with
// zeros. Each ranking writes its comparison steps in order, so the first differing byte decides,
// exactly as "first difference decides" in the rules. 64 bytes hold every encoding Felt uses: a
// meld ranking of up to 31 cards writes at most 63.
#pragma once

#include <array>
#include <cassert>
#include <compare>
#include <cstdint>

namespace felt {

class Strength {
  public:
    static constexpr int kCapacity = 64;

    constexpr Strength() = default;

    constexpr int size() const { return size_; }
    constexpr std::uint8_t operator[](int i) const { return bytes_[static_cast<std::size_t>(i)]; }

    constexpr void push(int byte) {
        assert(size_ < kCapacity && byte >= 0 && byte <= 255);
        bytes_[static_cast<std::size_t>(size_++)] = static_cast<std::uint8_t>(byte);
    }

    // Only the bytes take part: the length is implied by them.
    constexpr std::strong_ordering operator<=>(const Strength& o) const {
        return bytes_ <=> o.bytes_;
    }
    constexpr bool operator==(const Strength& o) const { return bytes_ == o.bytes_; }

  private:
    std::array<std::uint8_t, kCapacity> bytes_{};
    int size_ = 0;
};

} // namespace felt
