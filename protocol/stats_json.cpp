#include "protocol/stats_json.h"

#include <cmath>
#include <string>

namespace felt::protocol {

namespace {

using json = nlohmann::ordered_json;

json tally_json(const stats::Tally& t) {
    return {{"times", t.times}, {"opportunities", t.opportunities}};
}

double round2(double x) {
    return std::round(x * 100) / 100;
}

} // namespace

json totals_json(const stats::Totals& t, std::int64_t scale, bool board) {
    auto chips = [scale](Chips c) -> json {
        if (scale == 1) return c.value();
        return static_cast<double>(c.value()) / static_cast<double>(scale);
    };
    json out = {{"hands", t.hands},
                {"net", chips(t.net)},
                {"bb_per_100", round2(t.bb_per_100())},
                {"bb_per_100_margin", round2(t.bb_per_100_margin())},
                {"showdown_net", chips(t.showdown_net)},
                {"ev_net", round2(t.ev_net / static_cast<double>(scale))},
                {"non_showdown_net", chips(t.other_net)},
                {"rake", chips(t.rake)}};
    const stats::Family family = board ? stats::Family::board : stats::Family::stud;
    for (int i = 0; i < stats::kStats; ++i) {
        const auto s = static_cast<stats::Stat>(i);
        if (stats::counted(s, family))
            out[std::string(stats::stat_name(s))] =
                tally_json(t.tallies[static_cast<std::size_t>(i)]);
    }
    if (board) {
        auto sum = [&](stats::Stat first) {
            stats::Tally all;
            for (int k = 0; k < 3; ++k)
                all += t.tallies[static_cast<std::size_t>(static_cast<int>(first) + k)];
            return tally_json(all);
        };
        out["check_raise"] = sum(stats::Stat::check_raise_flop);
        out["af"] = sum(stats::Stat::af_flop);
        out["afq"] = sum(stats::Stat::afq_flop);
    }
    return out;
}

json chinese_totals_json(const stats::Totals& t) {
    const stats::DealLine& d = t.deal;
    return {{"hands", t.hands},
            {"net", t.net.value()},
            {"rake", t.rake.value()},
            {"units", d.units},
            {"units_per_deal",
             t.hands ? round2(static_cast<double>(d.units) / static_cast<double>(t.hands)) : 0.0},
            {"scoops", tally_json(d.scoops)},
            {"specials", tally_json(d.specials)},
            {"surrenders", tally_json(d.surrenders)}};
}

json leap_totals_json(const stats::Totals& t) {
    const stats::DealLine& d = t.deal;
    auto per_game = [&](std::int64_t x) {
        return t.hands ? round2(static_cast<double>(x) / static_cast<double>(t.hands)) : 0.0;
    };
    return {{"hands", t.hands},
            {"net", t.net.value()},
            {"wins", tally_json(d.wins)},
            {"score", d.score},
            {"average_score", per_game(d.score)},
            {"melds", d.melds},
            {"melds_per_game", per_game(d.melds)}};
}

} // namespace felt::protocol
