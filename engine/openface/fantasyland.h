// The exact Fantasyland solver: the placement of 13 to 17 cards that scores the most points.
//
// The points of a placement: its royalties (from each opponent; once with none given), the row
// and scoop points against the opponents' finished rows (they set before a Fantasyland hand
// does; a fouled opponent pays 6), less the opponents' royalties, plus `stay_value` when the rows
// stay in Fantasyland. Among placements of equal points, the stronger back wins, then the stronger
// middle, then the stronger front. A placement never fouls: one that does not always exists.
//
// How: every five-card subset is valued once; the backs are tried strongest first and the
// middles that fit under each, pruned by the most the rest could still add; for a back and a
// middle the best front is the strongest one that fits under the middle (every term of the
// points grows with the front), the first one in a list sorted strongest first.
#pragma once

#include "openface/openface.h"

#include <span>
#include <vector>

namespace felt::openface {

// What staying in Fantasyland is worth, in points, unless the caller says otherwise: an estimate
// of what a Fantasyland hand scores above an ordinary one (docs/open-face.md).
inline constexpr int kDefaultStayValue = 10;

struct Solution {
    Split split;
    std::vector<Card> discards;
    std::array<int, 3> royalties{}; // front, middle, back
    bool stays = false;
    int points = 0; // as above, the stay value included
};

// Refuses cards that are not 13 to 17 different cards of the pack, and opponents' rows that are
// not 13 different cards or share a card with the hand or each other.
Result<Solution> solve_fantasyland(std::span<const Card> cards, Stay stay,
                                   std::span<const Split> against = {},
                                   int stay_value = kDefaultStayValue);

// The points of a finished split as the solver counts them (for tests and the command line).
int fantasyland_points(const Split& s, Stay stay, std::span<const Split> against, int stay_value);

} // namespace felt::openface
