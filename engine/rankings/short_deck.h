// The short deck (six-plus hold'em): 36 cards, six to ace. Categories from the lowest: high card,
// one pair, two pairs, three of a kind, a straight, a full house, a flush, four of a kind, a
// straight flush: a flush beats a full house, as it is rarer in a short deck, and a straight beats
// three of a kind (PokerKit's order). Option `trips_beat_straight` swaps those two, as some card
// rooms play it. The ace is high, and low too in A-6-7-8-9, the lowest straight, which plays as
// a nine high. There are 1,404 values.
#pragma once

#include "cards/types.h"

#include <compare>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace felt {

class ShortDeckValue {
  public:
    enum class Category : unsigned char {
        high_card,
        one_pair,
        two_pair,
        three_of_a_kind, // below the straight in PokerKit's order: category() says which
        straight,
        full_house,
        flush,
        four_of_a_kind,
        straight_flush,
    };

    constexpr ShortDeckValue() = default;
    constexpr explicit ShortDeckValue(std::uint32_t v) : v_(v) {}
    constexpr std::uint32_t raw() const { return v_; }
    constexpr auto operator<=>(const ShortDeckValue&) const = default;

    Category category() const;

  private:
    std::uint32_t v_ = 0;
};

std::string_view category_name(ShortDeckValue::Category c); // "flush", "full_house", ...

// A hand in a player's words: "three sevens", "two pair, nines and sevens", "a straight, nine
// high", "a flush, ace high", "a full house, kings full of sixes", "ace high,
// king-queen-nine-eight".
std::string short_deck_words(ShortDeckValue v);

// Five cards, six to ace of a standard pack, no jokers (asserted).
ShortDeckValue short_deck_value(std::span<const Card, 5> cards, bool trips_beat_straight = false);
// The best five of five to seven such cards.
ShortDeckValue best_short_deck_value(std::span<const Card> cards, bool trips_beat_straight = false);

} // namespace felt
