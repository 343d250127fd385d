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

// The low of five different ranks, a bit each by low rank: the ranks from the highest down, as
// ace_to_five_low writes them.
LowValue no_pair_low(unsigned ranks) {
    std::uint32_t bad = 0;
    for (int shift = 16; ranks; shift -= 4) {
        const int top = std::bit_width(ranks) - 1;
        bad |= static_cast<std::uint32_t>(top) << shift;
        ranks &= ~(1u << top);
    }
    return LowValue(kWorst - bad);
}

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

LowValue eight_or_better_low(std::span<const Card, 5> cards) {
    unsigned ranks = 0; // bit by low rank: the ace 1 .. the king 13
    for (Card c : cards) ranks |= 1u << low_rank(c.rank());
    if (std::popcount(ranks) != 5 || ranks >= 1u << 9) return LowValue(); // a pair, or above 8
    return no_pair_low(ranks);
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
    // Five ranks or more: the five lowest make the best low, as no pair beats any pair.
    unsigned ranks = 0; // bit by low rank: the ace 1 .. the king 13
    for (Card c : cards) ranks |= 1u << low_rank(c.rank());
    if (std::popcount(ranks) >= 5) {
        while (std::popcount(ranks) > 5) ranks &= ~(1u << (std::bit_width(ranks) - 1));
        return no_pair_low(ranks);
    }
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

namespace {

// A rank's word by its place from the ace as one to the king as 13, and the ace again as 14
// (aces high).
constexpr std::string_view kRankWord[] = {"",     "ace",  "two",   "three", "four",
                                          "five", "six",  "seven", "eight", "nine",
                                          "ten",  "jack", "queen", "king",  "ace"};

std::string rank_word(int r) {
    return std::string(kRankWord[r]);
}

// (Strings are built with += : g++ 12 warns falsely about chains of std::string operator+.)
std::string plural(int r) {
    std::string out = rank_word(r);
    out += r == 6 ? "es" : "s";
    return out;
}

std::string with_article(const std::string& words, std::string_view after) {
    std::string out = words[0] == 'a' || words[0] == 'e' ? "an " : "a ";
    out += words;
    out += after;
    return out;
}

// The ranks of a value's groups from its badness: four bits each from bit 16 down, 0 ending them.
std::vector<int> group_ranks(std::uint32_t bad) {
    std::vector<int> out;
    for (int shift = 16; shift >= 0; shift -= 4) {
        const int r = static_cast<int>(bad >> shift & 0xf);
        if (r == 0) break;
        out.push_back(r);
    }
    return out;
}

// Ranks from the highest down, joined by hyphens: as many as tell `mine` from each of `others`
// that differs from it, and at least `least`.
std::string ranks_words(const std::vector<int>& mine, const std::vector<std::vector<int>>& others,
                        std::size_t least) {
    std::size_t k = std::min(least, mine.size());
    for (const std::vector<int>& o : others) {
        if (o == mine) continue;
        std::size_t same = 0;
        while (same < o.size() && same < mine.size() && o[same] == mine[same]) ++same;
        k = std::max(k, std::min(same + 1, mine.size()));
    }
    std::string out;
    for (std::size_t i = 0; i < k; ++i) {
        if (i) out += '-';
        out += rank_word(mine[i]);
    }
    return out;
}

// Words for a paired shape (1 a pair .. 5 four of a kind) of groups `g`, ranks as kRankWord's.
std::string paired_words(int shape, const std::vector<int>& g) {
    switch (shape) {
    case 1:
        return "a pair of " + plural(g[0]);
    case 2:
        return "two pairs, " + plural(g[0]) + " and " + plural(g[1]);
    case 3:
        return "three " + plural(g[0]);
    case 4:
        return "a full house, " + plural(g[0]) + " full of " + plural(g[1]);
    default:
        return "four " + plural(g[0]);
    }
}

} // namespace

std::vector<std::string> low_words(std::span<const LowValue> hands) {
    std::vector<std::vector<int>> unpaired;
    for (LowValue v : hands)
        if (v.raw() && (kWorst - v.raw()) >> kShapeShift == 0)
            unpaired.push_back(group_ranks(kWorst - v.raw()));
    std::vector<std::string> out;
    for (LowValue v : hands) {
        if (v.raw() == 0) {
            out.emplace_back();
            continue;
        }
        const std::uint32_t bad = kWorst - v.raw();
        const int shape = static_cast<int>(bad >> kShapeShift);
        const std::vector<int> g = group_ranks(bad);
        if (shape != 0)
            out.push_back(paired_words(shape, g));
        else if (g == std::vector<int>{5, 4, 3, 2, 1})
            out.emplace_back("a wheel");
        else
            out.push_back(with_article(ranks_words(g, unpaired, 2), " low"));
    }
    return out;
}

std::vector<std::string> low_words(std::span<const DeuceSevenValue> hands) {
    // Ranks as kRankWord's: the deuce 2 .. the ace 14.
    const auto ranks = [](DeuceSevenValue v) {
        std::vector<int> g = group_ranks((9u << kShapeShift) - v.raw());
        for (int& r : g) r += 1;
        return g;
    };
    const auto shape_of = [](DeuceSevenValue v) {
        return static_cast<int>(((9u << kShapeShift) - v.raw()) >> kShapeShift);
    };
    std::vector<std::vector<int>> plain;
    for (DeuceSevenValue v : hands)
        if (v.raw() && shape_of(v) == 0) plain.push_back(ranks(v));
    std::vector<std::string> out;
    for (DeuceSevenValue v : hands) {
        if (v.raw() == 0) {
            out.emplace_back();
            continue;
        }
        const int shape = shape_of(v);
        const std::vector<int> g = ranks(v);
        // Shapes: 0 high card, 1 pair, 2 two pairs, 3 trips, 4 straight, 5 flush, 6 full house,
        // 7 quads, 8 straight flush.
        static constexpr int kPaired[] = {0, 1, 2, 3, 0, 0, 4, 5, 0};
        if (shape == 0)
            out.push_back(g == std::vector<int>{7, 5, 4, 3, 2}
                              ? std::string("a number one")
                              : with_article(ranks_words(g, plain, 2), " low"));
        else if (shape == 4 || shape == 8)
            out.push_back(std::string(shape == 4 ? "a straight, " : "a straight flush, ") +
                          rank_word(g[0]) + " high");
        else if (shape == 5)
            out.push_back("a flush, " + rank_word(g[0]) + " high");
        else
            out.push_back(paired_words(kPaired[shape], g));
    }
    return out;
}

std::vector<std::string> low_words(std::span<const BadugiValue> hands) {
    const auto ranks = [](BadugiValue v) {
        const auto r = v.ranks();
        return std::vector<int>(r.begin(), r.begin() + v.size());
    };
    static constexpr std::string_view kSize[] = {"", "a one-card", "a two-card", "a three-card",
                                                 ""};
    std::vector<std::string> out;
    for (BadugiValue v : hands) {
        std::vector<std::vector<int>> same_size;
        for (BadugiValue o : hands)
            if (o.size() == v.size()) same_size.push_back(ranks(o));
        if (v.size() == 0)
            out.emplace_back();
        else if (v.size() == 4)
            out.push_back(with_article(ranks_words(ranks(v), same_size, 2), " badugi"));
        else
            out.push_back(std::string(kSize[v.size()]) + " badugi, " +
                          ranks_words(ranks(v), same_size, 2));
    }
    return out;
}

} // namespace felt
