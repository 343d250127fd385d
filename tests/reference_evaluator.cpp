#include "reference_evaluator.h"

#include <algorithm>
#include <cassert>

namespace felt::reference {

namespace {

constexpr int kHighCard = 0, kPair = 1, kTwoPair = 2, kTrips = 3, kStraight = 4, kFlush = 5,
              kFullHouse = 6, kQuads = 7, kStraightFlush = 8, kFiveOfAKind = 9;

// (count, rank) for each rank present: most cards first, then highest rank first.
std::vector<std::pair<int, int>> groups_of(const std::vector<int>& ranks) {
    std::vector<std::pair<int, int>> g;
    for (int r : ranks) {
        auto it = std::find_if(g.begin(), g.end(), [r](auto& p) { return p.second == r; });
        if (it == g.end())
            g.push_back({1, r});
        else
            ++it->first;
    }
    std::sort(g.begin(), g.end(), [](auto a, auto b) {
        return a.first != b.first ? a.first > b.first : a.second > b.second;
    });
    return g;
}

} // namespace

Judged judge5(const std::vector<Card>& five) {
    assert(five.size() == 5);
    std::vector<int> ranks;
    for (Card c : five) ranks.push_back(c.rank().index());
    std::sort(ranks.rbegin(), ranks.rend());
    const auto g = groups_of(ranks);

    bool flush = true;
    for (Card c : five) flush = flush && c.suit() == five[0].suit();
    bool distinct = g.size() == 5;
    bool straight = distinct && ranks[0] - ranks[4] == 4;
    int top = ranks[0];
    if (distinct && ranks == std::vector<int>{12, 3, 2, 1, 0}) { // 5-4-3-2-A
        straight = true;
        top = 3;
    }

    if (g[0].first == 5) return {kFiveOfAKind, {g[0].second}};
    if (straight && flush) return {kStraightFlush, {top}};
    if (g[0].first == 4) return {kQuads, {g[0].second, g[1].second}};
    if (g[0].first == 3 && g[1].first == 2) return {kFullHouse, {g[0].second, g[1].second}};
    if (flush) return {kFlush, ranks};
    if (straight) return {kStraight, {top}};
    if (g[0].first == 3) return {kTrips, {g[0].second, g[1].second, g[2].second}};
    if (g[0].first == 2 && g[1].first == 2)
        return {kTwoPair, {g[0].second, g[1].second, g[2].second}};
    if (g[0].first == 2) return {kPair, {g[0].second, g[1].second, g[2].second, g[3].second}};
    return {kHighCard, ranks};
}

Judged judge3(const std::vector<Card>& three) {
    assert(three.size() == 3);
    std::vector<int> ranks;
    for (Card c : three) ranks.push_back(c.rank().index());
    std::sort(ranks.rbegin(), ranks.rend());
    const auto g = groups_of(ranks);
    if (g[0].first == 3) return {kTrips, {g[0].second}};
    if (g[0].first == 2) return {kPair, {g[0].second, g[1].second}};
    return {kHighCard, ranks};
}

Judged judge(const std::vector<Card>& cards) {
    if (cards.size() == 3) return judge3(cards);
    const int n = static_cast<int>(cards.size());
    Judged best;
    // Every five-card subset, by choosing five positions in increasing order.
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            for (int c = b + 1; c < n; ++c)
                for (int d = c + 1; d < n; ++d)
                    for (int e = d + 1; e < n; ++e)
                        best = std::max(best,
                                        judge5({cards[a], cards[b], cards[c], cards[d], cards[e]}));
    return best;
}

Judged judge_wild(const std::vector<Card>& cards, Wild wild) {
    std::vector<Card> naturals;
    int k = 0;
    for (Card c : cards) {
        if (is_wild(c, wild))
            ++k;
        else
            naturals.push_back(c);
    }
    if (k == 0) return judge(cards);

    std::vector<Card> pack;
    for (int r = 0; r < 13; ++r)
        for (int s = 0; s < 4; ++s) pack.push_back(Card(Rank(r), Suit(s)));

    Judged best;
    std::vector<int> pick(static_cast<std::size_t>(k), 0);
    // Substitutions as non-decreasing index tuples: the order of the wilds does not matter.
    for (;;) {
        std::vector<Card> hand = naturals;
        for (int p : pick) hand.push_back(pack[static_cast<std::size_t>(p)]);
        const int n = static_cast<int>(hand.size());
        const int first_wild = static_cast<int>(naturals.size());
        for (unsigned keep = 0; keep < (1u << n); ++keep) {
            if (__builtin_popcount(keep) != 5) continue;
            std::vector<Card> five;
            bool bug_as_other = false;
            for (int i = 0; i < n; ++i) {
                if (!(keep >> i & 1)) continue;
                five.push_back(hand[static_cast<std::size_t>(i)]);
                if (wild == Wild::bug && i >= first_wild &&
                    hand[static_cast<std::size_t>(i)].rank() != rank::ace)
                    bug_as_other = true;
            }
            Judged j = judge5(five);
            if (bug_as_other && j.category != kStraight && j.category != kFlush &&
                j.category != kStraightFlush)
                continue;
            best = std::max(best, j);
        }
        int i = k - 1;
        while (i >= 0 && pick[static_cast<std::size_t>(i)] == 51) --i;
        if (i < 0) break;
        ++pick[static_cast<std::size_t>(i)];
        for (int j = i + 1; j < k; ++j)
            pick[static_cast<std::size_t>(j)] = pick[static_cast<std::size_t>(i)];
    }
    return best;
}

Judged from_class(std::uint32_t hand_class) {
    Judged j;
    j.category = static_cast<int>(hand_class::category(hand_class));
    for (int i = 0; i < 5; ++i)
        if (int r = hand_class::rank_at(hand_class, i); r >= 0) j.ranks.push_back(r);
    return j;
}

} // namespace felt::reference
