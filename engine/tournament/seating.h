// Where a tournament table's blinds fall (the dead button, as the TDA rules and online rooms play
// it) and who waits to be dealt in. Pure: seats are 0..seats-1, and `players` has bit k set when
// seat k holds a player with chips.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

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

namespace felt::tournament {

// A tournament's table as the seating rules see it.
struct TableSeats {
    int id = 0;                 // the caller's
    int seats = 9;              // 2..9
    std::vector<int> players;   // by seat: a player's id, or -1 for an empty seat
    Blinds last;                // the blinds of its last hand; big_blind -1 before its first
    int count() const;          // players seated
    std::uint32_t mask() const; // bit k: seat k holds a player
    friend bool operator==(const TableSeats&, const TableSeats&) = default;
};

// A player moved between hands (or, breaking a table, once its hand has ended).
struct Move {
    int player = 0;
    int from_table = 0, from_seat = 0; // tables by id
    int to_table = 0, to_seat = 0;
    friend bool operator==(const Move&, const Move&) = default;
};

// The start: `players` spread over as few tables of `seats` as hold them, the tables differing
// by at most one player, each player in a random seat and each table's button on a random
// player (blinds from first_blinds). `seed` makes the draw (splitmix64): the same seed, the same
// seating. Tables get ids 1, 2, ...
std::vector<TableSeats> seat_entrants(std::span<const int> players, int seats, std::uint64_t seed);

// The next hand's blinds at a table (first_blinds before its first hand, with the button on its
// first player; next_blinds after).
Blinds coming_blinds(const TableSeats& t);

// Balancing, after table `from` ended a hand: while it has more than `allowed` (1, or 2 where the
// host allows) players more than the shortest table, its player due the big blind next moves to
// the shortest table (the first of them), to the empty seat that will post the big blind
// soonest there: the first empty seat after its next big blind. Applied to `tables`; the moves
// made, in order.
std::vector<Move> balance(std::vector<TableSeats>& tables, std::size_t from, int allowed);

// TDA's halt: whether table `t` is three or more players short of the fullest, so that it waits
// for a player before dealing.
bool halted(const std::vector<TableSeats>& tables, std::size_t t);

// The table to break (its index), when the players left fit on one table fewer: the one with
// the fewest players (the last of them on a tie). None with one table.
std::optional<std::size_t> table_to_break(const std::vector<TableSeats>& tables);

// A newcomer (a late entry, a re-entry) seated at a random empty seat of a random table among
// those with the fewest players that have room (`seed` draws them): the move made (from_table
// -1), or none when every table is full.
std::optional<Move> seat_newcomer(std::vector<TableSeats>& tables, int player, std::uint64_t seed);

// Breaks table `which`: each of its players, in seat order, goes to a random empty seat at a
// table with the fewest players then; the table is removed from `tables`. The moves made.
std::vector<Move> break_table(std::vector<TableSeats>& tables, std::size_t which,
                              std::uint64_t seed);

} // namespace felt::tournament
