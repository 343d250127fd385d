// A game, as a table sees it. The table (tables/table.h) owns everything a game has in common:
// seats, watchers, buy-ins and cash-outs, the clock and time banks, sitting out, the dealer's
// rotation, the commitment and reveal, the hand's row in storage and one publish with one
// visibility filter. A game supplies the rules: it starts a hand from the seats and a shuffled
// deck, applies a seat's action, says what each seat may see, acts for a seat that timed out or
// left, and settles. A game does no I/O, reads no clock and draws no random numbers; its messages
// come from protocol/.
//
// A new game is a Game, a Hand, its codec in protocol/ and a line in tables/games.cpp.
#pragma once

#include "accounts/account.h"
#include "cards/deck.h"
#include "cards/types.h"
#include "protocol/fairness.h"
#include "protocol/messages.h"
#include "protocol/refusal.h"
#include "protocol/told.h"
#include "storage/store.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace felt::server {

using protocol::json;
using protocol::Outcome;
using protocol::Refusal;

inline constexpr int kMaxTableSeats = 9; // the most any game seats (poker: 9)

// A seat at a table, 0 to kMaxTableSeats - 1. A strong type: a seat is never an engine's player
// number (leap rummy numbers its players from the dealer's left, Chinese poker by the players
// dealt in), a count or an amount by accident. Games convert where they meet their engine.
class Seat {
  public:
    constexpr explicit Seat(int index) : index_(index) {}
    constexpr int index() const { return index_; }
    // For arrays indexed by seat.
    constexpr std::size_t at() const { return static_cast<std::size_t>(index_); }
    friend constexpr auto operator<=>(Seat, Seat) = default;

  private:
    int index_;
};

inline void to_json(json& j, Seat s) {
    j = s.index();
}

// Seats as the protocol writes them.
inline std::vector<int> indices(const std::vector<Seat>& seats) {
    std::vector<int> out;
    for (Seat s : seats) out.push_back(s.index());
    return out;
}

// The seats of a table, for `for (Seat s : seats_of(n))`.
inline std::vector<Seat> seats_of(int count) {
    std::vector<Seat> out;
    for (int i = 0; i < count; ++i) out.emplace_back(i);
    return out;
}

// An engine's message in a player's words: each "seat N" in it (the engine's player N, which
// `seat_of` maps to a table seat, or not) becomes the player's name and seat as people count
// them, from 1: "it is seat 1's turn" at a poker table reads "it is ann (seat 2)'s turn".
std::string seat_words(const std::string& message,
                       const std::function<std::optional<Seat>(int player)>& seat_of,
                       std::span<const std::string> names);

// What a table's game fixes about its seats and pace.
struct Limits {
    int seats = 6;
    Chips min_buy_in{}, max_buy_in{};
    int sit_out_after = 3;     // deals a disconnected player misses before being sat out
    int hand_delay_ms = 1'000; // pause between hands
    int time_bank_ms = 0;      // a seat's time bank when it sits down (0: none)
    int showdown_delay_ms = 0; // pause after a hand that ended in a showdown (End::showdown)
};

// One message to everyone watching a table, written once for everyone and once for each seat whose
// copy differs (protocol/told.h): a JSON message with seats' own parts merged in
// (protocol::JsonTold), or poker's update written straight to text (protocol::UpdateText).
using Told = std::unique_ptr<protocol::Told>;

// A seat's part in a finished hand: its stack before and after.
struct SeatResult {
    Seat seat;
    Chips start, end;
};

// A finished hand. The table writes it, sets the stacks, and tells everyone `message` with every
// seat's stack and the fairness reveal added; or, when `void_reason` is set (a bug: nobody loses
// a chip), voids it instead. The reveal opens a card to whoever saw it, by its position in the
// deck as dealt (`seen`, protocol/fairness.h): everyone (the board, up cards, shown hands,
// melds), or the seats that held it; the rest (mucked cards, the stock) stays sealed.
struct End {
    std::vector<SeatResult> results;
    std::vector<std::string> log; // every event with every card, for the history
    json message;                 // hand_end, deal_end or game_end
    const char* void_reason = nullptr;
    std::vector<protocol::Sight> seen; // by deck position; past its end: seen by nobody
    bool seed_used = false;            // the reshuffle seed reordered the discards
    bool showdown = false; // hands were shown: the next hand waits Limits::showdown_delay_ms
    // Each player's line for the statistics (docs/stats.md), by seat; the table adds the account.
    std::vector<std::pair<int, StatsRow>> stats;
    // What the next hand at this table starts from besides the seats (Deal::carry): open-face's
    // Fantasyland. Kept once the hand is settled; a void hand keeps the one before.
    json carry;
    // The next hand keeps this hand's dealer, if still dealt in (open-face, while anyone is in
    // Fantasyland).
    bool hold_button = false;

    // A hand that cannot go on (a bug): void, and nobody loses a chip.
    static End voided(const char* reason) {
        End e;
        e.void_reason = reason;
        return e;
    }
};

// Messages told after a pause, as the streets of an all-in's run-out.
struct Paced {
    int ms = 0;
    std::vector<Told> told;
};

// The odds of an all-in's run-out (tables/run_out_odds.h): work for another thread, a street at
// a time so that each is told as soon as it is known, then the all-in EV.
struct RunOutOdds {
    // Parts of the run-out as told: 0, the last of `told`, which showed the hands; then each of
    // `paced`. part(k): its `odds` message, or null where there is nothing to tell.
    std::size_t parts = 0;
    std::function<json(std::size_t part)> part;
    // A record for the hand's log ({"kind":"all_in_ev",...}), or empty.
    std::function<std::string()> all_in_ev;
};

