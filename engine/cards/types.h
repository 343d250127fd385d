// Primitive types of the engine: Rank, Suit and Card.
//
// Card encoding (documented once, here): one byte, `rank << 3 | suit`.
//   rank  0..30 is the rank index within its deck, lowest first (standard pack: 0 = deuce ... 12 =
//   ace); suit  0..7  is the suit index (standard pack: 0 = spades, 1 = hearts, 2 = diamonds, 3 =
//   clubs); rank 31 marks a joker, whose low three bits number it among the deck's jokers.
// A card says what is printed on it; copies from several packs print the same and are told apart
// by their position in the deck, not by the Card value.
#pragma once

#include <compare>
#include <cstdint>

namespace felt {

class Rank {
  public:
    constexpr explicit Rank(int index) : v_(static_cast<std::uint8_t>(index)) {}
    constexpr int index() const { return v_; }
    constexpr auto operator<=>(const Rank&) const = default;

  private:
    std::uint8_t v_;
};

class Suit {
  public:
    constexpr explicit Suit(int index) : v_(static_cast<std::uint8_t>(index)) {}
    constexpr int index() const { return v_; }
    constexpr auto operator<=>(const Suit&) const = default;

  private:
    std::uint8_t v_;
};

// The standard pack's ranks, by index.
namespace rank {
inline constexpr Rank two{0}, three{1}, four{2}, five{3}, six{4}, seven{5}, eight{6}, nine{7},
    ten{8}, jack{9}, queen{10}, king{11}, ace{12};
}
namespace suit {
inline constexpr Suit spades{0}, hearts{1}, diamonds{2}, clubs{3};
}

inline constexpr int kMaxRanks = 31; // rank indices 0..30; 31 is the joker marker
inline constexpr int kMaxSuits = 8;  // suit indices 0..7
inline constexpr int kJokerRank = 31;

class Card {
  public:
    // Code 0, the lowest rank of the first suit (2 of spades): for arrays filled afterwards.
    constexpr Card() = default;
    constexpr Card(Rank r, Suit s) : code_(static_cast<std::uint8_t>(r.index() << 3 | s.index())) {}

    // The n-th joker of a deck (n = 0 for a deck with one joker).
    static constexpr Card joker(int n = 0) { return from_code(kJokerRank << 3 | n); }
    static constexpr Card from_code(int code) { return Card(static_cast<std::uint8_t>(code)); }

    constexpr Rank rank() const { return Rank(code_ >> 3); }
    constexpr Suit suit() const { return Suit(code_ & 7); }
    constexpr bool is_joker() const { return (code_ >> 3) == kJokerRank; }
    constexpr std::uint8_t code() const { return code_; }

    constexpr auto operator<=>(const Card&) const = default;

  private:
    constexpr explicit Card(std::uint8_t code) : code_(code) {}
    std::uint8_t code_ = 0;
};

static_assert(sizeof(Card) == 1);

} // namespace felt
