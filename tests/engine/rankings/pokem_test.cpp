// Poke'm: hand-made examples of each tier and each tie-break step, the option, the distribution.
#include "rankings/pokem.h"
#include "rankings/ranking.h"

#include <doctest/doctest.h>

#include <map>

using namespace felt;

namespace {

const Ranking& pokem(bool quads_over_one_of_each = false) {
    static const auto plain = make_ranking("pokem").value();
    static const auto quads = [] {
        RankingOptions o;
        o.quads_over_one_of_each = true;
        return make_ranking("pokem", o).value();
    }();
    return quads_over_one_of_each ? *quads : *plain;
}

Judgement judge(const char* text, bool quads = false) {
    auto cards = pokem(quads).parse_cards(text);
    REQUIRE_MESSAGE(cards.ok(), text);
    auto j = pokem(quads).judge(cards.value());
    REQUIRE(j.ok());
    return j.value();
}

// a beats b, and b loses to a.
void check_beats(const char* a, const char* b, bool quads = false) {
    CAPTURE(a);
    CAPTURE(b);
    CHECK(judge(a, quads).strength > judge(b, quads).strength);
    CHECK(judge(b, quads).strength < judge(a, quads).strength);
}

} // namespace

TEST_CASE("pokem: tiers and patterns") {
    CHECK(judge("n1rc n2yt n3gs n4bd n5ph").category == "triple_perfect:oe+oe+oe");
    CHECK(judge("n3rc n3yt n3gs n3bd n3ph").category == "triple_perfect:5k+oe+oe");
    CHECK(judge("n1rc n2yt n3gs n4bd n5pc").category == "double_perfect:oe+oe+1p");
    CHECK(judge("n1rc n2rt n3ys n4gd n5bc").category == "single_perfect:oe+1p+1p");
    CHECK(judge("n1rc n1rt n2ys n3gd n4bc").category == "imperfect:1p+1p+1p");
    CHECK(judge("n2rc n2rt n2rs n2rd n2bc").category == "single_perfect:5k+4k+1p");
    CHECK(judge("2rc 2rt 2ys 2gd 5bc").category == "imperfect:4k+1p+1p");
    CHECK(judge("n1rc n1rt n1ys n2yd n2bc").category == "imperfect:fh+2p+1p");
}

TEST_CASE("pokem: step 1, more perfect attributes") {
    check_beats("n1rc n2yt n3gs n4bd n5ph", "n1rc n2yt n3gs n4bd n5pc"); // triple > double
    check_beats("n1rc n2yt n3gs n4bd n5pc", "n1rc n2rt n3ys n4gd n5bc"); // double > single
    // single > imperfect, though the imperfect hand holds four of a kind twice
    CHECK(judge("n1rc n1rt n1rs n1rd n2yc").category == "imperfect:4k+4k+1p");
    check_beats("n1rc n2rt n3ys n4gd n5bc", "n1rc n1rt n1rs n1rd n2yc");
}

TEST_CASE("pokem: step 2, more five-of-a-kind attributes, then their values") {
    // Single perfect by five of a kind beats single perfect by one of each, whatever follows.
    check_beats("n2rc n2rt n2ys n2gc n2gt", "n1rc n2rc n3rc n4rc n5yt");
    // Two hands with numbers five of a kind: the higher value wins.
    check_beats("n5rc n5rt n5ys n5gc n5gt", "n2rc n2rt n2ys n2gc n2gt");
}

TEST_CASE("pokem: step 3, the other patterns, best first, with values and kickers") {
    // Pattern: four of a kind beats a full house.
    check_beats("n1rc n1rt n1rs n1rd n2yc", "n1rc n1yt n1gs n2rd n2yc");
    // Group values: four 3s beat four 2s (same colour and shape patterns).
    check_beats("n3rc n3yt n3gc n3bt n1pc", "n2rc n2yt n2gc n2bt n1pc");
    // Kicker in the same attribute: four 3s with a 5 beat four 3s with a 1.
    check_beats("n3rc n3yt n3gc n3bt n5pc", "n3rc n3yt n3gc n3bt n1pc");
    // Then the next pattern: numbers and colours equal, shapes three of a kind beat two pair.
    check_beats("n3rc n3yc n3gc n3bt n1ps", "n3rc n3yc n3gt n3bt n1ps");
}

