#include "stats/deal_stats.h"

#include <algorithm>

namespace felt::stats {

DealLine& DealLine::operator+=(const DealLine& o) {
    units += o.units;
    scoops += o.scoops;
    specials += o.specials;
    surrenders += o.surrenders;
    wins += o.wins;
    score += o.score;
    melds += o.melds;
    return *this;
}

std::vector<DealLine> count_chinese(const chinese::Profile& profile,
                                    const chinese::Options& options,
                                    const std::vector<chinese::Player>& players, int dealer,
                                    const chinese::Settlement& settlement) {
    const std::size_t n = players.size();
    std::vector<DealLine> out(n);
    for (const chinese::Payment& p : settlement.payments) {
        out[static_cast<std::size_t>(p.to)].units += p.units;
        out[static_cast<std::size_t>(p.from)].units -= p.units;
    }
    // Who settles against whom: everyone against everyone, or each player against the bank.
    const int bank = options.banker >= 0 ? options.banker : profile.against_bank_only ? dealer : -1;
    auto rows = [&](std::size_t i) { return !players[i].surrender && !players[i].declare; };
    for (std::size_t i = 0; i < n; ++i) {
        DealLine& l = out[i];
        l.specials = {players[i].declare ? 1 : 0, 1};
        if (profile.scoring == chinese::Scoring::scoop)
            l.surrenders = {players[i].surrender ? 1 : 0, 1};
        if (!rows(i)) continue;
        const auto mine = chinese::row_values(players[i].split);
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i || !rows(j)) continue;
            if (bank >= 0 && static_cast<int>(i) != bank && static_cast<int>(j) != bank) continue;
            const auto theirs = chinese::row_values(players[j].split);
            ++l.scoops.opportunities;
            if (mine[0] > theirs[0] && mine[1] > theirs[1] && mine[2] > theirs[2]) ++l.scoops.times;
        }
    }
    return out;
}

std::vector<DealLine> count_leap(const leap::State& state) {
    const std::size_t n = state.players.size();
    std::vector<DealLine> out(n);
    int best = 0;
    for (std::size_t i = 0; i < n; ++i) {
        out[i].score = leap::score(state, static_cast<int>(i));
        best = i == 0 ? static_cast<int>(out[i].score)
                      : std::max(best, static_cast<int>(out[i].score));
    }
    for (const leap::Meld& m : state.melds)
        if (m.owner >= 0 && static_cast<std::size_t>(m.owner) < n)
            ++out[static_cast<std::size_t>(m.owner)].melds;
    for (DealLine& l : out) l.wins = {l.score == best ? 1 : 0, 1};
    return out;
}

} // namespace felt::stats
