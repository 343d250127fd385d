#include "rankings/wild.h"

#include "cards/deck.h"
#include "reference_evaluator.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace felt;

namespace {

HandValue eval(std::string_view text, Wild wild) {
    auto cards = deck_for(wild).parse_cards(text);
    REQUIRE(cards.ok());
    auto v = evaluate_hand(cards.value(), wild);
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
    return v.value();
}

#ifdef FELT_SANITIZE
constexpr int kScale = 5; // sanitizer builds check a fifth as many hands
#else
constexpr int kScale = 1;
#endif

// Compares the fast answer with brute-force substitution for `hands` random hands of `n` cards
// holding exactly `wilds` wild cards (or any number, when wilds < 0).
void check_random(Wild wild, int n, int wilds, int hands, std::mt19937_64& rng) {
    const Deck deck = deck_for(wild);
    std::vector<Card> all = deck.cards(), wild_cards, natural_cards;
    for (Card c : all) (is_wild(c, wild) ? wild_cards : natural_cards).push_back(c);
    int wrong = 0;
    for (int i = 0; i < hands / kScale; ++i) {
        std::vector<Card> cards;
        if (wilds < 0) {
            std::shuffle(all.begin(), all.end(), rng);
            cards.assign(all.begin(), all.begin() + n);
        } else {
            std::shuffle(wild_cards.begin(), wild_cards.end(), rng);
            std::shuffle(natural_cards.begin(), natural_cards.end(), rng);
            cards.assign(wild_cards.begin(), wild_cards.begin() + wilds);
            cards.insert(cards.end(), natural_cards.begin(), natural_cards.begin() + (n - wilds));
            std::shuffle(cards.begin(), cards.end(), rng);
        }
        const auto fast = evaluate_hand(cards, wild);
        REQUIRE(fast.ok());
        if (reference::from_class(fast->hand_class()) != reference::judge_wild(cards, wild) &&
            wrong++ == 0)
            FAIL_CHECK(wild_name(wild)
                       << ": differs from brute force on " << deck.to_string(cards));
    }
    CHECK(wrong == 0);
}

} // namespace

TEST_CASE("wild cards by example") {
    SUBCASE("joker: fully wild, five of a kind on top") {
        CHECK(eval("Xx As Ad Ac Ah", Wild::joker).category() == Category::five_of_a_kind);
        CHECK(eval("Xx As Ad Ac Ah", Wild::joker) > eval("As Ks Qs Js Ts", Wild::none));
        CHECK(eval("Xx Kc Kd 7s 2h", Wild::joker).category() == Category::three_of_a_kind);
        CHECK(eval("Xx 9s 8s 7s 6s", Wild::joker).category() == Category::straight_flush);
    }
    SUBCASE("a wild may duplicate a card: two aces of spades in a flush") {
        const HandValue v = eval("Xx As Ks Qs 9s", Wild::joker);
        CHECK(v.category() == Category::flush);
        CHECK(v > eval("As Ks Qs Js 9s", Wild::none));
        CHECK(v.hand_class() == hand_class::pack(Category::flush, {12, 12, 11, 10, 7}));
    }
    SUBCASE("bug: an ace, or completes a straight, flush or straight flush") {
        CHECK(eval("Xx As Ad Ac Ah", Wild::bug).category() == Category::five_of_a_kind);
        CHECK(eval("Xx Kh Qh Jh Th", Wild::bug).category() == Category::straight_flush);
        CHECK(eval("Xx 9c 8d 7h 6s", Wild::bug).category() == Category::straight);
        CHECK(eval("Xx 3h 8h Jh 5h", Wild::bug).category() == Category::flush);
        // Not a third king: the bug is an ace here, so the hand is kings with an ace kicker.
        const HandValue kings = eval("Xx Kc Kd 7s 2h", Wild::bug);
        CHECK(kings.category() == Category::one_pair);
        CHECK(kings.hand_class() == hand_class::pack(Category::one_pair, {11, 12, 5, 0}));
    }
    SUBCASE("deuces and one-eyes") {
        CHECK(eval("2c 2d 2h 2s As", Wild::deuces).category() == Category::five_of_a_kind);
        CHECK(eval("2c 2d 9s 9h 4c", Wild::deuces).category() == Category::four_of_a_kind);
        CHECK(eval("Kd Js Jh 9c 9d", Wild::one_eyes).category() == Category::five_of_a_kind);
        // K of spades, J of diamonds and J of clubs show both eyes: nothing here is wild.
        CHECK(eval("Ks Jd Jc 9c 9d", Wild::one_eyes).category() == Category::two_pair);
        CHECK(eval("Ks Jh Jc 9c 9d", Wild::one_eyes).category() == Category::three_of_a_kind);
        CHECK(eval("Jh Kc Ks 9c 9d", Wild::one_eyes).category() == Category::full_house);
    }
}

