// Vertical, horizontal and flush melds: the spec's examples and table, an exhaustive cross-check
// against the literal decomposition, the fast 7-card table, and distributions against brute force.
#include "rankings/meld_distribution.h"
#include "rankings/melds.h"
#include "rankings/ranking.h"
#include "rankings/vertical.h"
#include "reference_melds.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>

using namespace felt;

namespace {

std::unique_ptr<const Ranking> ranking(std::string_view name, int ranks = 13, int copies = 4) {
    RankingOptions o;
    o.ranks = ranks;
    o.copies = copies;
    auto r = make_ranking(name, o);
    REQUIRE(r.ok());
    return std::move(r).value();
}

// Cards of the standard pack from ranks written as in the spec ("432-76", "KQJT"): each rank gets
// the next unused suit.
std::vector<Card> hand(std::string_view ranks) {
    const Deck deck = Deck::standard();
    std::map<char, int> used;
    std::string text;
    for (char c : ranks) {
        if (c == '-' || c == ' ') continue;
        text += c;
        text += "shdc"[used[c]++];
        text += ' ';
    }
    auto cards = deck.parse_cards(text);
    REQUIRE_MESSAGE(cards.ok(), text);
    return cards.value();
}

Judgement vertical(std::string_view ranks) {
    static const auto r = ranking("vertical");
    auto j = r->judge(hand(ranks));
    REQUIRE(j.ok());
    return j.value();
}

std::vector<int> ranks_of(std::span<const Card> cards) {
    std::vector<int> out;
    for (Card c : cards) out.push_back(c.rank().index());
    return out;
}

int sign(std::strong_ordering o) {
    return o < 0 ? -1 : o > 0 ? 1 : 0;
}

// Sequences or groups from an encoded meld Strength: sizes, 0, tops + 1.
std::vector<reference::Piece> decode(const Strength& s) {
    std::vector<reference::Piece> out;
    int i = 0;
    while (s[i] != 0) out.push_back({s[i++], 0});
    ++i;
    for (auto& p : out) p.top = s[i++] - 1;
    return out;
}

std::vector<reference::Piece> sorted(std::vector<reference::Piece> p) {
    std::sort(p.begin(), p.end(), [](const auto& a, const auto& b) {
        return a.size != b.size ? a.size > b.size : a.top > b.top;
    });
    return p;
}

bool same(const std::vector<reference::Piece>& a, const std::vector<reference::Piece>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].size != b[i].size || a[i].top != b[i].top) return false;
    return true;
}

// Calls f(counts) for every multiset of 1..max_cards cards over `ranks` ranks, at most
// `max_per_rank` of each.
template <class F>
void for_each_multiset(int ranks, int max_cards, int max_per_rank, F&& f) {
    std::vector<std::uint8_t> c(static_cast<std::size_t>(ranks), 0);
    auto rec = [&](auto&& self, int r, int total) -> void {
        if (r == ranks) {
            if (total > 0) f(c, total);
            return;
        }
        for (int k = 0; k <= max_per_rank && total + k <= max_cards; ++k) {
            c[static_cast<std::size_t>(r)] = static_cast<std::uint8_t>(k);
            self(self, r + 1, total + k);
        }
        c[static_cast<std::size_t>(r)] = 0;
    };
    rec(rec, 0, 0);
}

} // namespace

TEST_CASE("vertical: the spec's decomposition and category examples") {
    CHECK(vertical("QJTT9").category == "v41");
    CHECK(vertical("432-76").category == "v32");
    CHECK(vertical("AKQ-A-A").category == "v311");
    CHECK(vertical("KQJT").category == "v4");
    CHECK(vertical("KQJ-76-32").category == "v322");
    CHECK(vertical("QJT-JT").category == "v32");
    CHECK(vertical("AKQJT98").category == "v7");
    CHECK(vertical("A").category == "v1");
}

