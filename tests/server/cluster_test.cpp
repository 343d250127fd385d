// Several feltd nodes on one PostgreSQL database: three nodes with bots, PostgreSQL restarted
// under them and one node killed mid-hand, the survivors recovering its tables from the lapsed
// lease, with the ledger balancing to the chip at the end; moved; and one lobby over every node.
#include "bot.h"
#include "server/feltd_harness.h"
#include "server/feltd_play.h"
#include "server/storage/engines.h"

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <map>
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

// How clients reach a node (its default --node-url).
std::string ws_url(const Feltd& f) {
    return "ws://127.0.0.1:" + std::to_string(f.port()) + "/ws";
}

// A connection signed in as a new guest.
std::unique_ptr<Client> guest(unsigned short port) {
    return std::move(guests(port, 1).front());
}

} // namespace

TEST_CASE("PostgreSQL cluster: three nodes with bots on all three, some joining through another "
          "node; PostgreSQL restarted while they play; one node killed mid-hand and its tables "
          "recovered; the ledger balances to the chip, and every finished hand is in its players' "
          "histories from any node") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    felt::pg::Connection db(pgdb.url);
    auto one = [&](const std::string& sql) { return db.query(sql.c_str()).integer(0, 0); };

    // b and c outlive PostgreSQL's restart below (a second down, and its shutdown and start):
    // with a lease of 2 s, a node slow to reconnect under load had its lease taken and its tables
    // recovered by another. a keeps 2 s: it is killed, and its lease must lapse soon after.
    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    Feltd b({"--db", pgdb.url, "--node-id", "b", "--lease", "8s"});
    Feltd c({"--db", pgdb.url, "--node-id", "c", "--lease", "8s"});
    // Each node says where it is, just after it starts listening.
    REQUIRE(poll_until(db, "SELECT COUNT(*) FROM nodes WHERE url LIKE 'ws://127.0.0.1:%/ws'", 3,
                       10) == 3);
    // A table on b, which bots reach through c: c answers moved, and they follow.
    auto host = guest(b.port());
    const json made = host->call({{"type", "create_table"}, {"seats", 3}, {"hand_delay_ms", 0}});
    REQUIRE(made["ok"] == true);

    felt::bot::Options on_a;
    on_a.port = std::to_string(a.port());
    on_a.tables = 2;
    on_a.seats = 3;
    on_a.hands = 1'000'000; // until the node dies under them
    felt::bot::Options on_c = on_a;
    on_c.port = std::to_string(c.port());
    on_c.tables = 1;
    on_c.hands = 40;
    on_c.seed = 2;
    felt::bot::Options via_c = on_c;
    via_c.join = made["table"];
    via_c.seed = 3;
    felt::bot::Report ra, rc, rv;
    std::thread bots_a([&] { ra = felt::bot::run(on_a); });
    std::thread bots_c([&] { rc = felt::bot::run(on_c); });
    std::thread bots_v([&] { rv = felt::bot::run(via_c); });

    const std::string a_finished = "SELECT COUNT(*) FROM hands h JOIN tables t ON t.id = "
                                   "h.table_id WHERE t.node_id = 'a' AND h.status = 'finished'";
    for (int i = 0; i < 300 && one(a_finished) < 10; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    REQUIRE(one(a_finished) >= 10);

    // Every bot of c's, and those that joined through c, has its seat before PostgreSQL stops: a
    // buy-in refused while it is down stops their run (a slow start under load did that).
    const std::string seated_elsewhere = "SELECT COUNT(*) FROM table_seats s JOIN tables t ON "
                                         "t.id = s.table_id WHERE t.node_id != 'a'";
    for (int i = 0; i < 300 && one(seated_elsewhere) < 6; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));

    // PostgreSQL stops for a second while they all play, and starts again.
    if (felt_test::pg_server_control("down")) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        REQUIRE(felt_test::pg_server_control("up"));
        db.reconnect();
    } else {
        MESSAGE("no restart of PostgreSQL: FELT_TEST_PG_DIR names no server folder");
    }

    // Node a plays on, then is killed with whatever hands are running.
    const std::int64_t before_kill = one(a_finished);
    for (int i = 0; i < 300 && one(a_finished) < before_kill + 3; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(a.stop(SIGKILL) == -1);
    bots_a.join();
    CHECK_FALSE(ra.errors.empty()); // its bots lost their connections
    CHECK(one("SELECT COUNT(*) FROM tables WHERE node_id = 'a' AND closed_at IS NULL") == 2);

    // Node b or c recovers a's tables once a's lease lapses.
    CHECK(poll_until(db, "SELECT COUNT(*) FROM tables WHERE node_id = 'a' AND closed_at IS NULL", 0,
                     20) == 0);
    CHECK(one("SELECT COUNT(*) FROM nodes WHERE id = 'a'") == 0);
    CHECK(one("SELECT COUNT(*) FROM nodes") == 2); // nobody else was counted dead
    CHECK(one("SELECT COUNT(*) FROM table_seats s JOIN tables t ON t.id = s.table_id "
              "WHERE t.node_id = 'a'") == 0);
    CHECK(one("SELECT COUNT(*) FROM hands h JOIN tables t ON t.id = h.table_id "
              "WHERE t.node_id = 'a' AND h.status = 'running'") == 0);
    const std::int64_t recovered = one("SELECT COUNT(*) FROM ledger WHERE reason = 'recovered'");
    CHECK(recovered >= 1);
    CHECK(recovered <= 6);
    bots_c.join();
    bots_v.join();
    for (const felt::bot::Report* r : {&rc, &rv}) {
        CHECK_MESSAGE(r->errors.empty(), (r->errors.empty() ? "" : r->errors.front()));
        CHECK(r->hands >= 40);
    }
    CHECK(one("SELECT COUNT(*) FROM hands h WHERE h.table_id = " + made["table"].dump() +
              " AND status = 'finished'") >= 40);

    // Every chip granted is in a balance or on a seat, while b and c run and after they stop.
    const std::string granted = "SELECT SUM(amount) FROM ledger WHERE reason = 'grant'";
    CHECK(one("SELECT (SELECT SUM(balance) FROM accounts) + (SELECT COALESCE(SUM(stack), 0) "
              "FROM table_seats)") == one(granted));
    // Every finished hand is in the history of each of its players, from either survivor: the
    // players each hand's record names, counted, are each player's totals.
    const felt::pg::Result finished = db.query("SELECT id FROM hands WHERE status = 'finished'");
    REQUIRE(finished.rows() >= 90);
    std::map<std::string, int> played;
    for (int i = 0; i < finished.rows(); ++i) {
        const HttpReply r = http_get((i % 2 ? b : c).port(), "/api/hands/" + finished.text(i, 0));
        REQUIRE(r.status == 200);
        const json record = json::parse(r.body);
        for (const json& seat : record["seats"]) ++played[seat["name"].get<std::string>()];
    }
    REQUIRE(played.size() >= 9);
    for (const auto& [name, hands] : played)
        for (const Feltd* node : {&b, &c}) {
            const HttpReply r = http_get(node->port(), "/api/players/" + name + "/totals");
            REQUIRE(r.status == 200);
            CHECK(json::parse(r.body)["hands"] == hands);
        }
    const std::int64_t hand = one("SELECT MAX(h.id) FROM hands h JOIN tables t ON t.id = "
                                  "h.table_id WHERE t.node_id = 'a' AND h.status = 'finished'");
    CHECK(json::parse(http_get(c.port(), "/api/hands/" + std::to_string(hand)).body)["status"] ==
          "finished");
    CHECK(b.stop(SIGTERM) == 0);
    CHECK(c.stop(SIGTERM) == 0);
    CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'running'") == 0);
    CHECK(one("SELECT SUM(balance) FROM accounts") == one(granted));
    CHECK(one("SELECT COUNT(*) FROM accounts a WHERE a.balance != (SELECT SUM(amount) FROM ledger "
              "l WHERE l.account_id = a.id)") == 0);
    // b and c released their leases as they stopped (c may have recovered b's row since).
    CHECK(one("SELECT COUNT(*) FROM nodes WHERE id = 'c' AND lease_until <= now()") == 1);
    CHECK(one("SELECT COUNT(*) FROM nodes WHERE lease_until > now()") == 0);
}

