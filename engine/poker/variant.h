// Betting-game variants as data (betting.md): a list of streets, each dealing, drawing or rolling
// over, then holding one betting round. A new variant that recombines these steps needs no code.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace felt::poker {

// One thing a street does before its betting round.
struct Step {
    enum class Kind : unsigned char {
        deal_down,  // `count` cards to each player, face down (but those `up` marks)
        deal_up,    // `count` cards to each player, face up
        deal_board, // `count` cards to the board, face up, shared
        draw,       // each player in turn discards min_discard..max, receives `receive` or as many
        rollover,   // each player in turn turns `count` face-down cards face up
    };
    Kind kind;
    int count = 1;
    int min_discard = 0;
    int max_discard = -1;   // -1: the table's draw option
    int receive = -1;       // -1: as many as discarded
    unsigned up = 0;        // deal_down: bit i set when the step's card i is dealt face up
    bool stand_pat = false; // draw: a player may also discard nothing, whatever min_discard
};
// Dealing is player by player: each player gets all of a step's cards before the next player,
// starting left of the button (the order of a PHH hand history's dealing actions).

struct Street {
    std::vector<Step> steps;
    bool betting = true;    // a betting round closes the street
    bool big_bet = false;   // fixed limit: the big bet, not the small
    bool open_pair = false; // fixed limit: a pair showing may make it the big bet (OpenPair)
};

// Who opens a betting round.
enum class Opener : unsigned char {
    position,    // first round: left of the big blind (left of the button without blinds);
                 // later rounds: first active player left of the button
    showing,     // stud: first round the lowest up card brings in; later the best showing hand
    showing_low, // razz: first round the highest up card brings in (aces low, a tie by suit,
                 // spades highest); later the best showing low (aces low, pairs bad)
};

struct Variant {
    std::string name;
    std::vector<Street> streets;
    Opener opener = Opener::position;
    int max_seats = 9;
    // The ranking a table of this variant plays (ranking.h); named_config takes it.
    std::string ranking = "standard";
    // Hole cards a showdown hand uses: 0, any of the player's and the board's cards; 2, exactly
    // two of the player's and three of the board's (Omaha), for each half of a split pot.
    int hole_cards_used = 0;
    // Hi-lo: each pot is split between the best hand and the best ace-to-five low of eight or
    // better (the odd chip to the high half); with no such low, the best hand takes it all.
    bool split_low = false;

    bool bring_in_opens() const { return opener != Opener::position; }

    // Whether a street draws (players exchange cards): only such a variant can empty the stock.
    bool draws() const {
        return std::any_of(streets.begin(), streets.end(), [](const Street& s) {
            return std::any_of(s.steps.begin(), s.steps.end(),
                               [](const Step& p) { return p.kind == Step::Kind::draw; });
        });
    }

    // Whether a street counts an open pair (fixed limit: see OpenPair in hand.h).
    bool has_open_pair() const {
        return std::any_of(streets.begin(), streets.end(),
                           [](const Street& s) { return s.open_pair; });
    }
};

// "straight", "draw", "stud", "holdem", "mexican", "shrinking", and the mixed games: "omaha",
// "omaha-hilo", "razz", "stud-hilo", "deuce-single-draw", "deuce-triple-draw", "badugi",
// "short-deck"; nullptr for any other name.
// "shrinking-3" too, shrinking draw's earlier rules (three draws of exactly two), for the hands
// stored under them: builtin_variant_names() leaves it out.
const Variant* builtin_variant(std::string_view name);
std::vector<std::string_view> builtin_variant_names();

} // namespace felt::poker