TEST_CASE("vertical: every example comparison of the spec") {
    const std::pair<const char*, const char*> stronger_first[] = {
        {"432-76", "AKQ-A-A"},  // every v32 beats every v311
        {"7654-2", "KQJT"},     // v41 beats v4: running out first loses
        {"98762", "KQJ-76-32"}, // v41 (5 cards) beats v322 (7 cards)
        {"876-JT", "765-KQ"},       {"765-KQ", "765-QJ"},   {"765-76", "765-65"},
        {"98-32-K", "87-54-A"},     {"87-87-2", "87-54-K"}, {"98-Q-6-3", "98-Q-6-2"},
        {"Q-Q-8-6-4", "Q-T-8-6-4"}, {"QJT-JT", "QJT-43"},
    };
    for (auto [a, b] : stronger_first) {
        const std::string first = a, second = b;
        CAPTURE(first);
        CAPTURE(second);
        CHECK(vertical(a).strength > vertical(b).strength);
        CHECK(vertical(b).strength < vertical(a).strength);
        CHECK(reference::compare_pieces(reference::decompose_vertical(ranks_of(hand(a))),
                                        reference::decompose_vertical(ranks_of(hand(b)))) > 0);
    }
    // The spec also lists Q-Q-8-6-4 > Q-J-9-7-4, as if both were five single cards. But Q and J
    // are consecutive, so by the decomposition the second hand is QJ-9-7-4, v2111, and beats
    // every v11111. Felt follows the decomposition (docs/rankings.md); the pair above with T in
    // place of J shows the comparison the example means.
    CHECK(vertical("QJ974").category == "v2111");
    CHECK(vertical("QQ864").category == "v11111");
    CHECK(vertical("QJ974").strength > vertical("QQ864").strength);

    // Suits play no part: the same ranks in other suits tie.
    auto r = ranking("vertical");
    auto a = r->judge(Deck::standard().parse_cards("7s 6s 5s Kh Qh").value());
    auto b = r->judge(Deck::standard().parse_cards("7d 6c 5h Kc Qd").value());
    CHECK(a.value().strength == b.value().strength);
}

TEST_CASE("vertical: the spec's 5-card table of the 52-card pack") {
    const auto d = meld_distribution("vertical", 13, 4, 5);
    REQUIRE(d.ok());
    const std::vector<std::pair<std::string, std::uint64_t>> want = {
        {"v5", 9'216},     {"v41", 89'088},      {"v32", 76'896},    {"v311", 399'984},
        {"v221", 343'584}, {"v2111", 1'121'952}, {"v11111", 558'240}};
    CHECK(d.value().categories == want);
    CHECK(d.value().total == 2'598'960);
    const auto d8 = meld_distribution("vertical", 13, 4, 8);
    REQUIRE(d8.ok());
    CHECK(d8.value().total == 752'538'150);
}

