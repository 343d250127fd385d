// Open-face Chinese poker and Pineapple (open-face.md): rows and fouls, royalties, pairwise
// scoring with the scoop, Fantasyland, settlement, and a hand's deal and placements.
//
// The rows are thirteen-card Chinese poker's (chinese/chinese.h: Row, Split, the row order with
// its default rules), and so is the settlement a pair at a time (chinese/pair_ledger.h).
#pragma once

#include "cards/types.h"
#include "chinese/chinese.h"
#include "chinese/pair_ledger.h"
#include "chips.h"
#include "rankings/hand_value.h"
#include "result.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt::openface {

using chinese::Row;
using chinese::Split;

enum class Variant : unsigned char {
    pineapple, // 5, then four times 3: place 2, discard 1. Two or three players.
    classic,   // 5, then one at a time. Two to four players.
};
std::string_view variant_name(Variant v); // "pineapple", "classic"
std::optional<Variant> parse_variant(std::string_view name);

enum class Stay : unsigned char {
    standard, // three of a kind in front, a full house or better in the middle, four of a kind or
              // better in the back
    strict,   // three of a kind in front, or four of a kind or better in the back
};
std::string_view stay_name(Stay s); // "standard", "strict"
std::optional<Stay> parse_stay(std::string_view name);

struct Options {
    Variant variant = Variant::pineapple;
    bool progressive = false; // Fantasyland's cards by the front: queens 14 ... trips 17
    Stay stay = Stay::standard;
    Chips unit{1};
    bool chip_limit = false; // nobody wins or loses more than their starting stack
    Chips rake{};            // per player per hand, before settlement
};

// The most players a variant seats: pineapple 3, classic 4.
int max_players(Variant v);

// Refuses (bad_config) a number of players the variant does not seat, and progressive Fantasyland
// at four players (13 cards each leave it no room); (bad_option) a unit that is not positive or a
// negative rake.
std::optional<Error> check_options(const Options& o, int players);

// ---- rows -------------------------------------------------------------------------------------

// The royalty of a hand in a row (open-face.md's table), in points; 0 for none.
int royalty(Row row, HandValue v);

// A royalty's reason as payments name it: the category ("flush", "one_pair", "three_of_a_kind"),
// or "royal_flush".
std::string royalty_hand(HandValue v);

// Whether a finished split is fouled: the back below the middle, or the middle below the front.
bool fouled(const Split& s);

// A finished split's royalties, row by row (front, middle, back); all 0 when it is fouled.
std::array<int, 3> royalties(const Split& s);

// The points `a` wins from `b` (negative: what it pays): rows, the scoop, both players' royalties
// and fouls, as open-face.md scores a pair.
int points(const Split& a, const Split& b);

// ---- Fantasyland ------------------------------------------------------------------------------

// Whether a finished, unfouled split stays in Fantasyland under the rule.
bool stays(Stay rule, const Split& s);

// How many cards a player receives at once in the next hand after finishing `s` (0: an ordinary
// hand): in Fantasyland (`in_fantasyland`), 14 when the hand stays, else 0; outside it, with a
// pair of queens or better in front, 14, or by the front with `progressive` (queens 14, kings 15,
// aces 16, three of a kind 17). A fouled hand never enters or stays. At four players, always 13.
int fantasyland_cards(const Options& o, const Split& s, bool in_fantasyland, int players);

// ---- settlement -------------------------------------------------------------------------------

struct Player {
    std::string name;
    std::optional<Chips> stack; // none: no limit (what `felt open-face settle` allows)
    Split split;
    int fantasyland = 0; // the cards this player received at once in Fantasyland (0: none)
};

struct Settlement {
    std::vector<chinese::Payment> payments;     // reasons: "front", "middle", "back", "scoop",
                                                // "royalty back flush", ..., "foul"
    std::vector<chinese::PairSettlement> pairs; // each pair's net, in the order settled
    std::vector<int> points;                    // per player, net
    std::vector<bool> fouled;
    std::vector<std::array<int, 3>> royalties;      // per player, front, middle, back
    std::vector<Chips> net;                         // per player, rake included
    std::vector<std::optional<Chips>> final_stacks; // none: the player had no stack
    std::vector<Chips> rake;
    std::vector<int> fantasyland; // per player, the cards of their next hand in Fantasyland
};

