// Leap rummy as a table's game (leap-rummy.md): one game at a time, from the deal until every
// player has retired, played turn by turn through the engine. Hands and draws reach their owner
// only; melds, leaptokens, hand sizes, the stock's size and the scores are public. A player who
// times out is played for (pursue, then the costliest card discarded); too many time-outs in a
// row, or leaving, retire them. With chips at stake the final scores settle through the ledger.
#pragma once

#include "leap/leap_game.h"
#include "protocol/leap_config.h"
#include "tables/game.h"

#include <memory>
#include <utility>
#include <vector>

namespace felt::server {

std::unique_ptr<Game> leap_game(protocol::LeapConfig config);

// Each player's line of a finished game for the statistics (docs/stats.md), by seat: `seats` the
// table seat of each player, `start` and `end` their stacks.
std::vector<std::pair<int, StatsRow>> leap_stats_rows(const protocol::LeapConfig& config,
                                                      const leap::State& state,
                                                      const std::vector<int>& seats,
                                                      const std::vector<Chips>& start,
                                                      const std::vector<Chips>& end);

} // namespace felt::server
