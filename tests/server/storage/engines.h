// The two storage engines, side by side for the tests: an SQLite file of its own, or a PostgreSQL
// database of its own on the private server that scripts/test.sh starts (scripts/pg.sh) and names
// in FELT_TEST_PG (postgresql://felt@127.0.0.1:PORT). Without FELT_TEST_PG the PostgreSQL cases
// say they were skipped: the sanitizer build runs them not at all, the release build always.
#pragma once

#include "paths.h"
#include "storage/accounts.h"
#include "storage/pg_store.h"
#include "storage/postgres.h"
#include "storage/sqlite.h"
#include "storage/sqlite_store.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace felt_test {

using namespace felt;
using namespace felt::server;

// The private server's URL, without a database; empty when the tests run without one.
inline std::optional<std::string> pg_server() {
    const char* url = std::getenv("FELT_TEST_PG");
    if (!url || !*url) return std::nullopt;
    return std::string(url);
}

// Stops ("down") or starts ("up") the private server, keeping its data (scripts/pg.sh); false
// when the tests were not given its folder (FELT_TEST_PG_DIR).
inline bool pg_server_control(const std::string& what) {
    const char* dir = std::getenv("FELT_TEST_PG_DIR");
    if (!dir || !*dir) return false;
    const std::string cmd = felt::test::source_dir() + "/scripts/pg.sh " + what + " " + dir;
    return std::system(cmd.c_str()) == 0;
}

// Skips the rest of a PostgreSQL test case, saying so, when no server was started for it.
#define FELT_NEED_PG()                                                                             \
    if (!felt_test::pg_server()) {                                                                 \
        MESSAGE("skipped: FELT_TEST_PG names no PostgreSQL server (scripts/test.sh starts one)");  \
        return;                                                                                    \
    }

// A database of its own on the private server, dropped afterwards (with any connection left).
struct PgDatabase {
    std::string name = "felt_t_" + new_token().substr(0, 12);
    std::string url = *pg_server() + "/" + name;
    PgDatabase() { admin().exec("CREATE DATABASE " + name); }
    ~PgDatabase() {
        try {
            admin().exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (const pg::Error&) {
        }
    }
    static pg::Connection admin() { return pg::Connection(*pg_server() + "/postgres"); }
    // Ends every session on this database, as a restart of the server would, and waits until
    // they are gone.
    void cut_connections() {
        pg::Connection a = admin();
        a.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                {name});
        for (int i = 0; i < 100; ++i) {
            if (a.query("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = $1", {name})
                    .integer(0, 0) == 0)
                return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL("the sessions on " << name << " did not end");
    }
};

// A storage engine for a test: Stores on one database, and plain SQL against it from outside.
struct Engine {
    std::string label;
    std::function<std::unique_ptr<Store>(bool writer)> open;
    std::function<std::int64_t(const std::string& sql)> scalar;
    std::function<void(const std::string& sql)> exec;
    // SQL for the time `days` days ago, as the engine stores times.
    std::function<std::string(int days)> ago;
};

// Hands as migration 7 (hand_logs) finds them, on either engine: each event a row of
// hand_events, inserted out of order. Hand 1 has three events, hand 2 one, hand 3 none yet.
inline constexpr const char* kEventRowsBefore7 =
    "INSERT INTO tables (id, config) VALUES (1, '{}');"
    "INSERT INTO hands (id, table_id, number, config, commitment, status) VALUES "
    "(1, 1, 1, '{}', 'c', 'finished'), (2, 1, 2, '{}', 'c', 'finished'), "
    "(3, 1, 3, '{}', 'c', 'running');"
    "INSERT INTO hand_events (hand_id, seq, body) VALUES (1, 2, '{\"c\":[3]}'), "
    "(2, 0, '{\"only\":\"one, two\"}'), (1, 0, '{\"a\":1}'), (1, 1, '{\"b\":\"x\\ny\"}');";

// Each hand's events, read back through a Store after migration 7, are those rows in order of seq.
inline void check_logs_after_7(Store& store) {
    CHECK(store.hand_record(1)->events ==
          std::vector<std::string>{R"({"a":1})", R"({"b":"x\ny"})", R"({"c":[3]})"});
    CHECK(store.hand_record(2)->events == std::vector<std::string>{R"({"only":"one, two"})"});
    CHECK(store.hand_record(3)->events.empty());
}

// Every account's balance equals the sum of its ledger rows, and no balance is negative.
inline void ledger_balances(const Engine& e) {
    CHECK(e.scalar("SELECT COUNT(*) FROM accounts a WHERE a.balance != (SELECT COALESCE(SUM("
                   "amount), 0) FROM ledger l WHERE l.account_id = a.id)") == 0);
    CHECK(e.scalar("SELECT COUNT(*) FROM accounts WHERE balance < 0") == 0);
}

// A file of its own in the temp folder, removed afterwards.
struct SqliteFile {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("felt_test_" + new_token().substr(0, 12) + ".db"))
                           .string();
    ~SqliteFile() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
};

inline Engine sqlite_engine(const std::string& path, Chips grant) {
    return {"SQLite",
            [path, grant](bool writer) -> std::unique_ptr<Store> {
                return std::make_unique<SqliteStore>(
                    path, grant, writer ? SqliteStore::Role::writer : SqliteStore::Role::reader);
            },
            [path](const std::string& sql) {
                db::Database db(path);
                db::Statement q(db, sql);
                q.step();
                return q.column_int(0);
            },
            [path](const std::string& sql) { db::Database(path).exec(sql); },
            [](int days) {
                return "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '" + std::to_string(-days) +
                       " days')";
            }};
}

// A node of its own on `url`, with a short lease so that the tests wait little for one to lapse.
inline std::unique_ptr<PgStore> pg_node(const std::string& url, Chips grant, const std::string& id,
                                        std::chrono::seconds lease = std::chrono::seconds(2)) {
    return std::make_unique<PgStore>(url, grant, PgStore::Role::writer, TokenLife{},
                                     NodeIdentity{id, "", lease});
}

inline Engine pg_engine(const std::string& url, Chips grant) {
    return {"PostgreSQL",
            [url, grant](bool writer) -> std::unique_ptr<Store> {
                if (writer) return pg_node(url, grant, "felt");
                return std::make_unique<PgStore>(url, grant, PgStore::Role::reader);
            },
            [url](const std::string& sql) {
                pg::Connection c(url);
                return c.query(sql.c_str()).integer(0, 0);
            },
            [url](const std::string& sql) { pg::Connection(url).exec(sql); },
            [](int days) { return "now() - interval '" + std::to_string(days) + " days'"; }};
}

} // namespace felt_test
