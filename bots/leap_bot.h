// The leap rummy bot (engine/leap): at the start of its turn it pursues or retires; after drawing
// it lays down or extends the melds that gain the most points, then discards the card least
// likely to meld, the highest of those. Pure: its choices are a function of what its seat sees
// (its hand, the melds, the leaptokens, the stock's size), its idle turns and the caller's
// generator. The engine's preview judges every meld it considers.
#pragma once

#include "leap/leap_game.h"
#include "poker_bot.h"

#include <cstdint>
#include <vector>

namespace felt::bots {

// random: melds at random among what it can lay down or extend (now and then passing it up),
// discards at random, retires after 10 turns in a row without melding (felt leap simulate's
// player); every other kind plays as above.
leap::Action leap_decide(const leap::State& s, Kind kind, int idle_turns, Rng& rng);

struct LeapMatchReport {
    long games = 0;
    std::vector<double> wins;       // by kind's place in `kinds`: games won (a tie shared)
    std::vector<double> mean_score; // by kind's place
    std::string failure;            // an action the engine refused, with the game
};

// `games` games of `kinds.size()` players (seat i plays kinds[(i + game) % n], so each kind sits
// at each seat in turn).
LeapMatchReport leap_match(const std::vector<Kind>& kinds, long games, std::uint64_t seed,
                           const leap::Rules& rules = {});

} // namespace felt::bots
