// Chinese poker as a table's game (chinese-poker.md): deals 13 cards to each of two to four
// players, takes each player's split face down, arranges for whoever runs out of time or leaves,
// then reveals every split at once and settles through the engine. A player's cards and split
// reach nobody else until the reveal.
#pragma once

#include "protocol/chinese_config.h"
#include "tables/game.h"

#include <memory>

namespace felt::server {

std::unique_ptr<Game> chinese_game(protocol::ChineseConfig config);

} // namespace felt::server
