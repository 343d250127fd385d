// The history of played hands, for the history API (HTTP and WebSocket): the answers, made from
// the rows storage reads (storage/store.h). Hidden cards are shown only to the player who held
// them; cards shown at showdown are public.
#pragma once

#include "protocol/messages.h"
#include "storage/store.h"

#include <cstdint>
#include <optional>
#include <string>

namespace felt::server::history {

using protocol::json;

// What a history request asks, over WebSocket and HTTP alike.
struct Query {
    std::string type;        // my_hands, my_tournaments, hand, hand_phh, table_hands or totals
    std::int64_t id = 0;     // the hand (hand, hand_phh) or the table (table_hands)
    std::int64_t before = 0; // my_hands: hands below this id (0: from the newest)
    int limit = 20; // my_hands, my_tournaments, table_hands: 1 to 100 (out of it: the nearest, 0
                    // the 20)
    std::optional<std::string> name; // totals, stats: whose (none: the asker's)
    StatsFilter filter;              // stats: which of the asker's hands
    std::vector<std::string> names;  // opponent_stats: whom (1 to 10)
    HandSearch search;               // hand_search: which of the asker's hands
};

// The one reader of a history request's parameters: a WebSocket request as it came, or an HTTP
// GET made into one (net/http_session.cpp): `hand` and `table` (the id, required by the types that
// take it), `limit` and `before` integers, `name` a string. Refusals: bad_request naming the field.
Outcome<Query> read_query(const protocol::Request& r);

// Statistics are private: a stats query may name only the asker (`asker_name`, any case).
// Refusal: private.
std::optional<protocol::Refusal> stats_private(const Query& q, const std::string& asker_name);

// The query's answer, read in one unit of work; `asker` (0: nobody) sees their own hidden cards.
// hand_phh answers {"hand": id, "phh": text}. Refusals: those of the functions below, and
// unauthorized for my_hands without an asker.
Outcome<json> answer(Store& store, const Query& q, std::int64_t asker);

// The asker's hands, newest first: `limit` (1..100) hands with an id below `before` (0: from
// the newest). {"hands": [...], "next": id to pass as `before`, or null at the end}
json my_hands(Store& store, std::int64_t account, std::int64_t before, int limit);
// The tournaments the account entered, newest first: the game, the status, the entrants, and
// for the account the place (null until out), the prize, the entry (buy-in and fee) and the net
// (prize less entry; 0 for a cancelled one, whose entries were refunded).
json my_tournaments(Store& store, std::int64_t account, int limit);

// One hand in full: configuration, seats, commitment and reveal, and every action and event in
// order, with the cards the asker (0: nobody) may see. A finished Chinese poker deal is settled
// again by the engine: "replay": {"matches": true}, or false with a reason. Refusals:
// no_such_hand.
Outcome<json> hand(Store& store, std::int64_t hand_id, std::int64_t asker);

// A table's most recent finished hands, newest first. Refusals: no_such_table.
Outcome<json> table_hands(Store& store, std::int64_t table, int limit);

// The asker's statistics over the hands the filter selects (docs/stats.md): the sum of their
// rows, in the names of protocol/stats_json.h, and the filter as read. Zeros when no hand is
// selected. Refusals: unauthorized without an asker.
Outcome<json> stats(Store& store, std::int64_t asker, const StatsFilter& filter);

// The hands finished before their statistics were counted at their end, counted now: up to
// `limit` with an id above `after`, each replayed from its record, in one unit of work on the
// writer. A hand that does not replay counts as having no lines (the log names it).
struct StatsBatch {
    int seen = 0, counted = 0;
    std::int64_t last = 0; // the highest id seen: the next batch's `after`
};
StatsBatch count_stats(Store& store, std::int64_t after, int limit);

// A player's totals over finished hands: hands played, net chips, hands won (net > 0), the
// biggest win and loss. Refusals: no_such_player.
Outcome<json> totals(Store& store, const std::string& name);

// One finished poker hand as PHH text (engine/poker/phh.h), rebuilt by replaying its recorded
// actions through the engine from the revealed deck; a replay that does not end with the recorded
// stacks is refused (replay_mismatch). Hole cards and discards of other seats that were not shown
// are written as "??". Refusals: no_such_hand, not_finished, not_poker, replay_mismatch.
Outcome<std::string> hand_phh(Store& store, std::int64_t hand_id, std::int64_t asker);

} // namespace felt::server::history
