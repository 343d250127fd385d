// The best value of any five of a few cards, for rankings judged on five cards at a time.
#pragma once

#include "cards/types.h"

#include <algorithm>
#include <array>
#include <bit>
#include <span>

namespace felt {

// Calls f(five) with every five of `cards` (at most 16 of them): each set of five bits below 2^n
// picks one.
template <class F>
void for_each_five(std::span<const Card> cards, F&& f) {
    const std::size_t n = cards.size();
    for (unsigned mask = 0; mask < 1u << n; ++mask) {
        if (std::popcount(mask) != 5) continue;
        std::array<Card, 5> five{};
        std::size_t k = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (mask >> i & 1) five[k++] = cards[i];
        f(std::span<const Card, 5>(five));
    }
}

// The greatest value(five) over every five of `cards`.
template <class Value, class F>
Value best_of_fives(std::span<const Card> cards, F&& value) {
    Value best{};
    for_each_five(cards,
                  [&](std::span<const Card, 5> five) { best = std::max(best, value(five)); });
    return best;
}

} // namespace felt
