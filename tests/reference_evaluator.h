// A deliberately simple evaluator, written from the rules alone, to check the fast one against.
// It shares no code with the evaluator or its table generator: it sorts and counts, every time.
#pragma once

#include "cards/types.h"
#include "rankings/hand_class.h"
#include "rankings/wild.h"

#include <compare>
#include <vector>

namespace felt::reference {

// Category, then the ranks that decide ties in order: comparable with <=>.
struct Judged {
    int category = -1;
    std::vector<int> ranks;
    auto operator<=>(const Judged&) const = default;
};

// Exactly five cards; repeated cards allowed (wild cards may duplicate one).
Judged judge5(const std::vector<Card>& five);
// Exactly three cards: three of a kind, one pair or high card.
Judged judge3(const std::vector<Card>& three);
// 3 cards, or the best five of 5, 6 or 7.
Judged judge(const std::vector<Card>& cards);

// Best hand over every substitution of every wild card by each of the 52 cards (duplicates
// allowed). For the bug, a substitute other than an ace counts only inside a straight, flush or
// straight flush.
Judged judge_wild(const std::vector<Card>& cards, Wild wild);

// The same written form from a fast value, for direct comparison.
Judged from_class(std::uint32_t hand_class);

} // namespace felt::reference
