#include "tournament/payouts.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace felt::tournament {

namespace {

// A run of `n` places paying `share` each.
void repeat(std::vector<int>& shares, int n, int share) {
    shares.insert(shares.end(), static_cast<std::size_t>(n), share);
}

PayoutTable make_default() {
    PayoutTable t;
    t.push_back({3, {10'000}});
    t.push_back({6, {7'000, 3'000}});
    t.push_back({30, {5'000, 3'000, 2'000}});
    t.push_back({50, {4'000, 2'400, 1'600, 1'200, 800}});
    t.push_back({200, {3'000, 2'000, 1'250, 900, 800, 650, 500, 400, 300, 200}});
    PayoutTier t300{300, {3'000, 1'950, 1'200, 800, 650, 500, 350, 250, 175, 125}};
    repeat(t300.shares, 10, 100);
    t.push_back(std::move(t300));
    PayoutTier t500{500, {2'500, 1'500, 1'000, 800, 500, 400, 300, 200, 175, 125}};
    repeat(t500.shares, 10, 100);
    repeat(t500.shares, 20, 75);
    t.push_back(std::move(t500));
    PayoutTier t700{700, {2'000, 1'250, 900, 700, 500, 400, 300, 175, 150, 125}};
    repeat(t700.shares, 10, 100);
    repeat(t700.shares, 20, 75);
    repeat(t700.shares, 20, 50);
    t.push_back(std::move(t700));
    PayoutTier t1000{1'000, {2'000, 1'200, 900, 700, 500, 400, 300, 175, 150, 125}};
    repeat(t1000.shares, 10, 95);
    repeat(t1000.shares, 20, 70);
    repeat(t1000.shares, 20, 40);
    repeat(t1000.shares, 20, 20);
    t.push_back(std::move(t1000));
    return t;
}

} // namespace

const PayoutTable& default_payouts() {
    static const PayoutTable table = make_default();
    return table;
}

std::optional<Error> check(const PayoutTable& t) {
    auto bad = [](std::string what) { return Error{Errc::bad_config, std::move(what)}; };
    if (t.empty()) return bad("payouts need at least one place paid");
    int below = 0;
    for (const PayoutTier& tier : t) {
        const std::string where =
            "the payouts for up to " + std::to_string(tier.max_entrants) + " entrants";
        if (tier.max_entrants <= below)
            return bad(where + " must come after those for fewer entrants");
        below = tier.max_entrants;
        if (tier.shares.empty()) return bad(where + " pay nobody");
        if (static_cast<int>(tier.shares.size()) > tier.max_entrants)
            return bad(where + " pay more places than there are entrants");
        std::int64_t sum = 0;
        for (int share : tier.shares) {
            if (share <= 0) return bad(where + " give a place a share of 0 or less");
            sum += share;
        }
        if (sum != kWholePool)
            return bad(where + " add up to " + std::to_string(sum / 100) + "." +
                       std::to_string(sum % 100 / 10) + std::to_string(sum % 10) + " %, not 100 %");
    }
    return std::nullopt;
}

std::vector<Chips> prizes(const PayoutTable& t, int entrants, Chips pool) {
    if (t.empty() || entrants < 1) return {};
    auto tier = std::find_if(t.begin(), t.end(),
                             [&](const PayoutTier& x) { return entrants <= x.max_entrants; });
    if (tier == t.end()) tier = std::prev(t.end());
    const std::size_t places = std::min(tier->shares.size(), static_cast<std::size_t>(entrants));
    const std::int64_t whole = std::accumulate(
        tier->shares.begin(), tier->shares.begin() + static_cast<long>(places), std::int64_t{0});
    std::vector<Chips> out;
    Chips paid{};
    for (std::size_t i = 0; i < places; ++i) {
        // pool * share / whole without overflow for any pool a tournament can hold
        const auto share = static_cast<std::int64_t>(tier->shares[i]);
        const Chips prize((pool.value() / whole) * share + (pool.value() % whole) * share / whole);
        out.push_back(prize);
        paid += prize;
    }
    out[0] += pool - paid;
    return out;
}

std::vector<Finish> knocked_out(std::vector<Out> outs, int left, std::span<const Chips> by_place) {
    std::stable_sort(outs.begin(), outs.end(), [](const Out& a, const Out& b) {
        return a.stack_at_start > b.stack_at_start;
    });
    auto prize_of = [&](int place) {
        return place >= 1 && place <= static_cast<int>(by_place.size())
                   ? by_place[static_cast<std::size_t>(place - 1)]
                   : Chips();
    };
    std::vector<Finish> out;
    int place = left - static_cast<int>(outs.size()) + 1; // the best place among them
    for (std::size_t i = 0; i < outs.size();) {
        std::size_t j = i;
        while (j < outs.size() && outs[j].stack_at_start == outs[i].stack_at_start) ++j;
        const auto n = static_cast<std::int64_t>(j - i);
        Chips pot{};
        for (std::int64_t k = 0; k < n; ++k) pot += prize_of(place + static_cast<int>(k));
        for (std::int64_t k = 0; k < n; ++k) {
            Chips share = pot / n;
            if (k < (pot % n).value()) ++share; // the odd chips to the higher places
            out.push_back({outs[i + static_cast<std::size_t>(k)].player,
                           place + static_cast<int>(k), share, n > 1});
        }
        place += static_cast<int>(n);
        i = j;
    }
    return out;
}

} // namespace felt::tournament
