// The odds of an all-in's run-out, worked out off the table's strand (on Services::odds): each
// live hand's chance at each street the dealer turns, told as an `odds` message after that
// street's update, and the hand's all-in EV, kept in its log for the history.
#pragma once

#include "poker/all_in.h"
#include "poker/hand.h"
#include "tables/game.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::server {

// Chances as the protocol writes them (an `odds` message's street, seats and method; percent to
// 0.1).
json odds_json(const poker::StreetOdds& o);

// The work, to run on another thread, for a finished hand whose events were told in parts
// ending at `ends` (indices into `events`); nullopt when no hands were shown at once or the game
// has no odds. Only cards everyone saw count: the hands shown, the board, up cards.
std::optional<RunOutOdds> run_out_odds(int hand, const poker::HandState& end,
                                       std::vector<poker::Event> events,
                                       std::vector<std::size_t> ends);

} // namespace felt::server
