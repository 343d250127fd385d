// Whole tournaments of random play: the tournament director (engine/tournament/director.h)
// seats the entrants and runs the tables; each hand is played by play_random_hand through the
// betting engine. Hands at several tables run at once: every table that can deal does, then one
// running hand, chosen at random, ends. The level clock counts hands: the hands dealt so far over
// the tables now running.
//
// Checked after every hand (with `check`): the stacks of those still in add up to what the
// entrants began with; the table that ended its hand is within `allowed` players of the
// shortest (unless a table waits to be broken); nobody moves to the table they left. At the end:
// every entrant finished once, places 1..N taken once each, the prizes adding up to the pool.
// After each restart: the standing taken up is the standing left.
// The signature hashes every finish, so that the same seed gives the same tournament.
#pragma once

#include "chips.h"
#include "result.h"
#include "tournament/payouts.h"

#include <cstdint>
#include <string>
#include <vector>

namespace felt::sim {

struct TournamentOptions {
    std::string variant = "holdem";
    std::string structure = "no-limit"; // no-limit, pot-limit, fixed-limit
    int entrants = 100;
    int seats = 9;
    int allowed = 1;
    int hands_per_level = 10; // the turbo preset's blinds, levels of this many hands
    Chips starting_stack = Chips(1'500);
    Chips buy_in = Chips(100);
    std::uint64_t seed = 1;
    bool check = true;
    // A restart every this many hands dealt (0: none): the hands running are void, and the
    // director is taken up from its standing (Director(rules, standing), then settle()).
    int restart_every = 0;
    // The entry period: late entries until the end of level `late_levels` (one now and then,
    // `late_entries` at most), and rebuys during the first `rebuy_levels`: a player out of
    // chips rebuys, gives up their seat or waits, by chance.
    int late_levels = 0;
    int late_entries = 0;
    int rebuy_levels = 0;
};

struct TournamentReport {
    long hands = 0;
    int tables = 0; // at the start
    long moves = 0; // players moved, balancing and breaking
    int broken = 0; // tables broken
    int restarts = 0;
    long hand_for_hand = 0;      // hands dealt hand-for-hand on the bubble
    int entered = 0, rebuys = 0; // late entries and rebuys taken
    std::vector<tournament::Finish> finishes;
    double seconds = 0;
    std::uint64_t signature = 0;
    std::string failure; // the first property that failed; empty when none did
};

// Refuses an unknown variant or structure, or entrants or seats the director cannot seat.
Result<TournamentReport> simulate_tournament(const TournamentOptions& options);

} // namespace felt::sim
