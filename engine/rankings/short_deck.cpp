#include "rankings/short_deck.h"

#include "rankings/best_five.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <utility>

namespace felt {

namespace {

// A value: the category's place in the order (four bits) above the groups' ranks, four bits
// each, the larger group first and the higher rank first within a size (rank index + 1).
constexpr int kCategoryShift = 20;

using C = ShortDeckValue::Category;

// The category's place: the order of the enum, or with trips_beat_straight those two swapped.
int place(C c, bool trips_beat_straight) {
    if (trips_beat_straight && c == C::three_of_a_kind) return static_cast<int>(C::straight);
    if (trips_beat_straight && c == C::straight) return static_cast<int>(C::three_of_a_kind);
    return static_cast<int>(c);
}

// The other way: a place and whether the value has one group of three (a straight has none).
C category_at(int p, bool has_trips) {
    const auto c = static_cast<C>(p);
    if (c == C::three_of_a_kind || c == C::straight)
        return has_trips ? C::three_of_a_kind : C::straight;
    return c;
}

} // namespace

ShortDeckValue::Category ShortDeckValue::category() const {
    // A straight's value holds its top card alone; three of a kind holds three groups.
    const bool three_groups = (v_ >> 8 & 0xf) != 0;
    return category_at(static_cast<int>(v_ >> kCategoryShift), three_groups);
}

std::string_view category_name(ShortDeckValue::Category c) {
    static constexpr std::string_view names[] = {
        "high_card",  "one_pair", "two_pair",       "three_of_a_kind", "straight",
        "full_house", "flush",    "four_of_a_kind", "straight_flush"};
    return names[static_cast<int>(c)];
}

ShortDeckValue short_deck_value(std::span<const Card, 5> cards, bool trips_beat_straight) {
    std::array<int, 13> count{}; // by rank index: the six 4 .. the ace 12
    unsigned ranks = 0;
    bool flush = true;
    for (Card c : cards) {
        assert(!c.is_joker() && c.rank() >= rank::six && c.rank() <= rank::ace);
        ++count[static_cast<std::size_t>(c.rank().index())];
        ranks |= 1u << c.rank().index();
        flush = flush && c.suit() == cards[0].suit();
    }
    std::array<std::pair<int, int>, 5> groups{}; // (size, rank index + 1), the larger first
    int n = 0;
    for (int r = 12; r >= 4; --r)
        if (count[static_cast<std::size_t>(r)])
            groups[static_cast<std::size_t>(n++)] = {count[static_cast<std::size_t>(r)], r + 1};
    std::stable_sort(groups.begin(), groups.begin() + n,
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    // Five ranks in a row, or A-6-7-8-9 (the ace below the six), which plays as a nine high.
    constexpr unsigned kWheel = 1u << rank::ace.index() | 0b1111u << rank::six.index();
    int top = 0; // the straight's top card (rank index + 1), 0: none
    if (n == 5 && groups[0].second - groups[4].second == 4) top = groups[0].second;
    if (ranks == kWheel) top = rank::nine.index() + 1;
    C c = C::high_card;
    if (top)
        c = flush ? C::straight_flush : C::straight;
    else if (n == 5)
        c = flush ? C::flush : C::high_card;
    else if (n == 4)
        c = C::one_pair;
    else if (n == 3)
        c = groups[0].first == 2 ? C::two_pair : C::three_of_a_kind;
    else
        c = groups[0].first == 3 ? C::full_house : C::four_of_a_kind;
    std::uint32_t v = static_cast<std::uint32_t>(place(c, trips_beat_straight)) << kCategoryShift;
    if (top) return ShortDeckValue(v | static_cast<std::uint32_t>(top) << 16);
    for (int i = 0; i < n; ++i)
        v |= static_cast<std::uint32_t>(groups[static_cast<std::size_t>(i)].second) << (16 - 4 * i);
    return ShortDeckValue(v);
}

std::string short_deck_words(ShortDeckValue v) {
    // By rank index + 1, as values hold them: the six 5 .. the ace 13.
    static constexpr std::string_view kWord[] = {"",     "two",   "three", "four", "five",
                                                 "six",  "seven", "eight", "nine", "ten",
                                                 "jack", "queen", "king",  "ace"};
    const auto word = [](std::uint32_t r) { return std::string(kWord[r]); };
    const auto plural = [&](std::uint32_t r) { return word(r) + (r == 5 ? "es" : "s"); };
    std::uint32_t g[5];
    for (int i = 0; i < 5; ++i) g[i] = v.raw() >> (16 - 4 * i) & 0xf;
    std::string out;
    switch (v.category()) {
    case C::high_card:
        out = word(g[0]) + " high, ";
        for (int i = 1; i < 5; ++i) {
            if (i > 1) out += '-';
            out += word(g[i]);
        }
        return out;
    case C::one_pair:
        return "a pair of " + plural(g[0]);
    case C::two_pair:
        return "two pair, " + plural(g[0]) + " and " + plural(g[1]);
    case C::three_of_a_kind:
        return "three " + plural(g[0]);
    case C::straight:
        return "a straight, " + word(g[0]) + " high";
    case C::full_house:
        return "a full house, " + plural(g[0]) + " full of " + plural(g[1]);
    case C::flush:
        return "a flush, " + word(g[0]) + " high";
    case C::four_of_a_kind:
        return "four " + plural(g[0]);
    case C::straight_flush:
        return "a straight flush, " + word(g[0]) + " high";
    }
    return out;
}

ShortDeckValue best_short_deck_value(std::span<const Card> cards, bool trips_beat_straight) {
    assert(cards.size() >= 5 && cards.size() <= 7);
    return best_of_fives<ShortDeckValue>(
        cards, [&](auto five) { return short_deck_value(five, trips_beat_straight); });
}

} // namespace felt
