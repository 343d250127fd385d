// A running tournament's director: from the start to the last player, what each table deals next
// (who is in, the blinds where the dead button puts them, the level's stakes) and what each
// finished hand changes (players out with their places and prizes, tables balanced and broken).
//
// Hand-for-hand on the bubble: when the next player out would finish just outside the prizes
// and more than one table plays, each table deals one hand and waits until every table that can
// deal has played its hand of the round. Players out in a round finish together, once it ends
// (knocked_out: by their stacks at the start of their hands, equal ones tied), and the tables
// are broken and balanced then.
// Pure, as the rest of the engine: the caller plays the hands, keeps the clock, and says when a
// table's hand ends; the same calls in the same order give the same tournament.
#pragma once

#include "chips.h"
#include "result.h"
#include "tournament/payouts.h"
#include "tournament/seating.h"
#include "tournament/structure.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace felt::tournament {

struct Rules {
    Structure structure;
    PayoutTable payouts = default_payouts();
    Chips starting_stack{};
    Chips pool{}; // the prize pool at the start: entries times the buy-in (or a guarantee)
    // The entry period (below): entries after the start until the end of level `late_levels`
    // (late registration and re-entries), rebuys of `rebuy_stack` during levels 1 to
    // `rebuy_levels` while a stack is at most `rebuy_limit`, and one add-on of `add_on_stack`
    // at the break after the rebuy period. Each adds `price` to the pool (and, once the entries
    // so far cover it, a guarantee stays the least pool: `guarantee`).
    int late_levels = 0;
    int rebuy_levels = 0;
    Chips rebuy_stack{}, rebuy_limit{};
    Chips add_on_stack{};
    Chips price{};
    Chips guarantee{};
    int seats = 9;
    int allowed = 1; // how many players more one table may have than another after its hand
    bool fixed_limit = false;
    bool bring_in_game = false; // stud: a bring-in, no blinds
    std::uint64_t seed = 0;     // the seating's draws
};

// What a table deals next.
struct Deal {
    int table = 0;
    int level = 1;
    int hand_for_hand = 0;     // the round of hand-for-hand play it belongs to; 0: none
    std::vector<Chips> stacks; // by seat; 0: nobody dealt in there (empty, or waiting)
    std::vector<int> players;  // by seat: who is dealt in there; -1: nobody
    Blinds blinds;
    Stakes stakes;
    bool cap_heads_up = true; // fixed limit's cap holds heads-up until the tournament is
};

// Why a table does not deal now.
enum class Idle : unsigned char {
    in_hand,       // its hand is still being played
    halted,        // three or more players short of the fullest: it waits for players (TDA)
    breaking,      // it is to be broken, once its hand ends
    short_of,      // fewer than two players
    on_break,      // the tournament's break
    finished,      // the tournament is over
    hand_for_hand, // it played its hand of the round (or the round waits for hands to end)
    no_table,      // no such table (broken, or never)
};

// What a finished hand (or a decision between hands) changed.
struct Outcome {
    std::vector<Finish> out;      // players knocked out, best place first
    std::vector<Move> moves;      // players moved to other tables, in order (a newcomer seated:
                                  // from_table -1)
    std::vector<int> broken;      // tables broken (ids)
    std::vector<int> opened;      // tables opened for newcomers (ids)
    std::vector<int> busted;      // in the entry period: players left without chips, not yet out
    std::vector<int> bought_back; // left without chips by the hand, but with chips bought in it
    std::optional<Finish> won;    // the winner, when the tournament ended with this hand
};

// A player who lost their chips in the entry period: placed when it closes, by when and with
// what they went (the earlier lower; in one hand by their stacks at its start), unless they
// rebuy first. `seated` while they keep their seat to decide.
struct Bust {
    int player = 0;
    long hand = 0; // the hands ended before theirs, at every table
    Chips stack_at_start{};
    bool seated = true;
    friend bool operator==(const Bust&, const Bust&) = default;
};