// Players in seat order; `dealer` is the player the pairs start from (chinese::pairs_from).
// Refuses a split that is not 13 different cards, a card held by two players, and options
// check_options refuses.
Result<Settlement> settle(const Options& o, const std::vector<Player>& players, int dealer);

// ---- a hand -----------------------------------------------------------------------------------

// The cards a player places in one turn, by where they go.
struct Placement {
    std::vector<Card> front, middle, back, discard;
};

// A player's rows as placed so far.
struct Board {
    std::vector<Card> front, middle, back; // up to 3, 5 and 5

    std::vector<Card>& row(Row r) {
        return r == Row::front ? front : r == Row::middle ? middle : back;
    }
    const std::vector<Card>& row(Row r) const {
        return r == Row::front ? front : r == Row::middle ? middle : back;
    }
    int placed() const { return static_cast<int>(front.size() + middle.size() + back.size()); }
    bool full() const { return placed() == 13; }
    // The rows as a split; only when full.
    Split split() const;
};

// The room a row has: front 3, middle and back 5.
int row_size(Row r);

// Whether rows that are still being filled already foul whatever comes: a full row below a full
// row it must not be below. Rows with room are not compared.
bool fouled_already(const Board& b);

// One hand from the shuffled deck: who receives which cards when, whose turn it is, and each
// placement checked and applied. Players are numbered in turn order, 0 first (the dealer's left).
//
// The deal: first each player in turn, 5 cards (in Fantasyland, all their cards); then, street by
// street, each ordinary player in turn 3 (pineapple: 4 streets) or 1 (classic: 8). The ordinary
// players act in turn on each street, a street's cards dealt to all of them when it begins; the
// players in Fantasyland act last, in turn, once every ordinary player has finished.
class Hand {
  public:
    // `fantasyland`: by player, the cards received at once (0: an ordinary hand). Refuses what
    // check_options refuses, a Fantasyland count outside 13 to 17 (13 only at four players, and
    // more than 14 only with `progressive`), and a deck too short to deal.
    static Result<Hand> start(const Options& o, std::span<const int> fantasyland,
                              std::span<const Card> deck);

    int players() const { return static_cast<int>(boards_.size()); }
    const Options& options() const { return options_; }
    // The player to place, or -1 when every player has finished.
    int to_act() const;
    bool finished() const { return to_act() < 0; }
    // The ordinary players' street, from 0; streets() once they have all finished.
    int street() const { return street_; }
    int streets() const;
    int fantasyland(int player) const { return fantasy_[static_cast<std::size_t>(player)]; }

    // The cards the player holds to place now (dealt, not yet placed); empty between turns.
    std::span<const Card> pending(int player) const {
        return pending_[static_cast<std::size_t>(player)];
    }
    // How many of them the player must discard.
    int discards_due(int player) const;
    const Board& board(int player) const { return boards_[static_cast<std::size_t>(player)]; }
    std::span<const Card> discards(int player) const {
        return discarded_[static_cast<std::size_t>(player)];
    }
    // Where each card the player was dealt lay in the deck (0: the top).
    std::span<const int> positions(int player) const {
        return positions_[static_cast<std::size_t>(player)];
    }
    // How many cards of the deck the hand uses.
    int used() const { return used_; }

    // Refuses (naming the problem) a placement by a player who is not to act (not_your_turn;
    // hand_over when finished), one that is not exactly the pending cards (wrong_cards), the wrong
    // number of discards (wrong_count), and a row overfilled (row_full). Fouling is allowed.
    std::optional<Error> check(int player, const Placement& p) const;
    std::optional<Error> place(int player, const Placement& p);

  private:
    void begin_street();

    Options options_;
    std::vector<int> fantasy_;
    std::vector<Board> boards_;
    std::vector<std::vector<Card>> pending_, discarded_;
    std::vector<std::vector<std::vector<Card>>> dealt_; // by player, by street
    std::vector<std::vector<int>> positions_;
    std::vector<int> ordinary_, fantasy_order_; // players in turn order
    int street_ = 0;
    std::size_t turn_ = 0; // into ordinary_, then (street_ == streets()) fantasy_order_
    int used_ = 0;
};

} // namespace felt::openface
