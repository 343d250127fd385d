#include "tournament/deal.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>

namespace felt::tournament {

namespace {

std::optional<Error> refused(std::span<const Chips> stacks, std::span<const Chips> prizes) {
    auto bad = [](std::string what) { return Error{Errc::bad_config, std::move(what)}; };
    if (stacks.empty()) return bad("a deal needs at least one player");
    if (stacks.size() > static_cast<std::size_t>(kMostDealPlayers))
        return bad("a deal is for at most " + std::to_string(kMostDealPlayers) + " players");
    for (Chips s : stacks)
        if (s <= 0) return bad("every stack in a deal must be positive");
    if (prizes.size() > stacks.size()) return bad("more prizes than players");
    for (std::size_t k = 0; k < prizes.size(); ++k) {
        if (prizes[k] < 0) return bad("a prize cannot be negative");
        if (k > 0 && prizes[k] > prizes[k - 1])
            return bad("a prize cannot be more than the one of the place above it");
    }
    return std::nullopt;
}

Chips sum(std::span<const Chips> chips) {
    return std::accumulate(chips.begin(), chips.end(), Chips());
}

} // namespace

Result<std::vector<double>> icm_equity(std::span<const Chips> stacks,
                                       std::span<const Chips> prizes) {
    if (auto e = refused(stacks, prizes)) return *e;
    const int n = static_cast<int>(stacks.size());
    const double total = static_cast<double>(sum(stacks).value());
    // placed[m]: the probability that the players of set m take the first |m| places (in some
    // order); each next place goes to a player left in proportion to their stack among those.
    std::vector<double> placed(std::size_t{1} << n, 0.0), chips_in(std::size_t{1} << n, 0.0);
    for (std::size_t m = 1; m < placed.size(); ++m) {
        const int low = std::countr_zero(m);
        chips_in[m] = chips_in[m & (m - 1)] + static_cast<double>(stacks[low].value());
    }
    placed[0] = 1.0;
    std::vector<double> equity(stacks.size(), 0.0);
    for (std::size_t m = 0; m + 1 < placed.size(); ++m) {
        if (placed[m] == 0.0) continue;
        const auto place = static_cast<std::size_t>(std::popcount(m));
        const double left = total - chips_in[m];
        const double prize =
            place < prizes.size() ? static_cast<double>(prizes[place].value()) : 0.0;
        for (int i = 0; i < n; ++i) {
            if (m & (std::size_t{1} << i)) continue;
            const double p = placed[m] * static_cast<double>(stacks[i].value()) / left;
            equity[static_cast<std::size_t>(i)] += p * prize;
            placed[m | (std::size_t{1} << i)] += p;
        }
    }
    return equity;
}

std::vector<Chips> whole_chips(std::span<const double> shares, Chips total) {
    std::vector<Chips> out;
    Chips given;
    for (double s : shares) {
        out.push_back(Chips(static_cast<std::int64_t>(std::floor(std::max(0.0, s)))));
        given += out.back();
    }
    std::vector<std::size_t> order(shares.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    auto fraction = [&](std::size_t i) {
        return std::max(0.0, shares[i]) - static_cast<double>(out[i].value());
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (fraction(a) != fraction(b)) return fraction(a) > fraction(b);
        return shares[a] > shares[b];
    });
    // (Rounding may leave the floors a chip over or under the total: the largest fractions get
    // what is missing, the smallest give back what is over.)
    for (std::size_t k = 0; given < total && !order.empty(); k = (k + 1) % order.size()) {
        out[order[k]] += Chips(1);
        given += Chips(1);
    }
    for (std::size_t k = order.size(); given > total && k-- > 0;)
        if (out[order[k]] > 0) {
            out[order[k]] -= Chips(1);
            given -= Chips(1);
        }
    return out;
}

Result<std::vector<Chips>> icm_deal(std::span<const Chips> stacks, std::span<const Chips> prizes) {
    auto equity = icm_equity(stacks, prizes);
    if (!equity) return equity.error();
    return whole_chips(*equity, sum(prizes));
}

Result<std::vector<Chips>> chip_deal(std::span<const Chips> stacks, std::span<const Chips> prizes) {
    if (auto e = refused(stacks, prizes)) return *e;
    const Chips lowest = prizes.size() == stacks.size() ? prizes.back() : Chips();
    const Chips rest = sum(prizes) - lowest * static_cast<std::int64_t>(stacks.size());
    const auto chips = static_cast<long double>(sum(stacks).value());
    std::vector<double> shares;
    for (Chips s : stacks)
        shares.push_back(static_cast<double>(static_cast<long double>(lowest.value()) +
                                             static_cast<long double>(rest.value()) *
                                                 static_cast<long double>(s.value()) / chips));
    return whole_chips(shares, sum(prizes));
}

} // namespace felt::tournament
