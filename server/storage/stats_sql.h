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

// The columns a row adds up, in the order integers() then reals() give them.
std::vector<std::string> added_columns();
// The columns of a row's key, in upsert()'s order: "account_id, game, ...".
const char* key_columns();

// Adds one row's line to its row (inserted at zero first). Parameters: 1 account, 2 game,
// 3 variant, 4 structure, 5 stake, 6 position, 7 table size, 8 day, 9 tournament (0 or 1); then
// on SQLite 10... the integers() and the reals() one by one, on PostgreSQL 10 the integers as a
// bigint[] and 11 the reals as a float8[].
std::string upsert(bool postgres);
// The values a row adds: hands (1), net, rake, showdown net, stake (to units), each statistic's
// times and opportunities, then Chinese poker's and leap rummy's (stats::DealLine).
std::vector<std::int64_t> integers(const StatsRow& row);
// Its net in big blinds, that squared, and its net at the all-in equity.
std::vector<double> reals(const StatsRow& row);
// PostgreSQL's array literal of values: "{1,2,3}".
std::string array(const std::vector<std::int64_t>& values);
std::string array(const std::vector<double>& values);
std::string array(const std::vector<std::string>& values); // each quoted: plain words only

// The sum of an account's rows that a filter selects. Parameters: 1 account, 2 game, 3 variant,
// 4 structure ("" any), 5 stake (-1 any), 6 position (-99 any), 7 table size (0 any), 8 from,
// 9 to ("" open), 10 tournament. `postgres` false: SQLite's placeholders.
std::string sum(bool postgres);
// The same rows added up by day, oldest first: day, hands, net, showdown net, all-in EV net.
std::string days(bool postgres);
// sum()'s one row read into totals: `integer(column)` and `real(column)` read a column.
stats::Totals totals(const std::function<std::int64_t(int)>& integer,
                     const std::function<double(int)>& real);

// One ordered pair of a poker hand's players for opponent_stats: what `account` saw of
// `opponent`'s hand.
struct OpponentLine {
    std::int64_t account = 0, opponent = 0;
    stats::Tally vpip, pfr;
};
// Every ordered pair of different accounts among a hand's poker rows.
std::vector<OpponentLine> opponent_lines(const std::vector<StatsRow>& rows);
// Adds pairs to opponent_stats. SQLite: one pair, parameters 1 account, 2 opponent, 3 VPIP
// times, 4 its opportunities, 5 PFR times, 6 its opportunities; PostgreSQL: each an array.
std::string opponent_upsert(bool postgres);
// What a viewer ($1) saw of the account named $2: hands, VPIP times and opportunities, PFR's.
std::string opponent_select(bool postgres);

// A hand's search row (hand_search), none where it is there already. Parameters: 1 account,
// 2 hand, 3 hole, 4 position, 5 net, 6 pot, 7 flags.
std::string search_insert(bool postgres);
// A poker row's flags: 1 went to showdown, 2 all in.
int search_flags(const StatsRow& row);
// A search (HandSearch). Parameters: 1 account, 2 hole pattern, 3 pairs (0 or 1), 4 position
// (-99 any), 5 result, 6 least pot (-1 any), 7 showdown (-1 any), 8 all in (-1 any), 9 from,
// 10 to, 11 table (0 any), 12 before (0 none), 13 limit. Columns: hand, table, number, ended_at,
// hole, position, net, pot, flags.
std::string search(bool postgres);

// A day as the rows keep it: YYYY-MM-DD in UTC.
std::string day_of(std::chrono::system_clock::time_point t);

} // namespace felt::server::stats_sql
