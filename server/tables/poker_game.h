// Poker as a table's game (betting.md): one hand at a time, driven by the betting engine. Hole
// cards reach their owner only. Each action's events go out as one `update`, with whose turn is
// next and, in that player's copy, what they may do.
#pragma once

#include "poker/hand.h"
#include "protocol/poker_config.h"
#include "tables/game.h"

#include <memory>

namespace felt::server {

std::unique_ptr<Game> poker_game(protocol::PokerConfig config, poker::HandConfig base);

// Each player's line of a finished poker hand for the statistics (docs/stats.md), by seat: the
// row of its variant, structure, stake, position and table size, less the account and the kind,
// which the table knows. From the hand's every event, start to end.
// Two cards as a class, as players name them: "AKs", "AKo", "QQ"; "" for any other number of
// cards (or a card off the standard ranks).
std::string hole_class(std::span<const Card> cards);

std::vector<std::pair<int, StatsRow>> poker_stats_rows(const poker::HandConfig& config,
                                                       std::span<const poker::Event> events);
// The all-in EV record of a hand's log ({"kind":"all_in_ev","seats":[{"seat","expected","won"}]})
// added to its rows: each seat in it is valued at its share expected rather than the chips won.
void add_all_in_ev(std::vector<std::pair<int, StatsRow>>& rows, const nlohmann::json& record);

} // namespace felt::server
