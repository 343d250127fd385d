#include "rankings/evaluator.h"

#include "cards/deck.h"
#include "rankings/distribution.h"
#include "rankings/enumerate.h"
#include "rankings/wild.h"
#include "reference_evaluator.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <tuple>

using namespace felt;

namespace {

std::uint64_t count(const StandardDistribution& d, Category c) {
    return d.categories[static_cast<std::size_t>(c)];
}

HandValue eval(std::string_view text) {
    auto cards = Deck::standard().parse_cards(text);
    REQUIRE(cards.ok());
    auto v = evaluate_hand(cards.value());
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
    return v.value();
}

// n different cards of the pack, drawn by a partial Fisher-Yates shuffle.
std::vector<Card> draw(std::mt19937_64& rng, int n) {
    static const auto pack = standard_pack();
    std::array<Card, 52> deck = pack;
    for (int i = 0; i < n; ++i) {
        std::uniform_int_distribution<int> pick(i, 51);
        std::swap(deck[static_cast<std::size_t>(i)], deck[static_cast<std::size_t>(pick(rng))]);
    }
    return {deck.begin(), deck.begin() + n};
}

#ifdef FELT_SANITIZE
constexpr int kRandomHands = 200'000; // sanitizers run ten times slower; the release build does 1M
#else
constexpr int kRandomHands = 1'000'000;
#endif

} // namespace

// Expected counts, highest category first: straight flush ... high card.
struct Expected {
    int cards;
    std::uint64_t total;
    std::array<std::uint64_t, 9> counts;
    int distinct_values;
};

void check_distribution(const Expected& e) {
    CAPTURE(e.cards);
    const auto d = standard_distribution(e.cards);
    CHECK(d.total == e.total);
    for (int i = 0; i < 9; ++i) {
        const auto c = static_cast<Category>(static_cast<int>(Category::straight_flush) - i);
        CAPTURE(category_name(c));
        CHECK(count(d, c) == e.counts[static_cast<std::size_t>(i)]);
    }
    CHECK(count(d, Category::five_of_a_kind) == 0);
    CHECK(d.distinct_values == e.distinct_values);
}

