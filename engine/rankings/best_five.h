// The fives of a few cards, for rankings judged on five cards at a time: any five, or Omaha's
// two of the hole cards and three of the board.
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

// Calls f(five) with every hand of exactly two of `hole` and three of `board` (Omaha).
template <class F>
void for_each_omaha_five(std::span<const Card> hole, std::span<const Card> board, F&& f) {
    std::array<Card, 5> five{};
    const std::size_t h = hole.size(), b = board.size();
    for (std::size_t a = 0; a < h; ++a)
        for (std::size_t c = a + 1; c < h; ++c) {
            five[0] = hole[a];
            five[1] = hole[c];
            for (std::size_t x = 0; x < b; ++x)
                for (std::size_t y = x + 1; y < b; ++y)
                    for (std::size_t z = y + 1; z < b; ++z) {
                        five[2] = board[x];
                        five[3] = board[y];
                        five[4] = board[z];
                        f(std::span<const Card, 5>(five));
                    }
        }
}

} // namespace felt
