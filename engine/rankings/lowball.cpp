#include "rankings/lowball.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>

namespace felt {

namespace {

// A rank's place in ace-to-five order: the ace 1, the deuce 2, ..., the king 13.
int low_rank(Rank r) {
    return r == rank::ace ? 1 : r.index() + 2;
}

// The hand's badness, the lower the better: its shape (0 no pair, 1 a pair, 2 two pairs, 3
// three of a kind, 4 a full house, 5 four of a kind) above its groups' ranks, four bits each,
// the larger group first and the higher rank first within a size.
constexpr int kShapeShift = 20;
constexpr std::uint32_t kWorst = 6u << kShapeShift; // above every badness

} // namespace

bool LowValue::qualifies(Rank highest) const {
    if (v_ == 0) return false;
    const std::uint32_t bad = kWorst - v_;
    if (bad >> kShapeShift) return false; // a pair or worse
    return static_cast<int>(bad >> 16 & 0xf) <= low_rank(highest);
}

LowValue ace_to_five_low(std::span<const Card, 5> cards) {
    std::array<int, 14> count{}; // by low rank, 1..13
    for (Card c : cards) {
        assert(!c.is_joker() && c.rank().index() <= rank::ace.index());
        ++count[static_cast<std::size_t>(low_rank(c.rank()))];
    }
    // The groups: (size, rank), the larger first, then the higher rank.
    std::array<std::pair<int, int>, 5> groups{};
    int n = 0;
    for (int r = 13; r >= 1; --r)
        if (count[static_cast<std::size_t>(r)])
            groups[static_cast<std::size_t>(n++)] = {count[static_cast<std::size_t>(r)], r};
    std::stable_sort(groups.begin(), groups.begin() + n,
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    int shape = 0;
    switch (n) {
    case 5:
        shape = 0;
        break;
    case 4:
        shape = 1;
        break;
    case 3:
        shape = groups[0].first == 2 ? 2 : 3; // two pairs, or three of a kind
        break;
    default: // two groups
        shape = groups[0].first == 3 ? 4 : 5;
        break;
    }
    std::uint32_t bad = static_cast<std::uint32_t>(shape) << kShapeShift;
    for (int i = 0; i < n; ++i)
        bad |= static_cast<std::uint32_t>(groups[static_cast<std::size_t>(i)].second)
               << (16 - 4 * i);
    return LowValue(kWorst - bad);
}

DeuceSevenValue deuce_to_seven_low(std::span<const Card, 5> cards) {
    std::array<int, 13> count{}; // by rank index, the deuce 0 .. the ace 12
    bool flush = true;
    for (Card c : cards) {
        assert(!c.is_joker() && c.rank().index() <= rank::ace.index());
        ++count[static_cast<std::size_t>(c.rank().index())];
        flush = flush && c.suit() == cards[0].suit();
    }
    std::array<std::pair<int, int>, 5> groups{}; // (size, rank + 1), the larger first
    int n = 0;
    for (int r = 12; r >= 0; --r)
        if (count[static_cast<std::size_t>(r)])
            groups[static_cast<std::size_t>(n++)] = {count[static_cast<std::size_t>(r)], r + 1};
    std::stable_sort(groups.begin(), groups.begin() + n,
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    // Five ranks in a row, the ace high only (A-5-4-3-2 is none).
    const bool straight = n == 5 && groups[0].second - groups[4].second == 4;
    int shape = 0; // 0 high card, 1 pair, 2 two pairs, 3 trips, 4 straight, 5 flush, 6 full
                   // house, 7 quads, 8 straight flush
    if (n == 5)
        shape = straight && flush ? 8 : flush ? 5 : straight ? 4 : 0;
    else if (n == 4)
        shape = 1;
    else if (n == 3)
        shape = groups[0].first == 2 ? 2 : 3;
    else
        shape = groups[0].first == 3 ? 6 : 7;
    std::uint32_t bad = static_cast<std::uint32_t>(shape) << kShapeShift;
    for (int i = 0; i < n; ++i)
        bad |= static_cast<std::uint32_t>(groups[static_cast<std::size_t>(i)].second)
               << (16 - 4 * i);
    return DeuceSevenValue((9u << kShapeShift) - bad);
}

LowValue best_ace_to_five_low(std::span<const Card> cards) {
    assert(cards.size() >= 5 && cards.size() <= 7);
    LowValue best;
    const std::size_t n = cards.size();
    // Every five of the n: each set of five bits below 2^n.
    for (unsigned mask = 0; mask < 1u << n; ++mask) {
        if (std::popcount(mask) != 5) continue;
        std::array<Card, 5> five{};
        std::size_t k = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (mask >> i & 1) five[k++] = cards[i];
        best = std::max(best, ace_to_five_low(five));
    }
    return best;
}

} // namespace felt
