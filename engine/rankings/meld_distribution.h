// Exact category counts of the meld rankings (vertical, horizontal, flush) over every hand of a
// deck with `ranks` ranks and `copies` cards per rank, one per suit (meld_deck in ranking.h).
#pragma once

#include "result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace felt {

struct MeldDistribution {
    std::string ranking;
    int ranks = 0, copies = 0, cards = 0;
    std::uint64_t total = 0; // C(ranks * copies, cards)
    // Every category with at least one hand, strongest first.
    std::vector<std::pair<std::string, std::uint64_t>> categories;
};

// Counts, never enumerates cards:
//   vertical    rank multisets (depth-first over the ranks, following the runs of each layer),
//               weighted by their suit choices, the product of C(copies, count) per rank; the
//               part after an empty rank is counted once per (ranks left, cards left);
//   horizontal  every partition of the hand into rank groups, times the ways to give the groups
//               ranks and suits;
//   flush       the same with suits and ranks exchanged.
// Refuses (bad_deck) a deck meld_deck refuses, and a hand size of 0 or above the deck; refuses
// (wrong_count) totals above 2^64 and vertical tables of more than 15 cards.
Result<MeldDistribution> meld_distribution(std::string_view ranking, int ranks, int copies,
                                           int cards);

} // namespace felt
