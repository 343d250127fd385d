// The baseline split of Chinese poker: the strongest back, then the strongest middle of the rest.
// Also compiled into the table generator (tablegen/gen_chinese_odds.cpp), which arranges 20,000
// hands with it.
#include "chinese/chinese.h"
#include "chinese/subsets.h"

#include "rankings/evaluator.h"

namespace felt::chinese {

using bits::pick;
using bits::subsets;

namespace {

// The mask among `masks` whose five cards are the strongest (the first of equals).
unsigned strongest_five(std::span<const Card> cards, const std::vector<unsigned>& masks) {
    unsigned best = 0;
    HandValue top;
    for (unsigned m : masks) {
        const auto h = pick<5>(cards, m);
        const HandValue v = evaluate<5>(h.data());
        if (v > top) {
            top = v;
            best = m;
        }
    }
    return best;
}

} // namespace

Split baseline_split(std::span<const Card> cards) {
    static const std::vector<unsigned> fives13 = subsets(13, 5), fives8 = subsets(8, 5);
    const unsigned best_back = strongest_five(cards, fives13);
    std::array<Card, 8> rest{};
    int j = 0;
    for (int i = 0; i < 13; ++i)
        if (!(best_back >> i & 1))
            rest[static_cast<std::size_t>(j++)] = cards[static_cast<std::size_t>(i)];
    const unsigned best_middle = strongest_five(rest, fives8);
    Split s;
    s.back = pick<5>(cards, best_back);
    s.middle = pick<5>(rest, best_middle);
    s.front = pick<3>(rest, 0xFFu & ~best_middle);
    return s;
}

} // namespace felt::chinese
