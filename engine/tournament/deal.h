// A deal at the end of a tournament: the remaining prizes split among the players still in, by
// ICM (Malmuth-Harville) or by chip count, in whole chips. Pure.
#pragma once

#include "chips.h"
#include "result.h"

#include <span>
#include <vector>

namespace felt::tournament {

// ICM is exact (every finishing order weighed) for at most this many players.
inline constexpr int kMostDealPlayers = 10;

// Each player's ICM equity, in chips of the prize pool (not rounded). Malmuth-Harville: a player
// finishes first with the probability of their share of the chips in play, and each next place
// goes the same way among the players not yet placed. `prizes`: those of the places left, first
// place first; fewer than the players, the last places pay nothing. Errc::bad_config: no
// player, more than kMostDealPlayers, a stack not positive, more prizes than players, a prize
// negative or below the one after it.
Result<std::vector<double>> icm_equity(std::span<const Chips> stacks,
                                       std::span<const Chips> prizes);

// Shares of `total` in whole chips by the largest remainder: each its share rounded down, then
// one chip more to each of the largest fractions until the total is met (equal fractions: the
// larger share first, then the earlier player). `shares` add up to `total` (within rounding).
std::vector<Chips> whole_chips(std::span<const double> shares, Chips total);

// The deals, in whole chips by the largest remainder, adding up to the prizes left:
// - icm_deal: each player's ICM equity;
// - chip_deal: each player gets the lowest prize left (nothing, when fewer prizes than players),
//   and the rest of the prizes is shared in proportion to the stacks.
// Refused as icm_equity refuses.
Result<std::vector<Chips>> icm_deal(std::span<const Chips> stacks, std::span<const Chips> prizes);
Result<std::vector<Chips>> chip_deal(std::span<const Chips> stacks, std::span<const Chips> prizes);

} // namespace felt::tournament
