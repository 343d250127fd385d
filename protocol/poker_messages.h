// The poker table's messages: the names of the betting engine's events and actions (one table
// each), and an event as one recipient may see it.
#pragma once

#include "poker/draw_advice.h"
#include "poker/hand.h"
#include "protocol/refusal.h"
#include "protocol/told.h"
#include "rankings/ranking.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt::protocol {

using json = nlohmann::json;

// "ante", "deal_down", ..., as docs/betting.md names them.
const char* event_name(poker::EventType t);
// "fold", "check", "call", "bet", "raise", "bring_in", "discard", "rollover".
const char* action_name(poker::ActionType t);
std::optional<poker::ActionType> parse_action_type(std::string_view name);

// An `act` at a poker table, for `seat`: {"action": "raise", "amount": 40}, {"action": "discard",
// "cards": "2c 7d"}. Refusals: bad_request (no such action, a field of the wrong type) and
// bad_card. Whether the action is legal is the engine's to judge.
Outcome<poker::Action> parse_poker_action(const json& body, int seat, const Ranking& r);
// What the seat to act may do (docs/protocol.md, `legal`).
json legal_json(const poker::Legal& l);

// Whether the seat (-1: a spectator) may see the event's cards.
bool visible_to(const poker::Event& e, int seat);
// An event as JSON: its kind, seat, amount, pot and card count, and the cards when shown.
json event_json(const poker::Event& e, const Ranking& r, bool show_cards);

// The table messages of a poker hand (docs/protocol.md, "Table messages"), without the envelope
// (type, table, seq), which the table adds.
json hand_start_json(int hand, std::int64_t hand_id, int button, std::span<const Chips> stacks,
                     const std::string& commitment);
// An `update` as `seat` (-1: a spectator) sees it: the batch's events, and `turn` when someone
// is to act next, with what they may do in their own copy. The clock's fields in `turn` are the
// table's to add. The table sends UpdateText's text (below); this tree, with add_show_categories
// and own_update, is the slow reference that text is checked against.
json update_json(std::span<const poker::Event> batch, const poker::Legal* turn, const Ranking& r,
                 int seat);
// Names what each `show` event of `batch` makes with the board (the ranking's category:
// "full_house", or "v41" in vertical melds), in the update built from that batch.
void add_show_categories(json& update, std::span<const poker::Event> batch,
                         const poker::HandState& s, const Ranking& r);
// What a `show` event's cards make with the board: its category, and in words with the kickers
// that tell it from the other hands shown (Ranking::showdown_words; empty where the ranking has
// none).
struct ShownHand {
    std::string category;
    std::string made;
    std::string low; // a hi-lo game's qualifying low in words ("an eight-seven low"), or empty
};
// For each event of the batch: what a `show` makes with the board of `s`, beside the batch's
// other shows; nothing for another event or a hand the ranking cannot judge.
std::vector<std::optional<ShownHand>> show_categories(std::span<const poker::Event> batch,
                                                      const poker::HandState& s, const Ranking& r);
// What `seat`'s update has that a spectator's lacks, to be merged into the spectator's
// (protocol::dump_over): the events with its own cards, when the batch deals it some, and
// {"turn": {"legal": ...}} when it is to act. Null when it sees only what a spectator sees.
json own_update(std::span<const poker::Event> batch, const poker::Legal* turn, const Ranking& r,
                int seat);
json hand_end_json(int hand, std::int64_t hand_id, std::span<const Chips> net);

// An update written straight to text, for everyone (seat -1) and for each seat: the text that
// json::dump() writes for update_json(batch, turn, r, -1) with `pots` and the categories of the
// hands shown at a showdown (add_show_categories), the stamp's members and, for a seat, its
// own_update merged in (dump_over). Built once a batch; each text then costs one pass, with no
// tree built, serialised and freed for every message.
class UpdateText final : public Told {
  public:
    // `pots`: the pots after a betting round, as pots_json; `s` the hand after the batch.
    UpdateText(std::span<const poker::Event> batch, const poker::Legal* turn, const Ranking& r,
               const poker::HandState& s, std::optional<json> pots);
    // Whether the seat's copy differs from everyone's: own_update is not null.
    bool own(int seat) const override;
    std::string write(const Stamp& stamp, int seat) const;

    void stamp(const Stamp& s) override { stamp_ = s; }
    std::string write(int seat) const override { return write(stamp_, seat); }
    // The events as `seat` (-1: a spectator) sees them: a JSON array.
    std::string events(int seat) const;

  private:
    struct Shown {
        poker::Event event;
        std::string cards;                   // when its cards may be shown
        std::optional<std::string> category; // a hand shown at the showdown: what it makes
        std::optional<std::string> made;     // ... in words, where the ranking has them
        std::optional<std::string> low;      // ... and its qualifying low in a hi-lo game
    };
    std::vector<Shown> events_;
    std::optional<int> turn_seat_; // whose turn it is, when it is someone's
    std::string legal_;            // what the seat to act may do, as text
    std::optional<std::string> pots_;
    Stamp stamp_;
};

// The answer to five-card draw's `hint`: the first `count` exchanges, best first, each the cards
// to discard, how many, the expected share of five-card hands beaten and the draws counted.
json draw_hint_json(const Ranking& r, std::span<const Card> hand,
                    std::span<const poker::DrawOption> options, std::size_t count);

// An exchange as a finished hand's history shows it: the cards thrown, the cards that would have
// come, the hand made and its category.
json best_exchange_json(const Ranking& r, std::span<const Card> hand, const poker::Exchange& x);
// The pots as they stand in the middle: the chips of past betting rounds (this round's bets are
// still in front of the seats), cut into the main pot and side pots as the hand's end will cut
// them, each with the seats that can win it.
json pots_json(const poker::HandState& s, int seats);
// A snapshot's fields for a seat dealt into the hand (`own`: the recipient's seat, whose cards
// all show), and for the hand.
void seat_view_json(const poker::SeatState& p, bool own, const Ranking& r, json& j);
json hand_view_json(int hand, int button, const poker::HandState& s, const Ranking& r);

// The hand's record for the history, one line an entry: every event with every card and who may
// see them; and an accepted action, by "player" or "server". A discard's cards are its owner's.
std::string event_record(const poker::Event& e, const Ranking& r);
std::string action_record(const poker::Action& a, const Ranking& r, const char* by);

} // namespace felt::protocol
