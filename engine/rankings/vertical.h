// The fast vertical-meld evaluator: 3, 5, 6 or 7 cards of a 13-rank deck holding at most four
// cards of a rank (the 52-card pack), to one integer where greater is stronger.
//
// Vertical melds ignore suits, so a hand's value depends only on its rank multiset: the high half
// of the standard evaluator's key (evaluator.h) already perfect-hashes every such multiset, and
// kVerticalTable, parallel to kRankTable, holds the multiset's place in vertical order. Values of
// hands of different sizes compare correctly. For any other deck or size, and for categories,
// use melds.h (vertical_melds) or the `vertical` ranking (ranking.h).
#pragma once

#include "rankings/evaluator.h"

#include <compare>
#include <cstdint>

namespace felt {

// 1 .. tables::kVerticalValueCount in vertical order (every multiset is its own class).
class VerticalValue {
  public:
    constexpr VerticalValue() = default;
    constexpr explicit VerticalValue(std::uint32_t v) : v_(v) {}
    constexpr std::uint32_t raw() const { return v_; }
    constexpr auto operator<=>(const VerticalValue&) const = default;

  private:
    std::uint32_t v_ = 0;
};

inline VerticalValue evaluate_vertical(const HandKey& h) {
    return VerticalValue(tables::kVerticalTable[detail::rank_slot(h.key)]);
}

// N cards (3, 5, 6 or 7) of the 52-card pack, at most four of a rank, no jokers. Unchecked.
template <int N>
inline VerticalValue evaluate_vertical(const Card* cards) {
    static_assert(N == 3 || N == 5 || N == 6 || N == 7);
    std::uint64_t key = 0;
    for (int i = 0; i < N; ++i) key += detail::card_key(cards[i]);
    return VerticalValue(tables::kVerticalTable[detail::rank_slot(key)]);
}

} // namespace felt