TEST_CASE("PostgreSQL cluster: a second feltd with a running node's --node-id waits out one "
          "lease, gives up, and recovers none of that node's live tables") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    felt::pg::Connection db(pgdb.url);
    auto one = [&](const std::string& sql) { return db.query(sql.c_str()).integer(0, 0); };
    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    felt::bot::Options o;
    o.port = std::to_string(a.port());
    o.seats = 3;
    o.hands = 20;
    felt::bot::Report report;
    std::thread bots([&] { report = felt::bot::run(o); });
    const std::string finished = "SELECT COUNT(*) FROM hands WHERE status = 'finished'";
    for (int i = 0; i < 200 && one(finished) < 3; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    REQUIRE(one(finished) >= 3); // in play, chips on the table
    auto [status, out] = run_feltd(
        {"--db", pgdb.url, "--node-id", "a", "--lease", "2s", "--port", "0", "--static", a.dir()},
        20);
    CHECK(status == 1);
    CHECK(out.find("is held by a running feltd") != std::string::npos);
    CHECK(out.find("recovered") == std::string::npos);
    bots.join();
    CHECK_MESSAGE(report.errors.empty(), (report.errors.empty() ? "" : report.errors.front()));
    CHECK(report.hands >= 3); // fewer than 20 when two bots went broke first
    CHECK(one("SELECT COUNT(*) FROM ledger WHERE reason = 'recovered'") == 0);
    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'void'") == 0);
    CHECK(a.stop(SIGTERM) == 0);
    CHECK(one("SELECT SUM(balance) FROM accounts") ==
          one("SELECT SUM(amount) FROM ledger WHERE reason = 'grant'") -
              one("SELECT COALESCE(SUM(stack_start - stack_end), 0) FROM hand_seats"));
    CHECK(one("SELECT COUNT(*) FROM accounts a WHERE a.balance != (SELECT SUM(amount) FROM ledger "
              "l WHERE l.account_id = a.id)") == 0);
}

