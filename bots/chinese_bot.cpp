#include "chinese_bot.h"

#include "rankings/evaluator.h"

namespace felt::bots {

namespace {

// The scoop profile's expected units of a split against one opponent arranged by the baseline,
// its rows taken as won and lost independently (win_tables): two rows of three won pay 1, all
// three 9 (heads-up, all three against every opponent), and the same lost; royalties left out.
double scoop_units(const chinese::Split& s) {
    const auto& odds = chinese::win_tables();
    const std::array<HandValue, 3> rows{evaluate<3>(s.front.data()), evaluate<5>(s.middle.data()),
                                        evaluate<5>(s.back.data())};
    std::array<double, 3> win{}, lose{};
    for (std::size_t r = 0; r < 3; ++r) {
        win[r] = odds[r].below[rows[r].raw()];
        lose[r] = odds[r].above[rows[r].raw()];
    }
    double units = 0;
    for (int outcome = 0; outcome < 27; ++outcome) { // each row won, tied or lost
        double p = 1;
        int won = 0, lost = 0;
        for (std::size_t r = 0, o = static_cast<std::size_t>(outcome); r < 3; ++r, o /= 3) {
            const double tie = 1 - win[r] - lose[r];
            p *= o % 3 == 0 ? win[r] : o % 3 == 1 ? lose[r] : tie;
            won += o % 3 == 0;
            lost += o % 3 == 1;
        }
        units += p * (won == 3 ? 9 : won == 2 ? 1 : lost == 3 ? -9 : lost == 2 ? -1 : 0);
    }
    return units;
}

} // namespace

ChineseChoice choose_chinese(std::span<const Card> cards, const chinese::Profile& profile,
                             const chinese::SplitRules& rules, Kind kind) {
    ChineseChoice c;
    if (kind != Kind::fair && kind != Kind::strong) {
        c.split = chinese::baseline_split(cards);
        return c;
    }
    auto best = chinese::arrange(cards, profile, rules, 1);
    if (!best || best.value().empty()) { // not 13 cards of the pack: nothing better to do
        c.split = chinese::baseline_split(cards);
        return c;
    }
    const chinese::Arrangement& a = best.value().front();
    c.split = a.split;
    c.declare = a.declare;
    c.expected_units = a.expected_units;
    // Surrender pays surrender_units to each opponent: better where the split is expected to lose
    // more than that to one under the scoop profile's scoring (the only one that allows it).
    c.surrender = kind == Kind::strong && profile.scoring == chinese::Scoring::scoop &&
                  !a.declare && scoop_units(a.split) < -profile.surrender_units;
    return c;
}

Result<int> against_baseline(const ChineseChoice& c, std::span<const Card> theirs,
                             const chinese::Profile& profile, int dealer) {
    std::vector<chinese::Player> ps(2);
    ps[0].name = "bot";
    ps[0].stack = ps[1].stack = Chips(1000);
    ps[0].split = c.split;
    ps[0].declare = c.declare;
    ps[0].surrender = c.surrender;
    ps[1].name = "baseline";
    ps[1].split = chinese::baseline_split(theirs);
    auto settled = chinese::settle(profile, {}, ps, dealer);
    if (!settled) return settled.error();
    return static_cast<int>(settled.value().net[0].value());
}

} // namespace felt::bots