// What a step of a hand (its deal, an action, a time-out, a seat leaving) caused.
struct Step {
    std::vector<Told> told;
    std::vector<Seat> missed; // seats the clock played for
    std::optional<End> end;
    // With `end` only: told one after another after their pauses, then the hand ends.
    std::vector<Paced> paced;
    // With `end` only: the run-out's odds, to work out on Services::odds; the hand ends once
    // they are known too, with the all-in EV in its log.
    std::optional<RunOutOdds> odds;

    void tell(json message) {
        told.push_back(std::make_unique<protocol::JsonTold>(std::move(message)));
    }
    void append(Step&& later);
};

// The clock a running hand wants. A new `key` starts a fresh clock of `ms`; the same key keeps the
// one running (a leap rummy turn spans two decisions). `seat`, if any, may spend its time bank.
struct Clock {
    long key = 0;
    int ms = 0;
    std::optional<Seat> seat;
};

// A tournament's hand (tables/host.h): the level's stakes, who posts the blinds where the dead
// button puts them, and whether fixed limit's cap holds heads-up.
struct TournamentDeal {
    std::int64_t tournament = 0;
    int level = 1;
    Chips small_blind{}, big_blind{}, ante{}, big_blind_ante{};
    Chips small_bet{}, big_bet{}, bring_in{};
    int small_blind_seat = -1; // -1: a dead small blind
    int big_blind_seat = -1;
    bool cap_heads_up = true;
    int hand_for_hand = 0; // the round of hand-for-hand play on the bubble; 0: none
    // A mixed tournament: this hand's game, which the stakes above are for (empty: the table's).
    std::string variant, structure;
};

// What a hand is dealt from.
struct Deal {
    int number = 0;                                // hands dealt at the table, this one included
    Seat dealer{0};                                // the dealer's (or button's) table seat
    std::vector<Seat> seats;                       // dealt in, in table order
    std::array<Chips, kMaxTableSeats> stacks{};    // by table seat; 0: not dealt in
    std::array<std::string, kMaxTableSeats> names; // by table seat
    std::optional<TournamentDeal> tournament;      // a tournament's table: its hand
    json carry; // what the last hand settled at this table left for this one (End::carry)
};

class Hand;

// A hand prepared from a shuffled deck, not yet dealt: what the commitment reveals (the deck and
// any reshuffle seed as text) and what the hand's row records beside the table's configuration.
struct Started {
    std::unique_ptr<Hand> hand;
    std::string deck, seed;
    json record;
};

// One running hand (a deal, a game): pure state and rules.
class Hand {
  public:
    virtual ~Hand() = default;
    // The messages that deal the hand, once its row (hand_id) is written.
    virtual Step deal(std::int64_t hand_id, const std::string& commitment) = 0;
    // Whether the seat was dealt in and is still to play (folded poker seats are not).
    virtual bool in(Seat seat) const = 0;
    // The seat's `act` request: a refusal (nothing changes), or what it caused.
    virtual Outcome<Step> act(Seat seat, const json& body) = 0;
    // The clock ran out (on the key clock() named).
    virtual Step time_out() = 0;
    // The seat's player is leaving: the hand acts for it whenever it is to act, starting now.
    virtual Step leave(Seat seat) = 0;
    // The clock the hand wants now; key 0: none.
    virtual Clock clock() const = 0;
    // The seat's fields in a snapshot for `viewer` (none: a spectator).
    virtual void seat_view(Seat seat, std::optional<Seat> viewer, json& j) const = 0;
    // The hand in a snapshot for `viewer`, added to `out`; `deadline_ms`: the clock's time left.
    virtual void view(std::optional<Seat> viewer, int deadline_ms, json& out) const = 0;
};

// A table's game: its configuration and rules, and the hands it starts.
class Game {
  public:
    virtual ~Game() = default;
    // For the lobby and the database.
    virtual json config() const = 0;
    // For the log: "no-limit holdem", "chinese classic".
    virtual std::string describe() const = 0;
    virtual Limits limits() const = 0;
    // What a hand is called in messages: "hand", "deal", "game".
    virtual const char* hand_noun() const { return "hand"; }
    // The chips a stack needs to be dealt in; a stack below it is cashed out after a hand.
    virtual Chips stake_needed() const { return Chips(1); }
    // A card as this game writes it ("As", "Xx"; a leap rummy pack may label its ranks 0 to 16).
    virtual std::string card_text(Card c) const { return Deck::standard().to_string(c); }
    // A fresh deck for the deal, in order; the table shuffles it.
    virtual std::vector<Card> deck(const Deal& d) const = 0;
    // Prepares a hand from the deal, the shuffled deck and a random seed (for a game that
    // reshuffles). An error is a bug or a configuration that cannot deal: no hand starts.
    virtual Outcome<Started> start(const Deal& d, std::vector<Card> deck,
                                   std::uint64_t seed) const = 0;
    // The seat's fields in a snapshot when no hand is running.
    virtual void idle_seat_view(Seat, json&) const {}
    // A `preview` request from a seat, with the running hand, if any: the engine's verdict on
    // what the seat is arranging (a split, a meld), changing nothing.
    virtual Outcome<json> preview(const Hand*, Seat, const protocol::Request&) const {
        return {std::nullopt, Refusal{"no_preview", "this table's game has nothing to preview"}};
    }
    // A `hint` request from a seat, with the running hand, if any.
    virtual Outcome<json> hint(const Hand*, Seat, const protocol::Request&) const {
        return {std::nullopt, Refusal{"no_hints", "this table's game gives no hints"}};
    }
};

} // namespace felt::server
