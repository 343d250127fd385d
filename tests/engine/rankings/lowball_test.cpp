// Lowball (rankings/lowball.h). Ace-to-five: every five-card hand of the pack counted by shape and
// by value against the combinatorial figures, the order the rules give in examples, and a slow
// reference, written apart, compared on random hands of five to seven cards. Deuce-to-seven: every
// hand against the standard evaluator turned over (itself checked exhaustively), the ace-to-five
// wheel placed apart.
#include "rankings/lowball.h"

#include "cards/deck.h"
#include "rankings/enumerate.h"
#include "rankings/evaluator.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace felt;

namespace {

LowValue low(std::string_view text) {
    auto cards = Deck::standard().parse_cards(text);
    REQUIRE(cards.ok());
    REQUIRE(cards.value().size() >= 5);
    return best_ace_to_five_low(cards.value());
}

// The reference: a hand's shape from its sorted group sizes, then its ranks (ace one) by group
// size and rank, both descending; the smaller pair (shape, ranks) is the better low.
std::pair<int, std::vector<int>> reference_key(const std::vector<Card>& five) {
    std::map<int, int> groups;
    for (Card c : five) ++groups[c.rank() == rank::ace ? 1 : c.rank().index() + 2];
    std::vector<std::pair<int, int>> g(groups.begin(), groups.end()); // (rank, size)
    std::sort(g.begin(), g.end(), [](auto a, auto b) {
        return a.second != b.second ? a.second > b.second : a.first > b.first;
    });
    std::vector<int> sizes, ranks;
    for (auto [r, n] : g) {
        sizes.push_back(n);
        ranks.push_back(r);
    }
    static const std::vector<std::vector<int>> shapes = {{1, 1, 1, 1, 1}, {2, 1, 1, 1}, {2, 2, 1},
                                                         {3, 1, 1},       {3, 2},       {4, 1}};
    const int shape =
        static_cast<int>(std::find(shapes.begin(), shapes.end(), sizes) - shapes.begin());
    return {shape, ranks};
}

// The reference's best of five to seven cards: every five of them.
std::pair<int, std::vector<int>> reference_best(const std::vector<Card>& cards) {
    std::vector<bool> pick(cards.size(), false);
    std::fill(pick.begin(), pick.begin() + 5, true);
    std::pair<int, std::vector<int>> best{99, {}};
    do {
        std::vector<Card> five;
        for (std::size_t i = 0; i < cards.size(); ++i)
            if (pick[i]) five.push_back(cards[i]);
        best = std::min(best, reference_key(five));
    } while (std::prev_permutation(pick.begin(), pick.end()));
    return best;
}

// Calls f with every five-card hand of the pack, as an array of cards.
template <class F>
void for_each_five(F&& f) {
    const auto pack = standard_pack();
    for (int a = 0; a < 52; ++a)
        for (int b = a + 1; b < 52; ++b)
            for (int c = b + 1; c < 52; ++c)
                for (int d = c + 1; d < 52; ++d)
                    for (int e = d + 1; e < 52; ++e)
                        f(std::array<Card, 5>{pack[a], pack[b], pack[c], pack[d], pack[e]});
}

} // namespace

