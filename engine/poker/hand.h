// One hand of a betting game (betting.md): deal, betting rounds, draws and rollovers, showdown.
//
// Pure: a HandConfig (variant, structure, stakes, ranking, seats, stacks, button, deck order)
// starts a HandState; legal_actions() says who acts and what they may do; apply() returns the
// next state and the events the action caused, or a typed error that changes nothing. Dealing,
// returning uncalled bets, showdown and awarding pots happen inside apply() as soon as no player
// decision stands before them. The engine shuffles nothing: the deck order is an input, and a
// draw that empties the stock reorders the discards with a permutation of `reshuffle_seed`.
#pragma once

#include "cards/types.h"
#include "poker/pots.h"
#include "poker/variant.h"
#include "rankings/ranking.h"
#include "result.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace felt::poker {

enum class Structure : unsigned char { no_limit, pot_limit, fixed_limit };

// Fixed-limit stud's fourth street when a player still in shows a pair among their up cards
// (betting.md): `big_bet`, the source's rule, makes bets and raises the big bet; `choice`, the
// casino custom, lets the street's first bettor choose the small or the big bet, and raises
// follow that choice; `off` changes nothing. Streets marked open_pair only (stud, Mexican stud).
enum class OpenPair : unsigned char { off, big_bet, choice };
std::string_view open_pair_name(OpenPair rule); // "off", "big_bet", "choice"
std::optional<OpenPair> parse_open_pair(std::string_view name);

// Fixed limit: the streets that bet the big bet. `marked`: those the variant marks (stud: from
// fifth street, as card rooms play it); `last`: the final betting interval only (stud's older
// custom: "twice as much in the final betting interval as in previous betting intervals").
enum class BigBetFrom : unsigned char { marked, last };
// As tables and histories name them for stud: "fifth", "seventh".
std::string_view big_bet_from_name(BigBetFrom rule);
std::optional<BigBetFrom> parse_big_bet_from(std::string_view name);

struct Stakes {
    Chips ante{};                  // every player, unless seat_antes is set
    std::vector<Chips> seat_antes; // per seat (a big-blind ante); overrides `ante`
    // Antes are dead money: all of them go to the main pot, which every player still in may win,
    // and a bet is matched without them (the big-blind ante's custom; PHH's ante_trimming_status
    // false). Otherwise each ante counts at its level, as any chip put in (a short ante makes a
    // side pot).
    bool dead_antes = false;
    Chips small_blind{}, big_blind{}; // blinds; both 0 for a game without blinds
    std::vector<Chips> straddles;     // blinds after the big blind, posted by the seats in turn
                                      // left of it; the first round starts left of the last
    Chips bring_in{};                 // stud: the lowest up card's forced bet (0: none)
    Chips small_bet{}, big_bet{};     // fixed limit: the bets of early and late streets
    Chips min_bet{};    // no and pot limit: the smallest bet (0: the big blind, else small_bet)
    int max_raises = 3; // fixed limit: raises after the bet in one round
};

struct Rake {
    int percent = 0;             // of each pot, rounded down
    Chips cap{};                 // per hand; 0: no cap
    bool no_flop_no_drop = true; // no rake when the hand ends in its first betting round
};