TEST_CASE("PostgreSQL cluster: a join or spectate for another node's table answers moved with "
          "that node's url; the client signs in there with its token and joins") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    Feltd b({"--db", pgdb.url, "--node-id", "b", "--lease", "2s"});
    const std::string a_url = ws_url(a);

    auto hosting = guest(a.port());
    Client& host = *hosting;
    const json made = host.call({{"type", "create_table"}, {"seats", 2}});
    REQUIRE(made["ok"] == true);
    const std::int64_t table = made["table"];

    Client on_b(b.port());
    on_b.hello();
    const json signed_in = on_b.call({{"type", "guest"}});
    REQUIRE(signed_in["ok"] == true);
    const std::string token = signed_in["token"];
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
    CHECK_FALSE(resumed.contains("elsewhere")); // no seat anywhere yet
    CHECK(resumed["account"]["name"] == signed_in["account"]["name"]);
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

namespace {

// Reads lobby messages until one says `kind` of table `table` (and passes `also`); that message.
json lobby_until(Client& c, const std::string& kind, std::int64_t table,
                 const std::function<bool(const json&)>& also = {}) {
    for (;;) {
        auto m = c.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] != "lobby" || (*m)["kind"] != kind) continue;
        const json& id = kind == "closed" ? (*m)["id"] : (*m)["table"]["id"];
        if (id == table && (!also || also(*m))) return *m;
    }
}

// The lobby's list on a node: table id -> its line.
std::map<std::int64_t, json> listed(Client& c) {
    std::map<std::int64_t, json> out;
    const json reply = c.call({{"type", "tables"}});
    REQUIRE_MESSAGE(reply["ok"] == true, reply.dump());
    for (const json& line : reply["tables"]) out[line["id"]] = line;
    return out;
}

// The list once it holds `n` tables (other nodes' tables arrive a little later), or after 5 s.
std::map<std::int64_t, json> listed_once(Client& c, std::size_t n) {
    std::map<std::int64_t, json> lines = listed(c);
    for (int i = 0; i < 50 && lines.size() < n; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        lines = listed(c);
    }
    return lines;
}

} // namespace

