// The database layer: prepared statements kept for reuse, migrations (fresh, re-run, newer
// database, a failing step), accounts, sessions and the chip ledger; and storage off the event
// loop (storage/storage.h): group commit, acknowledgement after the commit, order, and one
// failing write among others.
#include "server/storage/engines.h"
#include "storage/accounts.h"
#include "storage/migrate.h"
#include "storage/sqlite.h"
#include "storage/sqlite_store.h"
#include "storage/storage.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace felt;
using namespace felt::server;

namespace {

// A database file of its own in the temp folder, removed afterwards.
struct TempDb {
    std::string path;
    TempDb() {
        path = (std::filesystem::temp_directory_path() /
                ("felt_test_" + new_token().substr(0, 12) + ".db"))
                   .string();
    }
    ~TempDb() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
};

int count(db::Database& db, const std::string& sql) {
    db::Statement q(db, sql);
    q.step();
    return static_cast<int>(q.column_int(0));
}

bool has_table(db::Database& db, const std::string& name) {
    db::Statement q(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    q.bind(1, name);
    q.step();
    return q.column_int(0) == 1;
}

} // namespace

TEST_CASE("SQLite statements are kept for reuse: each use starts reset and unbound, two uses "
          "of one SQL at once each get their own, and a failed step leaves none half-run") {
    db::Database db(":memory:");
    db.exec("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)");
    const char* insert = "INSERT INTO t (k, v) VALUES (?, ?)";
    const char* read = "SELECT k, v FROM t ORDER BY k";
    db::Statement(db, insert).bind(1, 1).bind(2, "one").run();
    // Used again: the earlier bindings are gone (an unbound parameter is NULL).
    db::Statement(db, insert).bind(1, 2).run();
    {
        db::Statement q(db, "SELECT v IS NULL FROM t WHERE k = 2");
        REQUIRE(q.step());
        CHECK(q.column_int(0) == 1);
    }
    // The same SQL twice at once: two cursors, each from the start.
    {
        db::Statement a(db, read), b(db, read);
        REQUIRE(a.step());
        REQUIRE(b.step());
        REQUIRE(a.step());
        CHECK(a.column_int(0) == 2);
        CHECK(b.column_int(0) == 1);
    }
    // A statement left mid-row comes back from the start, and holds no read open: a write and
    // its commit go through.
    {
        db::Statement q(db, read);
        REQUIRE(q.step());
    }
    db::Statement(db, insert).bind(1, 3).bind(2, "three").run();
    {
        db::Statement q(db, read);
        REQUIRE(q.step());
        CHECK(q.column_int(0) == 1);
    }
    // A step that fails (a duplicate key) throws; the statement is usable again afterwards.
    CHECK_THROWS_AS(db::Statement(db, insert).bind(1, 1).bind(2, "again").run(), db::Error);
    db::Statement(db, insert).bind(1, 4).bind(2, "four").run();
    CHECK(count(db, "SELECT COUNT(*) FROM t") == 4);
    // A transaction rolled back through its cached BEGIN and SAVEPOINT statements.
    {
        db::Transaction outer(db);
        db::Statement(db, insert).bind(1, 5).run();
        {
            db::Transaction inner(db);
            db::Statement(db, insert).bind(1, 6).run();
        } // rolled back: the savepoint only
        outer.commit();
    }
    CHECK(count(db, "SELECT COUNT(*) FROM t") == 5);
    CHECK(count(db, "SELECT COUNT(*) FROM t WHERE k = 6") == 0);
}

TEST_CASE("migrations: fresh database, second run, newer database, failing step") {
    TempDb tmp;
    const int latest = static_cast<int>(builtin_migrations().size());
    REQUIRE(latest >= 1);
    SUBCASE("a fresh database gets every step, each recorded; a second run does nothing") {
        {
            db::Database db(tmp.path);
            CHECK(schema_version(db) == 0);
            CHECK(migrate(db) == latest);
            CHECK(has_table(db, "accounts"));
            CHECK(has_table(db, "ledger"));
            CHECK(count(db, "SELECT COUNT(*) FROM schema_migrations") == latest);
        }
        db::Database again(tmp.path);
        CHECK(migrate(again) == latest);
        CHECK(count(again, "SELECT COUNT(*) FROM schema_migrations") == latest);
        db::Statement mode(again, "PRAGMA journal_mode");
        mode.step();
        CHECK(mode.column_text(0) == "wal");
    }
    SUBCASE("a database newer than the program is refused, untouched") {
        db::Database db(tmp.path);
        migrate(db);
        db.exec("INSERT INTO schema_migrations (version, name) VALUES (" +
                std::to_string(latest + 1) + ", 'from_the_future')");
        CHECK_THROWS_WITH_AS(migrate(db), doctest::Contains("newer than this program knows"),
                             MigrationError);
        CHECK(schema_version(db) == latest + 1);
    }
    SUBCASE("a failing step rolls back and leaves the previous version") {
        const Migration steps[] = {
            {1, "one", "CREATE TABLE a (x INTEGER);"},
            {2, "two", "CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);"},
        };
        db::Database db(tmp.path);
        CHECK_THROWS_WITH_AS(migrate(db, steps), doctest::Contains("migration 2 (two) failed"),
                             MigrationError);
        CHECK(schema_version(db) == 1);
        CHECK(has_table(db, "a"));
        CHECK_FALSE(has_table(db, "b")); // created, then rolled back with the step
        const Migration fixed[] = {
            {1, "one", "CREATE TABLE a (x INTEGER);"},
            {2, "two", "CREATE TABLE b (y INTEGER);"},
        };
        CHECK(migrate(db, fixed) == 2);
        CHECK(has_table(db, "b"));
    }
    SUBCASE("migration 7 joins each hand's events, written a row each, into one row in order") {
        {
            db::Database db(tmp.path);
            CHECK(migrate(db, builtin_migrations().first(6)) == 6);
            db.exec(felt_test::kEventRowsBefore7);
            CHECK(migrate(db) == latest);
            CHECK_FALSE(has_table(db, "hand_events"));
            CHECK(count(db, "SELECT COUNT(*) FROM hand_logs") == 2);
        }
        SqliteStore store(tmp.path, Chips(0), SqliteStore::Role::reader);
        felt_test::check_logs_after_7(store);
    }
    SUBCASE("migration 13 hands every finished hand back to the background count, its rows "
            "counted before wiped") {
        db::Database db(tmp.path);
        CHECK(migrate(db, builtin_migrations().first(12)) == 12);
        db.exec(R"(INSERT INTO accounts (id, name, password_hash) VALUES (1, 'ann', 'x');
INSERT INTO tables (id, config) VALUES (1, '{}');
INSERT INTO hands (id, table_id, number, config, commitment, status, stats_counted) VALUES
  (1, 1, 1, '{"game":"poker","variant":"holdem"}', 'c', 'finished', 1),
  (2, 1, 2, '{"game":"chinese","profile":"scoop"}', 'c', 'finished', 1),
  (3, 1, 3, '{"game":"leap","seats":3}', 'c', 'finished', 1),
  (4, 1, 4, '{"game":"leap","seats":3}', 'c', 'void', 1);
INSERT INTO player_stats (account_id, game, variant, structure, stake, position, table_size, day,
  tournament, hands, net, rake, showdown_net, units, sum_bb, sum_bb_squared)
  VALUES (1, 'poker', 'holdem', 'no-limit', 2, 0, 2, '2026-11-01', 0, 3, -7, 0, 0, 6, -3.5, 9);)");
        CHECK(migrate(db) == latest);
        CHECK(count(db, "SELECT COUNT(*) FROM hands WHERE stats_counted = 0 AND status = "
                        "'finished'") == 3);
        CHECK(count(db, "SELECT COUNT(*) FROM player_stats") == 0);
        CHECK(count(db, "SELECT COUNT(*) FROM opponent_stats") == 0);
    }
    SUBCASE("steps must be numbered without gaps") {
        const Migration gap[] = {{1, "one", "SELECT 1;"}, {3, "three", "SELECT 1;"}};
        db::Database db(tmp.path);
        CHECK_THROWS_AS(migrate(db, gap), MigrationError);
    }
}

TEST_CASE("accounts, sessions and the ledger") {
    db::Database db(":memory:");
    migrate(db);
    Accounts accounts(db, Chips(1000));
    const std::string hash = hash_password("correct horse");
    CHECK(verify_password(hash, "correct horse"));
    CHECK_FALSE(verify_password(hash, "wrong horse"));
    CHECK(hash.rfind("$argon2id$", 0) == 0);

    auto ann = accounts.create("ann", hash);
    REQUIRE(ann.ok());
    CHECK(ann.value->balance == Chips(1000));
    CHECK(accounts.create("ANN", hash).refusal.code == "name_taken"); // names ignore case
    auto found = accounts.find_with_hash("ann");
    REQUIRE(found.has_value());
    CHECK(found->second == hash);

    auto guest = accounts.create_guest();
    REQUIRE(guest.ok());
    CHECK(guest.value->guest);
    CHECK(guest.value->name.rfind("guest-", 0) == 0);
    CHECK_FALSE(accounts.find_with_hash(guest.value->name).has_value()); // no password login

    const std::string token = accounts.open_session(ann.value->id);
    CHECK(token.size() == 64);
    CHECK(accounts.resume(token, true).value->name == "ann");
    CHECK(accounts.resume("nonsense", true).refusal.code == "unauthorized");
    accounts.revoke(token);
    CHECK(accounts.resume(token, true).refusal.code == "unauthorized");
    CHECK(count(db, "SELECT COUNT(*) FROM sessions WHERE token_hash = '" + token + "'") == 0);

    // Tokens expire 14 days unused and 90 days after they were issued, whichever comes first.
    int n = 0;
    auto aged = [&](const char* created, const char* used) {
        auto a = accounts.create("aged" + std::to_string(++n), hash);
        const std::string t = accounts.open_session(a.value->id);
        db::Statement q(db, "UPDATE sessions SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', "
                            "'now', ?), used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) "
                            "WHERE account_id = ?");
        q.bind(1, std::string_view(created)).bind(2, std::string_view(used)).bind(3, a.value->id);
        q.run();
        return t;
    };
    CHECK(accounts.resume(aged("-13 days", "-13 days"), false).ok());
    CHECK_FALSE(accounts.resume(aged("-15 days", "-15 days"), false).ok()); // never used since
    CHECK(accounts.resume(aged("-89 days", "-1 days"), false).ok());
    CHECK_FALSE(accounts.resume(aged("-91 days", "-1 days"), false).ok()); // used, but too old
    // A use counts: a token 13 days idle, used now, lives 14 more days.
    const std::string used = aged("-20 days", "-13 days");
    REQUIRE(accounts.resume(used, true).ok());
    CHECK(count(db, "SELECT COUNT(*) FROM sessions s JOIN accounts a ON a.id = s.account_id "
                    "WHERE a.name = 'aged5' AND s.used_at > "
                    "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 minutes')") == 1);
    // Revoking all but one, and a new password.
    const std::string keep = accounts.open_session(ann.value->id);
    const std::string other = accounts.open_session(ann.value->id);
    accounts.revoke_all(ann.value->id, keep);
    CHECK(accounts.resume(keep, false).ok());
    CHECK_FALSE(accounts.resume(other, false).ok());
    accounts.revoke_all(ann.value->id, "");
    CHECK_FALSE(accounts.resume(keep, false).ok());
    accounts.set_password(ann.value->id, hash_password("a new one here"));
    CHECK(verify_password(accounts.find_with_hash("ann")->second, "a new one here"));

    {
        db::Transaction t(db);
        CHECK_FALSE(accounts.move_chips(ann.value->id, Chips(-400), "buy_in"));
        CHECK(accounts.move_chips(ann.value->id, Chips(-601), "buy_in")->code ==
              "insufficient_chips");
        CHECK_FALSE(accounts.move_chips(ann.value->id, Chips(150), "cash_out"));
        t.commit();
    }
    CHECK(accounts.find(ann.value->id)->balance == Chips(750));
    CHECK(accounts.ledger_sum(ann.value->id) == Chips(750));
    // The schema itself refuses a negative balance, whatever the code does.
    CHECK_THROWS_AS(db.exec("UPDATE accounts SET balance = -1 WHERE name = 'ann'"), db::Error);
    {
        db::Transaction t(db); // rolled back: never committed
        CHECK_FALSE(accounts.move_chips(ann.value->id, Chips(-750), "buy_in"));
    }
    CHECK(accounts.find(ann.value->id)->balance == Chips(750));

    CHECK_FALSE(check_name("ann"));
    CHECK(check_name("an")->code == "bad_name");
    CHECK(check_name("guest-1")->code == "bad_name");
    CHECK(check_name("a b c")->code == "bad_name");
    CHECK(check_password("short")->code == "bad_password");
    CHECK_FALSE(check_password("long enough"));
}

namespace {

// Storage on a database of its own (either engine), with its results delivered on a thread of
// the test's own (as on a table's strand); the writer can be held, so that what is queued
// meanwhile makes one group.
struct StorageRig {
    felt_test::Engine e;
    Metrics metrics;
    Storage storage;
    boost::asio::io_context results;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work =
        boost::asio::make_work_guard(results);
    std::thread delivery{[this] { results.run(); }};
    std::promise<void> release;

