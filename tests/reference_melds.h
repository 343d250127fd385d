// Vertical, horizontal and flush melds done the slow, literal way, from the rules alone, to check
// engine/rankings/melds.h against. Shares no code with it.
#pragma once

#include <vector>

namespace felt::reference {

// A sequence (vertical) or group (horizontal, flush): its size and its top rank.
struct Piece {
    int size;
    int top;
};

// The spec's decomposition, literally: again and again find the longest run of consecutive
// ranks still present (one card of each), take it out; until no card is left. `ranks` lists the
// hand's rank indices, in any order, repeated as often as held. Pieces come out as taken.
std::vector<Piece> decompose_vertical(std::vector<int> ranks);

// Groups of equal rank, as taken: largest first.
std::vector<Piece> group_horizontal(const std::vector<int>& ranks);

// The comparison rules, step by step: <0, 0 or >0 as hand a is weaker, equal or stronger.
// Step one compares the sizes, longest first (running out first loses); step two the tops,
// ordered by size, then top, highest first.
int compare_pieces(std::vector<Piece> a, std::vector<Piece> b);

// Flush: suit groups by size, then each group's ranks, highest first. cards = (rank, suit).
int compare_flush(const std::vector<std::pair<int, int>>& a,
                  const std::vector<std::pair<int, int>>& b);

} // namespace felt::reference
