// PostgreSQL storage beyond what both engines share (store_test.cpp): its migrations, the ledger
// under concurrent writers, one writer per database, and a connection that is lost and found.
#include "server/storage/engines.h"
#include "storage/bulletin.h"
#include "storage/migrate.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace felt_test;

TEST_CASE("PostgreSQL: the migrations, twins of SQLite's: fresh, again, newer, a failing step") {
    // The same steps on both engines: a version means the same schema.
    const auto sq = builtin_migrations();
    const auto pq = builtin_pg_migrations();
    REQUIRE(sq.size() == pq.size());
    for (std::size_t i = 0; i < sq.size(); ++i) {
        CHECK(sq[i].version == pq[i].version);
        CHECK(std::string(sq[i].name) == pq[i].name);
    }
    FELT_NEED_PG();
    PgDatabase db;
    pg::Connection c(db.url);
    const int latest = static_cast<int>(pq.size());
    auto tables = [&](const char* name) {
        return c
            .query("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = $1", {name})
            .integer(0, 0);
    };
    SUBCASE("a fresh database gets every step, each recorded; a second run does nothing") {
        CHECK(schema_version(c) == 0);
        CHECK(migrate(c) == latest);
        CHECK(tables("accounts") == 1);
        CHECK(tables("hand_logs") == 1);
        CHECK(tables("hand_events") == 0);
        CHECK(migrate(c) == latest);
        CHECK(c.query("SELECT COUNT(*) FROM schema_migrations").integer(0, 0) == latest);
        // The schema refuses a negative balance whatever the code does.
        c.exec("INSERT INTO accounts (name) VALUES ('ann')");
        CHECK_THROWS_AS(c.exec("UPDATE accounts SET balance = -1"), pg::Error);
        CHECK_THROWS_AS(c.exec("INSERT INTO accounts (name) VALUES ('ANN')"), pg::Error);
    }
    SUBCASE("migration 7 joins each hand's events, written a row each, into one row in order") {
        CHECK(migrate(c, pq.first(6)) == 6);
        c.exec(kEventRowsBefore7);
        CHECK(migrate(c) == latest);
        CHECK(tables("hand_events") == 0);
        CHECK(c.query("SELECT COUNT(*) FROM hand_logs").integer(0, 0) == 2);
        PgStore store(db.url, Chips(0), PgStore::Role::reader);
        check_logs_after_7(store);
    }
    SUBCASE("a database newer than the program is refused, untouched, by writer and reader") {
        migrate(c);
        c.exec("INSERT INTO schema_migrations (version, name) VALUES (" +
               std::to_string(latest + 1) + ", 'from_the_future')");
        CHECK_THROWS_WITH_AS(migrate(c), doctest::Contains("newer than this program knows"),
                             MigrationError);
        CHECK_THROWS_AS(PgStore(db.url, Chips(0), PgStore::Role::writer), MigrationError);
        CHECK_THROWS_AS(PgStore(db.url, Chips(0), PgStore::Role::reader), MigrationError);
        CHECK(schema_version(c) == latest + 1);
    }
    SUBCASE(
        "a failing step rolls back whole, schema changes too, and leaves the previous version") {
        const Migration steps[] = {
            {1, "one", "CREATE TABLE a (x INTEGER);"},
            {2, "two", "CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);"},
        };
        CHECK_THROWS_WITH_AS(migrate(c, steps), doctest::Contains("migration 2 (two) failed"),
                             MigrationError);
        CHECK(schema_version(c) == 1);
        CHECK(tables("a") == 1);
        CHECK(tables("b") == 0);
        const Migration fixed[] = {
            {1, "one", "CREATE TABLE a (x INTEGER);"},
            {2, "two", "CREATE TABLE b (y INTEGER);"},
        };
        CHECK(migrate(c, fixed) == 2);
        CHECK(tables("b") == 1);
    }
}

