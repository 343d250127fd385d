// Equity: each player's share of the pot when the cards still to come are dealt every possible
// way (exactly) or at random (Monte Carlo), as card rooms show at an all-in and hand replayers
// at every street. Pure: the Monte Carlo draw is a function of the query's seed.
//
// Games: hold'em and the short deck (two hole cards and a board of five; ranges allowed),
// Omaha and Omaha hi-lo (four to six hole cards, exactly two used), seven-card stud, stud hi-lo
// and razz (seven cards each, no board). A player's cards may be fewer than the game deals
// (Omaha, stud): the rest come from the deck like the board's.
//
// A pot split k ways counts 1/k to each of its winners. In a hi-lo game the pot splits between
// the best high hand and the best eight-or-better low, the high taking it all without a low.
#pragma once

#include "cards/types.h"
#include "odds/range.h"
#include "result.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt::odds {

enum class Game : unsigned char { holdem, short_deck, omaha, omaha_hilo, stud, stud_hilo, razz };

// "holdem", "short-deck", "omaha", "omaha-hilo", "stud", "stud-hilo", "razz".
std::string_view game_name(Game g);
Result<Game> game_by_name(std::string_view name);
std::span<const std::string_view> game_names();

struct GameShape {
    int hole = 2;            // cards a player ends with (Omaha: the most, six)
    int board = 5;           // shared cards
    bool ranges = true;      // players may be ranges (two hole cards)
    bool hilo = false;       // the pot splits high and low
    bool short_deck = false; // 36 cards, six to ace
};
GameShape shape(Game g);

// One player: a range (hold'em, short deck) or the cards known so far.
struct Player {
    std::vector<Combo> range;
    std::vector<Card> cards;
};

struct Query {
    Game game = Game::holdem;
    std::vector<Player> players; // 2 to 10
    std::vector<Card> board, dead;
    int hole = 0;                     // Omaha: cards each player ends with (4 to 6; 0: four)
    bool trips_beat_straight = false; // the short deck's option (short_deck.h)
    bool exact = false;               // enumerate whatever the count
    bool monte_carlo = false;         // sample whatever the count
    double target_stderr = 0.05;      // Monte Carlo: stop below this standard error, in percent
    std::uint64_t exact_limit = 0;    // 0: the game's default (showdowns; see exact_limit())
    std::uint64_t max_samples = 50'000'000; // Monte Carlo: stop here at the latest
    std::uint64_t seed = 1;
};

// Showdowns enumerated exactly by default, about two seconds' work at most: 2 x 10^10 in
// hold'em, whose enumeration counts groups of boards at once; in the other games, judged one
// showdown at a time, 2 x 10^7 in stud, stud hi-lo and razz, 5 x 10^6 in Omaha and 2 x 10^6 in
// the short deck; and at most 3 million deals of the players' ranges (a deal costs its own
// bookkeeping, however few the boards).
std::uint64_t exact_limit(Game g);

// Players' hands from text: a range (hold'em, short deck) or cards ("AsKs", "" for none known),
// validated against the game's deck, the board and the dead cards.
Result<Query> make_query(Game g, std::span<const std::string> hands, std::string_view board,
                         std::string_view dead);

struct Equity {
    bool exact = true;
    double showdowns = 0;                   // weighted count of the showdowns judged
    double stderr_percent = 0;              // Monte Carlo: the largest player's standard error
    std::vector<double> equity, wins, ties; // percent; equity sums to 100
    // Hi-lo: each player's share of the high half and of the low half (as a percentage of a
    // half; the lows sum to the chance that some low qualifies), and the chance of taking the
    // whole pot alone.
    std::vector<double> high, low, scoop;
};

// Checks the query (players, cards, counts) and computes. Errc::wrong_count for a player count
// or a card count the game does not allow, Errc::duplicate_card for a card given twice,
// Errc::bad_range for a range with no combination left beside the known cards.
Result<Equity> equity(const Query& q);

} // namespace felt::odds
