// A tournament's structure: its levels of blinds and antes, the breaks between them, and how the
// blinds go on rising after the last level; where the clock (or the count of hands) stands in it;
// the presets a host starts from. Pure: the caller keeps the clock.
#pragma once

#include "chips.h"
#include "result.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace felt::tournament {

// One level of the structure, or a break between two (break_minutes > 0, no stakes).
struct Level {
    Chips small_blind{}, big_blind{};
    Chips ante{};           // paid by every player dealt in
    Chips big_blind_ante{}; // paid by the big blind alone, for the table (instead of `ante`)
    // Fixed limit and stud: 0 is derived from the blinds (stakes_of).
    Chips small_bet{}, big_bet{}, bring_in{};
    int minutes = 0; // how long it lasts: minutes, or
    int hands = 0;   // hands (a sit-and-go's structure may count hands instead)
    int break_minutes = 0;

    bool is_break() const { return break_minutes > 0; }
    friend bool operator==(const Level&, const Level&) = default;
};

// After the last level the blinds double each level, rise by a fixed step of the big blind, or
// stay.
enum class Beyond : unsigned char { doubling, step, stay };
std::string_view beyond_name(Beyond b); // "double", "step", "stay"
std::optional<Beyond> parse_beyond(std::string_view name);

struct Structure {
    std::vector<Level> levels; // in order, breaks among them
    Beyond beyond = Beyond::doubling;
    Chips step{}; // Beyond::step: added to the big blind each level after the last
};

// A structure a tournament can run: at least one level with blinds or antes; no negative amount;
// a small blind no larger than the big blind; blinds and antes that never fall from one level to
// the next; every level timed in minutes, or every level in hands (breaks are always in
// minutes, and come only between levels timed in minutes); Beyond::step with a positive step.
// Errc::bad_config naming the level (counted from 1) and what is wrong.
std::optional<Error> check(const Structure& s);

// The n-th level played (from 1, breaks not counted): one of the structure's, or past its last,
// that level raised by its rule (Beyond): doubling doubles every amount; a step adds `step` to
// the big blind and scales the other amounts in the same proportion (rounded down, a small
// blind at least 1 when the last had one); staying repeats the last. Its length is the last
// level's. The structure must pass check().
Level level(const Structure& s, int n);

// Where a running tournament stands: the level being played (from 1) or the break after it,
// and how much of it is left (milliseconds, or hands for a structure in hands).
struct Position {
    int level = 1;
    bool on_break = false;
    std::int64_t left = 0;
    friend bool operator==(const Position&, const Position&) = default;
};
// `elapsed`: milliseconds of play since the start (the clock stopped while nothing ran), or, for
// a structure in hands, hands begun since the start. A level ends when its time is up; the one
// after begins with the next hand (the caller's concern: levels change between hands).
Position position(const Structure& s, std::int64_t elapsed);
bool in_hands(const Structure& s); // whether its levels count hands

// The stakes a hand is dealt at, for a game with blinds or for stud (bring_in game). Fixed
// limit and stud derive what the level leaves at 0: the small bet is the big blind, the big bet
// twice that, and stud's bring-in a quarter of the small bet (at least 1). Stud has no blinds;
// a game with blinds no bring-in. Stud always has an ante: a tenth of the small bet (at least 1)
// when the level gives none.
struct Stakes {
    Chips small_blind{}, big_blind{}, ante{}, big_blind_ante{};
    Chips small_bet{}, big_bet{}, bring_in{};
    friend bool operator==(const Stakes&, const Stakes&) = default;
};
Stakes stakes_of(const Level& l, bool fixed_limit, bool bring_in_game);

// The presets (docs/tournaments.md): "turbo" (2-minute levels of 10/20, 15/30, 25/50, 50/100,
// then doubling), "regular" (the same blinds, 6-minute levels), "multi-table" (10-minute levels,
// antes from the fourth, a 5-minute break every hour). Each starts with 1,500 chips.
struct Preset {
    Structure structure;
    Chips starting_stack{};
    int hand_delay_ms = 0; // 0: the table's default
};
std::optional<Preset> preset(std::string_view name);

} // namespace felt::tournament
