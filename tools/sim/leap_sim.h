// Random legal play through the leap rummy engine, checking its properties as it goes.
//
// Each game: a deck shuffled by splitmix64 from the seed, the dealer moving one seat a game, then
// players who pursue every turn, meld when they can (a random choice among the new melds and
// extensions open to them, now and then passing it up), discard a random card, and retire after
// 10 turns in a row without melding. Checked after every action: every card is in exactly one
// place (stock, a hand, a meld); no two players hold the same leap; a player's melds keep to their
// leaptoken (or, under the alternative rule, to distinct leaps); private cards go only to their
// owner; every game ends. The signature hashes every event.
#pragma once

#include "leap/leap_game.h"
#include "random.h"

#include <cstdint>
#include <string>

namespace felt::sim {

struct LeapOptions {
    leap::Rules rules;
    int players = 4;
    long games = 1000;
    std::uint64_t seed = 1;
    bool check = true; // the per-action properties (the benchmark turns them off)
};

struct LeapReport {
    long games = 0;
    long turns = 0;
    long melds = 0; // melding actions: new melds and extensions
    long joins = 0;
    long scores = 0;  // players' final scores, summed
    long players = 0; // players over all games
    double seconds = 0;
    std::uint64_t signature = 0;
    std::string failure; // the first property that failed, with the game; empty when none did
    double mean_score() const {
        return players ? static_cast<double>(scores) / static_cast<double>(players) : 0;
    }
};

// Refuses rules or a player count the engine refuses.
Result<LeapReport> simulate_leap(const LeapOptions& options);

} // namespace felt::sim