struct HandConfig {
    const Variant* variant = nullptr;
    Structure structure = Structure::no_limit;
    Stakes stakes;
    Rake rake;
    std::shared_ptr<const Ranking> ranking; // standard (with its wild option) or vertical
    int max_discard = 5;                    // draw games: the table's most cards one may discard
    int seats = 0;                          // 2..9 (2..8 for stud), seat numbers 0..seats-1
    std::array<Chips, kMaxSeats> stacks{};  // 0: no player in the seat this hand
    int button = 0;
    std::vector<Card> deck; // dealt from the front
    std::uint64_t reshuffle_seed = 0;
    OpenPair open_pair = OpenPair::big_bet;
    // Fixed limit: from which street the big bet is bet (BigBetFrom); stud's custom is asked only
    // of the variants whose streets mark an open pair (stud, Mexican stud).
    BigBetFrom big_bet_from = BigBetFrom::marked;
    // Omaha: hole cards each, 4, 5 or 6 (at most six seats with six); 0: the variant's four.
    int hole_cards = 0;
    // Draw streets played (shrinking draw's table option): the hand ends after the last of them;
    // 0: every one the variant has.
    int draws = 0;
    // The seats that post the blinds where a tournament's dead button places them: with
    // big_blind_seat set (>= 0), small_blind_seat is the small blind's seat, or -1 for a dead small
    // blind (none this hand). -1 and -1: the first seats in the hand left of the button, as cash
    // tables do (heads-up, the button posts the small blind).
    int small_blind_seat = -1;
    int big_blind_seat = -1;
    // Fixed limit: the raise cap holds with two players left in the hand too (a tournament, until
    // the tournament itself is heads-up); otherwise it is lifted when two are left.
    bool cap_heads_up = false;
    // Bit per seat: a hand whose cards nobody knows (a replayed history that never showed them;
    // the deck holds stand-ins). At showdown it shows nothing, loses to every other hand and ties
    // with the other unknown ones.
    std::uint16_t unknown_hands = 0;
};

enum class Visibility : unsigned char { everyone, owner, nobody };

enum class EventType : unsigned char {
    ante,
    blind,
    bring_in, // forced bets: amount
    deal_down,
    deal_up,
    deal_board, // cards
    fold,
    check,
    call,
    bet,
    raise,  // amount: chips added (call) or total bet to (bet, raise)
    all_in, // follows the action that put the seat all in
    discard,
    receive,
    rollover,  // cards; discards and receipts are the owner's
    reshuffle, // the discards become the stock (number: its size)
    street,    // a new street begins (number: its index)
    uncalled,  // chips returned to a seat
    show,      // cards shown at showdown (number 1: at once, before the cards still to come)
    rake,      // chips taken from a pot (amount)
    win,       // amount won from pot `pot`
    hand_end,
};

struct Event {
    EventType type;
    std::int8_t seat = -1;                        // -1: the table
    Visibility visibility = Visibility::everyone; // of the cards; everything else is public
    std::uint8_t count = 0;                       // cards
    std::int8_t pot = -1;
    std::array<Card, 9> cards{};
    Chips amount{};
    // Not chips: street: its index; reshuffle: the new stock's size; discard, rollover, receive:
    // the cards moved. The protocol writes it as `amount`.
    std::int16_t number = 0;
};

enum class ActionType : unsigned char {
    fold,
    check,
    call,
    bet,
    raise,
    bring_in,
    discard,
    rollover
};

struct Action {
    ActionType type;
    int seat = -1;
    Chips amount{};          // bet and raise: the total this round the seat bets to
    std::vector<Card> cards; // discard: the cards thrown; rollover: the cards turned up
};

enum class Phase : unsigned char { betting, drawing, rollover, done };

// Who acts and what they may do.
struct Legal {
    Phase phase = Phase::done;
    int seat = -1;
    bool fold = false, check = false, call = false, bet = false, raise = false, bring_in = false;
    Chips call_amount{};      // chips the call adds (less than owed when all in)
    Chips min_to{}, max_to{}; // bet or raise: totals this round
    bool two_sizes = false;   // min_to or max_to, nothing between: the open pair's choice
    Chips bring_in_amount{};
    int min_discard = 0, max_discard = 0;
    bool stand_pat = false; // drawing: discarding nothing is allowed too, whatever min_discard
    int rollover = 0;       // cards to turn up
};

struct SeatState {
    Chips stack{};
    Chips bet{};          // this round
    Chips total{};        // this hand
    bool in_hand = false; // dealt in
    bool folded = false;
    bool acted = false;     // this round
    int raises_seen = 0;    // full raises of the round when the seat last acted
    std::uint8_t count = 0; // cards held
    std::uint16_t up = 0;   // bit per card: face up
    std::array<Card, 16> cards{};
    bool all_in() const { return in_hand && !folded && stack == 0; }
    bool live() const { return in_hand && !folded; }
};

