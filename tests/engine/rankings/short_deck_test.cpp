// The short deck (rankings/short_deck.h): every five-card hand of the 36 cards counted by category
// against the published figures, the order PokerKit and the rooms give, and a reference built on
// the standard evaluator (itself checked exhaustively) compared on random hands of seven.
#include "rankings/short_deck.h"

#include "cards/deck.h"
#include "rankings/evaluator.h"
#include "rankings/ranking.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

using namespace felt;

namespace {

using C = ShortDeckValue::Category;

std::vector<Card> short_pack() {
    std::vector<Card> out;
    for (Card c : Deck::standard().cards())
        if (c.rank() >= rank::six) out.push_back(c);
    return out;
}

ShortDeckValue sd(std::string_view text, bool trips_beat_straight = false) {
    auto cards = Deck::standard().parse_cards(text);
    REQUIRE(cards.ok());
    return best_short_deck_value(cards.value(), trips_beat_straight);
}

// The reference's key: the short deck's place of the standard evaluator's category (a flush above
// a full house), then the standard value within it. A-6-7-8-9 is a straight (flush) below the
// six-to-ten, which the standard evaluator calls an ace high.
std::pair<int, int> reference_key(const std::vector<Card>& five) {
    unsigned ranks = 0;
    bool flush = true;
    for (Card c : five) {
        ranks |= 1u << c.rank().index();
        flush = flush && c.suit() == five[0].suit();
    }
    if (ranks == (1u << 12 | 0b1111u << 4)) return {flush ? 8 : 4, 0};
    const HandValue v = evaluate(five);
    static constexpr int place[] = {0, 1, 2, 3, 4, 6, 5, 7, 8}; // standard category -> short deck
    return {place[static_cast<int>(v.category())], v.raw()};
}

std::pair<int, int> reference_best(const std::vector<Card>& cards) {
    std::vector<bool> pick(cards.size(), false);
    std::fill(pick.begin(), pick.begin() + 5, true);
    std::pair<int, int> best{-1, 0};
    do {
        std::vector<Card> five;
        for (std::size_t i = 0; i < cards.size(); ++i)
            if (pick[i]) five.push_back(cards[i]);
        best = std::max(best, reference_key(five));
    } while (std::prev_permutation(pick.begin(), pick.end()));
    return best;
}

} // namespace