// A deal: the prizes of the places left split among the players still in (tournament/deal.h).
enum class DealMethod : unsigned char { icm, chips };
std::string_view deal_method_name(DealMethod m); // "icm", "chips"
std::optional<DealMethod> parse_deal_method(std::string_view name);
struct DealTerms {
    DealMethod method = DealMethod::icm;
    std::vector<int> players;  // still in, largest stack first (equal stacks: the lower id first)
    std::vector<Chips> stacks; // theirs, in that order
    std::vector<Chips> prizes; // what each gets, in that order: adding up to the prizes left
    friend bool operator==(const DealTerms&, const DealTerms&) = default;
};

// Where a tournament stands between hands, to be stored and taken up again after a restart:
// hands being played when it was taken count as never dealt (a restart voids them, and their
// stacks are those from before them, as here).
struct Standing {
    struct Player {
        int id = 0;
        Chips stack{};
        bool waiting = false;
        friend bool operator==(const Player&, const Player&) = default;
    };
    std::vector<TableSeats> tables; // with the blinds of each table's last hand
    std::vector<Player> players;    // still in, by id
    std::vector<Finish> finishes;
    int entrants = 0;
    std::uint64_t draws = 0;
    int round = 0;               // hand-for-hand's round; 0: none
    std::vector<Out> round_outs; // out in the round so far, placed when it ends
    // The entry period (rules with late entries, rebuys or an add-on): whether it is open, the
    // pool so far, the players out of chips in it, who took the add-on, and the hands ended.
    bool entry_open = false;
    Chips pool{};
    std::vector<Bust> busts;
    std::vector<int> add_ons;
    long hands_ended = 0;
    friend bool operator==(const Standing&, const Standing&) = default;
};

class Director {
  public:
    // Seats `players` at random (seat_entrants). `rules` must pass check() (structure, payouts).
    Director(Rules rules, std::span<const int> players);
    // Takes up a tournament where `standing` left it (the same rules as it began with).
    // Then settle() breaks the table a hand being played kept from breaking.
    Director(Rules rules, const Standing& standing);
    Standing standing() const;
    // Breaks the tables that can be broken now that no hand runs at them (after a restart); ends
    // a hand-for-hand round whose other hands the restart voided, placing its players out.
    Outcome settle();

    // The next hand at a table, at the level `at` (position(): the caller's clock), or why not.
    // A deal marks the table in a hand until hand_ended.
    std::variant<Deal, Idle> deal(int table, const Position& at);

    // The hand dealt at `table` ended with `stacks` (by seat, as the engine left them): the sum
    // must equal the sum dealt (the engine keeps every chip; a tournament has no rake).
    Outcome hand_ended(int table, std::span<const Chips> stacks);
    // The hand dealt at `table` did not happen (void): nothing changes but that the table may
    // deal again.
    void not_dealt(int table);

    const std::vector<TableSeats>& tables() const { return tables_; }
    // Whether a table plays on (it was made at the start and has not been broken).
    bool has_table(int table) const { return index_of(table) < tables_.size(); }
    // Whether a table waits to be broken once its hand ends (balancing waits for it meanwhile).
    bool breaking() const;
    int remaining() const { return remaining_; }
    // Whether a hand is being played at any table.
    bool in_hand() const;