    explicit StorageRig(felt_test::Engine engine)
        : e(std::move(engine)), storage(e.open(true), e.open(false), metrics) {}
    ~StorageRig() {
        work.reset();
        delivery.join();
    }
    // The writer runs a write that waits until go(); what is queued meanwhile waits behind it.
    void hold() {
        release = {};
        auto running = std::make_shared<std::promise<void>>();
        auto started = running->get_future();
        storage.write(
            [held = release.get_future().share(), running](Store&) {
                running->set_value();
                held.wait();
                return true;
            },
            results.get_executor(), [](std::optional<bool>) {});
        started.wait();
    }
    void go() { release.set_value(); }
    // Waits until every write so far has run and its result been delivered.
    void settle() {
        storage.drain();
        std::promise<void> delivered;
        boost::asio::post(results, [&] { delivered.set_value(); });
        delivered.get_future().wait();
    }
    // Whether another connection sees the account now.
    bool committed(std::int64_t account) {
        return e.scalar("SELECT COUNT(*) FROM accounts WHERE id = " + std::to_string(account)) == 1;
    }
    std::int64_t balance(std::int64_t account) {
        return e.scalar("SELECT balance FROM accounts WHERE id = " + std::to_string(account));
    }
};

void group_commit(StorageRig& rig) {
    rig.hold();
    constexpr int kWrites = 40;
    std::vector<std::int64_t> ids(kWrites, 0);
    std::vector<bool> visible(kWrites, false);
    for (int i = 0; i < kWrites; ++i)
        rig.storage.write([](Store& s) { return s.create_guest(); }, rig.results.get_executor(),
                          [&, i](std::optional<Outcome<Account>> made) {
                              REQUIRE(made);
                              REQUIRE(made->ok());
                              ids[static_cast<std::size_t>(i)] = made->value->id;
                              // The acknowledgement comes after the commit, never before.
                              visible[static_cast<std::size_t>(i)] = rig.committed(made->value->id);
                          });
    rig.go();
    rig.settle();
    // The held write alone, then the 40 queued behind it in one transaction.
    CHECK(rig.metrics.storage_commits.load() == 2);
    CHECK(rig.metrics.storage_writes.load() == kWrites + 1);
    for (int i = 0; i < kWrites; ++i) {
        CHECK(visible[static_cast<std::size_t>(i)]);
        if (i > 0) CHECK(ids[static_cast<std::size_t>(i)] > ids[static_cast<std::size_t>(i - 1)]);
    }
    // The reader sees what was acknowledged.
    std::promise<std::optional<std::optional<Account>>> read_back;
    rig.storage.read([id = ids.back()](Store& s) { return s.find_account(id); },
                     rig.results.get_executor(),
                     [&](std::optional<std::optional<Account>> a) { read_back.set_value(a); });
    const auto read = read_back.get_future().get();
    REQUIRE(read);
    REQUIRE(*read);
    CHECK((*read)->balance == Chips(1000));
}

void refusals_and_failures(StorageRig& rig) {
    std::int64_t table = 0, a = 0, b = 0;
    rig.storage.write(
        [](Store& s) {
            const std::int64_t first = s.create_guest().value->id;
            return std::tuple{s.create_table("{}", first), first, s.create_guest().value->id};
        },
        rig.results.get_executor(), [&](auto made) { std::tie(table, a, b) = *made; });
    rig.settle();
    REQUIRE(table > 0);

    // In one group: a buy-in past A's balance (refused, and rolled back to its savepoint), and
    // B's buy-in that fits.
    rig.hold();
    std::optional<std::optional<Refusal>> too_much, fits;
    rig.storage.write([&](Store& s) { return s.buy_in(table, 0, a, Chips(5000)); },
                      rig.results.get_executor(), [&](auto r) { too_much = r; });
    rig.storage.write([&](Store& s) { return s.buy_in(table, 1, b, Chips(300)); },
                      rig.results.get_executor(), [&](auto r) { fits = r; });
    const auto commits = rig.metrics.storage_commits.load();
    rig.go();
    rig.settle();
    CHECK(rig.metrics.storage_commits.load() == commits + 2); // the held write, then one group
    REQUIRE(too_much);
    REQUIRE(*too_much);
    CHECK((*too_much)->code == "insufficient_chips");
    REQUIRE(fits);
    CHECK(!*fits);

    // In one group: two cash-outs around a write that throws. The group is rolled back and each
    // runs alone: the two cash-outs land, the failing one is reported as failed, and storage is
    // marked failing until the next write works.
    rig.hold();
    std::optional<bool> first, broken, second;
    rig.storage.write(
        [&](Store& s) {
            s.cash_out(table, 1, b, Chips(200), "cash_out");
            return true;
        },
        rig.results.get_executor(), [&](auto r) { first = r; });
    rig.storage.write([](Store&) -> bool { throw std::runtime_error("injected failure"); },
                      rig.results.get_executor(), [&](auto r) { broken = r.has_value(); });
    rig.storage.write([&](Store& s) { return s.create_table("{}", a) > 0; },
                      rig.results.get_executor(), [&](auto r) { second = r; });
    rig.go();
    rig.settle();
    CHECK(first == std::optional<bool>(true));
    CHECK(broken == std::optional<bool>(false));
    CHECK(second == std::optional<bool>(true));
    CHECK(rig.storage.failing() == false); // the last write worked again
    CHECK(rig.metrics.storage_failures.load() == 1);

    CHECK(rig.balance(a) == 1000);
    CHECK(rig.balance(b) == 1000 - 300 + 200);
    felt_test::ledger_balances(rig.e);
    CHECK(rig.e.scalar("SELECT COUNT(*) FROM table_seats") == 0);
}

void top_up(StorageRig& rig) {
    std::int64_t table = 0, a = 0;
    rig.storage.write(
        [](Store& s) {
            const std::int64_t first = s.create_guest().value->id;
            return std::pair{s.create_table("{}", first), first};
        },
        rig.results.get_executor(), [&](auto made) { std::tie(table, a) = *made; });
    rig.settle();
    REQUIRE(table > 0);
    std::optional<std::optional<Refusal>> bought, topped, too_much, no_seat;
    rig.storage.write([&](Store& s) { return s.buy_in(table, 0, a, Chips(300)); },
                      rig.results.get_executor(), [&](auto r) { bought = r; });
    rig.storage.write([&](Store& s) { return s.top_up(table, 0, a, Chips(200)); },
                      rig.results.get_executor(), [&](auto r) { topped = r; });
    rig.storage.write([&](Store& s) { return s.top_up(table, 0, a, Chips(501)); },
                      rig.results.get_executor(), [&](auto r) { too_much = r; });
    rig.storage.write([&](Store& s) { return s.top_up(table, 1, a, Chips(10)); },
                      rig.results.get_executor(), [&](auto r) { no_seat = r; });
    rig.settle();
    REQUIRE(bought);
    CHECK(!*bought);
    REQUIRE(topped);
    CHECK(!*topped);
    REQUIRE(too_much); // the balance is 500
    REQUIRE(*too_much);
    CHECK((*too_much)->code == "insufficient_chips");
    CHECK(!no_seat); // a seat nobody holds: the write fails, and is undone

    CHECK(rig.balance(a) == 1000 - 300 - 200);
    felt_test::ledger_balances(rig.e);
    CHECK(rig.e.scalar("SELECT stack FROM table_seats WHERE seat = 0") == 500);
    CHECK(rig.e.scalar("SELECT COUNT(*) FROM ledger WHERE reason = 'top_up'") == 1);
    CHECK(rig.e.scalar("SELECT -amount FROM ledger WHERE reason = 'top_up'") == 200);
}

// The same checks on either engine, one subcase each (the test case runs once a subcase, with a
// fresh rig).
void storage_checks(StorageRig& rig) {
    SUBCASE("writes queued together commit as one group, each acknowledged after it") {
        group_commit(rig);
    }
    SUBCASE("a refused buy-in in a group undoes itself only; a failing write fails alone") {
        refusals_and_failures(rig);
    }
    SUBCASE("a top-up moves chips from the balance to the seat, or nothing at all") {
        top_up(rig);
    }
}

} // namespace

TEST_CASE("storage on SQLite: group commit, refusals and failures in a group, top-ups") {
    felt_test::SqliteFile file;
    StorageRig rig(felt_test::sqlite_engine(file.path, Chips(1000)));
    storage_checks(rig);
}

TEST_CASE("storage on PostgreSQL: group commit, refusals and failures in a group, top-ups") {
    FELT_NEED_PG();
    felt_test::PgDatabase db;
    StorageRig rig(felt_test::pg_engine(db.url, Chips(1000)));
    storage_checks(rig);
}