TEST_CASE("pokem: step 4, still equal is a split") {
    const auto a = judge("n1rc n1rt n2ys n3gd n4bc");
    const auto b = judge("n1rt n1rc n2yd n3gs n4bc");
    CHECK(a.strength == b.strength);
}

TEST_CASE("pokem: quads_over_one_of_each") {
    const char* lone_one_of_each = "n1rc n2rt n3ys n4gd n5bc"; // single perfect: oe + 1p + 1p
    const char* quads = "n1rc n1rt n1rs n1rd n2yc";            // imperfect: 4k + fh + ...
    const char* imperfect = "n1rc n1rt n2ys n3gd n4bc";        // imperfect: 1p + 1p + 1p
    const char* five = "n2rc n2rt n2ys n2gc n2gt";             // single perfect by 5k
    check_beats(lone_one_of_each, quads, false);
    check_beats(quads, lone_one_of_each, true);
    check_beats(lone_one_of_each, imperfect, true); // still above hands without four of a kind
    check_beats(five, quads, true);                 // five of a kind keeps its place
    // A lone one of each that itself holds four of a kind ranks below every other four of a kind.
    check_beats("n1rc n1rt n1ys n1gd n2bc", "n2rc n2yc n2gc n2bc n1pt", true);
}

TEST_CASE("pokem: distribution") {
    const PokemDistribution d = pokem_distribution(false);
    CHECK(d.total == 234'531'275); // C(125, 5)
    std::uint64_t sum = 0;
    std::map<std::string, std::uint64_t> by_name;
    for (const auto& [name, n] : d.categories) {
        sum += n;
        by_name[name] = n;
    }
    CHECK(sum == d.total);
    // Counted by hand: all three attributes one of each: fix the numbers 1..5, then any colour
    // and any shape permutation, 5!^2; one five of a kind (3 attributes x 5 values) and two
    // one-of-each attributes, 3 * 5 * 5!; two fives and a one of each, 3 * 5 * 5.
    CHECK(by_name["triple_perfect:oe+oe+oe"] == 14'400);
    CHECK(by_name["triple_perfect:5k+oe+oe"] == 1'800);
    CHECK(by_name["triple_perfect:5k+5k+oe"] == 75);
    // 5k, oe, 4k in the 6 role orders; the 5k value (5); the 4k value, the odd value and which
    // card holds it (5 * 4 * 5).
    CHECK(by_name["double_perfect:5k+oe+4k"] == 3'000);
    CHECK(d.categories.front().first == "triple_perfect:5k+5k+oe");
    CHECK(d.categories.back().first == "imperfect:1p+1p+1p");

    // The option moves categories, never counts.
    const PokemDistribution q = pokem_distribution(true);
    CHECK(q.total == d.total);
    std::map<std::string, std::uint64_t> q_by_name(q.categories.begin(), q.categories.end());
    CHECK(q_by_name == by_name);
    auto position = [&](const char* name) {
        for (std::size_t i = 0; i < q.categories.size(); ++i)
            if (q.categories[i].first == name) return static_cast<int>(i);
        return -1;
    };
    CHECK(position("imperfect:4k+1p+1p") < position("single_perfect:oe+1p+1p"));
    CHECK(position("single_perfect:oe+1p+1p") < position("imperfect:fh+1p+1p"));
}

TEST_CASE("pokem: bad input") {
    const Ranking& r = pokem();
    CHECK(r.parse_cards("n6rc").error().code == Errc::bad_card);
    CHECK(r.parse_cards("n1xc").error().code == Errc::bad_card);
    CHECK(r.parse_cards("n1r").error().code == Errc::bad_card);
    CHECK(r.parse_cards("n1rc N1RC").error().code == Errc::duplicate_card);
    CHECK(r.judge(r.parse_cards("n1rc n2rc").value()).error().code == Errc::wrong_count);
    const std::vector<Card> outside = {Card::from_code(0), Card::from_code(1), Card::from_code(2),
                                       Card::from_code(3), Card::from_code(200)};
    CHECK(r.judge(outside).error().code == Errc::bad_card);
    CHECK(r.to_string(r.parse_cards("N3RC 5ph").value()) == "n3rc n5ph");
    CHECK(r.cards().size() == 125);
}
