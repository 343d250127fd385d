// A player's statistics in Chinese poker and leap rummy (docs/stats.md).
//
// Pure: one settled deal or finished game in, one line per player out. The net and the rake are
// the same as poker's (stats::Line); these are what the two games count besides.
#pragma once

#include "chinese/chinese.h"
#include "leap/leap_game.h"

#include <cstdint>
#include <vector>

namespace felt::stats {

// A time over an opportunity: what a statistic counts.
struct Tally {
    std::int64_t times = 0, opportunities = 0;
    Tally& operator+=(const Tally& o) {
        times += o.times;
        opportunities += o.opportunities;
        return *this;
    }
    bool operator==(const Tally&) const = default;
};

struct DealLine {
    // Chinese poker.
    std::int64_t units = 0; // units won less units lost, as owed (before a chip limit cut them)
    Tally scoops;           // opponents beaten on all three rows, over opponents settled against
                            // with rows on both sides (no surrender, no special hand)
    Tally specials;         // a special hand declared, over deals
    Tally surrenders;       // surrendered, over deals of a profile with surrender (scoop)
    // Leap rummy.
    Tally wins;             // the highest score (each of a tie), over games
    std::int64_t score = 0; // the final score
    std::int64_t melds = 0; // melds owned at the end (a meld joined into another is one)

    DealLine& operator+=(const DealLine& o);
    bool operator==(const DealLine&) const = default;
};

// Each player's line of a settled Chinese poker deal, in the order of `players`; `dealer` and the
// rest as chinese::settle() took them.
std::vector<DealLine> count_chinese(const chinese::Profile& profile,
                                    const chinese::Options& options,
                                    const std::vector<chinese::Player>& players, int dealer,
                                    const chinese::Settlement& settlement);

// Each player's line of a finished leap rummy game, by player.
std::vector<DealLine> count_leap(const leap::State& state);

} // namespace felt::stats
