#include "chinese/pair_ledger.h"

#include <algorithm>
#include <cstdlib>

namespace felt::chinese {

std::vector<std::pair<int, int>> pairs_from(int n, int dealer, int bank) {
    std::vector<std::pair<int, int>> pairs;
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            const int x = (dealer + a) % n, y = (dealer + b) % n;
            if (bank < 0 || x == bank || y == bank) pairs.emplace_back(x, y);
        }
    return pairs;
}

PairLedger::PairLedger(std::span<const Chips> stacks, bool chip_limit, Chips rake)
    : chip_limit_(chip_limit) {
    for (Chips stack : stacks) {
        rake_.push_back(std::min(stack, rake));
        have_.push_back(stack - rake_.back());
        backing_.push_back(have_.back());
        net_.push_back(-rake_.back());
    }
}

Chips PairLedger::pay(int from, int to, Chips chips) {
    const std::size_t f = static_cast<std::size_t>(from), t = static_cast<std::size_t>(to);
    if (chip_limit_) {
        chips = std::min({chips, backing_[f], backing_[t]});
        backing_[f] -= chips;
        backing_[t] -= chips;
    } else {
        chips = std::min(chips, have_[f]);
    }
    have_[f] -= chips;
    have_[t] += chips;
    net_[f] -= chips;
    net_[t] += chips;
    return chips;
}

void PairLedger::settle_pass(std::span<const std::pair<int, int>> pairs, std::span<const Owed> owed,
                             Chips unit, bool special, std::vector<Payment>& payments,
                             std::vector<PairSettlement>& settled) {
    std::vector<int> net(pairs.size()); // what the pair's second owes its first
    for (const Owed& w : owed) {
        const auto k = static_cast<std::size_t>(
            std::find_if(pairs.begin(), pairs.end(),
                         [&](auto xy) {
                             return (xy.first == w.from && xy.second == w.to) ||
                                    (xy.first == w.to && xy.second == w.from);
                         }) -
            pairs.begin());
        net[k] += w.to == pairs[k].first ? w.units : -w.units;
        payments.push_back({w.from, w.to, w.units, unit * w.units, w.reason});
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (net[k] == 0) continue;
        const auto [x, y] = pairs[k];
        const int from = net[k] > 0 ? y : x, to = net[k] > 0 ? x : y;
        const int units = std::abs(net[k]);
        settled.push_back({from, to, special, units, pay(from, to, unit * units)});
    }
}

} // namespace felt::chinese
