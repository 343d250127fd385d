// Leap rummy's cards and melds (../shared/spec/leap-rummy.md): leap sequences around a circle of
// R ranks, and whether a set of cards is a meld along one of them.
//
// Ranks are indexed 0..R-1 around the circle (standard pack: 0 = A, 1 = 2, ..., 12 = K). Leap k
// (1 <= k <= R/2) steps by k; leap R-k is the same sequence walked the other way, so a meld is
// always stored walking upwards: ranks start, start+k, start+2k, ... (mod R). Jokers, when the
// table plays with them, stand where they lie in a meld's card list.
#pragma once

#include "cards/deck.h"
#include "cards/types.h"
#include "result.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::leap {

enum class SuitRule : std::uint8_t { same_suit, same_colour, any };

// A table's options: everything that changes the rules.
struct Rules {
    int ranks = 13;                       // 5, 7, 11, 12, 13 or 17
    SuitRule suits = SuitRule::same_suit; // what a meld's cards must share
    int packs = 0;                        // 0: one pack for 2-4 players, two for 5-6
    int jokers = 0;                       // jokers per pack; with any, jokers are wild
    bool distinct_leaps = false;          // alternative rule: no leaptokens, no conjoining
    int hand_size = 5;                    // cards dealt to each player
    // The edition of the rules: 2 (the spec's) seats no more players than leaps under
    // leaptokens; 1 (before 2026-11, kept so that games played under it replay) had no limit.
    int edition = 2;
};

inline constexpr int kMaxLeaps = 8;         // 17 ranks
inline constexpr int kJokerPenalty = 15;    // a joker left in hand
inline constexpr int kMaxCardsPerMeld = 64; // far more than a hand can hold

// The deck a game is played with, and the arithmetic of its circle of ranks.
class Table {
  public:
    // Refuses an unknown rank count, 2 > players > 6, more players than leaps under leaptokens
    // (each player holds a leap of their own), packs outside 1..4, more than 8 jokers in all, or
    // a deal larger than the deck.
    static Result<std::shared_ptr<const Table>> make(const Rules& rules, int players);

    const Rules& rules() const { return rules_; }
    int players() const { return players_; }
    int packs() const { return packs_; }
    int ranks() const { return rules_.ranks; }
    int leaps() const { return rules_.ranks / 2; }
    // Card notation and the physical cards: labels in circle order, suits "shdc".
    const Deck& deck() const { return deck_; }
    // Points a card costs when left in hand: its face value (A=1 ... K=13), a joker 15.
    int face(Card c) const { return c.is_joker() ? kJokerPenalty : faces_[c.rank().index()]; }
    // The rank `steps` places along leap `leap` from `rank` (steps may be negative).
    int step(int rank, int leap, int steps) const {
        int r = (rank + steps * leap) % rules_.ranks;
        return r < 0 ? r + rules_.ranks : r;
    }
    // Ranks in one cycle of a leap: R for a prime R, fewer for 12 ranks.
    int cycle_length(int leap) const { return cycle_[static_cast<std::size_t>(leap)]; }
    // The ranks in leap order, cycle after cycle: cycle c (from 0) starts at rank c and holds
    // walk(leap)[c * L .. c * L + L - 1], L = cycle_length(leap). For fast searches.
    const std::uint8_t* walk(int leap) const {
        return walk_[static_cast<std::size_t>(leap)].data();
    }
    // The class a meld's natural cards must share under the suit rule: the suit, the colour
    // (0 black, 1 red) or 0.
    int suit_class(Card c) const;

  private:
    Rules rules_;
    int players_ = 0;
    int packs_ = 1;
    Deck deck_ = Deck::standard();
    std::vector<int> faces_;
    std::array<int, kMaxLeaps + 1> cycle_{};
    std::array<std::array<std::uint8_t, 32>, kMaxLeaps + 1> walk_{};
};

// Value of a meld of n cards: (n-1)(n-2)/2.
constexpr int meld_points(int n) {
    return n < 3 ? 0 : (n - 1) * (n - 2) / 2;
}

struct Meld {
    int id = 0;              // stable for the game; a meld joined into another disappears
    int owner = -1;          // seat
    int leap = 0;            // 1..R/2
    int start = 0;           // rank index of cards[0]
    int suit = 0;            // Table::suit_class of its natural cards
    std::vector<Card> cards; // in sequence order, walking upwards by `leap`
    int length() const { return static_cast<int>(cards.size()); }
    int points() const { return meld_points(length()); }
};

// Bit k set: leap k.
using LeapMask = std::uint32_t;
inline constexpr LeapMask kAllLeaps = 0x1FE; // bits 1..8

// The leaps along which `cards` (any order) make a meld. Errors: too_short (under 3 cards),
// wrong_suit (the naturals break the suit rule), no_adjacent_naturals, adjacent_wilds,
// not_a_sequence.
Result<LeapMask> meld_leaps(const Table& t, std::span<const Card> cards);

// The cards as a meld along one of `leaps` (from meld_leaps, non-empty). The cards' own order is
// kept when it is a sequence (either way round) in an allowed leap; otherwise the lowest leap,
// then the lowest starting rank, naturals before jokers.
Meld lay_out(const Table& t, std::span<const Card> cards, LeapMask leaps);

// The cards in the given order, when that order is a meld (either way round): the fast path for
// clients that send melds in sequence. Empty when it is not.
std::optional<Meld> as_given(const Table& t, std::span<const Card> cards);

// `meld` with `low` added before its first card and `high` after its last, each in sequence
// order (the last of `low` next to the meld). Errors: wrong_suit, not_a_sequence, adjacent_wilds.
std::optional<Error> extend_exact(const Table& t, Meld& meld, std::span<const Card> low,
                                  std::span<const Card> high);

// `meld` with `cards` added at either end, split and ordered by the engine: the fewest cards
// before the first, naturals before jokers. With `abut` given, only a result that runs straight
// into it (either end) counts. Errors as extend_exact, and not_abutting.
std::optional<Error> extend_any(const Table& t, Meld& meld, std::span<const Card> cards,
                                const Meld* abut = nullptr);

// `a` and `b` as one meld when one runs straight into the other (same leap and suit class):
// into `a`, keeping its id. Errors: not_abutting, adjacent_wilds.
std::optional<Error> join(const Table& t, Meld& a, const Meld& b);

// "3h 5h 7h" for a meld, by the table's notation.
std::string to_string(const Table& t, const Meld& m);

} // namespace felt::leap
