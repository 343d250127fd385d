// Lowball rankings, for the mixed games (issue 48): ace-to-five, the ranking of razz and of the
// low half of the hi-lo games; deuce-to-seven, the deuce-to-seven draws'; and badugi.
//
// Ace-to-five: aces are low, straights and flushes do not count, pairs do. Every hand without a
// pair beats every hand with one; hands of the same shape compare by their groups, the larger
// group first, then each group's rank from the highest down, the lower better: 7-5-4-3-2 beats
// 7-6-3-2-A, a pair of fours beats a pair of fives whatever the kickers. The best hand is 5-4-3-2-A
// (the wheel). There are 6,175 values: 1,287 without a pair and 4,888 with.
#pragma once

#include "cards/types.h"

#include <array>
#include <compare>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
// The same value when it qualifies as eight or better (LowValue::qualifies()), else 0: a hi-lo
// game's low half, quickly, from the five ranks' bits.
LowValue eight_or_better_low(std::span<const Card, 5> cards);
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

// Badugi: the largest set of the hand's cards with no two of one rank and no two of one suit
// counts, and more cards beat fewer; sets of one size compare by their highest card, then the
// next, aces low, the lower better. The best hand is 4-3-2-A of four suits. There are 1,092
// values: 715 four-card badugis, 286 three-card, 78 two-card and 13 one-card hands.
class BadugiValue {
  public:
    constexpr BadugiValue() = default;
    constexpr explicit BadugiValue(std::uint32_t v) : v_(v) {}
    constexpr std::uint32_t raw() const { return v_; }
    constexpr auto operator<=>(const BadugiValue&) const = default;

    // The cards that count: 1 to 4 (0 for no hand).
    constexpr int size() const { return static_cast<int>(v_ >> 16); }
    // Their ranks from the highest down, the ace as 1 ... the king as 13.
    std::array<int, 4> ranks() const;

  private:
    std::uint32_t v_ = 0;
};

// One to four cards of a standard pack (no jokers); the best set among them.
BadugiValue badugi(std::span<const Card> cards);

// Category names, as judgements give them: ace-to-five "no_pair", "one_pair", "two_pair",
// "three_of_a_kind", "full_house", "four_of_a_kind"; deuce-to-seven the standard ranking's
// ("high_card" ... "straight_flush"); badugi "one_card", "two_card", "three_card", "badugi".
std::string_view category_name(LowValue v);
std::string_view category_name(DeuceSevenValue v);
std::string_view category_name(BadugiValue v);

// Hands shown together, in a player's words, each with as many of its ranks as tell it from the
// others: ace-to-five "an eight-seven low", "a wheel" (5-4-3-2-A), "a pair of fours";
// deuce-to-seven "a number one" (7-5-4-3-2), "a nine-eight low", "a straight"; badugi "a
// seven-five badugi", "a three-card badugi, seven-five". A value of 0 has no words.
std::vector<std::string> low_words(std::span<const LowValue> hands);
std::vector<std::string> low_words(std::span<const DeuceSevenValue> hands);
std::vector<std::string> low_words(std::span<const BadugiValue> hands);

} // namespace felt
