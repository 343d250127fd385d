// Chinese poker's statistics (engine/stats/deal_stats.h) against what the settlement paid: a
// scoop profile pays 6 or 9 units for three rows won against an opponent and 1 for two, so the
// scoops counted are its payments of 6 units or more; units won are units lost.
#include "cards/deck.h"
#include "chinese/chinese.h"
#include "stats/deal_stats.h"
#include "stats/poker_stats.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace felt;

namespace {

#ifdef FELT_SANITIZE
constexpr int kDeals = 300;
#else
constexpr int kDeals = 3'000;
#endif

} // namespace

TEST_CASE("stats: Chinese poker's scoops are the scoop profile's payments of three rows won; "
          "units, specials and surrenders add up") {
    std::mt19937_64 rng(51);
    std::vector<Card> pack = Deck::standard().cards();
    long scoops = 0, surrenders = 0;
    for (const auto name : chinese::profile_names()) {
        CAPTURE(name);
        const chinese::Profile& profile = *chinese::find_profile(name);
        const bool scoop = profile.scoring == chinese::Scoring::scoop;
        for (int d = 0; d < kDeals / 8; ++d) {
            std::shuffle(pack.begin(), pack.end(), rng);
            const int n = 2 + static_cast<int>(rng() % 3);
            std::vector<chinese::Player> players(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                chinese::Player& p = players[static_cast<std::size_t>(i)];
                p.name = std::to_string(i);
                p.stack = Chips(1000);
                p.split = chinese::baseline_split(std::span(pack).subspan(13 * i, 13));
                p.surrender = scoop && rng() % 6 == 0;
            }
            chinese::Options o;
            const int dealer = static_cast<int>(rng() % static_cast<unsigned>(n));
            auto settled = chinese::settle(profile, o, players, dealer);
            REQUIRE_MESSAGE(settled, settled.error().message);
            const auto lines = stats::count_chinese(profile, o, players, dealer, settled.value());
            REQUIRE(lines.size() == players.size());
            std::int64_t units = 0;
            for (std::size_t i = 0; i < lines.size(); ++i) {
                const stats::DealLine& l = lines[i];
                units += l.units;
                CHECK(l.specials == stats::Tally{0, 1});
                CHECK(l.surrenders == stats::Tally{players[i].surrender ? 1 : 0, scoop ? 1 : 0});
                surrenders += l.surrenders.times;
                // Units as paid when nothing limits them: the net in chips at 1 chip a unit.
                CHECK(Chips(l.units) == settled.value().net[i]);
                if (!scoop) continue;
                long paid = 0, active = 0;
                for (const chinese::Payment& p : settled.value().payments)
                    paid += p.reason == "scoop" && p.to == static_cast<int>(i) && p.units >= 6;
                for (const chinese::Player& q : players) active += q.surrender ? 0 : 1;
                CHECK(l.scoops.times == paid);
                CHECK(l.scoops.opportunities == (players[i].surrender ? 0 : active - 1));
                scoops += l.scoops.times;
            }
            CHECK(units == 0);
        }
    }
    MESSAGE(kDeals, " deals: ", scoops, " scoops, ", surrenders, " surrenders");
    CHECK(scoops > 0);
    CHECK(surrenders > 0);
}

TEST_CASE("stats: a game without a unit (leap rummy for points alone) adds no net in units") {
    stats::Totals t;
    stats::Line l;
    l.net = Chips(5);
    t.add(l, Chips(0));
    t.add(l, Chips(0));
    CHECK(t.net == Chips(10));
    CHECK(t.sum_bb == 0);
    CHECK(t.sum_bb_squared == 0);
    CHECK(t.bb_per_100() == 0);
    CHECK(t.bb_per_100_margin() == 0);
}