TEST_CASE("ace-to-five low: every five-card hand, counted by shape and by value") {
    std::array<long, 6> by_shape{};
    std::set<std::uint32_t> values, qualifying;
    long qualifying_hands = 0, wheels = 0, above_wheel = 0, fast_differs = 0;
    const LowValue wheel = low("As 2h 3d 4c 5s");
    for_each_five([&](const std::array<Card, 5>& five) {
        const LowValue v = ace_to_five_low(five);
        values.insert(v.raw());
        ++by_shape[static_cast<std::size_t>(reference_key({five.begin(), five.end()}).first)];
        if (v.qualifies()) {
            ++qualifying_hands;
            qualifying.insert(v.raw());
        }
        fast_differs += eight_or_better_low(five) != (v.qualifies() ? v : LowValue());
        wheels += v == wheel;
        above_wheel += v > wheel;
    });
    // C(13,5) rank sets without a pair, and the paired shapes: 6,175 values in all.
    CHECK(values.size() == 6'175);
    CHECK(by_shape[0] == 1'317'888); // 1,287 rank sets, 4^5 suits each
    CHECK(by_shape[1] == 1'098'240); // a pair
    CHECK(by_shape[2] == 123'552);   // two pairs
    CHECK(by_shape[3] == 54'912);    // three of a kind
    CHECK(by_shape[4] == 3'744);     // a full house
    CHECK(by_shape[5] == 624);       // four of a kind
    // Eight or better: C(8,5) = 56 lows, each in 4^5 suits.
    CHECK(qualifying.size() == 56);
    CHECK(qualifying_hands == 56 * 1'024);
    CHECK(wheels == 1'024);
    CHECK(above_wheel == 0);  // the wheel is the best low
    CHECK(fast_differs == 0); // eight_or_better_low: the same value, or 0 when it does not qualify
}

TEST_CASE("ace-to-five low: the order of the rules' examples") {
    CHECK(low("7s 5h 4d 3c 2s") > low("7h 6d 3c 2s Ah"));  // compared from the highest card down
    CHECK(low("Ks Qh Jd Tc 8s") > low("As Ah 2d 3c 4s"));  // no pair beats any pair
    CHECK(low("4s 4h Kd Qc Js") > low("5s 5h Ad 2c 3s"));  // the lower pair
    CHECK(low("5s 5h 2d 3c 4s") > low("5d 5c 2h 3s 6h"));  // then the kickers
    CHECK(low("As 2s 3s 4s 5s") == low("Ah 2d 3c 4s 5h")); // flushes and straights do not count
    CHECK(low("2s 2h 3d 3c 4s") > low("As Ah Ad 2c 3s"));  // two pairs beat three of a kind
    CHECK(low("9s 9h 9d 8c 8s") > low("2s 2h 2d 2c 3s"));  // a full house beats four of a kind
    // Best of seven, as razz plays it; qualifying for a low half.
    CHECK(low("Ks Kh 8d 5c 4s 2h As") == low("8d 5c 4s 2h As"));
    CHECK(low("8d 5c 4s 2h As").qualifies());
    CHECK_FALSE(low("9d 5c 4s 2h As").qualifies());
    CHECK_FALSE(low("As Ah 2d 3c 4s").qualifies());
    CHECK(low("9d 5c 4s 2h As").qualifies(rank::nine));
    CHECK_FALSE(LowValue().qualifies());
}

TEST_CASE("ace-to-five low: the same order as a slow reference on random hands of five to seven") {
    std::mt19937_64 rng(48);
    const auto pack = standard_pack();
#ifdef FELT_SANITIZE
    constexpr int kPairs = 2'000; // a tenth under the sanitizers
#else
    constexpr int kPairs = 20'000;
#endif
    for (int i = 0; i < kPairs; ++i) {
        const int n = 5 + static_cast<int>(rng() % 3);
        std::array<Card, 52> deck = pack;
        std::shuffle(deck.begin(), deck.end(), rng);
        const std::vector<Card> x(deck.begin(), deck.begin() + n),
            y(deck.begin() + n, deck.begin() + 2 * n);
        const auto vx = best_ace_to_five_low(x), vy = best_ace_to_five_low(y);
        const auto rx = reference_best(x), ry = reference_best(y);
        // The reference's smaller key is the better low.
        CHECK((vx > vy) == (rx < ry));
        CHECK((vx == vy) == (rx == ry));
    }
}

namespace {

DeuceSevenValue d27(std::string_view text) {
    auto cards = Deck::standard().parse_cards(text);
    REQUIRE(cards.ok());
    REQUIRE(cards.value().size() == 5);
    return deuce_to_seven_low(std::span<const Card, 5>(cards.value().data(), 5));
}

} // namespace

TEST_CASE("deuce-to-seven low: every five-card hand, the standard ranking turned over but for "
          "A-5-4-3-2, which is an ace high") {
    std::map<std::uint16_t, std::uint32_t> by_class; // the standard class -> its deuce-to-seven
    std::set<std::uint32_t> values;
    long inconsistent = 0, wheels = 0;
    for_each_five([&](const std::array<Card, 5>& five) {
        const DeuceSevenValue v = deuce_to_seven_low(five);
        values.insert(v.raw());
        unsigned ranks = 0;
        for (Card x : five) ranks |= 1u << x.rank().index();
        if (ranks == 0b1000000001111) { // A-5-4-3-2: apart
            ++wheels;
            return;
        }
        const std::uint16_t high = evaluate<5>(five.data()).raw();
        const auto [it, added] = by_class.emplace(high, v.raw());
        inconsistent += !added && it->second != v.raw();
    });
    CHECK(values.size() == 7'462);
    CHECK(wheels == 1'024);
    CHECK(inconsistent == 0); // one standard class, one deuce-to-seven value
    // Every other hand: the better the standard hand, the worse the low.
    long out_of_order = 0;
    for (auto it = by_class.begin(); std::next(it) != by_class.end(); ++it)
        out_of_order += std::next(it)->second >= it->second;
    CHECK(out_of_order == 0);
    CHECK(by_class.size() == 7'462 - 2); // the wheel's straight and straight flush are no class
    // The wheel: an ace high, worse than any king high and better than any pair; suited, an ace-
    // high flush, worse than any king-high flush and better than any full house.
    CHECK(d27("As 5h 4d 3c 2s") < d27("Ks Qh Jd Tc 8s"));
    CHECK(d27("As 5h 4d 3c 2s") > d27("2s 2h 3d 4c 5s"));
    CHECK(d27("As 5s 4s 3s 2s") < d27("Ks Qs Js Ts 8s"));
    CHECK(d27("As 5s 4s 3s 2s") > d27("2s 2h 2d 3c 3s"));
    CHECK(d27("As 5s 4s 3s 2s") < d27("Ah Kd Qc Js Ts")); // a straight beats it
    // The best low, and the rules' examples.
    CHECK(d27("7s 5h 4d 3c 2s") == DeuceSevenValue(*values.rbegin()));
    CHECK(d27("7s 5s 4s 3s 2s") < d27("8s 6h 4d 3c 2s")); // a flush counts
    CHECK(d27("6s 5h 4d 3c 2s") < d27("Ks Qh Jd Tc 8s")); // and so does a straight
    CHECK(d27("8s 5h 4d 3c 2s") > d27("8h 6d 4c 3s 2h"));
}

namespace {

BadugiValue bad(std::string_view text) {
    auto cards = Deck::standard().parse_cards(text);
    REQUIRE(cards.ok());
    return badugi(cards.value());
}

// The reference: every subset of the hand, kept when its ranks and its suits are all different;
// the most cards, then the smallest ranks (ace one) compared from the highest down.
std::pair<int, std::vector<int>> reference_badugi(const std::vector<Card>& hand) {
    // (-size, ranks descending): the smaller the better; {1, {}} is worse than any.
    std::pair<int, std::vector<int>> best{1, {}};
    for (unsigned mask = 1; mask < 1u << hand.size(); ++mask) {
        std::set<int> ranks, suits;
        std::vector<int> picked;
        for (std::size_t i = 0; i < hand.size(); ++i)
            if (mask >> i & 1) {
                const int r = hand[i].rank() == rank::ace ? 1 : hand[i].rank().index() + 2;
                ranks.insert(r);
                suits.insert(hand[i].suit().index());
                picked.push_back(r);
            }
        if (ranks.size() != picked.size() || suits.size() != picked.size()) continue;
        std::sort(picked.rbegin(), picked.rend());
        const std::pair<int, std::vector<int>> key{-static_cast<int>(picked.size()), picked};
        if (key < best) best = key;
    }
    return best;
}

} // namespace

TEST_CASE("badugi: every four-card hand against a slow reference, counted by size") {
    const auto pack = standard_pack();
    // Every hand's value, and the reference's key; then both orders compared over the values.
    std::map<std::uint32_t, std::pair<int, std::vector<int>>> key_of;
    std::array<long, 5> by_size{};
    long inconsistent = 0;
    for (int a = 0; a < 52; ++a)
        for (int b = a + 1; b < 52; ++b)
            for (int c = b + 1; c < 52; ++c)
                for (int d = c + 1; d < 52; ++d) {
                    const std::vector<Card> hand = {pack[a], pack[b], pack[c], pack[d]};
                    const BadugiValue v = badugi(hand);
                    ++by_size[static_cast<std::size_t>(v.size())];
                    const auto key = reference_badugi(hand);
                    const auto [it, added] = key_of.emplace(v.raw(), key);
                    inconsistent += !added && it->second != key;
                    inconsistent += v.size() != -key.first;
                }
    CHECK(inconsistent == 0);
    // C(13,4) + C(13,3) + C(13,2) + C(13,1) rank sets.
    CHECK(key_of.size() == 1'092);
    std::array<int, 5> values_by_size{};
    for (const auto& [raw, key] : key_of) ++values_by_size[static_cast<std::size_t>(-key.first)];
    CHECK(values_by_size == std::array<int, 5>{0, 13, 78, 286, 715});
    long out_of_order = 0; // a greater value, a better (smaller) reference key
    for (auto it = key_of.begin(); std::next(it) != key_of.end(); ++it)
        out_of_order += !(std::next(it)->second < it->second);
    CHECK(out_of_order == 0);
    // Four suits and four ranks: 715 rank sets times 4! ways to give them the suits. One card:
    // four of one suit, or four of one rank.
    CHECK(by_size[4] == 715 * 24);
    CHECK(by_size[1] == 4 * 715 + 13);
    CHECK(by_size[1] + by_size[2] + by_size[3] + by_size[4] == 270'725);
}

TEST_CASE("badugi: the order of the rules' examples") {
    CHECK(bad("4s 3h 2d Ac") == BadugiValue((4u << 16) | (0xFFFF - 0x4321))); // the best hand
    CHECK(bad("Ks Qh Jd Tc") > bad("As 2h 3d 3c")); // four cards beat three
    CHECK(bad("7s 5h 4d 2c") > bad("7h 6d 3c As")); // compared from the highest card down
    CHECK(bad("As 2s 3h 4d") == bad("Ah 3d 4c"));   // one spade counts: the ace, the lower
    CHECK(bad("2c 2d 3c 4h").size() == 3);          // 4-3-2 of hearts, clubs, diamonds
    CHECK(bad("2c 2d 3c 4h") == bad("2d 3c 4h"));
    CHECK(bad("As Ah Ad Ac") == bad("Ad"));   // four of a kind: one card
    CHECK(bad("Ks Qs 5s 2s") < bad("Kh Qd")); // one suit: one card
    CHECK(bad("5h 3c 2d").ranks() == std::array<int, 4>{5, 3, 2, 0});
    CHECK(category_name(bad("Kh Qd 5s 2c")) == "badugi");
    CHECK(category_name(bad("Kh Qh 5s 2c")) == "three_card");
}

TEST_CASE("lowball words: each hand named with the ranks that tell it from the others") {
    const std::vector<LowValue> razz = {low("8s 7h 4d 3c 2s"), low("8d 7c 5h 3s 2h"),
                                        low("As 2h 3d 4c 5s"), low("4s 4h Kd Qc Js"),
                                        low("9s 6h 4d 3c 2s"), LowValue()};
    CHECK(low_words(razz) == std::vector<std::string>{"an eight-seven-four low",
                                                      "an eight-seven-five low", "a wheel",
                                                      "a pair of fours", "a nine-six low", ""});
    const std::vector<DeuceSevenValue> d = {d27("7s 5h 4d 3c 2s"), d27("9s 8h 4d 3c 2s"),
                                            d27("9s 8h 7d 6c 5s"), d27("Ks Qs 8s 4s 2s"),
                                            d27("6s 6h 6d Kc Ks")};
    CHECK(low_words(d) == std::vector<std::string>{"a number one", "a nine-eight low",
                                                   "a straight, nine high", "a flush, king high",
                                                   "a full house, sixes full of kings"});
    const std::vector<BadugiValue> b = {bad("7s 5h 3d 2c"), bad("7s 5s 3d 2c"), bad("As Ah Ad Ac"),
                                        bad("7h 6s 3d 2c")};
    CHECK(low_words(b) == std::vector<std::string>{"a seven-five badugi",
                                                   "a three-card badugi, five-three",
                                                   "a one-card badugi, ace", "a seven-six badugi"});
}
