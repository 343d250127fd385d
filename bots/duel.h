// Two bots heads-up at no-limit hold'em, in-process, with the bots' own code and no sockets:
// blinds 1 and 2, stacks of 100 big blinds at every hand. Each deal is played twice, the bots
// swapping seats (and so cards), so that the cards' luck cancels out (Slumbot's "baseline"
// method); the result is bot A's big blinds won per 100 hands with a 95 % interval from the
// per-deal sums of the two plays.
#pragma once

#include "poker_bot.h"

#include <cstdint>
#include <string>

namespace felt::bots {

struct DuelOptions {
    Profile a, b;
    long deals = 1000;
    std::uint64_t seed = 1;
    int threads = 1;
};

// What a bot did over the duel, for the strength table: VPIP and PFR in percent of hands, and
// the aggression factor after the first round (bets and raises over calls).
struct Style {
    long hands = 0, vpip = 0, pfr = 0, aggressive = 0, calls = 0;
    double vpip_percent() const;
    double pfr_percent() const;
    double aggression_factor() const;
};

struct DuelReport {
    long deals = 0, hands = 0;
    double bb_per_100 = 0;          // bot A's
    double ci_low = 0, ci_high = 0; // its 95 % interval
    Style a, b;
    double seconds = 0;
    std::string failure; // a bot's action the engine refused, with the deal: empty if none
};

DuelReport duel(const DuelOptions& o);

} // namespace felt::bots