    // ---- The entry period ----
    // From the start while late entries, rebuys or the add-on may still come: no player is
    // placed in it. One who loses their chips keeps their seat, dealt out, to rebuy (or, the
    // caller's choice, to re-enter as a new player), until they give it up (give_up_seat); all
    // of them are placed when it closes (advance), the pool then final. It closes once the clock
    // passes every window, or when fewer than two players have chips and nobody who could still
    // rebuy keeps a seat, nor (levels in minutes) may enter.
    bool entry_open() const { return entry_open_; }
    Chips pool() const { return pool_; }
    // Whether each may be asked for at `at`: a new entry (late or re-entry), a rebuy (the
    // player's stack aside), the add-on (the break after the rebuy period).
    bool entries_open(const Position& at) const;
    bool rebuys_open(const Position& at) const;
    bool add_on_open(const Position& at) const;
    // The level whose break carries the add-on; 0 when there is none (no add-on, or no break
    // after the rebuy period).
    int add_on_level() const;
    // A new player, `player` (an id not used before), with a starting stack at a random empty
    // seat (a new table when all are full), by the rules of a move. Errc::illegal_action
    // outside the window.
    Result<Outcome> enter(int player, const Position& at);
    // A rebuy: `rebuy_stack` more, now, or once the hand the player is in ends. Refused
    // (Errc::illegal_action) outside the window, for a player not in (or who gave up their
    // seat), or with a stack above the limit.
    Result<Outcome> rebuy(int player, const Position& at);
    // The add-on: `add_on_stack` more, once a player (not out of chips). Refused outside the
    // add-on's break, for a player not in, and a second time.
    Result<Outcome> add_on(int player, const Position& at);
    // Whether a player is still in (not placed yet), and whether they are out of chips in the
    // entry period, waiting for its close (or to rebuy, while `seated`).
    bool is_in(int player) const { return players_.count(player) > 0; }
    const Bust* bust(int player) const;
    // A player out of chips gives up their seat (they will not rebuy); placed at the close.
    Outcome give_up_seat(int player);
    // The clock moved on to `at`: the entry period closes when it is over (its busted players
    // placed, the prizes final).
    Outcome advance(const Position& at);
    // The round of hand-for-hand play (from 1), or 0 when the tables play freely.
    int hand_for_hand() const { return round_; }
    // Whether the next player out finishes just outside the prizes, with more than one table.
    bool at_bubble() const;
    // The terms of a deal by `method` among the players still in, from their stacks now.
    // Errc::illegal_action while a hand is being played or once the tournament is over;
    // Errc::bad_config with more than kMostDealPlayers still in.
    Result<DealTerms> deal_terms(DealMethod method) const;
    // Ends the tournament by the terms every player still in agreed to (deal_terms, with nothing
    // changed since): they take places 1, 2, ... in the terms' order, each with the terms' prize
    // (`won`: the first; `out`: the rest, best place first). Nothing changes unless the terms are
    // those deal_terms gives now (Errc::illegal_action).
    Result<Outcome> end_by_deal(const DealTerms& terms);
    bool finished() const { return remaining_ <= 1 && !finishes_.empty(); }
    // Every finish so far: players out, then the winner.
    const std::vector<Finish>& finishes() const { return finishes_; }
    Chips stack(int player) const;
    // Chips in play: every stack, counting those dealt into hands being played.
    Chips chips() const;

  private:
    struct Player {
        int id = 0;
        Chips stack{};
        bool waiting = false; // moved in between the button and the big blind
        Chips pending{};      // bought during their hand: added when it ends
    };
    // Whether a seated player sits the next hand out: waiting for the button, or out of chips.
    bool sits_out(int id) const;
    const Player* in_play(int id) const; // a player still in, or null
    bool player_in_hand(int id) const;   // dealt into a hand being played
    void recompute_prizes();
    // An entry, rebuy or add-on bought: its price to the pool (the guarantee its least).
    void bought();
    void close_entries(Outcome& out);
    void free_seat(int id);
    struct Table {
        bool in_hand = false;
        bool breaking = false;
        Blinds dealt;               // the blinds of the hand being played
        std::vector<Chips> started; // by seat: the stacks dealt in
        int round = 0;              // the hand-for-hand round it last dealt in
    };
    std::size_t index_of(int table) const; // tables_.size() when there is none
    // The blinds of table i's next hand, leaving out players who wait.
    Blinds next_blinds_at(std::size_t i) const;
    void arrive(const Move& m);
    void settle_breaks(Outcome& out);
    // Players out of a hand (or a round), placed together; the winner once one is left.
    void place_out(std::vector<Out> outs, Outcome& out);
    // Whether the hand-for-hand round is over: every table that can deal has played its hand.
    bool round_over() const;
    // Ends the round: its players out placed, tables broken and balanced; the next round, or
    // free play once the bubble has burst.
    void end_round(Outcome& out);

    Rules rules_;
    std::vector<TableSeats> tables_;
    std::vector<Table> state_; // beside tables_, index for index
    std::unordered_map<int, Player> players_;
    std::vector<Chips> prizes_;
    std::vector<Finish> finishes_;
    int remaining_ = 0;
    int entrants_ = 0;
    std::uint64_t draws_ = 0; // breaks made, for each its own draw
    int round_ = 0;           // hand-for-hand's round; 0: none
    std::vector<Out> round_outs_;
    bool entry_open_ = false;
    Chips pool_{};
    std::vector<Bust> busts_;
    std::vector<int> add_ons_;
    long hands_ended_ = 0;
};

} // namespace felt::tournament