struct HandState {
    std::shared_ptr<const HandConfig> config;
    std::array<SeatState, kMaxSeats> seats{};
    std::array<Card, 8> board{};
    int board_count = 0;
    int next_card = 0;             // in the stock (config->deck, then the reshuffled discards)
    std::vector<Card> stock_extra; // after a reshuffle: the new stock
    std::vector<Card> discards;
    int street = 0, step = 0;  // the current street and the step to do next
    bool betting_done = false; // the current street's betting round is over
    Phase phase = Phase::betting;
    int actor = -1;
    Chips current_bet{};   // highest bet this round
    Chips last_raise{};    // size of the largest bet or raise this round
    int bets = 0;          // fixed limit: bets and raises this round
    Chips unit{};          // fixed limit: this round's bet (0: the first bettor chooses)
    int full_raises = 0;   // bets and full raises this round
    int rounds_played = 0; // betting rounds completed
    bool bring_in_pending = false;
    int live = 0;            // seats dealt in and not folded
    int big_blind_seat = -1; // the first round starts left of it
    Chips raked{};
    std::array<Chips, kMaxSeats> won{};
    bool shown = false; // every live hand was shown at once: no more betting could happen
    Legal legal;        // what the player to act may do: legal_actions()
};

// A configuration from names, as tools and tables give them: variant (builtin_variant_names()),
// structure ("no-limit", "pot-limit", "fixed-limit"), ranking ("standard" or "vertical"; a mixed
// game plays its own, which "standard" names too), wild (standard only: parse_wild's names),
// seats (2 to the variant's most); of `options`, trips_beat_straight (short deck). The deck is
// the ranking's cards in order; stakes, stacks and button are left for the caller. Errors:
// bad_option.
Result<HandConfig> named_config(std::string_view variant, std::string_view structure,
                                std::string_view ranking, std::string_view wild, int seats,
                                const RankingOptions& options = {});

// Starts a hand: checks the configuration, posts antes and blinds, deals the first street.
struct Applied {
    HandState state;
    std::vector<Event> events;
};
Result<Applied> start_hand(std::shared_ptr<const HandConfig> config);
// The same into a state and an event list the caller keeps from hand to hand (for simulations:
// no state is copied and no list allocated). `state` becomes the new hand's and `events` holds
// just its events; on error both are unchanged.
std::optional<Error> start_hand_in_place(std::shared_ptr<const HandConfig> config, HandState& state,
                                         std::vector<Event>& events);

const Legal& legal_actions(const HandState& state);

// The next state and its events, or an error naming the problem; the given state is untouched.
Result<Applied> apply(const HandState& state, const Action& action);

// In place, for simulations: on error `state` and `events` are unchanged.
std::optional<Error> apply_in_place(HandState& state, const Action& action,
                                    std::vector<Event>& events);

// The cards a showdown hand plays, for showing it in words: `high` every card of the hand and the
// board, or in Omaha the best two of the hole cards with three of the board; `low` in a hi-lo
// game the five of the best qualifying ace-to-five low, empty when there is none.
struct ShowdownCards {
    std::vector<Card> high, low;
};
ShowdownCards showdown_cards(const HandConfig& c, std::span<const Card> hole,
                             std::span<const Card> board);

// Every chip of the hand: stacks, chips committed and not yet paid out, and the rake. It never
// changes from the start of the hand to its end.
Chips chips_in_play(const HandState& state);

// The index of the hand's last street: the variant's last, or with HandConfig::draws the one that
// holds that draw.
int final_street(const HandConfig& c);

// A seat's ante as configured (its own, or everyone's).
Chips ante_of(const HandConfig& c, int seat);
// With dead antes (Stakes::dead_antes): takes what each seat paid as its ante out of its total
// (`totals`, by seat) and returns their sum, the main pot's dead money; else changes nothing and
// returns 0.
Chips take_dead_antes(const HandConfig& c, std::array<Chips, kMaxSeats>& totals);

} // namespace felt::poker
