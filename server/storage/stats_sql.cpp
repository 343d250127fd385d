#include "storage/stats_sql.h"

#include <array>
#include <charconv>
#include <ctime>

namespace felt::server::stats_sql {

namespace {

constexpr const char* kKey =
    "account_id, game, variant, structure, stake, position, table_size, day, tournament";

// Chinese poker's and leap rummy's columns, after the statistics' (stats::DealLine).
constexpr std::array<const char*, 11> kDealColumns = {
    "deal_units",   "scoops_t", "scoops_o", "specials_t", "specials_o", "surrenders_t",
    "surrenders_o", "wins_t",   "wins_o",   "score",      "melds"};
// The real columns, last.
constexpr std::array<const char*, 3> kRealColumns = {"sum_bb", "sum_bb_squared", "ev_net"};

} // namespace

const char* key_columns() {
    return kKey;
}

std::vector<std::string> added_columns() {
    std::vector<std::string> c = {"hands", "net", "rake", "showdown_net", "units"};
    for (int i = 0; i < stats::kStats; ++i) {
        const std::string name(stats::stat_name(static_cast<stats::Stat>(i)));
        c.push_back(name);
        c.back() += "_t";
        c.push_back(name);
        c.back() += "_o";
    }
    c.insert(c.end(), kDealColumns.begin(), kDealColumns.end());
    c.insert(c.end(), kRealColumns.begin(), kRealColumns.end());
    return c;
}

namespace {

// The rows a filter selects (sum(), days()).
constexpr const char* kSelected =
    " FROM player_stats WHERE account_id = $1 AND ($2 = '' OR game = $2) AND "
    "($3 = '' OR variant = $3) AND ($4 = '' OR structure = $4) AND "
    "($5 < 0 OR stake = $5) AND ($6 = -99 OR position = $6) AND "
    "($7 = 0 OR table_size = $7) AND ($8 = '' OR day >= $8) AND ($9 = '' OR day <= $9) "
    "AND tournament = $10";

// `$n` placeholders as SQLite writes them: `?n`.
std::string for_sqlite(std::string sql) {
    for (char& ch : sql)
        if (ch == '$') ch = '?';
    return sql;
}

} // namespace

std::string upsert(bool postgres) {
    const std::vector<std::string> added = added_columns();
    const std::size_t ints = added.size() - kRealColumns.size();
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
    const stats::DealLine& d = row.deal;
    for (std::int64_t x : {d.units, d.scoops.times, d.scoops.opportunities, d.specials.times,
                           d.specials.opportunities, d.surrenders.times, d.surrenders.opportunities,
                           d.wins.times, d.wins.opportunities, d.score, d.melds})
        v.push_back(x);
    return v;
}

std::vector<double> reals(const StatsRow& row) {
    const double bb = row.stake > 0 ? static_cast<double>(row.line.net.value()) /
                                          static_cast<double>(row.stake.value())
                                    : 0.0;
    return {bb, bb * bb, row.line.ev_net.value_or(static_cast<double>(row.line.net.value()))};
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

std::string array(const std::vector<std::string>& values) {
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ",";
        out += '"';
        out += values[i];
        out += '"';
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
    sql += kSelected;
    return postgres ? sql : for_sqlite(sql);
}

std::string days(bool postgres) {
    std::string sql = "SELECT day, SUM(hands), SUM(net), SUM(showdown_net), SUM(ev_net)";
    sql += kSelected;
    sql += " GROUP BY day ORDER BY day";
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
    int c = 5 + 2 * stats::kStats;
    stats::DealLine& d = t.deal;
    for (std::int64_t* x :
         {&d.units, &d.scoops.times, &d.scoops.opportunities, &d.specials.times,
          &d.specials.opportunities, &d.surrenders.times, &d.surrenders.opportunities,
          &d.wins.times, &d.wins.opportunities, &d.score, &d.melds})
        *x = integer(c++);
    t.sum_bb = real(c++);
    t.sum_bb_squared = real(c++);
    t.ev_net = real(c);
    return t;
}

std::vector<OpponentLine> opponent_lines(const std::vector<StatsRow>& rows) {
    using stats::Stat;
    std::vector<OpponentLine> out;
    for (const StatsRow& a : rows)
        for (const StatsRow& b : rows)
            if (a.game == "poker" && b.game == "poker" && a.account != b.account)
                out.push_back({a.account, b.account,
                               b.line.tallies[static_cast<std::size_t>(Stat::vpip)],
                               b.line.tallies[static_cast<std::size_t>(Stat::pfr)]});
    return out;
}

std::string opponent_upsert(bool postgres) {
    std::string sql = "INSERT INTO opponent_stats (account_id, opponent_id, hands, vpip_t, vpip_o, "
                      "pfr_t, pfr_o) ";
    sql += postgres ? "SELECT a, o, 1, vt, vo, pt, po FROM unnest($1::bigint[], $2::bigint[], "
                      "$3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) AS x(a, o, vt, vo, "
                      "pt, po)"
                    : "VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6)";
    sql += " ON CONFLICT (account_id, opponent_id) DO UPDATE SET hands = opponent_stats.hands + 1";
    for (const char* c : {"vpip_t", "vpip_o", "pfr_t", "pfr_o"}) {
        sql += ", ";
        sql += c;
        sql += " = opponent_stats.";
        sql += c;
        sql += " + excluded.";
        sql += c;
    }
    return sql;
}

std::string opponent_select(bool postgres) {
    std::string sql = "SELECT s.hands, s.vpip_t, s.vpip_o, s.pfr_t, s.pfr_o FROM opponent_stats s "
                      "JOIN accounts a ON a.id = s.opponent_id WHERE s.account_id = $1 AND ";
    sql += postgres ? "lower(a.name) = lower($2)" : "a.name = $2"; // SQLite's names: NOCASE
    return postgres ? sql : for_sqlite(sql);
}

std::string search_insert(bool postgres) {
    const std::string sql =
        "INSERT INTO hand_search (account_id, hand_id, hole, position, net, "
        "pot, flags) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING";
    return postgres ? sql : for_sqlite(sql);
}

int search_flags(const StatsRow& row) {
    return (row.line.showdown ? 1 : 0) | (row.all_in ? 2 : 0);
}

std::string search(bool postgres) {
    std::string sql = "SELECT s.hand_id, h.table_id, h.number, ";
    sql += postgres ? "felt_time(h.ended_at)" : "h.ended_at";
    sql += ", s.hole, s.position, s.net, s.pot, s.flags FROM hand_search s JOIN hands h ON h.id = "
           "s.hand_id WHERE s.account_id = $1 AND ($2 = '' OR s.hole LIKE $2) AND "
           "($3 = 0 OR length(s.hole) = 2) AND ($4 = -99 OR s.position = $4) AND "
           "($5 = 0 OR ($5 > 0 AND s.net > 0) OR ($5 < 0 AND s.net < 0)) AND "
           "($6 < 0 OR s.pot >= $6) AND ($7 < 0 OR (s.flags & 1) = $7) AND "
           "($8 < 0 OR (s.flags & 2) = 2 * $8) AND ";
    const std::string day =
        postgres ? "substr(felt_time(h.ended_at), 1, 10)" : "substr(h.ended_at, 1, 10)";
    sql += "($9 = '' OR " + day + " >= $9) AND ($10 = '' OR " + day + " <= $10) AND ";
    sql += "($11 = 0 OR h.table_id = $11) AND ($12 = 0 OR s.hand_id < $12) "
           "ORDER BY s.hand_id DESC LIMIT $13";
    return postgres ? sql : for_sqlite(sql);
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
