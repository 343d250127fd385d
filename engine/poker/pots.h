// Side pots (betting.md, "Pots"): cut level by level of the all-in totals, folded chips inside,
// each pot to the best eligible hand, odd chips from the first seat left of the button.
#pragma once

#include "chips.h"

#include <array>
#include <cstdint>
#include <vector>

namespace felt::poker {

using felt::Chips;
inline constexpr int kMaxSeats = 9;

struct Pot {
    Chips amount{};
    std::uint16_t eligible = 0; // bit per seat: not folded and contributed up to this level
};

// At most one pot per seat (one level per live player's total): no allocation.
struct Pots {
    std::array<Pot, kMaxSeats> items{};
    int count = 0;
    std::size_t size() const { return static_cast<std::size_t>(count); }
    bool empty() const { return count == 0; }
    const Pot& operator[](std::size_t i) const { return items[i]; }
    const Pot* begin() const { return items.data(); }
    const Pot* end() const { return items.data() + count; }
};

// Pots from each seat's contribution to the hand. A pot's level is the next smallest
// contribution of a player still in the hand (not folded); folded chips fill the levels they
// reach and stay in the pots. Pots that no one is eligible for (only folded chips above every
// live player's total) cannot arise once uncalled bets are returned; they join the last pot.
// `dead`: chips that belong to the main pot whatever was matched (dead antes, left out of
// `contributed`): every player still in may win them.
Pots build_pots(const std::array<Chips, kMaxSeats>& contributed, std::uint16_t folded, int seats,
                Chips dead = {});

// Shares of `amount` among `winners` (bit per seat): equal shares, the odd chips one by one to
// winners in seat order starting left of the button.
std::array<Chips, kMaxSeats> split(Chips amount, std::uint16_t winners, int seats, int button);

} // namespace felt::poker