TEST_CASE("vertical and horizontal: every rank multiset of up to 8 cards of 13 ranks, against "
          "the literal decomposition") {
    int checked = 0, wrong = 0;
    for_each_multiset(13, 8, 8, [&](const std::vector<std::uint8_t>& counts, int) {
        std::vector<int> ranks;
        for (int r = 0; r < 13; ++r)
            for (int k = 0; k < counts[static_cast<std::size_t>(r)]; ++k) ranks.push_back(r);
        const auto v = decode(melds::encode(melds::vertical_melds(counts)));
        const auto h = decode(melds::encode(melds::horizontal_melds(counts)));
        if (!same(v, sorted(reference::decompose_vertical(ranks))) ||
            !same(h, sorted(reference::group_horizontal(ranks))))
            ++wrong;
        ++checked;
    });
    CHECK(checked ==
          203'489); // multisets of 0..8 cards over 13 ranks: C(21, 8); less the empty one
    CHECK(wrong == 0);
}

TEST_CASE("vertical: the fast table orders every 3, 5, 6 and 7-card multiset as the rules do") {
    std::vector<std::pair<VerticalValue, Strength>> all;
    for_each_multiset(13, 7, 4, [&](const std::vector<std::uint8_t>& counts, int total) {
        if (total != 3 && total < 5) return;
        std::vector<Card> cards;
        for (int r = 0; r < 13; ++r)
            for (int s = 0; s < counts[static_cast<std::size_t>(r)]; ++s)
                cards.push_back(Card(Rank(r), Suit(s)));
        VerticalValue fast;
        switch (total) {
        case 3:
            fast = evaluate_vertical<3>(cards.data());
            break;
        case 5:
            fast = evaluate_vertical<5>(cards.data());
            break;
        case 6:
            fast = evaluate_vertical<6>(cards.data());
            break;
        default:
            fast = evaluate_vertical<7>(cards.data());
        }
        all.emplace_back(fast, melds::encode(melds::vertical_melds(counts)));
    });
    REQUIRE(all.size() == 74'230);
    std::sort(all.begin(), all.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    int out_of_order = 0;
    for (std::size_t i = 1; i < all.size(); ++i)
        if (!(all[i - 1].first < all[i].first) || !(all[i - 1].second < all[i].second))
            ++out_of_order;
    CHECK(all.front().first.raw() >= 1);
    CHECK(out_of_order == 0);
}

TEST_CASE("meld rankings compare random hands of any deck and size as the reference does") {
    std::mt19937_64 rng(7);
    int wrong = 0;
    for (int i = 0; i < 20'000; ++i) {
        const int ranks = 2 + static_cast<int>(rng() % 19);
        const int copies = 1 + static_cast<int>(rng() % 8);
        auto v = ranking("vertical", ranks, copies);
        auto h = ranking("horizontal", ranks, copies);
        auto f = ranking("flush", ranks, copies);
        std::vector<Card> deck = v->cards();
        std::shuffle(deck.begin(), deck.end(), rng);
        const auto most = static_cast<std::size_t>(std::min<int>(13, ranks * copies / 2));
        const std::size_t na = 1 + rng() % most, nb = 1 + rng() % most;
        const std::vector<Card> a(deck.begin(), deck.begin() + static_cast<std::ptrdiff_t>(na));
        const std::vector<Card> b(deck.begin() + static_cast<std::ptrdiff_t>(na),
                                  deck.begin() + static_cast<std::ptrdiff_t>(na + nb));
        auto pairs = [](const std::vector<Card>& cards) {
            std::vector<std::pair<int, int>> out;
            for (Card c : cards) out.emplace_back(c.rank().index(), c.suit().index());
            return out;
        };
        const int want_v = reference::compare_pieces(reference::decompose_vertical(ranks_of(a)),
                                                     reference::decompose_vertical(ranks_of(b)));
        const int want_h = reference::compare_pieces(reference::group_horizontal(ranks_of(a)),
                                                     reference::group_horizontal(ranks_of(b)));
        const int want_f = reference::compare_flush(pairs(a), pairs(b));
        if (sign(v->judge(a).value().strength <=> v->judge(b).value().strength) != want_v ||
            sign(h->judge(a).value().strength <=> h->judge(b).value().strength) != want_h ||
            sign(f->judge(a).value().strength <=> f->judge(b).value().strength) != want_f) {
            if (wrong++ == 0)
                FAIL_CHECK("mismatch: " << v->to_string(a) << " vs " << v->to_string(b));
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("horizontal and flush: categories and tie rules") {
    auto h = ranking("horizontal");
    auto f = ranking("flush");
    const Deck deck = Deck::standard();
    auto judge = [&](const Ranking& r, const char* text) {
        return r.judge(deck.parse_cards(text).value()).value();
    };
    CHECK(judge(*h, "9s 9h 9d 9c 2s").category == "h41");
    CHECK(judge(*h, "Ks Kh Kd 2c 2s").category == "h32");
    CHECK(judge(*h, "Ks Qh Jd 9c 2s").category == "h11111");
    CHECK(judge(*f, "Ks Qs Js 9s 2s").category == "f5");
    CHECK(judge(*f, "Ks Qs Js 9s 2h").category == "f41");
    CHECK(judge(*f, "Ks Qh Jd 9c 2s").category == "f2111");
    // Group ranks by group size, then rank: trips decide before the pair.
    CHECK(judge(*h, "3s 3h 3d Ac As").strength < judge(*h, "4s 4h 4d 2c 2s").strength);
    CHECK(judge(*h, "As Ah 4d 4c 2s").strength > judge(*h, "Ks Kh Qd Qc Js").strength);
    // Flush: the group's ranks, highest first; suits never break ties.
    CHECK(judge(*f, "As 9s 7s 4s 2s").strength > judge(*f, "Kh Qh Jh Th 8h").strength);
    CHECK(judge(*f, "As 9s 7s 4s 2s").strength == judge(*f, "Ad 9d 7d 4d 2d").strength);
    // In the standard notation: four of a kind = h41, a flush = f5.
    CHECK(judge(*h, "7s 7h 7d 7c Ks").category == "h41");
}

TEST_CASE("meld distributions match brute force over every hand of small decks") {
    struct Deck3 {
        int ranks, copies, cards;
    };
    for (Deck3 t : {Deck3{6, 3, 5}, Deck3{5, 4, 4}, Deck3{7, 2, 6}, Deck3{4, 8, 5}, Deck3{9, 1, 4},
                    Deck3{3, 5, 7}}) {
        CAPTURE(t.ranks);
        CAPTURE(t.copies);
        CAPTURE(t.cards);
        for (const char* name : {"vertical", "horizontal", "flush"}) {
            CAPTURE(name);
            auto r = ranking(name, t.ranks, t.copies);
            const std::vector<Card> deck = r->cards();
            std::map<std::string, std::uint64_t> brute;
            std::vector<int> pick(static_cast<std::size_t>(t.cards));
            // Every t.cards-subset of the deck, in lexicographic order of positions.
            for (int i = 0; i < t.cards; ++i) pick[static_cast<std::size_t>(i)] = i;
            const int n = static_cast<int>(deck.size());
            while (true) {
                std::vector<Card> cards;
                for (int p : pick) cards.push_back(deck[static_cast<std::size_t>(p)]);
                ++brute[r->judge(cards).value().category];
                int i = t.cards - 1;
                while (i >= 0 && pick[static_cast<std::size_t>(i)] == n - t.cards + i) --i;
                if (i < 0) break;
                ++pick[static_cast<std::size_t>(i)];
                for (int j = i + 1; j < t.cards; ++j)
                    pick[static_cast<std::size_t>(j)] = pick[static_cast<std::size_t>(j - 1)] + 1;
            }
            const auto d = meld_distribution(name, t.ranks, t.copies, t.cards);
            REQUIRE(d.ok());
            std::map<std::string, std::uint64_t> counted(d.value().categories.begin(),
                                                         d.value().categories.end());
            CHECK(counted == brute);
        }
    }
}

TEST_CASE("meld distributions: every deck up to 20 ranks and 8 copies, up to 8 cards, adds up") {
    int bad = 0;
    for (const char* name : {"vertical", "horizontal", "flush"})
        for (int ranks = 1; ranks <= 20; ++ranks)
            for (int copies = 1; copies <= 8; ++copies)
                for (int cards = 1; cards <= std::min(8, ranks * copies); ++cards) {
                    const auto d = meld_distribution(name, ranks, copies, cards);
                    std::uint64_t sum = 0, total = 1;
                    for (const auto& [cat, n] : d.value().categories) sum += n;
                    for (int i = 0; i < cards; ++i)
                        total = total * static_cast<std::uint64_t>(ranks * copies - i) /
                                static_cast<std::uint64_t>(i + 1);
                    if (sum != total || d.value().total != total) ++bad;
                }
    CHECK(bad == 0);
}

TEST_CASE("rankings by name: errors name the problem") {
    auto unknown = make_ranking("sideways");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().code == Errc::bad_option);
    CHECK(unknown.error().message.find("sideways") != std::string::npos);

    RankingOptions o;
    o.ranks = 0;
    CHECK(make_ranking("vertical", o).error().code == Errc::bad_deck);
    o.ranks = 13;
    o.copies = 9;
    CHECK(make_ranking("vertical", o).error().code == Errc::bad_deck);

    CHECK(meld_distribution("vertical", 13, 4, 53).error().code == Errc::bad_deck);
    CHECK(meld_distribution("vertical", 0, 4, 5).error().code == Errc::bad_deck);
    CHECK(meld_distribution("standard", 13, 4, 5).error().code == Errc::bad_option);

    // An 8-rank deck is 7..A: a deuce is not in it.
    auto stripped = ranking("vertical", 8, 4);
    auto bad = stripped->parse_cards("2s 7h");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == Errc::bad_card);
    CHECK(stripped->judge(std::vector<Card>{}).error().code == Errc::wrong_count);
    const Card ace(Rank(7), Suit(0));
    CHECK(stripped->judge(std::vector<Card>{ace, ace}).error().code == Errc::duplicate_card);
    CHECK(stripped->judge(std::vector<Card>{Card(Rank(8), Suit(0))}).error().code ==
          Errc::bad_card);
    CHECK(stripped->to_string(stripped->parse_cards("7s Ah").value()) == "7s Ah");
}
