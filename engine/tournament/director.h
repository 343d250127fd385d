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
    Chips pool{}; // the prize pool: entries times the buy-in
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

// What a finished hand changed.
struct Outcome {
    std::vector<Finish> out;   // players knocked out, best place first
    std::vector<Move> moves;   // players moved to other tables, in order
    std::vector<int> broken;   // tables broken (ids)
    std::optional<Finish> won; // the winner, when the tournament ended with this hand
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
    };
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
};

} // namespace felt::tournament
