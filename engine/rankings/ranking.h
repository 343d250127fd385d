// Rankings by name: the one interface through which tables, showdowns and the `felt` tool judge a
// hand, whatever the ranking.
//
//   standard    poker hands, best five of 5 to 7 cards or a three-card front; option `wild`
//   vertical    vertical melds: sequences beat pairs, every card counts, any hand size
//   horizontal  groups of equal rank (h41, h32, ...)
//   flush       groups of one suit (f5, f41, ...)
//   pokem       Poke'm: five multi-attribute cards; option `quads_over_one_of_each`
//   ace-to-five     lowball, aces low, no straights or flushes: best five of 5 to 7 (razz)
//   deuce-to-seven  lowball, aces high, straights and flushes count: five cards (2-7 draws)
//   badugi          the best set of 1 to 4 cards of different ranks and suits, aces low
//   short-deck      36 cards, six to ace: best five of 5 to 7; option `trips_beat_straight`
//
// A ranking owns the deck it judges: it parses and prints that deck's cards and lists the
// physical cards a table deals. Code that deals and judges (betting, server) asks only this
// interface, so a new ranking needs no change there.
#pragma once

#include "cards/deck.h"
#include "cards/types.h"
#include "rankings/strength.h"
#include "rankings/wild.h"
#include "result.h"

#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt {

// What a ranking says of one hand.
struct Judgement {
    Strength strength;    // greater is stronger; equal is a split
    std::string category; // "full_house", "v41", "h32", "f5", "double_perfect", ...
};

// Options of every ranking; each ranking reads those that concern it.
struct RankingOptions {
    Wild wild = Wild::none;              // standard
    int ranks = 13;                      // vertical, horizontal, flush: ranks in the deck
    int copies = 4;                      // ... and cards per rank (one per suit)
    bool quads_over_one_of_each = false; // pokem
    bool trips_beat_straight = false;    // short-deck
};

class Ranking {
  public:
    virtual ~Ranking() = default;

    virtual std::string_view name() const = 0;
    // The standard ranking's wild cards; none for every other ranking.
    virtual Wild wild() const { return Wild::none; }
    // The short deck's option; false for every other ranking.
    virtual bool trips_beat_straight() const { return false; }
    // Hand sizes judged: from min_cards() to max_cards(); some rankings allow only some sizes
    // in between (standard: 3, 5, 6, 7), and judge() names the sizes when refusing.
    virtual int min_cards() const = 0;
    virtual int max_cards() const = 0;

    // The deck's physical cards, for dealing.
    virtual std::vector<Card> cards() const = 0;
    // How many of this card the deck holds (0: not a card of the deck).
    int copies_of(Card c) const { return copies_[c.code()]; }
    virtual Result<std::vector<Card>> parse_cards(std::string_view text) const = 0;
    virtual std::string to_string(std::span<const Card> cards) const = 0;

    // Checked: refuses a card not in the deck, a card given more often than the deck holds it,
    // and a hand size the ranking does not judge.
    virtual Result<Judgement> judge(std::span<const Card> cards) const = 0;

    // The strength alone, for cards already known to be a hand of the deck (a showdown of dealt
    // cards): no checks, no category text. A hand judge() would refuse has the least strength.
    virtual Strength strength(std::span<const Card> cards) const {
        auto j = judge(cards);
        return j ? j->strength : Strength{};
    }

    // The strongest hand of exactly two of `hole` and three of `board` (Omaha), as strength()
    // gives it: the least strength when there is none.
    virtual Strength omaha_strength(std::span<const Card> hole, std::span<const Card> board) const;

    // Hands shown together at a showdown (each as judge() accepts it), in a player's words, each
    // with the kickers that tell it from the others (standard: "two pair, kings and sevens, ace
    // kicker"; hand_class::showdown_words); empty strings where the ranking has no words.
    virtual std::vector<std::string>
    showdown_words(std::span<const std::vector<Card>> hands) const {
        return std::vector<std::string>(hands.size());
    }

  protected:
    std::array<std::uint8_t, 256> copies_{}; // by card code; filled by each ranking
};

// The names above; anything else is Errc::bad_option,
// and so is a deck the ranking cannot use.
Result<std::unique_ptr<const Ranking>> make_ranking(std::string_view name,
                                                    const RankingOptions& options = {});

// The known names, in the order above.
std::span<const std::string_view> ranking_names();

// The deck of a meld ranking: `ranks` ranks (1..30 of them; up to 13 the highest of 2..A, so 8
// ranks are 7..A; above 13 the numbers 1..ranks) and `copies` suits (1..8: s h d c r g b y).
Result<Deck> meld_deck(int ranks, int copies);

} // namespace felt
