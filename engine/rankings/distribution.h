// How often each category occurs over every hand of a given size: counted, never estimated.
#pragma once

#include "rankings/hand_class.h"

#include <array>
#include <cstdint>

namespace felt {

struct StandardDistribution {
    int cards = 0;
    std::uint64_t total = 0;
    std::array<std::uint64_t, kCategoryCount> categories{}; // indexed by Category
    int distinct_values = 0;
};

// Evaluates every `cards`-card hand (3, 5, 6 or 7) of one 52-card pack with the fast evaluator.
StandardDistribution standard_distribution(int cards);

} // namespace felt
