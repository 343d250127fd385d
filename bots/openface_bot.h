// The open-face bot: where to place the cards of a street, and a Fantasyland hand.
//
// A Fantasyland hand goes to the exact solver (engine/openface/fantasyland.h). An ordinary street
// is placed by one of three policies:
//   random    a legal placement at random (the benchmark's floor);
//   greedy    the placement whose rows look best now (made hands, draws, the row order, a front
//             pair of queens or better), with no look ahead;
//   rollouts  for each placement the greedy policy likes (up to kCandidates), kRollouts Monte
//             Carlo rollouts: the unseen cards dealt at random for the streets to come, played by
//             the greedy policy, and the finished rows valued (royalties, the chance of winning
//             each row, Fantasyland, a foul's cost); the best mean wins. On the last street every
//             placement is valued exactly, so a hand that can avoid fouling does.
// Pure like the engine: the random numbers come from the caller's seed.
#pragma once

#include "openface/fantasyland.h"
#include "openface/openface.h"

#include <cstdint>
#include <vector>

namespace felt::bots {

// What a player at an open-face table knows when it is to place.
struct OpenFaceView {
    openface::Variant variant = openface::Variant::pineapple;
    openface::Stay stay = openface::Stay::standard;
    openface::Board board;     // the player's rows so far
    std::vector<Card> pending; // the cards to place now
    int discards = 0;          // how many of them to discard
    int streets_left = 0;      // ordinary streets after this one
    std::vector<Card> seen;    // every other card the player has seen: rows, own discards
    int opponents = 1;         // how many players the rows settle against
    bool fantasyland = false;  // the pending cards are a Fantasyland hand
    std::vector<openface::Split> against; // in Fantasyland: the others' finished rows
};

enum class OpenFacePolicy : unsigned char { random, greedy, rollouts };

inline constexpr int kCandidates = 12; // placements the rollouts compare
inline constexpr int kRollouts = 160;  // rollouts a placement

// The placement of the pending cards (legal, given a view that is; an empty one for a view no
// deal gives: too many cards, more discards than cards, rows overfilled). Fantasyland hands go to
// the solver whatever the policy (the random policy places them at random).
openface::Placement place_openface(const OpenFaceView& view, OpenFacePolicy policy,
                                   std::uint64_t seed);

// Every legal placement of the pending cards (discards, then rows with room), in a fixed order.
std::vector<openface::Placement> openface_placements(const OpenFaceView& view);

// What the bots make of a finished hand: the royalties, each row's chance of winning less its
// chance of losing against a Chinese poker hand arranged by the baseline, Fantasyland's value
// when the front enters it, and -9 for a foul (6 to each opponent and their royalties).
double openface_value(const openface::Split& s);

} // namespace felt::bots
