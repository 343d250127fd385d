// The statistics tables' SQL (migrations/0012_player_stats.sql), the same for SQLite and
// PostgreSQL but for how parameters are passed: what both stores share of player_stats.
#pragma once

#include "storage/store.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace felt::server::stats_sql {

// Adds one row's line to its row (inserted at zero first). Parameters: 1 account, 2 game,
// 3 variant, 4 structure, 5 stake, 6 position, 7 table size, 8 day, 9 tournament (0 or 1); then
// on SQLite 10... the integers() and the reals() one by one, on PostgreSQL 10 the integers as a
// bigint[] and 11 the reals as a float8[].
std::string upsert(bool postgres);
// The values a row adds: hands (1), net, rake, showdown net, stake (to units), each statistic's
// times and opportunities.
std::vector<std::int64_t> integers(const StatsRow& row);
// Its net in big blinds, and that squared.
std::vector<double> reals(const StatsRow& row);
// PostgreSQL's array literal of values: "{1,2,3}".
std::string array(const std::vector<std::int64_t>& values);
std::string array(const std::vector<double>& values);

// The sum of an account's rows that a filter selects. Parameters: 1 account, 2 game, 3 variant,
// 4 structure ("" any), 5 stake (-1 any), 6 position (-99 any), 7 table size (0 any), 8 from,
// 9 to ("" open), 10 tournament. `postgres` false: SQLite's placeholders.
std::string sum(bool postgres);
// Its one row read into totals: `integer(column)` and `real(column)` read a column.
stats::Totals totals(const std::function<std::int64_t(int)>& integer,
                     const std::function<double(int)>& real);

// A day as the rows keep it: YYYY-MM-DD in UTC.
std::string day_of(std::chrono::system_clock::time_point t);

} // namespace felt::server::stats_sql
