// Exact hold'em equity, fast (internal to engine/odds; equity.h is the interface).
//
// A board's outcome depends on its ranks alone unless a player makes a flush. So for one deal of
// hole cards the enumeration runs over the boards' rank multisets, each counted as often as the
// deck can deal it (6,175 for five cards rather than 1,712,304 boards), and then corrects, suit
// by suit, the boards on which somebody makes a flush: those with enough cards of that suit,
// again grouped by the ranks of the rest. Two suits cannot both make a flush on one board, so the
// corrections add up.
//
// The rank part depends only on the ranks the players hold, and a suit's correction only on
// those ranks and which of the cards are of that suit: ranges share both across their deals, and
// each is computed once per query.
#pragma once

#include "cards/types.h"
#include "odds/range.h"
#include "odds/tally.h"

#include <span>
#include <vector>

namespace felt::odds::detail {

// Every deal of the ranges' combinations that shares no card (with each other, the board or the
// dead cards), each weighted by the product of its combinations' weights, with every board.
Tally holdem_exact(std::span<const std::vector<Combo>> ranges, std::span<const Card> board,
                   std::span<const Card> dead);

} // namespace felt::odds::detail
