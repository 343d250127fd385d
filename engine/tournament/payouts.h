// A tournament's prizes: the table of shares by number of entrants, the prizes in whole chips,
// and the places of players knocked out in the same hand, ties shared. Pure.
#pragma once

#include "chips.h"
#include "result.h"

#include <optional>
#include <span>
#include <vector>

namespace felt::tournament {

// Shares are hundredths of a percent: 10'000 is the whole prize pool.
inline constexpr int kWholePool = 10'000;

// The shares of the places paid, first place first, for fields of up to `max_entrants`.
struct PayoutTier {
    int max_entrants = 0;
    std::vector<int> shares;
    friend bool operator==(const PayoutTier&, const PayoutTier&) = default;
};
// Tiers by max_entrants, ascending; the last also covers any larger field.
using PayoutTable = std::vector<PayoutTier>;

// pokerengine's table (poker-network's poker.payouts.xml, version 1.0.11): 1-3 entrants 100;
// 4-6 70/30; 7-30 50/30/20; 31-50 40/24/16/12/8; 51-200 ten places from 30; 201-300 twenty;
// 301-500 forty; 501-700 sixty; 701-1000 eighty.
const PayoutTable& default_payouts();

// A table a tournament can pay by: at least one tier, max_entrants ascending and positive, each
// tier paying at least one place and no more places than its entrants, every share positive and
// the shares of a tier adding up to the whole pool. Errc::bad_config naming the tier.
std::optional<Error> check(const PayoutTable& t);

// The prizes by place (first place first) for `entrants` sharing `pool`, by the tier that covers
// them: each place its share of the pool, rounded down, the odd chips to first place. A tier
// paying more places than there are entrants pays the first `entrants`, their shares scaled up
// to the whole pool.
std::vector<Chips> prizes(const PayoutTable& t, int entrants, Chips pool);

// A player knocked out, with the stack they began the hand with.
struct Out {
    int player = 0;
    Chips stack_at_start{};
    friend bool operator==(const Out&, const Out&) = default;
};
struct Finish {
    int player = 0;
    int place = 0; // from 1
    Chips prize{};
    bool tied = false;
    friend bool operator==(const Finish&, const Finish&) = default;
};
// Players knocked out in one hand, `left` players (them included) having been in it: they take
// places `left`, `left - 1`, ... in order of their stacks at the start of the hand, the larger
// finishing higher. Equal stacks tie: each still takes its own place (in the order given), is
// marked tied, and gets an equal share of those places' prizes, the odd chips to the higher
// places. `by_place`: the prizes, first place first (prizes()); a place past them pays nothing.
// Returned best place first.
std::vector<Finish> knocked_out(std::vector<Out> outs, int left, std::span<const Chips> by_place);

} // namespace felt::tournament
