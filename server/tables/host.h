// What runs a table that is not a cash table: a tournament (tournaments/tournament.h). With a
// host, a table seats the players it is given with the stacks it is given (no buy-in, and never a
// cash-out: tournament chips are never account chips), asks the host before each hand what it
// deals (who is in, where the button and the blinds are, the level's stakes), writes what each
// hand changed in the tournament with the hand itself, frees the seats of players who are out,
// and keeps a player who leaves dealt in (blinded away) instead of cashing them out.
//
// The host is called on the table's strand; it guards its own state.
#pragma once

#include "storage/store.h"
#include "tables/game.h"

#include <cstdint>
#include <optional>
#include <span>

namespace felt::server {

// A hand the host deals: the stacks and accounts by table seat (0: nobody dealt in there), the
// button's seat and the tournament's part (stakes, blinds, level).
struct HostDeal {
    std::array<Chips, kMaxTableSeats> stacks{};
    std::array<std::int64_t, kMaxTableSeats> accounts{}; // who is dealt in at each seat
    int button = 0;
    TournamentDeal tournament;
    // Tests only (a tournament's seed): the deals of this table are shuffled from it and the
    // hand's number, not by chance.
    std::optional<std::uint64_t> deck_seed;
};

class TableHost {
  public:
    virtual ~TableHost() = default;
    // The next hand at the table, its hand `number` (1 for its first), or nothing: the table
    // waits until the host pokes it (Table::poke).
    virtual std::optional<HostDeal> next_deal(std::int64_t table, int number) = 0;
    // The hand ended with these stacks (by table seat): what it changed in the tournament, to be
    // written with the hand.
    virtual TournamentChange hand_ended(std::int64_t table, std::span<const Chips> stacks) = 0;
    // The hand and its change are written (`ok`), or the write failed and the hand is void (the
    // host takes back what hand_ended changed).
    virtual void settled(std::int64_t table, bool ok) = 0;
    // A hand dealt by next_deal did not happen after all (storage failed before its deal, a bug,
    // a shutdown): the stacks stand as before it.
    virtual void not_dealt(std::int64_t table) = 0;
};

} // namespace felt::server
