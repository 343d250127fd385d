// The Fantasyland solver (engine/openface/fantasyland.*) against a brute-force search of every
// placement, on 13- and 14-card hands of the full pack and of packs of high cards (royalties and
// stays everywhere), with and without opponents.
#include "cards/deck.h"
#include "openface/fantasyland.h"
#include "rankings/evaluator.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <random>
#include <tuple>

using namespace felt;
using namespace felt::openface;

namespace {

#ifdef FELT_SANITIZE
constexpr int kScale = 10;
#else
constexpr int kScale = 1;
#endif

std::vector<Card> cards(const char* text) {
    auto c = Deck::standard().parse_cards(text);
    REQUIRE_MESSAGE(c.ok(), text);
    return *c;
}

// Every way to put each card in the front, the middle, the back or the discards: the best
// unfouled placement's (points, back, middle, front), by the solver's own order.
std::tuple<int, HandValue, HandValue, HandValue> brute_force(const std::vector<Card>& hand,
                                                             Stay stay,
                                                             std::span<const Split> against,
                                                             int stay_value) {
    const int n = static_cast<int>(hand.size());
    std::tuple<int, HandValue, HandValue, HandValue> best{INT_MIN, {}, {}, {}};
    std::vector<Card> rows[3];
    int discards = 0;
    auto go = [&](auto&& self, int i) -> void {
        if (i == n) {
            Split s;
            std::copy(rows[0].begin(), rows[0].end(), s.front.begin());
            std::copy(rows[1].begin(), rows[1].end(), s.middle.begin());
            std::copy(rows[2].begin(), rows[2].end(), s.back.begin());
            if (fouled(s)) return;
            const auto v = chinese::row_values(s);
            best = std::max(best, std::tuple(fantasyland_points(s, stay, against, stay_value), v[2],
                                             v[1], v[0]));
            return;
        }
        const Card c = hand[static_cast<std::size_t>(i)];
        for (int r = 0; r < 3; ++r) {
            if (static_cast<int>(rows[r].size()) == (r == 0 ? 3 : 5)) continue;
            rows[r].push_back(c);
            self(self, i + 1);
            rows[r].pop_back();
        }
        if (discards < n - 13) {
            ++discards;
            self(self, i + 1);
            --discards;
        }
    };
    go(go, 0);
    return best;
}

void check_against_brute_force(const std::vector<Card>& hand, Stay stay,
                               std::span<const Split> against, int stay_value) {
    CAPTURE(Deck::standard().to_string(hand));
    const auto solved = solve_fantasyland(hand, stay, against, stay_value);
    REQUIRE(solved.ok());
    const Split& s = solved->split;
    CHECK_FALSE(fouled(s));
    CHECK(solved->points == fantasyland_points(s, stay, against, stay_value));
    // The solution's cards are the hand's.
    std::vector<Card> used(s.front.begin(), s.front.end());
    used.insert(used.end(), s.middle.begin(), s.middle.end());
    used.insert(used.end(), s.back.begin(), s.back.end());
    used.insert(used.end(), solved->discards.begin(), solved->discards.end());
    std::vector<Card> a = used, b = hand;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
    const auto v = chinese::row_values(s);
    CHECK(std::tuple(solved->points, v[2], v[1], v[0]) ==
          brute_force(hand, stay, against, stay_value));
}

std::vector<Card> draw(std::vector<Card> pack, int n, std::mt19937_64& rng) {
    std::shuffle(pack.begin(), pack.end(), rng);
    pack.resize(static_cast<std::size_t>(n));
    return pack;
}

// The cards of ranks `from` (0: deuce) to ace.
std::vector<Card> high_pack(int from) {
    std::vector<Card> out;
    for (Card c : Deck::standard().cards())
        if (c.rank().index() >= from) out.push_back(c);
    return out;
}

} // namespace

TEST_CASE("open-face: the Fantasyland solver, by hand") {
    // Four aces, four kings: the aces in the back stay, a straight flush would pay more.
    const auto hand = cards("As Ah Ad Ac Ks Kh Kd Kc Qs Js Ts 2h 3d 7c");
    auto st = solve_fantasyland(hand, Stay::standard);
    REQUIRE(st.ok());
    CHECK_FALSE(fouled(st->split));
    CHECK(st->stays);
    CHECK(st->points == fantasyland_points(st->split, Stay::standard, {}, kDefaultStayValue));
    // Bad input names the problem.
    CHECK(solve_fantasyland(cards("As Ah Ad"), Stay::standard).error().code == Errc::wrong_count);
    auto dup = hand;
    dup[1] = dup[0];
    CHECK(solve_fantasyland(dup, Stay::standard).error().code == Errc::duplicate_card);
    Split other;
    const auto o = cards("As 2s 3s 4s 5s 6s 7s 8s 9s Tc Jc Qc 4c");
    std::copy(o.begin(), o.begin() + 3, other.front.begin());
    std::copy(o.begin() + 3, o.begin() + 8, other.middle.begin());
    std::copy(o.begin() + 8, o.end(), other.back.begin());
    const auto clash = solve_fantasyland(hand, Stay::standard, std::span(&other, 1));
    REQUIRE_FALSE(clash.ok());
    CHECK(clash.error().message.find("As") != std::string::npos);
}

TEST_CASE("open-face: the Fantasyland solver matches a brute-force search") {
    std::mt19937_64 rng(52);
    const auto pack = Deck::standard().cards();
    const int rounds = std::max(1, 12 / kScale);
    for (int i = 0; i < rounds; ++i) {
        const Stay stay = i % 2 ? Stay::strict : Stay::standard;
        // 13 and 14 cards of the full pack, and of the tens to aces (royalties and stays).
        check_against_brute_force(draw(pack, 13, rng), stay, {}, kDefaultStayValue);
        check_against_brute_force(draw(pack, 14, rng), stay, {}, i);
        check_against_brute_force(draw(high_pack(8), 14, rng), stay, {}, kDefaultStayValue);
        check_against_brute_force(draw(high_pack(7), 14, rng), stay, {}, 0);
        // Against one or two opponents' finished rows (fouled or not) from the rest of the pack.
        auto deal = draw(pack, 14 + 26, rng);
        std::vector<Card> hand(deal.begin(), deal.begin() + 14);
        std::vector<Split> against(1 + static_cast<std::size_t>(i % 2));
        for (std::size_t j = 0; j < against.size(); ++j) {
            const auto* c = deal.data() + 14 + 13 * j;
            std::copy(c, c + 3, against[j].front.begin());
            std::copy(c + 3, c + 8, against[j].middle.begin());
            std::copy(c + 8, c + 13, against[j].back.begin());
        }
        check_against_brute_force(hand, stay, against, kDefaultStayValue);
    }
}
