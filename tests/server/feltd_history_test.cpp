// Integration, history over WebSocket and HTTP.
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

TEST_CASE("feltd: history over WebSocket and HTTP shows each asker only their own hidden cards") {
    Feltd d;
    Client a(d.port()), b(d.port());
    a.hello();
    b.hello();
    auto ga = a.call({{"type", "guest"}});
    auto gb = b.call({{"type", "guest"}});
    const std::string token_a = ga["token"], name_a = ga["account"]["name"];
    const std::string name_b = gb["account"]["name"];
    const std::int64_t table = a.call({{"type", "create_table"},
                                       {"seats", 2},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", 5000}})["table"];
    const int seat_a = a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"];
    const int seat_b = b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"];
    constexpr int kHands = 4;
    BotReport ra, rb;
    std::thread ta([&] { ra = play(a, table, seat_a, kHands, 1); });
    std::thread tb([&] { rb = play(b, table, seat_b, kHands, 2); });
    ta.join();
    tb.join();

    auto page = a.call({{"type", "my_hands"}, {"limit", 2}});
    REQUIRE_MESSAGE(page["ok"] == true, page.dump());
    CHECK(page["hands"].size() == 2);
    REQUIRE(!page["next"].is_null());
    // Each says what game it was, for the list a person reads.
    for (const json& h : page["hands"]) {
        CHECK(h["game"] == "poker");
        CHECK(h["variant"] == "holdem");
        CHECK(h["structure"] == "no-limit");
    }
    auto rest = a.call({{"type", "my_hands"}, {"limit", 100}, {"before", page["next"]}});
    CHECK(page["hands"].size() + rest["hands"].size() >= kHands);
    CHECK(rest["next"].is_null());
    const std::int64_t hand_id = page["hands"][0]["hand"];

    auto mine = a.call({{"type", "hand"}, {"hand", hand_id}});
    REQUIRE(mine["ok"] == true);
    CHECK(mine["your_seat"] == seat_a);
    int own = 0;
    for (const json& e : mine["events"])
        if (e["kind"] == "deal_down") {
            if (e["seat"] == seat_a)
                own += e.contains("cards");
            else
                CHECK_FALSE(e.contains("cards"));
        }
    CHECK(own == 1);
    // The reveal checks out against the commitment, and opens the asker's own hole cards to it.
    const auto checked = fairness_check::check(mine["commitment"], mine["fairness"]);
    CHECK(checked.problems.empty());
    for (const json& e : mine["events"])
        if (e["kind"] == "deal_down" && e["seat"] == seat_a)
            for (const std::string& card : tokens(e["cards"])) CHECK(checked.yours.count(card));

    auto anonymous = json::parse(http_get(d.port(), "/api/hands/" + std::to_string(hand_id)).body);
    for (const json& e : anonymous["events"])
        if (e["kind"] == "deal_down") CHECK_FALSE(e.contains("cards"));
    auto with_token =
        json::parse(http_get(d.port(), "/api/hands/" + std::to_string(hand_id), token_a).body);
    CHECK(with_token["events"] == mine["events"]); // the same answer over HTTP
    CHECK(with_token["fairness"] == mine["fairness"]);
    // Anonymously: the reveal still checks out, opens no hole card, and gives none away.
    const auto seen_by_anyone =
        fairness_check::check(anonymous["commitment"], anonymous["fairness"]);
    CHECK(seen_by_anyone.problems.empty());
    CHECK_FALSE(anonymous["fairness"].contains("yours"));
    CHECK(seen_by_anyone.shown == checked.shown);
    for (const std::string& card : checked.yours) CHECK_FALSE(seen_by_anyone.shown.count(card));
    CHECK(fairness_check::derivable(anonymous["fairness"], seen_by_anyone) == 0);
    CHECK(http_get(d.port(), "/api/hands/" + std::to_string(hand_id), "bogus").status == 401);
    CHECK(http_get(d.port(), "/api/hands/999999").status == 404);
    CHECK(http_get(d.port(), "/api/me/hands").status == 401);
    auto me = json::parse(http_get(d.port(), "/api/me/hands?limit=100", token_a).body);
    CHECK(me["hands"].size() == page["hands"].size() + rest["hands"].size());
    // One reader of the parameters for both: a limit that is not an integer is bad_request,
    // naming it, over HTTP (400) as over WebSocket.
    const auto bad_limit = http_get(d.port(), "/api/me/hands?limit=ten", token_a);
    CHECK(bad_limit.status == 400);
    CHECK(json::parse(bad_limit.body)["code"] == "bad_request");
    CHECK(a.call({{"type", "my_hands"}, {"limit", "ten"}})["field"] == "limit");
    CHECK(json::parse(http_get(d.port(), "/api/me/hands?limit=1", token_a).body)["hands"].size() ==
          1);
    // The asker's tournaments over HTTP as over WebSocket: none here.
    CHECK(http_get(d.port(), "/api/me/tournaments").status == 401);
    CHECK(json::parse(http_get(d.port(), "/api/me/tournaments", token_a).body) ==
          json{{"tournaments", json::array()}});
    CHECK(a.call({{"type", "my_tournaments"}, {"limit", "ten"}})["field"] == "limit");
    auto recent =
        json::parse(http_get(d.port(), "/api/tables/" + std::to_string(table) + "/hands").body);
    CHECK(recent["hands"].size() >= kHands);
    auto ta_tot = json::parse(http_get(d.port(), "/api/players/" + name_a + "/totals").body);
    auto tb_tot = b.call({{"type", "totals"}});
    CHECK(ta_tot["hands"].get<int>() >= kHands);
    CHECK(ta_tot["net"].get<int>() + tb_tot["net"].get<int>() == 0);
    CHECK(a.call({{"type", "totals"}, {"name", "nobody_here"}})["code"] == "no_such_player");

    // Every stored hand replays through the engine to its recorded stacks, as PHH; the asker's
    // own hole cards are written, the other's (unless shown) are "????".
    for (const json& h : me["hands"]) {
        auto phh = a.call({{"type", "hand_phh"}, {"hand", h["hand"]}});
        REQUIRE_MESSAGE(phh["ok"] == true, phh.dump());
        const std::string text = phh["phh"];
        CHECK(text.find("variant = 'NT'") != std::string::npos);
        CHECK(text.find("finishing_stacks") != std::string::npos);
        const std::string own = "d dh p", masked = "????";
        int hidden = 0, visible = 0;
        for (std::size_t at = text.find(own); at != std::string::npos; at = text.find(own, at + 1))
            (text.compare(text.find(' ', at + 5) + 1, 4, masked) == 0 ? hidden : visible)++;
        CHECK(visible >= 1); // a's own
        CHECK(hidden + visible == 2);
    }
    auto http_phh = http_get(d.port(), "/api/hands/" + std::to_string(hand_id) + "/phh");
    CHECK(http_phh.status == 200);
    CHECK(http_phh.body.find("????") != std::string::npos); // no token: nobody's hole cards
    CHECK(a.call({{"type", "hand_phh"}, {"hand", 999999}})["code"] == "no_such_hand");
    CHECK(a.call({{"type", "hand"}, {"hand", "x"}})["code"] == "bad_request");
    CHECK(a.call({{"type", "hand"}, {"hand", -3}})["field"] == "hand");
    CHECK(a.call({{"type", "my_hands"}, {"limit", 2.5}})["field"] == "limit");
}

TEST_CASE("feltd: a poker hand's history names the hands shown as the table did, and says whether "
          "it replays") {
    Feltd d;
    Client a(d.port()), b(d.port()), w(d.port());
    for (Client* c : {&a, &b, &w}) {
        c->hello();
        REQUIRE(c->call({{"type", "guest"}})["ok"] == true);
    }
    const std::int64_t table = a.call({{"type", "create_table"},
                                       {"seats", 2},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", 5000}})["table"];
    REQUIRE(w.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    std::map<int, Client*> at;
    at[a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"].get<int>()] = &a;
    at[b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"].get<int>()] = &b;
    // Both call or check to the showdown; the spectator notes what the table said each hand made.
    std::int64_t hand_id = 0;
    std::map<int, json> shown; // seat -> its live `show` event
    for (;;) {
        const auto m = w.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] != "table") continue;
        if ((*m)["kind"] == "hand_start") hand_id = (*m)["hand_id"];
        if ((*m)["kind"] == "hand_end") break;
        if ((*m)["kind"] != "update") continue;
        for (const json& e : (*m)["events"])
            if (e["kind"] == "show") shown[e["seat"].get<int>()] = e;
        if (!m->contains("turn")) continue;
        Client& c = *at.at((*m)["turn"]["seat"].get<int>());
        if (!c.call({{"type", "act"}, {"table", table}, {"action", "call"}}).value("ok", false))
            REQUIRE(c.call({{"type", "act"}, {"table", table}, {"action", "check"}})["ok"] == true);
    }
    REQUIRE(hand_id > 0);
    REQUIRE(shown.size() == 2);

    const json record = a.call({{"type", "hand"}, {"hand", hand_id}});
    REQUIRE(record["ok"] == true);
    CHECK(record["replay"] == json{{"matches", true}});
    int named = 0;
    for (const json& e : record["events"]) {
        if (e["kind"] != "show") continue;
        const json& live = shown.at(e["seat"].get<int>());
        CHECK(e["cards"] == live["cards"]);
        CHECK(e["category"] == live["category"]);
        CHECK(e["made"] == live["made"]);
        named += e.contains("made");
    }
    CHECK(named == 2);

    // A record whose stacks were altered no longer replays, and says why.
    {
        felt::db::Database db(d.dir() + "/data/felt.db");
        felt::db::Statement q(db,
                              "UPDATE hand_seats SET stack_end = stack_end + 1 WHERE hand_id = ?");
        q.bind(1, hand_id);
        q.step();
    }
    const json altered = a.call({{"type", "hand"}, {"hand", hand_id}});
    CHECK(altered["replay"]["matches"] == false);
    CHECK(altered["replay"]["reason"].get<std::string>().find("recorded") != std::string::npos);
}