TEST_CASE("every five-card hand: the spec's counts and 7,462 distinct values") {
    check_distribution({5,
                        2'598'960,
                        {40, 624, 3'744, 5'108, 10'200, 54'912, 123'552, 1'098'240, 1'302'540},
                        7'462});
}

// Six cards: Wikipedia, "Poker probability" (straight flush = 188 royal + 1,656 others).
TEST_CASE("every six-card hand: published counts and 6,075 distinct values") {
    check_distribution(
        {6,
         20'358'520,
         {1'844, 14'664, 165'984, 205'792, 361'620, 732'160, 2'532'816, 9'730'740, 6'612'900},
         6'075});
}

TEST_CASE("every seven-card hand: the spec's counts and 4,824 distinct values") {
    check_distribution({7,
                        133'784'560,
                        {41'584, 224'848, 3'473'184, 4'047'644, 6'180'020, 6'461'620, 31'433'400,
                         58'627'800, 23'294'460},
                        4'824});
}

TEST_CASE("every three-card front: trips, pairs and high cards only") {
    const auto d = standard_distribution(3);
    CHECK(d.total == 22'100);
    CHECK(count(d, Category::three_of_a_kind) == 52);
    CHECK(count(d, Category::one_pair) == 3'744);
    CHECK(count(d, Category::high_card) == 18'304);
    CHECK(count(d, Category::straight) == 0);
    CHECK(count(d, Category::flush) == 0);
    CHECK(d.distinct_values == 13 + 13 * 12 + 286);
}

TEST_CASE("every five-card and three-card hand agrees with the reference evaluator") {
    int checked = 0, wrong = 0;
    const auto pack = standard_pack();
    auto check_hand = [&](const std::vector<Card>& cards) {
        const HandValue v = evaluate(cards);
        if (reference::from_class(v.hand_class()) != reference::judge(cards)) {
            if (wrong++ == 0) FAIL_CHECK("mismatch on " << Deck::standard().to_string(cards));
        }
        ++checked;
    };
    for (int a = 0; a < 52; ++a)
        for (int b = a + 1; b < 52; ++b)
            for (int c = b + 1; c < 52; ++c) {
                check_hand({pack[a], pack[b], pack[c]});
                for (int d = c + 1; d < 52; ++d)
                    for (int e = d + 1; e < 52; ++e)
                        check_hand({pack[a], pack[b], pack[c], pack[d], pack[e]});
            }
    CHECK(checked == 2'598'960 + 22'100);
    CHECK(wrong == 0);
}

TEST_CASE("random 5-, 6- and 7-card hands agree with the reference, in value and in order") {
    std::mt19937_64 rng(20261122);
    for (int n : {5, 6, 7}) {
        CAPTURE(n);
        int wrong_class = 0, wrong_order = 0;
        HandValue prev_v;
        reference::Judged prev_j;
        for (int i = 0; i < kRandomHands; ++i) {
            const auto cards = draw(rng, n);
            const HandValue v = evaluate(cards);
            const reference::Judged j = reference::judge(cards);
            if (reference::from_class(v.hand_class()) != j && wrong_class++ == 0)
                FAIL_CHECK("class differs on " << Deck::standard().to_string(cards));
            if (i > 0 && (v <=> prev_v) != (j <=> prev_j) && wrong_order++ == 0)
                FAIL_CHECK("order differs on " << Deck::standard().to_string(cards));
            // The incremental form must give the same value.
            HandKey h;
            for (Card c : cards) h = h + c;
            if (evaluate(h) != v && wrong_class++ == 0)
                FAIL_CHECK("HandKey differs on " << Deck::standard().to_string(cards));
            prev_v = v;
            prev_j = j;
        }
        CHECK(wrong_class == 0);
        CHECK(wrong_order == 0);
    }
}

TEST_CASE("rules of the standard ranking, by example") {
    SUBCASE("categories") {
        CHECK(eval("As Ks Qs Js Ts").category() == Category::straight_flush);
        CHECK(eval("9c 9d 9h 9s 2d").category() == Category::four_of_a_kind);
        CHECK(eval("Kc Kd Kh 2s 2d").category() == Category::full_house);
        CHECK(eval("Ac Jc 8c 6c 2c").category() == Category::flush);
        CHECK(eval("9c 8d 7h 6s 5d").category() == Category::straight);
        CHECK(eval("7c 7d 7h Ks 2d").category() == Category::three_of_a_kind);
        CHECK(eval("7c 7d 5h 5s 2d").category() == Category::two_pair);
        CHECK(eval("7c 7d 5h 4s 2d").category() == Category::one_pair);
        CHECK(eval("Ac Qd 9h 6s 3d").category() == Category::high_card);
    }
    SUBCASE("the wheel is the lowest straight, A-high the highest") {
        CHECK(eval("5d 4c 3h 2s Ad") < eval("6d 5c 4h 3s 2d"));
        CHECK(eval("Ad Kc Qh Js Td") > eval("Kd Qc Jh Ts 9d"));
        CHECK(eval("5s 4s 3s 2s As") < eval("6s 5s 4s 3s 2s"));
        CHECK(eval("Kd Ac 2h 3s 4d").category() == Category::high_card); // no wrapping
    }
    SUBCASE("defining ranks, then kickers; suits never break ties") {
        CHECK(eval("Ah Ad Kc Qs Jd") > eval("Ah Ad Kc Qs Td"));
        CHECK(eval("Kh Kd Kc 2s 2d") > eval("Qh Qd Qc As Ad"));
        CHECK(eval("Ah Kh Qh Jh 9h") == eval("As Ks Qs Js 9s"));
        CHECK(eval("7c 7d 5h 5s Ad") > eval("7h 7s 5c 5d Kd"));
    }
    SUBCASE("best five of seven") {
        CHECK(eval("As Ks Qs Js Ts 2d 3c") == eval("Ah Kh Qh Jh Th"));
        CHECK(eval("2c 2d 2h 5s 5d 5c 9h").category() == Category::full_house);
        CHECK(eval("2c 2d 2h 5s 5d 5c 9h") == eval("5s 5d 5c 2c 2d"));
    }
    SUBCASE("a three-card front: no straights or flushes, short kickers rank lowest") {
        CHECK(eval("Ah Kh Qh").category() == Category::high_card);
        CHECK(eval("Ah Ad Kc") < eval("Ah Ad Kc 3s 2d"));
        CHECK(eval("Ah Ad Kc") > eval("Ah Ad Qc Js Td"));
        CHECK(eval("3h 3d 3c") < eval("3h 3d 3c 5s 4d"));
        CHECK(eval("3h 3d 3c") > eval("2h 2d 2c As Kd"));
    }
}

TEST_CASE("the hot lookup tables stay within 256 KiB") {
    const std::size_t bytes = sizeof(tables::kCardKey) + sizeof(tables::kRowOffset) +
                              sizeof(tables::kRankTable) + sizeof(tables::kFlushTable);
    MESSAGE("hot tables: " << bytes << " bytes");
    CHECK(bytes <= 256 * 1024);
}

TEST_CASE("hand classes in words: the examples, and distinct words for classes that differ in "
          "what the words name") {
    auto words = [](std::string_view text) { return hand_class::words(eval(text).hand_class()); };
    CHECK(words("As Kd 9c 7h 4s") == "ace high");
    CHECK(words("Ks Kd 9c 7h 4s") == "a pair of kings");
    CHECK(words("Ks Kd 9c 9h 4s") == "two pair, kings and nines");
    CHECK(words("7s 7d 7c Kh 4s") == "three sevens");
    CHECK(words("Ts 9d 8c 7h 6s") == "straight, ten high");
    CHECK(words("5s 4d 3c 2h As") == "straight, five high");
    CHECK(words("As 9s 7s 4s 2s") == "flush, ace high");
    CHECK(words("Ks Kd Kc 4h 4s") == "full house, kings over fours");
    CHECK(words("9s 9d 9c 9h 4s") == "four nines");
    CHECK(words("Ks Qs Js Ts 9s") == "straight flush, king high");
    CHECK(words("As Ks Qs Js Ts") == "royal flush");
    CHECK(words("Qs Qd 4c") == "a pair of queens");
    // Every class of the scale (wild-card flushes included): the words name the category and the
    // ranks that define it (the top rank, and the second for two pair and full house), so classes
    // that differ there read differently, and classes that agree there read the same.
    std::map<std::string, std::tuple<Category, int, int>> by_words;
    std::map<std::tuple<Category, int, int>, std::string> by_class;
    for (std::size_t raw = 1; raw < std::size(tables::kClassKey); ++raw) {
        const std::uint32_t key = tables::kClassKey[raw];
        const Category c = hand_class::category(key);
        const bool two = c == Category::two_pair || c == Category::full_house;
        const auto named =
            std::tuple{c, hand_class::rank_at(key, 0), two ? hand_class::rank_at(key, 1) : -1};
        const std::string w = hand_class::words(key);
        CHECK(w.find('?') == std::string::npos);
        CHECK_MESSAGE(by_words.emplace(w, named).first->second == named, w);
        CHECK_MESSAGE(by_class.emplace(named, w).first->second == w, w);
    }
    CHECK(by_words.size() == by_class.size());
    CHECK(by_words.size() > 300);
}

TEST_CASE("hand classes as a showdown names them: the first kicker where one can decide, and "
          "hands that differ in it read differently") {
    auto said = [](std::string_view text) {
        return hand_class::with_kicker(eval(text).hand_class());
    };
    CHECK(said("Ks Kd 7c 7h As") == "two pair, kings and sevens, ace kicker");
    CHECK(said("Qs 9s 7s 4s 2s") == "flush, queen high");
    CHECK(said("9s 9d Qc 7h 4s") == "a pair of nines, queen kicker");
    CHECK(said("As Jd 9c 7h 4s") == "ace high, jack kicker");
    CHECK(said("7s 7d 7c Kh 4s") == "three sevens, king kicker");
    CHECK(said("9s 9d 9c 9h 4s") == "four nines, four kicker");
    CHECK(said("Ks Kd Kc 4h 4s") == "full house, kings over fours");
    CHECK(said("Ts 9d 8c 7h 6s") == "straight, ten high");
    CHECK(said("Qs Qd 4c") == "a pair of queens, four kicker"); // a front
    CHECK(said("7s 7d 7c") == "three sevens");                  // a front's trips: no kicker
    // Over every class: the words with the kicker start with the words, and two classes that
    // differ in the category, the ranks the words name or the first kicker read differently.
    std::map<std::string, std::uint32_t> seen;
    for (std::size_t raw = 1; raw < std::size(tables::kClassKey); ++raw) {
        const std::uint32_t key = tables::kClassKey[raw];
        const std::string w = hand_class::with_kicker(key);
        CHECK(w.starts_with(hand_class::words(key)));
        CHECK(w.find('?') == std::string::npos);
        const Category c = hand_class::category(key);
        const int kicker_at = c == Category::two_pair ? 2 : 1;
        const bool kicks = c == Category::high_card || c == Category::one_pair ||
                           c == Category::two_pair || c == Category::three_of_a_kind ||
                           c == Category::four_of_a_kind;
        const std::uint32_t named =
            static_cast<std::uint32_t>(c) << 16 | (hand_class::rank_at(key, 0) + 1) << 8 |
            (c == Category::two_pair || c == Category::full_house ? hand_class::rank_at(key, 1) + 1
                                                                  : 0)
                << 4 |
            (kicks ? hand_class::rank_at(key, kicker_at) + 1 : 0);
        auto [at, fresh] = seen.emplace(w, named);
        CHECK_MESSAGE(at->second == named, w);
    }
}

TEST_CASE("hands shown together name the kickers that tell them apart, and no more") {
    auto beside = [](std::string_view a, std::string_view b) {
        const std::uint32_t ka = eval(a).hand_class(), kb = eval(b).hand_class();
        const std::uint32_t others[] = {kb};
        return hand_class::showdown_words(ka, others);
    };
    // Aces with king-queen beat aces with king-jack: the king alone does not say why.
    CHECK(beside("7d Qc Js Kc Ac 3c Ah", "8s 9h Js Kc Ac 3c Ah") ==
          "a pair of aces, king-queen kicker");
    CHECK(beside("8s 9h Js Kc Ac 3c Ah", "7d Qc Js Kc Ac 3c Ah") ==
          "a pair of aces, king-jack kicker");
    CHECK(beside("As Ks 9s 5s 2s", "Ah Qh Jh 5h 3h") == "flush, ace-king high");
    CHECK(beside("Ah Qh Jh 5h 3h", "As Ks 9s 5s 2s") == "flush, ace-queen high");
    CHECK(beside("Ad Kc 9h 7s 3c", "Ah Kd 9c 7d 2s") == "ace high, king-nine-seven-three kicker");
    CHECK(beside("Ks Kd 7c 7h As", "Kc Kh 7d 7s Qs") == "two pair, kings and sevens, ace kicker");
    // A split, a different pair, a different category: the first kicker, as alone.
    CHECK(beside("9s 9d Qc 7h 4s", "9c 9h Qd 7c 4d") == "a pair of nines, queen kicker");
    CHECK(beside("9s 9d Qc 7h 4s", "Ts Td Qd 7c 4d") == "a pair of nines, queen kicker");
    CHECK(beside("As Ks 9s 5s 2s", "Ah Kd 9c 5d 2s") == "flush, ace high");
    CHECK(beside("Ks Kd Kc 4h 4s", "Kh Kd Kc 3h 3s") == "full house, kings over fours");

    // Every two classes of a category with kickers whose words name the same ranks: side by side
    // they read differently, and where the first kicker already tells them apart (or for a flush,
    // the high card), each reads as it would alone.
    std::map<std::uint32_t, std::vector<std::uint32_t>> groups; // by category and named ranks
    for (std::size_t raw = 1; raw < std::size(tables::kClassKey); ++raw) {
        const std::uint32_t key = tables::kClassKey[raw];
        const Category c = hand_class::category(key);
        const bool kicks = c == Category::high_card || c == Category::one_pair ||
                           c == Category::two_pair || c == Category::three_of_a_kind ||
                           c == Category::four_of_a_kind || c == Category::flush;
        if (!kicks) continue;
        const int named = c == Category::two_pair ? 2 : 1;
        std::uint32_t group = static_cast<std::uint32_t>(c) << 8;
        for (int i = 0; i < named; ++i)
            group |= static_cast<std::uint32_t>(hand_class::rank_at(key, i) + 1) << (4 * i);
        groups[group].push_back(key);
    }
#ifdef FELT_SANITIZE
    constexpr std::size_t kStride = 7; // a seventh of the pairs under the sanitizers
#else
    constexpr std::size_t kStride = 1;
#endif
    std::size_t pairs = 0, told_alone = 0;
    for (const auto& [group, keys] : groups)
        for (std::size_t i = 0; i < keys.size(); ++i)
            for (std::size_t j = i + 1 + (i % kStride); j < keys.size(); j += kStride) {
                const std::uint32_t a = keys[i], b = keys[j];
                const std::string wa = hand_class::showdown_words(a, std::span(&b, 1));
                const std::string wb = hand_class::showdown_words(b, std::span(&a, 1));
                ++pairs;
                CHECK_MESSAGE(wa != wb, wa);
                CHECK(wa.starts_with(
                    hand_class::category(a) == Category::flush ? "flush, " : hand_class::words(a)));
                const std::string alone_a = hand_class::with_kicker(a);
                if (alone_a != hand_class::with_kicker(b)) {
                    ++told_alone;
                    CHECK(wa == alone_a);
                }
            }
    CHECK(pairs > 50'000 / kStride);
    CHECK(told_alone > 0);
    CHECK(told_alone < pairs);
}
