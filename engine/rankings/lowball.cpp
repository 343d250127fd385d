#include "rankings/lowball.h"

#include "rankings/best_five.h"

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
    return best_of_fives<LowValue>(cards, [](auto five) { return ace_to_five_low(five); });
}

std::array<int, 4> BadugiValue::ranks() const {
    std::array<int, 4> out{};
    const std::uint32_t bad = 0xFFFF - (v_ & 0xFFFF);
    for (int i = 0; i < size(); ++i) out[static_cast<std::size_t>(i)] = bad >> (12 - 4 * i) & 0xf;
    return out;
}

BadugiValue badugi(std::span<const Card> cards) {
    assert(cards.size() <= 4);
    const unsigned n = static_cast<unsigned>(cards.size());
    BadugiValue best;
    // Every non-empty subset whose ranks and suits are all different.
    for (unsigned mask = 1; mask < 1u << n; ++mask) {
        unsigned ranks = 0, suits = 0; // ranks: bit (low rank), ace 1 .. king 13
        bool rainbow = true;
        for (unsigned i = 0; i < n && rainbow; ++i) {
            if (!(mask >> i & 1)) continue;
            const Card c = cards[i];
            assert(!c.is_joker() && c.rank().index() <= rank::ace.index());
            const unsigned r = 1u << low_rank(c.rank()), s = 1u << c.suit().index();
            rainbow = !(ranks & r) && !(suits & s);
            ranks |= r;
            suits |= s;
        }
        if (!rainbow) continue;
        // Badness: the ranks from the highest down, a nibble each, left-aligned in 16 bits.
        std::uint32_t bad = 0;
        int k = 0;
        for (int r = 13; r >= 1; --r)
            if (ranks >> r & 1) bad |= static_cast<std::uint32_t>(r) << (12 - 4 * k++);
        best = std::max(best, BadugiValue(static_cast<std::uint32_t>(k) << 16 | (0xFFFF - bad)));
    }
    return best;
}

std::string_view category_name(LowValue v) {
    static constexpr std::string_view names[] = {"no_pair",         "one_pair",   "two_pair",
                                                 "three_of_a_kind", "full_house", "four_of_a_kind"};
    return v.raw() == 0 ? "" : names[(kWorst - v.raw()) >> kShapeShift];
}

std::string_view category_name(DeuceSevenValue v) {
    static constexpr std::string_view names[] = {
        "high_card", "one_pair",   "two_pair",       "three_of_a_kind", "straight",
        "flush",     "full_house", "four_of_a_kind", "straight_flush"};
    return v.raw() == 0 ? "" : names[((9u << kShapeShift) - v.raw()) >> kShapeShift];
}

std::string_view category_name(BadugiValue v) {
    static constexpr std::string_view names[] = {"", "one_card", "two_card", "three_card",
                                                 "badugi"};
    return names[v.size()];
}

} // namespace felt
