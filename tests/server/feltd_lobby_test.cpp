// Integration, the lobby: pages, quotas and idle tables, and the pushes to watchers.
// A real feltd on a free loopback port, driven through its WebSocket protocol and HTTP endpoints
// by the harness's client, as a bot would.
#include "bot.h"
#include "phh_cards.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"
#include "server/feltd_play.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <sodium.h>

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using namespace feltd_test;

TEST_CASE("feltd: the lobby comes in pages; an account's open tables are limited; a table nobody "
          "sits at closes") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    {
        Feltd d({"--tables-per-account", "2", "--table-idle", "1s"}, dir);
        auto people = guests(d.port(), 3);
        Client &a = *people[0], &b = *people[1], &w = *people[2];
        auto create = [](Client& c) {
            return c.call({{"type", "create_table"}, {"seats", 2}, {"hand_delay_ms", 0}});
        };
        const std::int64_t t1 = create(a)["table"], t2 = create(a)["table"];
        CHECK(create(a)["code"] == "too_many_tables");
        const std::int64_t t3 = create(b)["table"];
        REQUIRE(b.call({{"type", "join"}, {"table", t3}, {"buy_in", 100}})["ok"] == true);
        // Pages of two: t1 and t2, then t3.
        const json first = w.call({{"type", "tables"}, {"limit", 2}});
        REQUIRE(first["tables"].size() == 2);
        CHECK(first["tables"][0]["id"] == t1);
        CHECK(first["next"] == t2);
        const json rest = w.call({{"type", "tables"}, {"limit", 2}, {"after", first["next"]}});
        REQUIRE(rest["tables"].size() == 1);
        CHECK(rest["tables"][0]["id"] == t3);
        CHECK(rest["next"].is_null());
        CHECK(w.call({{"type", "tables"}, {"limit", 0}})["code"] == "bad_request");
        // Nobody sits at t1 and t2: they close, and their watcher is told. t3 stays while b sits.
        REQUIRE(w.call({{"type", "spectate"}, {"table", t1}})["ok"] == true);
        const json closed = next_kind(w, "closed");
        CHECK(closed["table"] == t1);
        CHECK(closed["reason"] == "idle");
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        const json now = w.call({{"type", "tables"}});
        REQUIRE(now["tables"].size() == 1);
        CHECK(now["tables"][0]["id"] == t3);
        CHECK(w.call({{"type", "join"}, {"table", t1}, {"buy_in", 100}})["code"] ==
              "no_such_table");
        CHECK(create(a)["ok"] == true); // a's closed tables no longer count
        // Once b leaves, t3 closes too.
        REQUIRE(b.call({{"type", "leave"}, {"table", t3}})["ok"] == true);
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        const json after = w.call({{"type", "tables"}});
        for (const json& t : after["tables"]) CHECK(t["id"] != t3);
        CHECK(d.stop(SIGTERM) == 0);
    }
    felt::db::Database db(dir + "/data/felt.db");
    CHECK(sql_int(db, "SELECT COUNT(*) FROM tables WHERE closed_at IS NOT NULL") == 4);
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: a lobby push that a request causes never overtakes the request's reply") {
    // Tables write to their watchers from their own strands (WsSession::send), but the lobby's
    // news goes through the connection's strand (send_later): the table a watcher creates opens
    // on its strand and tells the lobby at once, which must not reach the watcher before the
    // reply to create_table that it is about to get.
    Feltd d({"--tables-per-account", "100"});
    auto people = guests(d.port(), 1);
    Client& w = *people[0];
    REQUIRE(w.call({{"type", "watch_lobby"}})["ok"] == true);
    int overtaken = 0;
    for (int i = 0; i < 40; ++i) {
        w.send(json{{"type", "create_table"}, {"id", 100 + i}, {"seats", 2}});
        std::optional<json> m = w.read();
        REQUIRE(m.has_value());
        const std::string type = (*m)["type"].get<std::string>();
        overtaken += type != "create_table";
        if (type == "create_table") next_lobby(w); // then its push
    }
    CHECK(overtaken == 0);
}