TEST_CASE("PostgreSQL: buy-ins racing on one account from many connections never overspend") {
    FELT_NEED_PG();
    PgDatabase db;
    const Engine e = pg_engine(db.url, Chips(1000));
    auto writer = e.open(true);
    const std::int64_t ann = writer->create_account("ann", "x").value->id;
    const std::int64_t table = writer->create_table("{}", ann);
    // 8 connections, 25 buy-ins of 10 chips each: 2,000 asked of 1,000, so exactly 100 succeed.
    constexpr int kThreads = 8, kEach = 25;
    std::atomic<int> ok{0}, refused{0}, failed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            auto store = e.open(false);
            for (int i = 0; i < kEach; ++i) {
                try {
                    if (store->buy_in(table, t * kEach + i, ann, Chips(10)))
                        ++refused;
                    else
                        ++ok;
                } catch (const std::exception&) {
                    ++failed;
                }
            }
        });
    for (auto& t : threads) t.join();
    CHECK(failed == 0);
    CHECK(ok == 100);
    CHECK(refused == kThreads * kEach - 100);
    CHECK(writer->find_account(ann)->balance == Chips(0));
    CHECK(e.scalar("SELECT SUM(stack) FROM table_seats") == 1000);
    CHECK(e.scalar("SELECT COUNT(*) FROM ledger WHERE reason = 'buy_in'") == 100);
    // Each ledger row's balance follows from the one before it: no two saw the same balance.
    CHECK(e.scalar("SELECT COUNT(DISTINCT balance_after) FROM ledger WHERE reason = 'buy_in'") ==
          100);
    CHECK(e.scalar("SELECT MIN(balance_after) FROM ledger") == 0);
}

TEST_CASE("PostgreSQL: one writer a node; a connection the server ended is replaced before "
          "the next unit of work, but never inside a group") {
    FELT_NEED_PG();
    PgDatabase db;
    const Engine e = pg_engine(db.url, Chips(1000));
    auto writer = e.open(true);
    {
        // A second run of the same node, while the first renews its lease, waits one lease for
        // it to lapse, then gives up.
        std::atomic<bool> done{false};
        std::thread renewing([&] {
            while (!done) {
                writer->tend();
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
            }
        });
        CHECK_THROWS_WITH(e.open(true), doctest::Contains("is held by a running feltd"));
        done = true;
        renewing.join();
    }
    auto reader = e.open(false); // readers are welcome
    const std::int64_t ann = writer->create_account("ann", "x").value->id;

    db.cut_connections();                                     // as a restart of the server would
    CHECK(writer->find_account(ann)->balance == Chips(1000)); // connected again first
    CHECK(reader->find_account(ann).has_value());
    CHECK(writer->tend().lease_held); // its lease, kept across the reconnection

    // A group that loses its connection midway fails whole and leaves nothing behind: the units
    // after the loss do not run on a new connection, outside the group's transaction.
    writer->begin_group();
    const std::int64_t table = writer->create_table("{}", ann);
    CHECK_FALSE(writer->buy_in(table, 0, ann, Chips(100)));
    db.cut_connections();
    CHECK_THROWS_WITH_AS(writer->buy_in(table, 1, ann, Chips(100)),
                         doctest::Contains("connection to PostgreSQL is lost"), pg::Error);
    CHECK_THROWS_WITH_AS(writer->buy_in(table, 2, ann, Chips(100)),
                         doctest::Contains("lost mid-group"), pg::Error);
    CHECK_THROWS(writer->commit_group());
    writer->abandon_group();
    CHECK(writer->find_account(ann)->balance == Chips(1000));
    CHECK(e.scalar("SELECT COUNT(*) FROM tables") == 0);
    CHECK(e.scalar("SELECT COUNT(*) FROM table_seats") == 0);
    // Once the writer has stopped and released its lease, its next run starts at once.
    writer->release();
    writer.reset();
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(e.open(true)->find_account(ann).has_value());
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
}

TEST_CASE("PostgreSQL: a server that cannot be reached is named, without its password") {
    CHECK(pg::is_postgres("postgresql://a@b/c"));
    CHECK(pg::is_postgres("postgres://a@b/c"));
    CHECK(pg::is_postgres("host=127.0.0.1 dbname=felt"));
    CHECK(pg::is_postgres("dbname=felt"));
    CHECK_FALSE(pg::is_postgres("data/felt.db"));
    CHECK_FALSE(pg::is_postgres("data/host=1.db"));
    CHECK_FALSE(pg::is_postgres(":memory:"));
    CHECK(pg::redact("postgresql://felt:s3cret@db:5432/felt") ==
          "postgresql://felt:***@db:5432/felt");
    CHECK(pg::redact("postgresql://felt@db/felt?password=s3cret") ==
          "postgresql://felt@db/felt?password=***");
    CHECK(pg::redact("host=db password='s e c' dbname=felt") == "host=db password=*** dbname=felt");
    CHECK(pg::redact("data/felt.db") == "data/felt.db");
    try {
        PgStore s("postgresql://felt:s3cret@127.0.0.1:1/felt?connect_timeout=2", Chips(0),
                  PgStore::Role::writer);
        FAIL("connected to nothing");
    } catch (const pg::Error& e) {
        const std::string what = e.what();
        CHECK(what.find("cannot connect to PostgreSQL at postgresql://felt:***@127.0.0.1:1") !=
              std::string::npos);
        CHECK(what.find("s3cret") == std::string::npos);
    }
}