TEST_CASE("PostgreSQL cluster: one lobby over every node: tables lists each table with its node's "
          "url, watch_lobby hears other nodes' tables change and close, a node started later reads "
          "them, and a sign-out reaches every node") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    felt::pg::Connection db(pgdb.url);
    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    Feltd b({"--db", pgdb.url, "--node-id", "b", "--lease", "2s"});
    REQUIRE(poll_until(db, "SELECT COUNT(*) FROM nodes WHERE url != ''", 2, 10) == 2);

    // A watcher on b hears of a table opened on a, and of a player sitting down there.
    auto watching = guest(b.port()), hosting = guest(a.port());
    Client &watcher = *watching, &host = *hosting;
    REQUIRE(watcher.call({{"type", "watch_lobby"}})["ok"] == true);
    const json made = host.call({{"type", "create_table"}, {"seats", 2}});
    REQUIRE(made["ok"] == true);
    const std::int64_t on_a = made["table"];
    const json opened = lobby_until(watcher, "changed", on_a);
    CHECK(opened["table"]["url"] == ws_url(a));
    CHECK(opened["table"]["taken"] == 0);
    CHECK(opened["table"]["seats"] == 2);
    Client player(a.port());
    player.hello();
    const json signed_in = player.call({{"type", "guest"}});
    REQUIRE(signed_in["ok"] == true);
    REQUIRE(player.call({{"type", "join"}, {"table", on_a}, {"buy_in", 100}})["ok"] == true);
    lobby_until(watcher, "changed", on_a, [](const json& m) { return m["table"]["taken"] == 1; });

    // Both nodes list both tables, each with its node's url.
    const json made_b = watcher.call({{"type", "create_table"}, {"seats", 3}});
    REQUIRE(made_b["ok"] == true);
    const std::int64_t on_b = made_b["table"];
    lobby_until(watcher, "changed", on_b);
    for (Client* c : {&host, &watcher}) {
        std::map<std::int64_t, json> lines = listed_once(*c, 2);
        REQUIRE(lines.size() == 2);
        CHECK(lines[on_a]["url"] == ws_url(a));
        CHECK(lines[on_a]["taken"] == 1);
        CHECK(lines[on_b]["url"] == ws_url(b));
    }
    // A page at a time over both nodes' tables.
    const json page = watcher.call({{"type", "tables"}, {"limit", 1}});
    REQUIRE(page["tables"].size() == 1);
    CHECK(page["tables"][0]["id"] == on_a);
    CHECK(page["next"] == on_a);
    const json rest = watcher.call({{"type", "tables"}, {"after", on_a}});
    REQUIRE(rest["tables"].size() == 1);
    CHECK(rest["tables"][0]["id"] == on_b);
    CHECK(rest["next"].is_null());

    // What no node would send, sent on the nodes' channel by hand: logged and dropped, the
    // lobby unchanged.
    for (const char* junk : {"not json", R"({"node":"x","kind":"changed","table":{"id":"7"}})",
                             R"({"node":"x","kind":"sign_out","account":1})", "[]"})
        db.query("SELECT pg_notify('felt_bulletin', $1)", {junk});
    db.query("SELECT pg_notify('felt_bulletin', $1)",
             {R"({"node":"x","kind":"changed","table":{"id":)" + std::to_string(on_b) +
              R"(,"seats":9,"taken":9,"watching":0,"game":"poker"}})"});
    CHECK(watcher.call({{"type", "ping"}})["ok"] == true);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto after_junk = listed(watcher);
    CHECK(after_junk.size() == 2);
    CHECK(after_junk.at(on_b)["seats"] == 3); // b's own line, not the forged one

    // A node started later reads the tables already open elsewhere.
    Feltd c({"--db", pgdb.url, "--node-id", "c", "--lease", "2s"});
    auto at_node_c = guest(c.port());
    Client& on_c = *at_node_c;
    std::map<std::int64_t, json> at_c = listed_once(on_c, 2);
    REQUIRE(at_c.size() == 2);
    CHECK(at_c[on_a]["url"] == ws_url(a));
    CHECK(at_c[on_a]["taken"] == 1);

    // The player signs in on c with the same token and signs out everywhere: the connection on
    // a is signed out too.
    Client again(c.port());
    again.hello();
    const json resumed = again.call({{"type", "resume"}, {"token", signed_in["token"]}});
    REQUIRE(resumed["ok"] == true);
    // The reply names the seat held on a, and where a is.
    CHECK(resumed["elsewhere"] == json::array({{{"table", on_a}, {"url", ws_url(a)}}}));
    REQUIRE(again.call({{"type", "logout"}, {"everywhere", true}})["ok"] == true);
    for (;;) {
        auto m = player.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] != "signed_out") continue;
        CHECK((*m)["reason"] == "logout");
        break;
    }
    CHECK(player.call({{"type", "me"}})["code"] == "unauthorized");

    // Node a dies: once b or c recovers its table, the watcher on b hears it closed.
    CHECK(a.stop(SIGKILL) == -1);
    lobby_until(watcher, "closed", on_a);
    for (int i = 0; i < 50 && listed(on_c).count(on_a); ++i) // c hears of it a little later
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(listed(on_c).count(on_a) == 0);
}

