// Several feltd nodes on one PostgreSQL database: one node killed mid-hand, and the survivor
// recovering its tables from the lapsed lease, with the ledger balancing to the chip at the end.
#include "bot.h"
#include "server/feltd_harness.h"
#include "server/storage/engines.h"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>

using namespace feltd_test;

namespace {

// Polls until `sql` reads `want` (up to `seconds`); the last value read.
std::int64_t poll_until(felt::pg::Connection& db, const std::string& sql, std::int64_t want,
                        int seconds) {
    std::int64_t got = -1;
    for (int i = 0; i < seconds * 10; ++i) {
        got = db.query(sql.c_str()).integer(0, 0);
        if (got == want) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return got;
}

} // namespace

TEST_CASE("PostgreSQL cluster: two nodes on one database; one killed mid-hand, the other recovers "
          "its tables once its lease lapses; the ledger balances to the chip") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    felt::pg::Connection db(pgdb.url);
    auto one = [&](const std::string& sql) { return db.query(sql.c_str()).integer(0, 0); };

    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    Feltd b({"--db", pgdb.url, "--node-id", "b", "--lease", "2s"});
    // Each node says where it is, just after it starts listening.
    CHECK(poll_until(db, "SELECT COUNT(*) FROM nodes WHERE url LIKE 'ws://127.0.0.1:%/ws'", 2,
                     10) == 2);

    felt::bot::Options on_a;
    on_a.port = std::to_string(a.port());
    on_a.tables = 2;
    on_a.seats = 3;
    on_a.hands = 1'000'000; // until the node dies under them
    felt::bot::Options on_b = on_a;
    on_b.port = std::to_string(b.port());
    on_b.hands = 25;
    on_b.seed = 2;
    felt::bot::Report ra, rb;
    std::thread bots_a([&] { ra = felt::bot::run(on_a); });
    std::thread bots_b([&] { rb = felt::bot::run(on_b); });

    // Node a plays and stores hands, then is killed with whatever hands are running.
    const std::string a_finished = "SELECT COUNT(*) FROM hands h JOIN tables t ON t.id = "
                                   "h.table_id WHERE t.node_id = 'a' AND h.status = 'finished'";
    for (int i = 0; i < 300 && one(a_finished) < 10; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    REQUIRE(one(a_finished) >= 10);
    CHECK(a.stop(SIGKILL) == -1);
    bots_a.join();
    CHECK_FALSE(ra.errors.empty()); // its bots lost their connections
    CHECK(one("SELECT COUNT(*) FROM tables WHERE node_id = 'a' AND closed_at IS NULL") == 2);

    // Node b, playing on all along, recovers a's tables once a's lease lapses.
    CHECK(poll_until(db, "SELECT COUNT(*) FROM tables WHERE node_id = 'a' AND closed_at IS NULL", 0,
                     20) == 0);
    CHECK(one("SELECT COUNT(*) FROM nodes WHERE id = 'a'") == 0);
    CHECK(one("SELECT COUNT(*) FROM table_seats s JOIN tables t ON t.id = s.table_id "
              "WHERE t.node_id = 'a'") == 0);
    CHECK(one("SELECT COUNT(*) FROM hands h JOIN tables t ON t.id = h.table_id "
              "WHERE t.node_id = 'a' AND h.status = 'running'") == 0);
    const std::int64_t recovered = one("SELECT COUNT(*) FROM ledger WHERE reason = 'recovered'");
    CHECK(recovered >= 1);
    CHECK(recovered <= 6);
    bots_b.join();
    CHECK_MESSAGE(rb.errors.empty(), (rb.errors.empty() ? "" : rb.errors.front()));
    CHECK(rb.hands >= 2 * 25);

    // A hand that a played, read from b's history.
    const std::int64_t hand = one("SELECT MAX(h.id) FROM hands h JOIN tables t ON t.id = "
                                  "h.table_id WHERE t.node_id = 'a' AND h.status = 'finished'");
    const HttpReply from_b = http_get(b.port(), "/api/hands/" + std::to_string(hand));
    CHECK(from_b.status == 200);
    CHECK(json::parse(from_b.body)["status"] == "finished");

    // Every chip granted is in a balance or on a seat, while b runs and after it stops.
    const std::string granted = "SELECT SUM(amount) FROM ledger WHERE reason = 'grant'";
    CHECK(one("SELECT (SELECT SUM(balance) FROM accounts) + (SELECT COALESCE(SUM(stack), 0) "
              "FROM table_seats)") == one(granted));
    CHECK(b.stop(SIGTERM) == 0);
    CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'running'") == 0);
    CHECK(one("SELECT SUM(balance) FROM accounts") == one(granted));
    CHECK(one("SELECT COUNT(*) FROM accounts a WHERE a.balance != (SELECT SUM(amount) FROM ledger "
              "l WHERE l.account_id = a.id)") == 0);
    // b released its lease as it stopped: a restart of b takes it at once.
    CHECK(one("SELECT COUNT(*) FROM nodes WHERE id = 'b' AND lease_until <= now()") == 1);
}

TEST_CASE("PostgreSQL cluster: a join or spectate for another node's table answers moved with "
          "that node's url; the client signs in there with its token and joins") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    Feltd b({"--db", pgdb.url, "--node-id", "b", "--lease", "2s"});
    const std::string a_url = "ws://127.0.0.1:" + std::to_string(a.port()) + "/ws";

