// Where a tournament table's blinds fall (the dead button, as the TDA rules and online rooms play
// it) and who waits to be dealt in. Pure: seats are 0..seats-1, and `players` has bit k set when
// seat k holds a player with chips.
#pragma once

#include <cstdint>

namespace felt::tournament {

// The seats of a hand's button, small blind and big blind. The small blind's seat may be empty:
// then it is dead, and nobody posts it. The button may stand on an empty seat.
struct Blinds {
    int button = -1;
    int small_blind = -1;
    int big_blind = -1;
    bool dead_small = false;
    // Who posts the small blind: its seat, or -1 (HandConfig::small_blind_seat).
    int small_poster() const { return dead_small ? -1 : small_blind; }
    friend bool operator==(const Blinds&, const Blinds&) = default;
};

// A table's first hand, the button on `button` (a seat with a player): the blinds on the next
// players left of it; heads-up, the button posts the small blind.
Blinds first_blinds(std::uint32_t players, int seats, int button);

// The next hand. The big blind always moves on to the next player, so that it is posted by the
// player due it; the small blind goes to the seat that posted the big blind (dead when that
// player is out) and the button to the small blind's seat (even when that seat is empty).
// Heads-up, the big blind moves on to the other player and the button posts the small blind, so
// nobody posts the big blind twice in a row.
Blinds next_blinds(const Blinds& last, std::uint32_t players, int seats);

// Whether a player who came to `seat` between hands waits for the button to pass instead of
// being dealt in: their seat lies from the button (on it included) to the big blind, where they
// would play without posting. They never post to come in.
bool waits(const Blinds& next, int seat, int seats);

} // namespace felt::tournament
