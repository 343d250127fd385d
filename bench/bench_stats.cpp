// Player statistics at scale (docs/stats.md, docs/benchmarks.md): a database filled with N hands
// of one player (default 1,000,000) written directly, as feltd writes a hand's end (its row, its
// seats, its log and every player's statistics row), spread over D days (default 730); then the
// time a statistics page takes to answer (the sum of the player's rows, all of them and
// filtered), and the bytes a hand takes with and without the statistics tables.
//
//   bench_stats [--hands N] [--days D] [--db PATH | --pg URL] [--copy-to-pg URL]
//
// --copy-to-pg: after filling SQLite, the same statistics rows go to a PostgreSQL database (the
// accounts made again, the rows inserted as they are, no hand: the page never reads a hand), and
// the page is timed there too. Writing a million hands to PostgreSQL hand by hand takes an hour.
//
// Each hand is a random hold'em hand (engine/poker, random legal play) of 2 to 6 players, the
// player in every one of them at a seat that moves round; the others are eight accounts. Prints
// figures; asserts nothing (tests do that).
#include "poker/hand.h"
#include "protocol/poker_messages.h"
#include "simulate.h"
#include "storage/pg_store.h"
#include "storage/postgres.h"
#include "storage/sqlite.h"
#include "storage/sqlite_store.h"
#include "storage/stats_sql.h"
#include "tables/poker_game.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace felt;
using namespace felt::server;
using Steady = std::chrono::steady_clock;

namespace {

double ms_since(Steady::time_point t) {
    return std::chrono::duration<double, std::milli>(Steady::now() - t).count();
}

// The median of `runs` timings of `f`, in milliseconds.
template <class F>
double median_ms(int runs, F f) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        const auto start = Steady::now();
        f();
        t.push_back(ms_since(start));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// The statistics page of account `me`: the sum of all their rows, of the button's, of the last
// 30 days', and the profit graph's days; medians of 21.
void time_page(Store& store, std::int64_t me, const char* engine) {
    stats::Totals all;
    const double all_ms = median_ms(21, [&] { all = store.stats_of(me, {}); });
    StatsFilter by_position;
    by_position.position = 0;
    const double position_ms = median_ms(21, [&] { store.stats_of(me, by_position); });
    StatsFilter last_month;
    last_month.from =
        stats_sql::day_of(std::chrono::system_clock::now() - std::chrono::hours(24 * 30));
    const double month_ms = median_ms(21, [&] { store.stats_of(me, last_month); });
    const double days_ms = median_ms(21, [&] { store.stats_days(me, {}); });
    std::printf("%s: statistics page of %lld hands: %.2f ms (button only %.2f ms, last 30 days "
                "%.2f ms; the graph's days %.2f ms), median of 21; VPIP %lld/%lld, bb/100 %.1f\n",
                engine, static_cast<long long>(all.hands), all_ms, position_ms, month_ms, days_ms,
                static_cast<long long>(all.tallies[0].times),
                static_cast<long long>(all.tallies[0].opportunities), all.bb_per_100());
}

// The statistics rows of the SQLite database `db` copied to a fresh PostgreSQL database at `url`
// (its accounts made again, in the same order), then the page timed there.
void copy_to_pg(db::Database& db, const std::string& url, std::int64_t hero,
                const std::vector<std::int64_t>& others) {
    PgStore store(url, Chips(1'000'000), PgStore::Role::writer);
    std::map<std::int64_t, std::int64_t> id = {{hero, store.create_account("hero", "x").value->id}};
    for (std::int64_t o : others) id[o] = store.create_guest().value->id;
    const std::vector<std::string> added = stats_sql::added_columns();
    std::string columns = stats_sql::key_columns();
    for (const std::string& c : added) columns += ", " + c;
    db::Statement q(db, "SELECT " + columns + " FROM player_stats");
    pg::Connection pg(url);
    const std::string upsert = stats_sql::upsert(true);
    const auto start = Steady::now();
    long rows = 0;
    pg.exec("BEGIN");
    while (q.step()) {
        std::vector<std::int64_t> ints;
        std::vector<double> reals;
        for (std::size_t i = 0; i < added.size(); ++i) {
            const int c = 9 + static_cast<int>(i);
            if (i + 3 < added.size())
                ints.push_back(q.column_int(c));
            else
                reals.push_back(q.column_double(c));
        }
        pg.query(upsert.c_str(),
                 {id.at(q.column_int(0)), q.column_text(1), q.column_text(2), q.column_text(3),
                  q.column_int(4), q.column_int(5), q.column_int(6), q.column_text(7),
                  q.column_int(8), stats_sql::array(ints), stats_sql::array(reals)});
        ++rows;
    }
    pg.exec("COMMIT");
    pg.exec("ANALYZE player_stats");
    std::printf("PostgreSQL: %ld statistics rows copied in %.1f s\n", rows, ms_since(start) / 1000);
    time_page(store, id.at(hero), "PostgreSQL");
}

} // namespace

