#include "storage/stats_sql.h"

#include <charconv>
#include <ctime>

namespace felt::server::stats_sql {

namespace {

constexpr const char* kKey =
    "account_id, game, variant, structure, stake, position, table_size, day, tournament";

// The added columns, in the order integers() and reals() give them.
std::vector<std::string> added_columns() {
    std::vector<std::string> c = {"hands", "net", "rake", "showdown_net", "units"};
    for (int i = 0; i < stats::kStats; ++i) {
        const std::string name(stats::stat_name(static_cast<stats::Stat>(i)));
        c.push_back(name);
        c.back() += "_t";
        c.push_back(name);
        c.back() += "_o";
    }
    c.push_back("sum_bb");
    c.push_back("sum_bb_squared");
    return c;
}

// `$n` placeholders as SQLite writes them: `?n`.
std::string for_sqlite(std::string sql) {
    for (char& ch : sql)
        if (ch == '$') ch = '?';
    return sql;
}

} // namespace

std::string upsert(bool postgres) {
    const std::vector<std::string> added = added_columns();
    const std::size_t ints = added.size() - 2;
    std::string columns = kKey, values = "$1";
    for (int i = 2; i <= 9; ++i) {
        values += ", $";
        values += std::to_string(i);
    }
    for (std::size_t i = 0; i < added.size(); ++i) {
        columns += ", ";
        columns += added[i];
        if (!postgres) {
            values += ", $";
            values += std::to_string(10 + i);
        } else {
            values += i < ints ? ", v[" : ", d[";
            values += std::to_string(i < ints ? i + 1 : i - ints + 1);
            values += "]";
        }
    }
    std::string sql = "INSERT INTO player_stats (" + columns + ") ";
    sql += postgres ? "SELECT " + values + " FROM (SELECT $10::bigint[] AS v, $11::float8[] AS d) x"
                    : "VALUES (" + values + ")";
    sql += std::string(" ON CONFLICT (") + kKey + ") DO UPDATE SET ";
    for (std::size_t i = 0; i < added.size(); ++i) {
        if (i) sql += ", ";
        sql += added[i] + " = player_stats." + added[i] + " + excluded." + added[i];
    }
    return postgres ? sql : for_sqlite(sql);
}

std::vector<std::int64_t> integers(const StatsRow& row) {
    const stats::Line& l = row.line;
    std::vector<std::int64_t> v = {1, l.net.value(), l.rake.value(), l.showdown ? l.net.value() : 0,
                                   row.stake.value()};
    for (const stats::Tally& t : l.tallies) {
        v.push_back(t.times);
        v.push_back(t.opportunities);
    }
    return v;
}

std::vector<double> reals(const StatsRow& row) {
    const double bb = row.stake > 0 ? static_cast<double>(row.line.net.value()) /
                                          static_cast<double>(row.stake.value())
                                    : 0.0;
    return {bb, bb * bb};
}

std::string array(const std::vector<std::int64_t>& values) {
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ",";
        out += std::to_string(values[i]);
    }
    return out + "}";
}

std::string array(const std::vector<double>& values) {
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i) {
        char buf[32];
        const auto end = std::to_chars(buf, buf + sizeof buf, values[i]).ptr; // shortest exact
        if (i) out += ",";
        out.append(buf, end);
    }
    return out + "}";
}

std::string sum(bool postgres) {
    const std::vector<std::string> added = added_columns();
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < added.size(); ++i) {
        if (i) sql += ", ";
        sql += "COALESCE(SUM(" + added[i] + "), 0)";
    }
    sql += " FROM player_stats WHERE account_id = $1 AND ($2 = '' OR game = $2) AND "
           "($3 = '' OR variant = $3) AND ($4 = '' OR structure = $4) AND "
           "($5 < 0 OR stake = $5) AND ($6 = -99 OR position = $6) AND "
           "($7 = 0 OR table_size = $7) AND ($8 = '' OR day >= $8) AND ($9 = '' OR day <= $9) "
           "AND tournament = $10";
    return postgres ? sql : for_sqlite(sql);
}

stats::Totals totals(const std::function<std::int64_t(int)>& integer,
                     const std::function<double(int)>& real) {
    stats::Totals t;
    t.hands = integer(0);
    t.net = Chips(integer(1));
    t.rake = Chips(integer(2));
    t.showdown_net = Chips(integer(3));
    t.other_net = t.net - t.showdown_net;
    t.units = static_cast<double>(integer(4));
    for (int i = 0; i < stats::kStats; ++i) {
        t.tallies[static_cast<std::size_t>(i)].times = integer(5 + 2 * i);
        t.tallies[static_cast<std::size_t>(i)].opportunities = integer(6 + 2 * i);
    }
    t.sum_bb = real(5 + 2 * stats::kStats);
    t.sum_bb_squared = real(6 + 2 * stats::kStats);
    return t;
}

std::string day_of(std::chrono::system_clock::time_point t) {
    const std::time_t s = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

} // namespace felt::server::stats_sql