TEST_CASE("wild hands agree with brute-force substitution over every card a wild could be") {
    std::mt19937_64 rng(53);
    for (Wild wild : {Wild::joker, Wild::bug, Wild::deuces, Wild::one_eyes}) {
        CAPTURE(wild_name(wild));
        // Random hands from the option's pack, wilds as often as they come.
        check_random(wild, 5, -1, 3000, rng);
        check_random(wild, 6, -1, 1000, rng);
        check_random(wild, 7, -1, 500, rng);
        // Hands that hold a wild, so that every hand exercises the wild path.
        check_random(wild, 5, 1, 2000, rng);
        check_random(wild, 6, 1, 1000, rng);
        check_random(wild, 7, 1, 1000, rng);
    }
    SUBCASE("several wild cards at once") {
        check_random(Wild::deuces, 5, 2, 300, rng);
        check_random(Wild::deuces, 7, 2, 100, rng);
        check_random(Wild::deuces, 5, 3, 30, rng);
        check_random(Wild::deuces, 6, 3, 10, rng);
        check_random(Wild::deuces, 5, 4, 5, rng);
        check_random(Wild::one_eyes, 5, 2, 300, rng);
        check_random(Wild::one_eyes, 6, 2, 100, rng);
        check_random(Wild::one_eyes, 5, 3, 30, rng);
    }
}

TEST_CASE("bad input to evaluate_hand is refused and named") {
    const Deck deck = Deck::standard(1);
    auto cards = [&](std::string_view t) { return deck.parse_cards(t).value(); };

    auto four = evaluate_hand(cards("As Ks Qs Js"));
    REQUIRE_FALSE(four.ok());
    CHECK(four.error().code == Errc::wrong_count);
    CHECK(four.error().message.find("4") != std::string::npos);

    CHECK(evaluate_hand(cards("As Ks Qs Js Ts 9s 8s 7s")).error().code == Errc::wrong_count);

    std::vector<Card> twice = cards("As Ks Qs Js Ts");
    twice[1] = twice[0];
    auto dup = evaluate_hand(twice);
    REQUIRE_FALSE(dup.ok());
    CHECK(dup.error().code == Errc::duplicate_card);
    CHECK(dup.error().message.find("As") != std::string::npos);

    CHECK(evaluate_hand(cards("Xx Ks Qs Js Ts")).error().code == Errc::bad_card); // no wild option
    CHECK(evaluate_hand(cards("Xx Ks Qs"), Wild::joker).error().code == Errc::bad_option);
    const std::vector<Card> off_pack = {Card(Rank(13), Suit(0)), Card(rank::two, suit::spades),
                                        Card(rank::three, suit::spades)};
    CHECK(evaluate_hand(off_pack).error().code == Errc::bad_card);
    CHECK_FALSE(parse_wild("jokers").ok());
    CHECK(parse_wild("one-eyes").value() == Wild::one_eyes);
}
