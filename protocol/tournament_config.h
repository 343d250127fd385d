// A tournament's configuration (create_tournament): decoding it strictly, with a refusal that
// names the field and says what is wrong, and writing it for the lobby and the database. The
// rules it sets are the tournament engine's (engine/tournament/).
#pragma once

#include "protocol/config_reader.h"
#include "tournament/payouts.h"
#include "tournament/structure.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace felt::protocol {

inline constexpr int kMostEntrants = 1'000;

// One game of a mixed tournament.
struct TournamentGame {
    std::string variant, structure;
    friend bool operator==(const TournamentGame&, const TournamentGame&) = default;
};

// The mixes by name: "horse" (fixed-limit hold'em, Omaha hi-lo, razz, stud, stud hi-lo) and
// "8-game" (deuce-to-seven triple draw, fixed-limit hold'em, Omaha hi-lo, razz, stud, stud hi-lo,
// no-limit hold'em, pot-limit Omaha), in the order they are played; nullopt for another name.
std::optional<std::vector<TournamentGame>> mixed_games(std::string_view name);

struct TournamentConfig {
    std::string format = "sit-and-go";  // or "multi-table"
    std::string variant = "holdem";     // a mixed tournament's: its first game of the whole pack
    std::string structure = "no-limit"; // betting: no-limit, pot-limit, fixed-limit
    // A mixed tournament: its games in turn (empty: the one game above), and the mix's name
    // ("horse", "8-game") or empty for a list the host gave. The game changes with each level, or
    // with rotate_hands > 0 every that many hands at each table.
    std::vector<TournamentGame> games;
    std::string mix;
    int rotate_hands = 0;
    int seats = 9;         // a table's; a sit-and-go starts with that many players
    Chips buy_in{}, fee{}; // account chips: to the prize pool, and to the creator
    Chips guarantee{};     // account chips: the least prize pool, the creator covering the overlay
    Chips starting_stack = Chips(1'500); // tournament chips
    std::string preset;                  // "turbo", "regular", "multi-table" or none
    tournament::Structure levels;
    tournament::PayoutTable payouts; // by entrants
    bool own_payouts = false;        // the host's, not the default table
    int max_entrants = 9, min_entrants = 2;
    std::int64_t start_at = 0; // epoch seconds; multi-table only
    int balance_by = 1;        // how many players more one table may have than another: 1 or 2
    // The entry period (multi-table only for late entries): registration until the end of level
    // `late_registration_levels` (0: none); `reentries` re-entries each, until the end of level
    // `reentry_levels`; rebuys of `rebuy_stack` during the first `rebuy_levels` levels while a
    // stack is at most `rebuy_stack_limit`; one add-on of `add_on_stack` (0: none) at the break
    // after the rebuy period. Each costs the buy-in (a re-entry, the fee too).
    int late_registration_levels = 0;
    int reentries = 0, reentry_levels = 0;
    int rebuy_levels = 0;
    Chips rebuy_stack{}, rebuy_stack_limit{};
    Chips add_on_stack{};
    int decision_ms = 30'000, time_bank_ms = 0, hand_delay_ms = 1'000;
    // Tests only (a feltd started with --chosen-decks): the seating's draws and every deal's
    // shuffle follow from it, so that the same play gives the same tournament.
    std::optional<std::uint64_t> seed;

    json to_json() const;
};

// Refused: a field of the wrong type, out of range or unknown; a game Felt does not deal; a
// structure with no levels, negative amounts or blinds that fall (tournament::check); payouts
// that do not add up to 100 % or pay more places than entrants; a start time in the past (`now`:
// epoch seconds); more than 1,000 entrants; a first level whose big blind (or small bet) is above
// the starting stack. `now` 0 skips the start time's check (a stored configuration). Defaults: a
// sit-and-go of `seats` (9) players on the "regular" preset, a multi-table tournament of up to
// 1,000 on the "multi-table" preset starting in 5 minutes; any field given beside a preset
// overrides it. The entry period: late entries (late registration, re-entries) in a sit-and-go,
// re-entries without their levels (reentry_levels defaults to late_registration_levels), and an
// add-on without rebuys or without a break after the rebuy period are refused; rebuy_stack and
// rebuy_stack_limit default to the starting stack. `to_json()` decodes to the same
// configuration.
Outcome<TournamentConfig> decode_tournament_config(const json& request, std::int64_t now);

} // namespace felt::protocol
