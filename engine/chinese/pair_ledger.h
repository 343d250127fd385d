// Settlement a pair of players at a time, as thirteen-card Chinese poker and open-face Chinese
// poker both settle: every payment owed between two players is written down, each pair's owed
// payments net to one, and the pairs settle in order, the chips limited or not.
#pragma once

#include "chips.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace felt::chinese {

struct Payment {
    int from, to;       // players
    int units;          // owed
    Chips chips;        // units x unit, owed (edition 1 of Chinese poker: paid)
    std::string reason; // "front", "middle", "back", "scoop", "royalty back four_of_a_kind", ...
};

// What one pair actually paid in one pass: the net of that pair's payments.
struct PairSettlement {
    int from, to; // players: who owed the net, and to whom
    bool special; // Chinese poker: the first pass (special hands) or the second (the rest)
    int units;    // the net owed, in units
    Chips chips;  // paid: units x unit, or less when backing (or chips) ran out
};

// A payment owed, in units, before netting.
struct Owed {
    int from, to, units;
    std::string reason;
};

// The pairs of n players clockwise from the dealer: with A (dealer), B, C, D: A-B, A-C, A-D, B-C,
// B-D, C-D. With a bank (>= 0), only the pairs that include it.
std::vector<std::pair<int, int>> pairs_from(int n, int dealer, int bank = -1);

// The chips of one settlement. The rake (per player, up to the stack) comes off first.
class PairLedger {
  public:
    PairLedger(std::span<const Chips> stacks, bool chip_limit, Chips rake);

    // Moves up to `chips` from `from` to `to`, and returns what moved: with the chip limit, each
    // chip of a starting stack backs one settlement, won or lost; without it, nobody pays chips
    // they do not have at that moment.
    Chips pay(int from, int to, Chips chips);

    // One pass: each of `owed` written to `payments` (units x unit), then each pair's net paid,
    // in the order of `pairs`, and written to `settled`.
    void settle_pass(std::span<const std::pair<int, int>> pairs, std::span<const Owed> owed,
                     Chips unit, bool special, std::vector<Payment>& payments,
                     std::vector<PairSettlement>& settled);

    const std::vector<Chips>& net() const { return net_; } // rake included
    const std::vector<Chips>& rake() const { return rake_; }

  private:
    bool chip_limit_;
    std::vector<Chips> have_, backing_, net_, rake_;
};

} // namespace felt::chinese