TEST_CASE("PostgreSQL cluster: every node's lobby of tournaments lists another node's tournament "
          "with its address; registering there answers moved, and the client registers on its "
          "node") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    Feltd b({"--db", pgdb.url, "--node-id", "b", "--lease", "2s"});
    const std::string a_url = ws_url(a);
    auto host = guest(a.port());
    const json made = host->call({{"type", "create_tournament"},
                                  {"seats", 3},
                                  {"buy_in", 100},
                                  {"hand_delay_ms", 0},
                                  {"levels",
                                   {{{"small_blind", 25}, {"big_blind", 50}, {"hands", 3}},
                                    {{"small_blind", 50}, {"big_blind", 100}, {"hands", 3}}}}});
    REQUIRE_MESSAGE(made["ok"] == true, made.dump());
    const std::int64_t t = made["tournament"];

    Client on_b(b.port());
    on_b.hello();
    const json signed_in = on_b.call({{"type", "guest"}});
    REQUIRE(signed_in["ok"] == true);
    // b's lobby lists a's tournament, with a's address; a's lists it without one (its own).
    const json listed = on_b.call({{"type", "tournaments"}});
    REQUIRE(listed["tournaments"].size() == 1);
    const json& line = listed["tournaments"][0];
    CHECK(line["tournament"] == t);
    CHECK(line["status"] == "registering");
    CHECK(line["entrants"] == 0);
    CHECK(line["max_entrants"] == 3);
    CHECK(line["url"] == a_url);
    const json own = host->call({{"type", "tournaments"}});
    REQUIRE_MESSAGE(own["tournaments"].size() == 1, own.dump());
    CHECK_FALSE(own["tournaments"][0].contains("url"));
    // Asked on b, it is moved to a; a tournament no node hosts is no such tournament.
    for (const char* type : {"tournament", "tournament_register"}) {
        CAPTURE(type);
        const json moved = on_b.call({{"type", type}, {"tournament", t}});
        CHECK(moved["code"] == "moved");
        CHECK(moved["url"] == a_url);
    }
    const json none = on_b.call({{"type", "tournament"}, {"tournament", t + 100}});
    CHECK(none["code"] == "no_such_tournament");
    CHECK_FALSE(none.contains("url"));
    // The client signs in on a with its token and registers there; b's lobby counts the entry.
    Client on_a(a.port());
    on_a.hello();
    REQUIRE(on_a.call({{"type", "resume"}, {"token", signed_in["token"]}})["ok"] == true);
    REQUIRE(on_a.call({{"type", "tournament_register"}, {"tournament", t}})["ok"] == true);
    CHECK(on_b.call({{"type", "tournaments"}})["tournaments"][0]["entrants"] == 1);
    REQUIRE(on_a.call({{"type", "tournament_unregister"}, {"tournament", t}})["ok"] == true);

    // felt bot follows moved too: three bots sent to b register on a and play it to the end.
    felt::bot::Options o;
    o.port = std::to_string(b.port());
    o.tournament = t;
    o.seats = 3;
    o.shove = true;
    const felt::bot::Report r = felt::bot::run(o);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    felt::pg::Connection db(pgdb.url);
    CHECK(db.query(("SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = " +
                    std::to_string(t) + " AND place IS NOT NULL")
                       .c_str())
              .integer(0, 0) == 3);
}

namespace {

// A tournament player who checks when it may, calls when it must, until the tournament is over
// for it: its place, once the end is told.
int play_out(Client& c) {
    int place = 0;
    for (int id = 9000;;) {
        auto m = c.read();
        REQUIRE(m.has_value());
        const json& msg = *m;
        if (msg["type"] == "tournament") {
            if (msg["kind"] == "out" || msg["kind"] == "won") place = msg["place"];
            if (msg["kind"] == "finished" || msg["kind"] == "out") return place;
            continue;
        }
        if (msg["type"] != "table") continue;
        const json* legal =
            msg["kind"] == "update" && msg.contains("turn") && msg["turn"].contains("legal")
                ? &msg["turn"]["legal"]
            : msg["kind"] == "snapshot" && msg.contains("legal") ? &msg["legal"]
                                                                 : nullptr;
        if (!legal) continue;
        const char* action = (*legal)["check"] == true  ? "check"
                             : (*legal)["call"] == true ? "call"
                                                        : "fold";
        c.send(json{{"type", "act"}, {"id", ++id}, {"table", msg["table"]}, {"action", action}});
    }
}

} // namespace

