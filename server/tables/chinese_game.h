// Chinese poker as a table's game (chinese-poker.md): deals 13 cards to each of two to four
// players, takes each player's split face down, arranges for whoever runs out of time or leaves,
// then reveals every split at once and settles through the engine. A player's cards and split
// reach nobody else until the reveal.
#pragma once

#include "protocol/chinese_config.h"
#include "tables/game.h"

#include <memory>
#include <utility>
#include <vector>

namespace felt::server {

std::unique_ptr<Game> chinese_game(protocol::ChineseConfig config);

// Each player's line of a settled deal for the statistics (docs/stats.md), by seat: `players`,
// `dealer` and `options` as settled, `seats` the table seat of each player.
std::vector<std::pair<int, StatsRow>>
chinese_stats_rows(const protocol::ChineseConfig& config, const chinese::Options& options,
                   const std::vector<chinese::Player>& players, int dealer,
                   const std::vector<int>& seats, const chinese::Settlement& settled);

} // namespace felt::server
