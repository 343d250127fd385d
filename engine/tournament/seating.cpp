#include "tournament/seating.h"

#include <bit>

namespace felt::tournament {

namespace {

bool holds(std::uint32_t players, int seat) {
    return seat >= 0 && (players >> seat & 1u) != 0;
}

// The first seat with a player after `from`, going round the table (`from` itself last).
int next_player(std::uint32_t players, int seats, int from) {
    for (int i = 1; i <= seats; ++i) {
        const int k = (from + i) % seats;
        if (holds(players, k)) return k;
    }
    return -1;
}

} // namespace

Blinds first_blinds(std::uint32_t players, int seats, int button) {
    Blinds b;
    b.button = button;
    b.small_blind = std::popcount(players) == 2 ? button : next_player(players, seats, button);
    b.big_blind = next_player(players, seats, b.small_blind);
    return b;
}

Blinds next_blinds(const Blinds& last, std::uint32_t players, int seats) {
    Blinds b;
    b.big_blind = next_player(players, seats, last.big_blind);
    if (std::popcount(players) == 2) {
        b.small_blind = next_player(players, seats, b.big_blind);
        b.button = b.small_blind;
        return b;
    }
    b.small_blind = last.big_blind;
    b.dead_small = !holds(players, b.small_blind);
    b.button = last.small_blind;
    // From heads-up (the button on the small blind) to three or more: the button right of the
    // small blind, where it would have been.
    if (b.button == b.big_blind || b.button == b.small_blind)
        b.button = (b.small_blind + seats - 1) % seats;
    return b;
}

bool waits(const Blinds& next, int seat, int seats) {
    if (seat == next.big_blind) return false;
    for (int k = next.button; k != next.big_blind; k = (k + 1) % seats)
        if (k == seat) return true;
    return false;
}

} // namespace felt::tournament
