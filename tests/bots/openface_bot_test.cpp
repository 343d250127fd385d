// The open-face bot (bots/openface_bot.h): on the last street it never fouls when a placement that
// does not foul exists, over random hands of both variants; every placement it makes is legal; a
// Fantasyland hand is the solver's.
#include "cards/deck.h"
#include "openface_bot.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace felt;
using namespace felt::openface;
using felt::bots::OpenFacePolicy;
using felt::bots::OpenFaceView;

namespace {

#ifdef FELT_SANITIZE
constexpr int kScale = 10;
#else
constexpr int kScale = 1;
#endif

OpenFaceView view_of(const Hand& h, int p) {
    OpenFaceView v;
    v.variant = h.options().variant;
    v.board = h.board(p);
    v.pending.assign(h.pending(p).begin(), h.pending(p).end());
    v.discards = h.discards_due(p);
    v.fantasyland = h.fantasyland(p) > 0;
    v.streets_left = v.fantasyland ? 0 : h.streets() - 1 - h.street();
    v.seen.assign(h.discards(p).begin(), h.discards(p).end());
    return v;
}

} // namespace

TEST_CASE("open-face bots: legal placements, and no foul on the last street when one can be "
          "avoided") {
    std::mt19937_64 rng(52);
    auto pack = Deck::standard().cards();
    const int hands = 400 / kScale;
    int last_streets = 0, avoidable = 0;
    for (int i = 0; i < hands; ++i) {
        Options o;
        o.variant = i % 2 ? Variant::classic : Variant::pineapple;
        std::shuffle(pack.begin(), pack.end(), rng);
        auto started = Hand::start(o, std::vector<int>{0, 0}, pack);
        REQUIRE(started.ok());
        Hand h = *started;
        while (!h.finished()) {
            const int p = h.to_act();
            const OpenFaceView v = view_of(h, p);
            // Player 0 places at random until its last street, where the rollouts policy (exact
            // there) decides; player 1 greedily.
            const bool last = v.streets_left == 0;
            const auto policy = p == 1 ? OpenFacePolicy::greedy
                                : last ? OpenFacePolicy::rollouts
                                       : OpenFacePolicy::random;
            const Placement chosen = bots::place_openface(v, policy, rng());
            REQUIRE(h.check(p, chosen) == std::nullopt);
            if (p == 0 && last) {
                ++last_streets;
                bool can_avoid = false;
                for (const Placement& q : bots::openface_placements(v)) {
                    Board b = v.board;
                    for (Row r : {Row::front, Row::middle, Row::back}) {
                        const auto& add = r == Row::front    ? q.front
                                          : r == Row::middle ? q.middle
                                                             : q.back;
                        b.row(r).insert(b.row(r).end(), add.begin(), add.end());
                    }
                    can_avoid = can_avoid || !fouled(b.split());
                }
                avoidable += can_avoid;
                Board mine = v.board;
                mine.front.insert(mine.front.end(), chosen.front.begin(), chosen.front.end());
                mine.middle.insert(mine.middle.end(), chosen.middle.begin(), chosen.middle.end());
                mine.back.insert(mine.back.end(), chosen.back.begin(), chosen.back.end());
                if (can_avoid) REQUIRE_FALSE(fouled(mine.split()));
            }
            REQUIRE_FALSE(h.place(p, chosen));
        }
    }
    CHECK(last_streets == hands);
    CHECK(avoidable > 0);     // random play leaves some hands that can still be saved
    CHECK(avoidable < hands); // and some that cannot
}

TEST_CASE("open-face bots: a Fantasyland hand is placed by the solver") {
    const auto cards = Deck::standard().parse_cards("As Ah Ad Ac Ks Kh Kd Kc Qs Js Ts 2h 3d 7c");
    REQUIRE(cards.ok());
    OpenFaceView v;
    v.pending = *cards;
    v.discards = 1;
    v.fantasyland = true;
    const Placement p = bots::place_openface(v, OpenFacePolicy::rollouts, 1);
    const auto solved = solve_fantasyland(*cards, Stay::standard);
    REQUIRE(solved.ok());
    CHECK(p.back == std::vector<Card>(solved->split.back.begin(), solved->split.back.end()));
    CHECK(p.discard == solved->discards);
    // A view no deal gives: nothing placed.
    v.discards = 20;
    const Placement none = bots::place_openface(v, OpenFacePolicy::rollouts, 1);
    CHECK(none.front.empty());
    CHECK(none.discard.empty());
}
