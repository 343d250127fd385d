// The standard poker evaluator: 3, 5, 6 or 7 cards of one 52-card pack to a HandValue.
//
// How it works (tables from engine/rankings/tablegen/gen_standard_tables.cpp):
//   Each card has a 64-bit key. The high half adds (5^rank * M) mod 2^32, so over a hand it holds
//   base5(rank counts) * M, distinct for distinct rank multisets. The low half holds four 4-bit
//   suit counters, started at 3 so that bit 3 of a counter is set once its suit has 5 cards.
//   Flush: the suit's 13-bit rank set indexes kFlushTable. Otherwise the high half is hashed to a
//   slot of kRankTable (row displacement; see the generator). With 7 cards from one pack a flush
//   excludes a full house or four of a kind, so the flush table alone decides a flush hand.
//
// No allocation, no branches but the flush test; suitable for the innermost loop of anything.
#pragma once

#include "cards/types.h"
#include "rankings/hand_value.h"
#include "standard_tables.h"

#include <bit>
#include <cassert>
#include <cstdint>
#include <span>

namespace felt {

namespace detail {

inline constexpr std::uint64_t kSuitCounterStart = 0x3333;
inline constexpr std::uint64_t kFlushBits = 0x8888;

inline std::uint64_t card_key(Card c) {
    return tables::kCardKey[c.code()];
}

// Bit 16 * suit + rank: the rank sets of all four suits in one word.
inline std::uint64_t card_mask(Card c) {
    return std::uint64_t{1} << ((c.code() & 7) * 16 + (c.code() >> 3));
}

// Slot of a rank multiset (3, 5, 6 or 7 cards) in kRankTable and kVerticalTable.
inline std::uint32_t rank_slot(std::uint64_t key) {
    const std::uint32_t h = static_cast<std::uint32_t>(key >> 32);
    std::uint32_t slot =
        ((h >> tables::kColShift) & tables::kColMask) + tables::kRowOffset[h >> tables::kRowShift];
    // Both terms are below 2^16 and kRankTableSize is above 2^16: one subtraction wraps.
    static_assert(tables::kRankTableSize > 0xFFFF);
    return slot >= tables::kRankTableSize ? slot - tables::kRankTableSize : slot;
}

// Best hand of a rank multiset (3, 5, 6 or 7 cards) ignoring flushes.
inline HandValue rank_value(std::uint64_t key) {
    return HandValue(tables::kRankTable[rank_slot(key)]);
}

inline bool has_flush(std::uint64_t key) {
    return (key & kFlushBits) != 0;
}
inline int flush_suit(std::uint64_t key) {
    return std::countr_zero(key & kFlushBits) >> 2;
}

} // namespace detail

// A hand built a card at a time: enumerations keep one per depth and add the next card.
struct HandKey {
    std::uint64_t key = detail::kSuitCounterStart;
    std::uint64_t mask = 0; // bit 16 * suit + rank

    constexpr HandKey() = default;
    HandKey operator+(Card c) const {
        HandKey h = *this;
        h.key += detail::card_key(c);
        h.mask |= detail::card_mask(c);
        return h;
    }
};

inline HandValue evaluate(const HandKey& h) {
    if (detail::has_flush(h.key)) {
        const int s = detail::flush_suit(h.key);
        return HandValue(tables::kFlushTable[(h.mask >> (16 * s)) & 0x1FFF]);
    }
    return detail::rank_value(h.key);
}

// N cards (3, 5, 6 or 7) of one 52-card pack, all different, no jokers. Unchecked: validate
// input from outside with evaluate_hand (wild.h).
template <int N>
inline HandValue evaluate(const Card* cards) {
    static_assert(N == 3 || N == 5 || N == 6 || N == 7);
    std::uint64_t key = detail::kSuitCounterStart;
    for (int i = 0; i < N; ++i) key += detail::card_key(cards[i]);
    if (detail::has_flush(key)) [[unlikely]] {
        const int s = detail::flush_suit(key);
        unsigned ranks = 0;
        for (int i = 0; i < N; ++i)
            if (cards[i].suit().index() == s) ranks |= 1u << cards[i].rank().index();
        return HandValue(tables::kFlushTable[ranks]);
    }
    return detail::rank_value(key);
}

// Any of 3, 5, 6 or 7 cards (asserted), under the same contract.
HandValue evaluate(std::span<const Card> cards);

} // namespace felt
