// A player's statistics in betting games, as hand trackers count them (docs/stats.md).
//
// Pure: one finished hand (its configuration and events) in, one line per player dealt in out:
// for each statistic whether the player had the chance (an opportunity) and whether they took it
// (a time), and their net, rake and whether they went to showdown. Lines add up: a player's
// figures over any selection of hands are the sums of their lines. The definitions are fpdb's
// (pyfpdb/DerivedStats.py and Stats.py, 2022); where Felt's games go beyond hold'em, docs/stats.md
// says which statistics a family of games counts.
#pragma once

#include "poker/hand.h"
#include "poker/phh.h"
#include "stats/deal_stats.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace felt::stats {

// Which statistics a variant counts: every one in games with a flop; the preflop-only and
// postflop ones (3-bet, steal, c-bet, check-raise, aggression) make no sense without one.
enum class Family : unsigned char {
    board, // hold'em, Omaha, short deck
    draw,  // five-card draw, the deuce-to-seven draws, badugi, shrinking draw, straight poker
    stud,  // seven-card stud, razz, stud hi-lo, Mexican stud: the first round is third street
};
Family family_of(const poker::Variant& v);

enum class Stat : unsigned char {
    vpip,              // a preflop call, bet or raise, over hands dealt (not the walk's big blind)
    pfr,               // a preflop bet or raise
    three_bet,         // a raise facing exactly one raise (the big blind the first level)
    fold_to_three_bet, // the first raiser, facing a re-raise, folds
    four_bet,          // the first raiser, facing a re-raise, raises again
    steal,             // an open raise from the cutoff, the button or the small blind
    fold_to_steal,     // a blind folds to a steal, with no caller between
    cbet_flop,         // the last preflop raiser bets the flop before anyone else does
    cbet_turn,
    cbet_river,
    fold_to_cbet_flop, // folds to a continuation bet (acting before the raiser's second action)
    fold_to_cbet_turn,
    fold_to_cbet_river,
    check_raise_flop, // checked, then raised a bet
    check_raise_turn,
    check_raise_river,
    af_flop, // times: bets and raises; opportunities: calls (a ratio, not a frequency)
    af_turn,
    af_river,
    afq_flop, // bet or raised on the street, over hands that saw it
    afq_turn,
    afq_river,
    wtsd, // went to showdown, over hands that saw the flop (the second betting round)
    wsd,  // collected anything at showdown, over hands that went to showdown
    wwsf, // collected anything, over hands that saw the flop
};
inline constexpr int kStats = static_cast<int>(Stat::wwsf) + 1;
std::string_view stat_name(Stat s); // "vpip", "three_bet", "cbet_flop", ... (docs/stats.md)
// Whether statistic `s` is counted for a family's games.
bool counted(Stat s, Family f);

using Tallies = std::array<Tally, kStats>;

// Positions as fpdb numbers them: the big blind, the small blind, and the others counted back
// from the button (0), the cutoff (1) and so on; stud's first to act is the small blind's place.
inline constexpr int kBigBlind = -2;
inline constexpr int kSmallBlind = -1;

// One player's hand.
struct Line {
    int seat = -1;
    int position = 0;      // kBigBlind, kSmallBlind, or 0 (button), 1 (cutoff), ...
    poker::Chips net{};    // chips won less chips put in
    poker::Chips rake{};   // of the pots they won, the share the house took
    bool showdown = false; // went to showdown
    Tallies tallies{};     // each statistic: 0 or 1 (af: counts of actions)
    // The net valued at the all-in equity (net less the chips won plus the share expected) when
    // hands were shown all in; else none (the net). Set by whoever knows the hand's all-in EV.
    std::optional<double> ev_net = std::nullopt;
};

struct HandLines {
    Family family = Family::board;
    poker::Chips unit{};     // the big blind; without blinds the small bet (else the smallest bet)
    std::vector<Line> lines; // the players dealt in, by seat
};

// The lines of one finished hand. Its events are the hand's whole record, from start_hand on.
HandLines count_hand(const poker::HandConfig& config, std::span<const poker::Event> events);

// The lines of a replayed hand history: the net of each player (p1 the first line's seat 0, and
// so on) from the replay's finishing stacks, which follow the file where it records them (its
// finishing stacks, else its winnings, less a rake the events never took); the rake, what a
// player collected less than the pots they won.
HandLines count_replay(const poker::Replay& replay);

// A player's figures over many hands: the sums of their lines.
struct Totals {
    std::int64_t hands = 0;
    poker::Chips net{}, rake{};
    poker::Chips showdown_net{}, other_net{}; // net of the hands that went to showdown, the rest
    double units = 0;                         // the hands' units (big blinds), added up
    double sum_bb = 0, sum_bb_squared = 0;    // each hand's net in its own units, and its square
    double ev_net = 0;                        // the nets valued at the all-in equity (Line)
    Tallies tallies{};
    DealLine deal{}; // Chinese poker's and leap rummy's own figures (deal_stats.h)
    void add(const Line& line, poker::Chips unit);
    Totals& operator+=(const Totals& o);
    // 100 x net over the hands' units; 0 without hands.
    double bb_per_100() const;
    // The half-width of bb/100's 95 % confidence interval (1.96 standard errors of the mean of
    // each hand's net in big blinds, x 100); 0 with fewer than two hands.
    double bb_per_100_margin() const;
};

} // namespace felt::stats