TEST_CASE("short deck: every five-card hand of 36 cards, counted by category") {
    const auto pack = short_pack();
    REQUIRE(pack.size() == 36);
    std::array<long, 9> by_category{};
    std::array<std::set<std::uint32_t>, 9> values;
    for (int a = 0; a < 36; ++a)
        for (int b = a + 1; b < 36; ++b)
            for (int c = b + 1; c < 36; ++c)
                for (int d = c + 1; d < 36; ++d)
                    for (int e = d + 1; e < 36; ++e) {
                        const std::array<Card, 5> five = {pack[a], pack[b], pack[c], pack[d],
                                                          pack[e]};
                        const ShortDeckValue v = short_deck_value(five);
                        const auto k = static_cast<std::size_t>(v.category());
                        ++by_category[k];
                        values[k].insert(v.raw());
                    }
    // The published counts of six-plus hold'em's five-card hands (C(36,5) = 376,992).
    CHECK(by_category[static_cast<int>(C::straight_flush)] == 24);
    CHECK(by_category[static_cast<int>(C::four_of_a_kind)] == 288);
    CHECK(by_category[static_cast<int>(C::flush)] == 480);
    CHECK(by_category[static_cast<int>(C::full_house)] == 1'728);
    CHECK(by_category[static_cast<int>(C::straight)] == 6'120);
    CHECK(by_category[static_cast<int>(C::three_of_a_kind)] == 16'128);
    CHECK(by_category[static_cast<int>(C::two_pair)] == 36'288);
    CHECK(by_category[static_cast<int>(C::one_pair)] == 193'536);
    CHECK(by_category[static_cast<int>(C::high_card)] == 122'400);
    // Distinct values: 6 straights and straight flushes; C(9,5) - 6 = 120 flushes and high cards;
    // 9 x 8 quads and full houses; 9 x C(8,2) trips; C(9,2) x 7 two pairs; 9 x C(8,3) pairs.
    const std::array<std::size_t, 9> distinct = {120, 504, 252, 252, 6, 72, 120, 72, 6};
    std::size_t total = 0;
    for (std::size_t k = 0; k < 9; ++k) {
        CHECK(values[k].size() == distinct[k]);
        total += values[k].size();
    }
    CHECK(total == 1'404);
    // Categories do not overlap: each one's values lie above the one below it.
    for (std::size_t k = 1; k < 9; ++k) CHECK(*values[k].begin() > *values[k - 1].rbegin());
}

TEST_CASE("short deck: the order, and the option of three of a kind over a straight") {
    CHECK(sd("As Ks Qs 7s 6s") > sd("Ah Ad Ac Kh Kd")); // a flush beats a full house
    CHECK(sd("9s 8h 7d 6c Ts") > sd("Ah Ad Ac Kh Qd")); // a straight beats three of a kind
    CHECK(sd("As 6h 7d 8c 9s") > sd("Ah Ad Ac Kh Qd")); // A-6-7-8-9 is a straight...
    CHECK(sd("As 6h 7d 8c 9s") < sd("6s 7h 8d 9c Ts")); // ... the lowest
    CHECK(sd("As 6s 7s 8s 9s") < sd("6s 7s 8s 9s Ts")); // and the lowest straight flush
    CHECK(sd("As 6s 7s 8s 9s") > sd("Ah Ad Ac As Kh"));
    CHECK(sd("As 6h 7d 8c 9s").category() == C::straight);
    CHECK(sd("9s 8h 7d 6c Ts", true) < sd("Ah Ad Ac Kh Qd", true)); // the other custom
    CHECK(sd("Ah Ad Ac Kh Qd", true).category() == C::three_of_a_kind);
    CHECK(sd("9s 8h 7d 6c Ts", true).category() == C::straight);
    CHECK(sd("Ah Ad Ac Kh Qd", true) < sd("Ks Kh Kd Qh Qd", true)); // still below a full house
    CHECK(sd("Ah Ad 6c 7h 8d Ks Kc") == sd("Ah Ad Ks Kc 8d"));      // the best five of seven
    CHECK(short_deck_words(sd("As 6h 7d 8c 9s")) == "a straight, nine high");
    CHECK(short_deck_words(sd("As Ks Qs 7s 6s")) == "a flush, ace high");
    CHECK(short_deck_words(sd("Ah Ad Ac Kh Kd")) == "a full house, aces full of kings");
    CHECK(short_deck_words(sd("9s 9h 7d 7c As")) == "two pair, nines and sevens");
    CHECK(short_deck_words(sd("6s 6h 6d Ac Ks", true)) == "three sixes");
    CHECK(short_deck_words(sd("Ah Kd Qc 9h 8d")) == "ace high, king-queen-nine-eight");
}

TEST_CASE("short deck: the same order as the reference on random hands of seven") {
    std::mt19937_64 rng(36);
    auto pack = short_pack();
#ifdef FELT_SANITIZE
    constexpr int kPairs = 2'000; // a tenth under the sanitizers
#else
    constexpr int kPairs = 20'000;
#endif
    for (int i = 0; i < kPairs; ++i) {
        std::shuffle(pack.begin(), pack.end(), rng);
        const std::vector<Card> x(pack.begin(), pack.begin() + 7),
            y(pack.begin() + 7, pack.begin() + 14);
        const auto vx = best_short_deck_value(x), vy = best_short_deck_value(y);
        const auto rx = reference_best(x), ry = reference_best(y);
        CHECK((vx > vy) == (rx > ry));
        CHECK((vx == vy) == (rx == ry));
    }
}

TEST_CASE("the mixed games' rankings by name: deck, sizes and refusals") {
    auto sd_ranking = make_ranking("short-deck");
    REQUIRE(sd_ranking.ok());
    CHECK(sd_ranking.value()->cards().size() == 36);
    auto five = sd_ranking.value()->parse_cards("5s 6h 7d 8c 9s");
    REQUIRE_FALSE(five.ok());
    CHECK(five.error().code == Errc::bad_card);
    CHECK(five.error().message.find("no 5s") != std::string::npos);
    auto j = sd_ranking.value()->judge(Deck::standard().parse_cards("As 6h 7d 8c 9s").value());
    REQUIRE(j.ok());
    CHECK(j.value().category == "straight");

    auto razz = make_ranking("ace-to-five");
    REQUIRE(razz.ok());
    CHECK(razz.value()->cards().size() == 52);
    const auto hands = Deck::standard().parse_cards("Ks Kh 8d 5c 4s 2h As").value();
    auto r = razz.value()->judge(hands);
    REQUIRE(r.ok());
    CHECK(r.value().category == "no_pair");
    CHECK(razz.value()->judge(std::span(hands).first(4)).error().code == Errc::wrong_count);
    auto dup = Deck::standard().parse_cards("Ks Kh 8d 5c").value();
    dup.push_back(dup[0]);
    CHECK(razz.value()->judge(dup).error().code == Errc::duplicate_card);

    auto d27 = make_ranking("deuce-to-seven");
    REQUIRE(d27.ok());
    const auto seven = Deck::standard().parse_cards("7s 5h 4d 3c 2s").value();
    const auto eight = Deck::standard().parse_cards("8s 5h 4d 3c 2h").value();
    CHECK(d27.value()->strength(seven) > d27.value()->strength(eight));
    CHECK(d27.value()->judge(hands).error().code == Errc::wrong_count); // five cards only

    auto bd = make_ranking("badugi");
    REQUIRE(bd.ok());
    const auto four = Deck::standard().parse_cards("Kh Qd 5s 2c").value();
    CHECK(bd.value()->judge(four).value().category == "badugi");
    CHECK(bd.value()->judge(seven).error().code == Errc::wrong_count);
}
