// Leap rummy, the whole game, as a pure reducer: start_game() deals from a shuffled deck given by
// the caller; apply() takes a state and an action and returns the next state with its events, or
// a typed error and no change.
//
// A turn: the player to act pursues (draws up to two cards from the top of the stock) or retires
// for good. After pursuing they may make one melding action (a new meld, or cards added to their
// own melds, with joins), then discard one card to the bottom of the stock unless their hand is
// empty. The game ends when every player has retired.
#pragma once

#include "chips.h"
#include "leap/leap.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace felt::leap {

// Where the player to act stands in their turn.
enum class Phase : std::uint8_t {
    turn,    // to pursue or retire
    melding, // drawn: may meld once, then discards
    over,    // everyone has retired
};

// The stock as a ring: drawn from the top, discards go under the bottom.
class Stock {
  public:
    // The ring holds `capacity` cards (the whole deck), so that every discard fits under it.
    void reset(std::span<const Card> cards, int capacity);
    int size() const { return size_; }
    Card top() const { return ring_[static_cast<std::size_t>(head_)]; }
    Card at(int i) const; // i-th from the top
    Card draw();
    void put_bottom(Card c);

  private:
    std::vector<Card> ring_; // capacity: the whole deck
    int head_ = 0;
    int size_ = 0;
};

struct PlayerState {
    std::vector<Card> hand;
    int leap = 0;            // leaptoken held (0: none)
    LeapMask leaps_used = 0; // leaps of the player's melds (for the alternative rule)
    bool retired = false;
    int retired_score = 0; // fixed when the player retires
};

struct State {
    std::shared_ptr<const Table> table;
    Phase phase = Phase::turn;
    int to_act = 0;
    int dealer = 0;
    bool melded = false; // this turn
    long turn = 0;       // turns begun, from 1
    Stock stock;
    std::vector<PlayerState> players;
    std::vector<Meld> melds;
    int next_meld_id = 1;
    std::array<std::int8_t, kMaxLeaps + 1> holder{}; // leaptoken k's holder, -1 free
};

enum class ActionType : std::uint8_t { pursue, retire, meld, extend, discard };

// Cards for one of the player's melds. Either `low` and `high` (cards before its first card and
// after its last, each in sequence order), or `cards` in any order for the engine to place. With
// `join`, the result must run into that meld of the player's, and becomes one meld with it.
struct Extension {
    int meld = 0;
    std::vector<Card> low, high, cards;
    int join = 0; // meld id; 0: none
};

struct Action {
    ActionType type = ActionType::pursue;
    int seat = -1;
    std::vector<Card> cards;           // meld: its cards, any order
    int leap = 0;                      // meld: the leap to lay it in, when several fit (0: any)
    std::vector<Extension> extensions; // extend: applied in order
    Card card{};                       // discard
};

enum class EventType : std::uint8_t {
    dealt,      // cards: the seat's hand (the seat's eyes only); count public
    drew,       // cards: drawn (the seat's eyes only); count public
    melded,     // meld: the new meld's id; cards: its cards in order
    took_token, // leap: the leaptoken the seat now holds
    extended,   // meld: id; cards: the meld's cards after the extension, in order
    joined,     // meld: the surviving id; other: the id that joined it
    discarded,  // card to the bottom of the stock (the seat's eyes only)
    retired,    // score: the seat's final score
    game_over,
};

struct Event {
    EventType type = EventType::game_over;
    std::int8_t seat = -1;
    bool private_cards = false; // the cards are for `seat` alone; the rest is public
    std::uint8_t count = 0;
    int meld = 0;
    int other = 0;
    int leap = 0;
    int score = 0;
    std::vector<Card> cards;
};

struct Applied {
    State state;
    std::vector<Event> events;
};

// Deals `hand_size` cards to each player, one at a time from left of the dealer; the rest is the
// stock, top first. `deck` must be a permutation of table->deck().cards().
Result<Applied> start_game(std::shared_ptr<const Table> table, int dealer,
                           std::span<const Card> deck);

Result<Applied> apply(const State& state, const Action& action);

// In place, for simulations: on error `state` and `events` are unchanged.
std::optional<Error> apply_in_place(State& state, const Action& action, std::vector<Event>& events);

// What a meld or an extension by `action.seat` would do, asked at any time and changing nothing:
// the engine's answer as if it were that player's melding phase now, with the hand they hold. A
// retirement is answered as if at the start of their turn: points_after is the score they would
// retire with (their melds less the cards left in hand).
struct Preview {
    std::optional<Error> error;  // why the engine would refuse it; then only `leaps` is filled
    bool now = false;            // the player could make it this moment (their melding phase)
    LeapMask leaps = 0;          // a meld: every leap its cards run along
    int leap = 0;                // a meld: the leap it would be laid in
    std::vector<Meld> melds;     // the player's melds it would make or change, as they would be
    std::vector<int> joined;     // melds it would join into others (their ids)
    std::vector<int> could_join; // an extension without `join`: melds of the player's it would
                                 // also run into, so that naming one as `join` conjoins them
    int points_before = 0, points_after = 0;
};
Preview preview(const State& state, const Action& action);

// The leaps a seat may lay a new meld in: its own leaptoken's, or every leap no one holds before
// its first meld; under the alternative rule, the leaps it has not used.
LeapMask open_leaps(const State& state, int seat);

// The public score: meld points, less the hand's face values once the player has retired.
int score(const State& state, int seat);

// Chips after a game played for `per_point` chips a point, by seat: every pair of players settles
// the difference of their scores, pair by pair in seat order (0-1, 0-2, ..., 1-2, ...), and a
// player who runs out pays what they have left. With stacks deep enough, a seat's net is
// per_point x (n x its score - the sum of all scores). Chips are conserved; none goes negative.
std::vector<Chips> settle_chips(std::span<const int> scores, std::span<const Chips> stacks,
                                Chips per_point);

// What one seat may see (seat -1: a spectator): no stock order, no other hand.
struct View {
    int seat = -1;
    Phase phase = Phase::turn;
    int to_act = -1;
    std::vector<Card> hand; // the seat's own
    std::vector<int> hand_sizes;
    std::vector<bool> retired;
    std::vector<int> scores;
    int stock_size = 0;
    std::vector<Meld> melds;
    std::vector<int> token_holders; // by leap, from leap 1; -1 free
};
View view_for(const State& state, int seat);

// Every card's place: stock, hands and melds together, as counts per card code.
std::array<int, 256> card_census(const State& state);

} // namespace felt::leap
