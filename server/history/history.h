// The history of played hands, for the history API (HTTP and WebSocket): the answers, made from
// the rows storage reads (storage/store.h). Hidden cards are shown only to the player who held
// them; cards shown at showdown are public.
#pragma once

#include "messages.h"
#include "storage/store.h"

#include <cstdint>

namespace felt::server::history {

using protocol::json;

// The asker's hands, newest first: `limit` (1..100) hands with an id below `before` (0: from
// the newest). {"hands": [...], "next": id to pass as `before`, or null at the end}
json my_hands(Store& store, std::int64_t account, std::int64_t before, int limit);

// One hand in full: configuration, seats, commitment and reveal, and every action and event in
// order, with the cards the asker (0: nobody) may see. A finished Chinese poker deal is settled
// again by the engine: "replay": {"matches": true}, or false with a reason. Refusals:
// no_such_hand.
Outcome<json> hand(Store& store, std::int64_t hand_id, std::int64_t asker);

// A table's most recent finished hands, newest first. Refusals: no_such_table.
Outcome<json> table_hands(Store& store, std::int64_t table, int limit);

// A player's totals over finished hands: hands played, net chips, hands won (net > 0), the
// biggest win and loss. Refusals: no_such_player.
Outcome<json> totals(Store& store, const std::string& name);

// One finished poker hand as PHH text (engine/poker/phh.h), rebuilt by replaying its recorded
// actions through the engine from the revealed deck; a replay that does not end with the recorded
// stacks is refused (replay_mismatch). Hole cards and discards of other seats that were not shown
// are written as "??". Refusals: no_such_hand, not_finished, not_poker, replay_mismatch.
Outcome<std::string> hand_phh(Store& store, std::int64_t hand_id, std::int64_t asker);

} // namespace felt::server::history
