// Small helpers of the Chinese poker engine: subsets of a hand as bit masks, and the cards they
// pick. Internal to engine/chinese (and its table generator).
#pragma once

#include "cards/types.h"

#include <array>
#include <bit>
#include <span>
#include <vector>

namespace felt::chinese::bits {

// Indices of every k-subset of n, in lexicographic order, as bit masks.
inline std::vector<unsigned> subsets(int n, int k) {
    std::vector<unsigned> out;
    for (unsigned m = 0; m < (1u << n); ++m)
        if (std::popcount(m) == k) out.push_back(m);
    return out;
}

template <int N>
std::array<Card, N> pick(std::span<const Card> cards, unsigned mask) {
    std::array<Card, N> out{};
    int j = 0;
    for (int i = 0; i < static_cast<int>(cards.size()); ++i)
        if (mask >> i & 1) out[static_cast<std::size_t>(j++)] = cards[static_cast<std::size_t>(i)];
    return out;
}

} // namespace felt::chinese::bits
