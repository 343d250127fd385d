// A player's statistics as JSON (docs/stats.md): the names `felt stats --json`, the history API's
// `stats` answer and the web client share.
#pragma once

#include "stats/poker_stats.h"

#include <nlohmann/json.hpp>

#include <cstdint>

namespace felt::protocol {

// hands, net, bb_per_100 (and its margin), showdown_net, non_showdown_net, rake, then each
// statistic as {"times": N, "opportunities": M}: those of the games with a flop only when
// `board`; and check_raise, af, afq, the three streets added up. Chips are divided by `scale`
// (1: whole chips, as integers).
nlohmann::ordered_json totals_json(const stats::Totals& t, std::int64_t scale, bool board);

// Chinese poker's figures: hands (deals), net, rake, units (won less lost) and units_per_deal,
// scoops, specials, surrenders.
nlohmann::ordered_json chinese_totals_json(const stats::Totals& t);
// Leap rummy's: hands (games), net, wins, score and average_score, melds and melds_per_game.
nlohmann::ordered_json leap_totals_json(const stats::Totals& t);

} // namespace felt::protocol