TEST_CASE("PostgreSQL cluster: the node of a running tournament is killed mid-hand; another node "
          "takes it over once the lease lapses, its players sign in there and play it to the end; "
          "every prize and fee paid once") {
    FELT_NEED_PG();
    felt_test::PgDatabase pgdb;
    Feltd a({"--db", pgdb.url, "--node-id", "a", "--lease", "2s"});
    Feltd b({"--db", pgdb.url, "--node-id", "b", "--lease", "2s"});
    auto host = guest(a.port());
    std::vector<std::unique_ptr<Client>> on_a;
    std::vector<std::string> tokens;
    for (int i = 0; i < 2; ++i) {
        on_a.push_back(std::make_unique<Client>(a.port()));
        on_a.back()->hello();
        const json g = on_a.back()->call({{"type", "guest"}});
        REQUIRE(g["ok"] == true);
        tokens.push_back(g["token"]);
    }
    const json made = host->call({{"type", "create_tournament"},
                                  {"seats", 2},
                                  {"buy_in", 100},
                                  {"fee", 10},
                                  {"starting_stack", 1000},
                                  {"hand_delay_ms", 0},
                                  {"decision_ms", 60000},
                                  {"levels",
                                   {{{"small_blind", 25}, {"big_blind", 50}, {"hands", 3}},
                                    {{"small_blind", 50}, {"big_blind", 100}, {"hands", 3}}}}});
    REQUIRE_MESSAGE(made["ok"] == true, made.dump());
    const std::int64_t t = made["tournament"];
    for (auto& c : on_a)
        REQUIRE(c->call({{"type", "tournament_register"}, {"tournament", t}})["ok"] == true);
    // The first hand is played out (the one to act folds), the second is dealt: then a dies.
    json started;
    do started = *on_a[0]->read();
    while (!(started["type"] == "tournament" && started["kind"] == "started"));
    const std::int64_t table = started["table"];
    hand_running(*on_a[0]);
    fold_first(*on_a[0], *on_a[1], table);
    next_kind(*on_a[0], "hand_start");
    CHECK(a.stop(SIGKILL) == -1);

    // b takes the tournament over once a's lease lapses, at the same table.
    felt::pg::Connection db(pgdb.url);
    CHECK(poll_until(db,
                     "SELECT COUNT(*) FROM tournaments WHERE node_id = 'b' AND id = " +
                         std::to_string(t),
                     1, 20) == 1);
    // Its players sign in on b and are seated there again; they play it to the end.
    std::vector<std::unique_ptr<Client>> on_b;
    for (const std::string& token : tokens) {
        on_b.push_back(std::make_unique<Client>(b.port()));
        on_b.back()->hello();
        REQUIRE(on_b.back()->call({{"type", "resume"}, {"token", token}})["ok"] == true);
    }
    std::vector<int> places(2);
    std::vector<std::thread> players;
    for (std::size_t i = 0; i < 2; ++i)
        players.emplace_back([&, i] { places[i] = play_out(*on_b[i]); });
    for (auto& p : players) p.join();
    std::sort(places.begin(), places.end());
    CHECK(places == std::vector<int>{1, 2});
    auto scalar = [&](const std::string& sql) { return db.query(sql.c_str()).integer(0, 0); };
    CHECK(scalar("SELECT COUNT(*) FROM tournaments WHERE status = 'finished'") == 1);
    CHECK(scalar("SELECT SUM(amount) FROM ledger WHERE reason = 'tournament_prize'") == 200);
    CHECK(scalar("SELECT COUNT(*) FROM ledger WHERE reason = 'tournament_prize'") == 1);
    CHECK(scalar("SELECT SUM(amount) FROM ledger WHERE reason = 'tournament_fee'") == 20);
    CHECK(scalar("SELECT COUNT(DISTINCT table_id) FROM hands") == 1);
    CHECK(scalar("SELECT COUNT(*) FROM hands WHERE status = 'void'") == 1);
    CHECK(scalar("SELECT SUM(balance) FROM accounts") ==
          scalar("SELECT SUM(amount) FROM ledger WHERE reason = 'grant'"));
}
