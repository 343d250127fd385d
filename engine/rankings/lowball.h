// Lowball rankings, for the mixed games (issue 48): ace-to-five, the ranking of razz and of the
// low half of the hi-lo games, and deuce-to-seven, the draws'. Badugi comes with its game.
//
// Ace-to-five: aces are low, straights and flushes do not count, pairs do. Every hand without a
// pair beats every hand with one; hands of the same shape compare by their groups, the larger
// group first, then each group's rank from the highest down, the lower better: 7-5-4-3-2 beats
// 7-6-3-2-A, a pair of fours beats a pair of fives whatever the kickers. The best hand is 5-4-3-2-A
// (the wheel). There are 6,175 values: 1,287 without a pair and 4,888 with.
#pragma once

#include "cards/types.h"

#include <compare>
#include <cstdint>
#include <span>

namespace felt {

// An ace-to-five low: a greater value is a better low; 0 means "no hand".
class LowValue {
  public:
    constexpr LowValue() = default;
    constexpr explicit LowValue(std::uint32_t v) : v_(v) {}
    constexpr std::uint32_t raw() const { return v_; }
    constexpr auto operator<=>(const LowValue&) const = default;

    // Whether it has no pair and no card above `highest` (a standard-pack rank index; the ace
    // counts as one): an eight-or-better low qualifies for the low half of a hi-lo pot.
    bool qualifies(Rank highest = rank::eight) const;

  private:
    std::uint32_t v_ = 0;
};

// The ace-to-five value of five cards of a standard pack (no jokers).
LowValue ace_to_five_low(std::span<const Card, 5> cards);
// The best ace-to-five low of any five of `cards` (five to seven cards, as stud deals them).
LowValue best_ace_to_five_low(std::span<const Card> cards);

// Deuce-to-seven (the deuce-to-seven draws): aces are high only, straights and flushes count
// against the hand, and A-5-4-3-2 is no straight but an ace high. The best hand is 7-5-4-3-2 of
// two suits or more. The order is the standard ranking's turned over: high card, a pair, two
// pairs, three of a kind, a straight, a flush, a full house, four of a kind, a straight flush,
// the lower the better within each. 7,462 values, as the standard ranking has. A greater value is
// a better low; 0 means "no hand".
class DeuceSevenValue {
  public:
    constexpr DeuceSevenValue() = default;
    constexpr explicit DeuceSevenValue(std::uint32_t v) : v_(v) {}
    constexpr std::uint32_t raw() const { return v_; }
    constexpr auto operator<=>(const DeuceSevenValue&) const = default;

  private:
    std::uint32_t v_ = 0;
};

DeuceSevenValue deuce_to_seven_low(std::span<const Card, 5> cards);

} // namespace felt
