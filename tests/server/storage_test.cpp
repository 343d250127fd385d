// The database layer: migrations (fresh, re-run, newer database, a failing step), accounts,
// sessions and the chip ledger.
#include "accounts.h"
#include "migrate.h"
#include "sqlite.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

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
    SUBCASE("steps must be numbered without gaps") {
        const Migration gap[] = {{1, "one", "SELECT 1;"}, {3, "three", "SELECT 1;"}};
        db::Database db(tmp.path);
        CHECK_THROWS_AS(migrate(db, gap), MigrationError);
    }
}

TEST_CASE("accounts, sessions and the ledger") {
    db::Database db(":memory:");
    migrate(db);
    Accounts accounts(db, 1000);
    const std::string hash = hash_password("correct horse");
    CHECK(verify_password(hash, "correct horse"));
    CHECK_FALSE(verify_password(hash, "wrong horse"));
    CHECK(hash.rfind("$argon2id$", 0) == 0);

    auto ann = accounts.create("ann", hash);
    REQUIRE(ann.ok());
    CHECK(ann.value->balance == 1000);
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
    CHECK(accounts.resume(token).value->name == "ann");
    CHECK(accounts.resume("nonsense").refusal.code == "unauthorized");
    accounts.revoke(token);
    CHECK(accounts.resume(token).refusal.code == "unauthorized");
    CHECK(count(db, "SELECT COUNT(*) FROM sessions WHERE token_hash = '" + token + "'") == 0);

    {
        db::Transaction t(db);
        CHECK_FALSE(accounts.move_chips(ann.value->id, -400, "buy_in"));
        CHECK(accounts.move_chips(ann.value->id, -601, "buy_in")->code == "insufficient_chips");
        CHECK_FALSE(accounts.move_chips(ann.value->id, 150, "cash_out"));
        t.commit();
    }
    CHECK(accounts.find(ann.value->id)->balance == 750);
    CHECK(accounts.ledger_sum(ann.value->id) == 750);
    // The schema itself refuses a negative balance, whatever the code does.
    CHECK_THROWS_AS(db.exec("UPDATE accounts SET balance = -1 WHERE name = 'ann'"), db::Error);
    {
        db::Transaction t(db); // rolled back: never committed
        CHECK_FALSE(accounts.move_chips(ann.value->id, -750, "buy_in"));
    }
    CHECK(accounts.find(ann.value->id)->balance == 750);

    CHECK_FALSE(check_name("ann"));
    CHECK(check_name("an")->code == "bad_name");
    CHECK(check_name("guest-1")->code == "bad_name");
    CHECK(check_name("a b c")->code == "bad_name");
    CHECK(check_password("short")->code == "bad_password");
    CHECK_FALSE(check_password("long enough"));
}
