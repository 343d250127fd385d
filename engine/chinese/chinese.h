// Thirteen-card Chinese poker (chinese-poker.md): legal splits, special hands, profiles as data,
// and settlement among two to four players, chips limited or not.
#pragma once

#include "cards/types.h"
#include "chinese/pair_ledger.h"
#include "chips.h"
#include "rankings/hand_value.h"
#include "result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt::chinese {

using felt::Chips;

enum class Row : unsigned char { front, middle, back };
std::string_view row_name(Row r);

struct Split {
    std::array<Card, 3> front{};
    std::array<Card, 5> middle{};
    std::array<Card, 5> back{};
};

struct SplitRules {
    bool strict_order = false;         // each row strictly above the one in front of it
    bool short_kickers_lowest = false; // a front's missing kicker ranks below any card
};

// Checks a split of exactly the dealt cards (`dealt` empty: any 13 different cards of the pack).
// Refusals (Errc): wrong_count, wrong_cards, duplicate_card, bad_card, middle_above_back,
// front_above_middle; the message names the rows and their hands.
std::optional<Error> check_split(const Split& s, const SplitRules& rules,
                                 std::span<const Card> dealt = {});

// The values of a split's front, middle and back rows, as settlement compares them.
std::array<HandValue, 3> row_values(const Split& s);

// The row order alone, of a split in progress: a row not yet filled (nullopt) is not compared.
// Refusals as check_split's: middle_above_back, front_above_middle.
std::optional<Error> check_order(std::optional<HandValue> front, std::optional<HandValue> middle,
                                 std::optional<HandValue> back, const SplitRules& rules);

// "middle at least as high as the front": category, defining ranks, kickers as far as the front
// has cards (or, with short_kickers_lowest, missing kickers lowest). <0, 0, >0.
int compare_middle_front(HandValue middle, HandValue front, bool short_kickers_lowest);

// ---- special hands ------------------------------------------------------------------------

enum class Special : unsigned char {
    six_pairs,
    three_straights,
    three_flushes,
    complete_straight,
    thirteen_of_one_suit,
    all_one_colour,
    twelve_one_colour,
    five_pairs_and_trio,
    four_trios,
    small,
    big,
    three_quads,
    three_straight_flushes,
    twelve_pictures,
};
inline constexpr int kSpecialCount = 14;
std::string_view special_name(Special s); // "six_pairs", "three_straights", ...
std::optional<Special> parse_special(std::string_view name);

// Whether the 13 cards (and, for the three-straights kinds, the split) form this special hand.
bool has_special(const Split& s, Special kind);

// Two hands of the same special kind: <0, 0, >0 (six pairs by the pairs, highest first; three
// straights and three flushes by back, middle, front; the others by their ranks, highest first).
int compare_special(Special kind, const Split& a, const Split& b);

// ---- profiles ---------------------------------------------------------------------------------

enum class Scoring : unsigned char {
    rows,  // each row: win 1, lose 1, tie 0
    scoop, // per opponent: more rows won 1, all three 6, all three against everyone 9
};

struct Royalty {
    Row row;
    Category category;
    int units;
};

struct SpecialValue {
    Special kind;
    int units;
};

struct Profile {
    std::string name;
    Scoring scoring = Scoring::rows;
    bool royalties_on_top = false;  // royalty added to the row's 1, else paid instead of it
    bool against_bank_only = false; // each player settles against the bank only
    std::vector<Royalty> royalties;
    std::vector<SpecialValue> specials; // low to high
    int surrender_units = 3;
};

// The eight profiles of the spec: basic, classic, extras-a, extras-b, asian, asian-colour,
// banker, scoop.
const Profile* find_profile(std::string_view name);
std::vector<std::string_view> profile_names();

// ---- settlement -------------------------------------------------------------------------------

struct Options {
    bool chip_limit = false; // nobody wins or loses more than their starting stack
    bool aces = false;       // the aces side bet
    Chips unit{1};           // chips per unit
    Chips rake{};            // per player per hand, before settlement
    int banker = -1;         // seat of the bank (-1: none; the banker profile uses the dealer)
    SplitRules rules;
    // The edition of the settlement rules. 2 (the spec's): each pair settles once per pass, on
    // its net, and a scoop needs two of the three rows won. 1 (before 2026-11, kept so that deals
    // played under it settle again as they did): every payment settles on its own, and a scoop
    // needs more rows won than lost.
    int edition = 2;
};

struct Player {
    std::string name;
    Chips stack{};
    Split split;
    std::optional<Special> declare;
    bool surrender = false;
};

struct Settlement {
    std::vector<Payment> payments;
    std::vector<PairSettlement> pairs; // edition 2, in the order settled; empty in edition 1
    std::vector<Chips> net;            // per seat, rake included
    std::vector<Chips> final_stacks;   // per seat
    std::vector<Chips> rake;           // per seat
};

// The most units one player can lose in one deal to `opponents` others: against each, the larger
// of the profile's highest special hand, its three rows each won with the largest royalty (with
// the scoop profile: 9 and the royalties), and surrender, plus 8 for the aces bet. A table that
// settles without the chip limit deals in only stacks that cover this many units (and the rake).
int max_loss_units(const Profile& profile, bool aces, int opponents);

// Seats in clockwise order; `dealer` is the seat payments start from. Refuses (naming the player
// and the rule) an illegal split, a card dealt twice across players, a special hand declared that
// the cards do not hold or the profile does not know, and surrender outside the scoop profile.
// A player who surrenders has no rows: their split is neither read nor checked.
Result<Settlement> settle(const Profile& profile, const Options& options,
                          const std::vector<Player>& players, int dealer);

} // namespace felt::chinese

namespace felt::chinese {

// ---- auto-arrange -----------------------------------------------------------------------------

struct Arrangement {
    Split split;
    std::optional<Special> declare;
    double expected_units = 0; // against one opponent arranged by the baseline
};

// The K legal splits (K >= 1) with the largest expected units, best first; the first declares a
// special hand of the profile when that pays more than the best split. Every one of the 72,072
// ways to split 13 cards is considered; a row's chance of winning comes from win_tables().
// Refuses 13 cards that are not 13 different cards of the pack.
Result<std::vector<Arrangement>> arrange(std::span<const Card> cards, const Profile& profile,
                                         const SplitRules& rules = {}, int k = 1);

// Every special hand of the profile that the 13 cards can declare, each with a legal split that
// holds it (for three straights, three flushes and three straight flushes, the first such split
// found), best paying first; expected_units is the special hand's value. None: an empty list.
// Refuses 13 cards that are not 13 different cards of the pack.
Result<std::vector<Arrangement>> declarable(std::span<const Card> cards, const Profile& profile,
                                            const SplitRules& rules = {});

// The simple baseline: the strongest back of the 13, then the strongest middle of the rest, the
// front what is left (always legal).
Split baseline_split(std::span<const Card> cards);

// For each row and each value of the standard scale: the chance that the same row of a random
// opponent arranged by the baseline is weaker, and stronger, from 5,000 four-player deals of a
// fixed seed (20,000 arrangements) that the build counts (chinese_odds.h); the first call turns
// the counts into chances, in microseconds.
struct RowOdds {
    std::vector<float> below, above; // indexed by HandValue::raw()
};
const std::array<RowOdds, 3>& win_tables();

} // namespace felt::chinese