TEST_CASE("feltd: the lobby is live: tables opening, seats, watchers and closing are pushed to "
          "those who watch it") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    {
        Feltd d({"--table-idle", "1s"}, dir);
        auto people = guests(d.port(), 3);
        Client &a = *people[0], &s = *people[1], &w = *people[2];
        const std::int64_t before = a.call({{"type", "create_table"}, {"seats", 2}})["table"];
        // Watching answers like `tables`, then pushes.
        const json first = w.call({{"type", "watch_lobby"}});
        REQUIRE(first["ok"] == true);
        REQUIRE(first["tables"].size() == 1);
        CHECK(first["tables"][0]["id"] == before);
        CHECK(first["tables"][0]["taken"] == 0);
        CHECK(first["tables"][0]["watching"] == 0);
        CHECK(first["next"].is_null());
        // Table `before` closes about a second after it opened, whatever else is pushed
        // meanwhile: each step below reads on to the push it expects, in order.
        bool before_closed = false;
        auto line = [&](std::int64_t id, int taken, int watching) {
            for (;;) {
                const json m = next_lobby(w);
                if (m["kind"] == "closed") {
                    REQUIRE(m["id"] == before);
                    before_closed = true;
                    continue;
                }
                REQUIRE(m["kind"] == "changed");
                if (m["table"]["id"] != id) continue;
                CHECK(m["table"]["taken"] == taken);
                CHECK(m["table"]["watching"] == watching);
                return m["table"];
            }
        };
        // A new table, a player, a spectator come and go: each is a new line.
        const std::int64_t t = a.call({{"type", "create_table"}, {"seats", 2}})["table"];
        const json opened = line(t, 0, 0);
        CHECK(opened["game"] == "poker");
        CHECK(opened["seats"] == 2);
        REQUIRE(a.call({{"type", "join"}, {"table", t}, {"buy_in", 100}})["ok"] == true);
        line(t, 1, 0);
        REQUIRE(s.call({{"type", "spectate"}, {"table", t}})["ok"] == true);
        line(t, 1, 1);
        REQUIRE(s.call({{"type", "leave"}, {"table", t}})["ok"] == true);
        line(t, 1, 0);
        REQUIRE(a.call({{"type", "leave"}, {"table", t}})["ok"] == true);
        line(t, 0, 0); // a player who leaves does not stay on as a spectator
        // Both tables close once nobody has sat at them for a second: so told. (On a fast
        // machine the steps above take a millisecond, and the two close in either order.)
        for (bool t_closed = false; !(t_closed && before_closed);) {
            const json m = next_lobby(w);
            REQUIRE(m["kind"] == "closed");
            before_closed = before_closed || m["id"] == before;
            t_closed = t_closed || m["id"] == t;
        }
        // The live list equals what `tables` says.
        CHECK(w.call({{"type", "tables"}})["tables"].empty());
        // Unwatched: nothing more comes.
        REQUIRE(w.call({{"type", "unwatch_lobby"}})["ok"] == true);
        a.call({{"type", "create_table"}, {"seats", 2}});
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        w.send(json{{"type", "ping"}, {"id", 999}});
        const auto pong = w.read();
        REQUIRE(pong.has_value());
        CHECK((*pong)["id"] == 999);
        // A watcher that goes away is forgotten, and the server goes on.
        REQUIRE(s.call({{"type", "watch_lobby"}})["ok"] == true);
        people[1].reset();
        CHECK(a.call({{"type", "create_table"}, {"seats", 2}})["ok"] == true);
        CHECK(d.stop(SIGTERM) == 0);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: a table's creator is named in the lobby and may close it, at once when empty or "
          "once the running hand ends, everyone cashed out") {
    Feltd d;
    auto people = guests(d.port(), 3);
    Client &host = *people[0], &b = *people[1], &c = *people[2];
    const std::string host_name = host.call({{"type", "me"}})["account"]["name"];
    const std::int64_t grant = b.call({{"type", "me"}})["account"]["balance"];
    // An empty table closes at once.
    const std::int64_t empty =
        host.call({{"type", "create_table"}, {"seats", 2}})["table"].get<std::int64_t>();
    json line = host.call({{"type", "tables"}})["tables"][0];
    CHECK(line["creator"] == host_name);
    CHECK(b.call({{"type", "close_table"}, {"table", empty}})["code"] == "not_creator");
    const json shut = host.call({{"type", "close_table"}, {"table", empty}});
    CHECK(shut["ok"] == true);
    CHECK(shut["at_once"] == true);
    CHECK(host.call({{"type", "tables"}})["tables"].empty());
    CHECK(host.call({{"type", "close_table"}, {"table", empty}})["code"] == "no_such_table");
    // A table in play: the hand is played out, then everyone is cashed out and it closes.
    const std::int64_t table = host.call({{"type", "create_table"},
                                          {"seats", 2},
                                          {"hand_delay_ms", 0},
                                          {"decision_ms", 600000}})["table"];
    REQUIRE(b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
    REQUIRE(c.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
    next_kind(b, "hand_start");
    const json later = host.call({{"type", "close_table"}, {"table", table}});
    CHECK(later["ok"] == true);
    CHECK(later["at_once"] == false);
    CHECK(host.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["code"] == "closed");
    // Whoever is to act folds, and the hand ends; nobody is dealt another.
    for (;;) {
        const json m = next_kind(b, "update");
        if (!m.contains("turn")) break;
        Client& actor = m["turn"].contains("legal") ? b : c;
        REQUIRE(actor.call({{"type", "act"}, {"table", table}, {"action", "fold"}})["ok"] == true);
    }
    bool closed = false;
    int left = 0;
    while (!closed) {
        auto m = b.read();
        REQUIRE(m.has_value());
        CHECK((*m)["kind"] != "hand_start");
        left += (*m)["kind"] == "left";
        closed = (*m)["kind"] == "closed";
        if (closed) CHECK((*m)["reason"] == "host");
    }
    CHECK(closed);
    CHECK(left == 2);
    CHECK(host.call({{"type", "tables"}})["tables"].empty());
    // Nobody lost a chip: the two balances add up to what they had.
    const std::int64_t sum = b.call({{"type", "me"}})["account"]["balance"].get<std::int64_t>() +
                             c.call({{"type", "me"}})["account"]["balance"].get<std::int64_t>();
    CHECK(sum == 2 * grant);
}