int main(int argc, char** argv) {
    long hands = 1'000'000;
    int days = 730;
    std::string db_path, pg_url, copy_url;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--days")) days = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--db")) db_path = argv[i + 1];
        if (!std::strcmp(argv[i], "--pg")) pg_url = argv[i + 1];
        if (!std::strcmp(argv[i], "--copy-to-pg")) copy_url = argv[i + 1];
    }
    if (db_path.empty() && pg_url.empty()) db_path = "/tmp/bench_stats.db";
    if (!db_path.empty()) {
        std::filesystem::remove(db_path);
        std::filesystem::remove(db_path + "-wal");
        std::filesystem::remove(db_path + "-shm");
    }
    std::unique_ptr<Store> store =
        pg_url.empty() ? std::unique_ptr<Store>(std::make_unique<SqliteStore>(
                             db_path, Chips(1'000'000), SqliteStore::Role::writer))
                       : std::unique_ptr<Store>(std::make_unique<PgStore>(pg_url, Chips(1'000'000),
                                                                          PgStore::Role::writer));
    const Account hero = *store->create_account("hero", "x").value;
    std::vector<std::int64_t> others;
    for (int i = 0; i < 8; ++i) others.push_back(store->create_guest().value->id);
    const std::int64_t table = store->create_table(R"({"game":"poker"})", hero.id);

    sim::Options o;
    o.players = 6;
    auto base = sim::table_config(o);
    if (!base) {
        std::fprintf(stderr, "bench_stats: %s\n", base.error().message.c_str());
        return 2;
    }
    std::int64_t id = store->last_hand_id();
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    const auto next = [&x] {
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 32;
        return x;
    };
    const auto start_day = std::chrono::system_clock::now() - std::chrono::hours(24) * days;
    const auto write_start = Steady::now();
    long rows = 0;
    constexpr int kGroup = 1000;
    for (long n = 0; n < hands; ++n) {
        if (n % kGroup == 0) store->begin_group();
        const int players = 2 + static_cast<int>(next() % 5);
        auto config = std::make_shared<poker::HandConfig>(base.value());
        config->seats = players;
        config->stacks = {};
        for (int i = 0; i < players; ++i)
            config->stacks[static_cast<std::size_t>(i)] =
                Chips(40 + static_cast<std::int64_t>(next() % 360));
        config->button = static_cast<int>(n % players);
        for (std::size_t i = config->deck.size(); i > 1; --i)
            std::swap(config->deck[i - 1], config->deck[next() % i]);
        auto played = sim::play_random_hand(config, next());
        if (!played) continue;
        const poker::HandState& end = played.value().state;
        const int hero_seat = static_cast<int>((n / 7) % players);
        auto account = [&](int seat) {
            return seat == hero_seat ? hero.id
                                     : others[static_cast<std::size_t>((seat + n) % others.size())];
        };
        HandEnd h;
        h.id = ++id;
        h.table = table;
        h.deck = "As Kd ...";
        h.seed = "";
        h.fairness = R"({"salts":[]})";
        for (int i = 0; i < players; ++i)
            h.seats.push_back({i, account(i), config->stacks[static_cast<std::size_t>(i)],
                               end.seats[static_cast<std::size_t>(i)].stack});
        for (const poker::Event& e : played.value().events)
            h.log.push_back(protocol::event_record(e, *config->ranking));
        for (auto& [seat, row] : poker_stats_rows(*config, played.value().events)) {
            row.account = account(seat);
            h.stats.push_back(std::move(row));
        }
        rows += static_cast<long>(h.stats.size());
        h.day = stats_sql::day_of(start_day + std::chrono::hours(24) * days * n / hands);
        store->start_hand({h.id, table, static_cast<int>(n + 1), R"({"variant":"holdem"})", "c"});
        store->finish_hand(h);
        if (n % kGroup == kGroup - 1 || n == hands - 1) store->commit_group();
    }
    const double write_s = ms_since(write_start) / 1000;
    std::printf("%s: %ld hands written in %.1f s (%.0f a second), %ld statistics lines\n",
                pg_url.empty() ? "SQLite" : "PostgreSQL", hands, write_s,
                static_cast<double>(hands) / write_s, rows);

    // The statistics page: all of the player's hands, and filtered.
    time_page(*store, hero.id, pg_url.empty() ? "SQLite" : "PostgreSQL");

    // The bytes: each table with its indexes.
    if (pg_url.empty()) {
        store.reset();
        db::Database db(db_path);
        auto bytes = [&](const char* where) {
            db::Statement q(db, std::string("SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE ") +
                                    where);
            q.step();
            return q.column_int(0);
        };
        const std::int64_t stats_bytes = bytes(
            "name IN ('player_stats', 'opponent_stats', 'hand_search') OR name LIKE "
            "'sqlite_autoindex_player_stats%' OR name LIKE "
            "'sqlite_autoindex_opponent_stats%' OR name LIKE 'sqlite_autoindex_hand_search%'");
        const std::int64_t total = bytes("1");
        std::printf("database %.1f MB: %.0f bytes a hand, of which the statistics %.0f (%.1f %% "
                    "more than without them); %lld statistics rows\n",
                    static_cast<double>(total) / 1e6,
                    static_cast<double>(total) / static_cast<double>(hands),
                    static_cast<double>(stats_bytes) / static_cast<double>(hands),
                    100.0 * static_cast<double>(stats_bytes) /
                        static_cast<double>(total - stats_bytes),
                    static_cast<long long>([&] {
                        db::Statement q(db, "SELECT COUNT(*) FROM player_stats");
                        q.step();
                        return q.column_int(0);
                    }()));
        if (!copy_url.empty()) copy_to_pg(db, copy_url, hero.id, others);
    }
    return 0;
}