TEST_CASE("PostgreSQL: nodes on one database: hand ids apart; a lapsed node's tables recovered "
          "once by one of two racing survivors; the lapsed node fenced off") {
    FELT_NEED_PG();
    PgDatabase db;
    const Engine e = pg_engine(db.url, Chips(1000));
    auto a = pg_node(db.url, Chips(1000), "a");
    auto b = pg_node(db.url, Chips(1000), "b");
    auto c = pg_node(db.url, Chips(1000), "c");

    // Blocks of hand ids that do not overlap, from any node.
    std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
    for (PgStore* n : {a.get(), b.get(), c.get(), a.get()}) blocks.push_back(n->reserve_hand_ids());
    for (std::size_t i = 0; i < blocks.size(); ++i)
        for (std::size_t j = i + 1; j < blocks.size(); ++j)
            CHECK((blocks[i].first + blocks[i].second <= blocks[j].first ||
                   blocks[j].first + blocks[j].second <= blocks[i].first));

    // Node a hosts a table: two players seated, a hand running.
    const std::int64_t ann = a->create_account("ann", "x").value->id;
    const std::int64_t bob = a->create_guest().value->id;
    const std::int64_t table = a->create_table("{}", ann);
    REQUIRE_FALSE(a->buy_in(table, 0, ann, Chips(300)));
    REQUIRE_FALSE(a->buy_in(table, 1, bob, Chips(200)));
    const std::int64_t hand = blocks[0].first;
    a->start_hand({hand, table, 1, "{}", "c0"});
    // Another node writes nothing at a's table.
    CHECK_THROWS_WITH(b->start_hand({blocks[1].first, table, 2, "{}", "c1"}),
                      doctest::Contains("not open on node b"));
    CHECK_THROWS_WITH(b->buy_in(table, 2, ann, Chips(10)), doctest::Contains("not open on node b"));
    CHECK(e.scalar("SELECT balance FROM accounts WHERE name = 'ann'") == 700);

    // Survivors judge other nodes only once they have held their own lease for a whole one.
    e.exec("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE id = 'a'");
    CHECK(b->tend().nodes_recovered == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    // (b and c did not renew meanwhile: nothing here runs their timers.)
    e.exec("UPDATE nodes SET lease_until = now() + interval '1 minute' WHERE id IN ('b', 'c')");
    e.exec("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE id = 'a'");
    // b and c race to recover a: exactly one does, once.
    Tending tb, tc;
    std::thread racer([&] { tc = c->tend(); });
    tb = b->tend();
    racer.join();
    CHECK(tb.lease_held);
    CHECK(tc.lease_held);
    CHECK(tb.nodes_recovered + tc.nodes_recovered == 1);
    CHECK(tb.tables_recovered + tc.tables_recovered == 1);
    CHECK(e.scalar("SELECT balance FROM accounts WHERE name = 'ann'") == 1000);
    CHECK(e.scalar("SELECT balance FROM accounts WHERE id = " + std::to_string(bob)) == 1000);
    CHECK(e.scalar("SELECT COUNT(*) FROM ledger WHERE reason = 'recovered'") == 2);
    CHECK(e.scalar("SELECT COUNT(*) FROM hands WHERE status = 'void'") == 1);
    CHECK(e.scalar("SELECT COUNT(*) FROM tables WHERE closed_at IS NULL") == 0);
    CHECK(e.scalar("SELECT COUNT(*) FROM nodes WHERE id = 'a'") == 0);

    // Node a was only slow, and runs on: it learns it lost its lease, and every write it still
    // tries at its old table is refused or pays nothing.
    CHECK_FALSE(a->tend().lease_held);
    CHECK_THROWS(
        a->finish_hand({hand, table, "As", "1", "", {{0, ann, Chips(300), Chips(500)}}, {"{}"}}));
    a->cash_out(table, 0, ann, Chips(300), "cash_out");
    CHECK_THROWS(a->buy_in(table, 0, ann, Chips(100)));
    CHECK_THROWS(a->start_hand({blocks[3].first, table, 2, "{}", "c2"}));
    CHECK(e.scalar("SELECT balance FROM accounts WHERE name = 'ann'") == 1000);
    ledger_balances(e);
    CHECK(e.scalar("SELECT SUM(balance) FROM accounts") == 2000);
}

TEST_CASE("PostgreSQL: the bulletin hears the other nodes in order, reads their open tables on "
          "connecting and again after losing the connection, and hears each table a recovery "
          "closes") {
    FELT_NEED_PG();
    PgDatabase db;
    auto a = pg_node(db.url, Chips(1000), "a");
    a->announce("ws://a:1/ws");
    const std::int64_t ann = a->create_account("ann", "x").value->id;
    const std::int64_t t1 = a->create_table(R"({"game":"poker","seats":6})", ann);
    REQUIRE_FALSE(a->buy_in(t1, 0, ann, Chips(100)));
    auto x = pg_node(db.url, Chips(1000), "x"); // the node that listens: its tables are its own
    x->announce("ws://x:1/ws");
    x->create_table("{}", ann);

    std::mutex mutex;
    std::condition_variable cv;
    std::vector<std::vector<RemoteTable>> reads;
    std::vector<std::string> heard;
    auto wait = [&](auto done) {
        std::unique_lock lock(mutex);
        return cv.wait_for(lock, std::chrono::seconds(10), done);
    };
    Bulletin bulletin(db.url, "x",
                      {[&](std::vector<RemoteTable> t) {
                           std::lock_guard lock(mutex);
                           reads.push_back(std::move(t));
                           cv.notify_all();
                       },
                       [&](const std::string& m) {
                           std::lock_guard lock(mutex);
                           heard.push_back(m);
                           cv.notify_all();
                       }});
    REQUIRE(wait([&] { return reads.size() == 1; }));
    REQUIRE(reads[0].size() == 1);
    CHECK(reads[0][0].id == t1);
    CHECK(reads[0][0].config == R"({"game":"poker","seats":6})");
    CHECK(reads[0][0].url == "ws://a:1/ws");
    CHECK(reads[0][0].taken == 1);

    for (int i = 0; i < 20; ++i) a->notify(std::to_string(i));
    REQUIRE(wait([&] { return heard.size() == 20; }));
    for (int i = 0; i < 20; ++i) CHECK(heard[static_cast<std::size_t>(i)] == std::to_string(i));

    // After a lost connection the open tables are read again (what was told meanwhile is lost).
    auto a2 = pg_node(db.url, Chips(1000), "a2");
    a2->announce("ws://a2:1/ws");
    const std::int64_t t2 = a2->create_table("{}", ann);
    pg_node(db.url, Chips(1000), "a3")->create_table("{}", ann); // a3 says nowhere where it is
    db.cut_connections();
    REQUIRE(wait([&] { return reads.size() == 2; }));
    {
        std::lock_guard lock(mutex);
        REQUIRE(reads[1].size() == 2);
        CHECK(reads[1][0].id == t1);
        CHECK(reads[1][1].id == t2);
        CHECK(reads[1][1].url == "ws://a2:1/ws");
        CHECK(reads[1][1].taken == 0);
        heard.clear();
    }

    // Node a's next run keeps its table open, for the server to open again: none is closed.
    pg::Connection(db.url).exec(
        "UPDATE nodes SET lease_until = now() - interval '1 second' WHERE id = 'a'");
    auto again = pg_node(db.url, Chips(1000), "a");
    const std::vector<OpenTable> open = again->left_open();
    REQUIRE(open.size() == 1);
    CHECK(open[0].id == t1);
    // The tables of nodes whose leases lapsed (a2's and a3's: nothing renews them here) are
    // recovered by a node that has held its own lease for a whole one: the bulletin hears each
    // one closed, and never a table of a node that renews its lease (a's t1).
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    const Tending tended = again->tend();
    CHECK(tended.lease_held);
    CHECK(tended.tables_recovered >= 1);
    REQUIRE(wait([&] {
        return std::ranges::any_of(
            heard, [&](const std::string& m) { return nlohmann::json::parse(m)["id"] == t2; });
    }));
    std::lock_guard lock(mutex);
    for (const std::string& m : heard) {
        const auto closed = nlohmann::json::parse(m);
        CHECK(closed["kind"] == "closed");
        CHECK(closed["id"] != t1);
        if (closed["id"] == t2) CHECK(closed["node"] == "a2");
    }
}
