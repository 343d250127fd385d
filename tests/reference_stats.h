// A second, slow implementation of the tracker statistics (engine/stats/poker_stats.h), for the
// tests only: it reads a PHH hand's text itself, turns it into the action lists fpdb keeps (a
// player, a verb - "folds", "checks", "calls", "bets", "raises", "completes", "bringin" - and
// whether it put them all in, street by street) and follows fpdb's DerivedStats.py (2022) step
// by step on them. It shares nothing with the engine's replay or the fast counting but the
// statistic names.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace felt::test {

struct ReferenceLine {
    std::map<std::string, std::pair<long, long>> stats; // name: times, opportunities
    long double net = 0;                                // in the file's units
    bool showdown = false;                              // went to showdown
};

// By player (p1, p2, ... as the file numbers them). Hold'em-family and stud variants (NT, FT,
// PT, F7S and Felt's codes for them); nullopt for another variant, or when what each player
// collected cannot be told (no finishing stacks, no winnings, and more than one player left).
std::optional<std::map<std::string, ReferenceLine>> reference_stats(const std::string& phh);

} // namespace felt::test
