// Hand ranges for two-card games (hold'em, the short deck), in the syntax of EquiLab, OMPEval and
// the solvers: items separated by commas, spaces ignored, ranks and suits in either case.
//
//   AA  AKs  AKo  AK      a pair; a suited, offsuit or any two of two ranks
//   QQ+  A2s+  K9o+  KT+  pairs up to aces; the second rank up to one below the first
//   TT-77  KTs-K7s        from the one to the other, both included (the first rank fixed)
//   AcQc                  one combination
//   random                every combination
//   ITEM:W                a weight 0 < W <= 1 for the item's combinations (default 1)
//
// A combination named twice keeps its last weight.
#pragma once

#include "cards/types.h"
#include "result.h"

#include <string_view>
#include <vector>

namespace felt::odds {

struct Combo {
    Card high, low; // high above low by rank, then by suit code
    double weight = 1;
};

// The combinations in a fixed order (by the higher card, then the lower); Errc::bad_range names
// the item that is not a range.
Result<std::vector<Combo>> parse_range(std::string_view text);

} // namespace felt::odds