    Client host(a.port());
    host.hello();
    REQUIRE(host.call({{"type", "guest"}})["ok"] == true);
    const json made = host.call({{"type", "create_table"}, {"seats", 2}});
    REQUIRE(made["ok"] == true);
    const std::int64_t table = made["table"];

    Client on_b(b.port());
    on_b.hello();
    const json guest = on_b.call({{"type", "guest"}});
    REQUIRE(guest["ok"] == true);
    const std::string token = guest["token"];
    for (const char* type : {"join", "spectate"}) {
        CAPTURE(type);
        const json moved = on_b.call({{"type", type}, {"table", table}, {"buy_in", 100}});
        CHECK(moved["type"] == "error");
        CHECK(moved["code"] == "moved");
        CHECK(moved["url"] == a_url);
        CHECK(moved["message"].get<std::string>().find(a_url) != std::string::npos);
    }
    // A table no node hosts is still no_such_table, with no url.
    const json none = on_b.call({{"type", "join"}, {"table", table + 1000}, {"buy_in", 100}});
    CHECK(none["code"] == "no_such_table");
    CHECK_FALSE(none.contains("url"));

    // The client goes there, signs in with its token, and joins.
    Client on_a(a.port());
    on_a.hello();
    const json resumed = on_a.call({{"type", "resume"}, {"token", token}});
    REQUIRE(resumed["ok"] == true);
    CHECK(resumed["account"]["name"] == guest["account"]["name"]);
    const json joined = on_a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}});
    CHECK(joined["ok"] == true);
    // One account on every node: b sees the buy-in in its balance.
    CHECK(on_b.call({{"type", "me"}})["account"]["balance"] == 10'000 - 100);

    // felt bot follows moved too: bots sent to b for a table on a play their hands on a.
    const json open = host.call({{"type", "create_table"}, {"seats", 3}, {"hand_delay_ms", 0}});
    REQUIRE(open["ok"] == true);
    felt::bot::Options o;
    o.port = std::to_string(b.port());
    o.join = open["table"];
    o.seats = 3;
    o.hands = 3;
    const felt::bot::Report r = felt::bot::run(o);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    CHECK(r.connected == 3);
    CHECK(r.actions > 0);
    CHECK(http_get(a.port(), "/api/tables/" + open["table"].dump() + "/hands?limit=10")
              .body.find("finished") != std::string::npos);
}
