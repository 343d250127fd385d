// Integration, tournaments: sit-and-gos on a real feltd, created, registered for and played to
// the end by bots over WebSocket; the chips of the entries, the fee and the prizes through the
// ledger; a restart in the middle.
#include "server/feltd_harness.h"
#include "server/feltd_play.h"
#include "storage/sqlite.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace feltd_test;
using felt::Chips;

namespace {

struct Entry {
    std::int64_t account = 0;
    std::string name;
    std::string token;
    std::unique_ptr<Client> c;
    Chips balance;
};

// A guest with its own connection.
Entry guest(unsigned short port) {
    Entry e;
    e.c = std::make_unique<Client>(port);
    e.c->hello();
    const json g = e.c->call({{"type", "guest"}});
    REQUIRE(g["ok"] == true);
    e.account = g["account"]["id"];
    e.name = g["account"]["name"];
    e.token = g["token"];
    e.balance = Chips(g["account"]["balance"].get<std::int64_t>());
    return e;
}

// What a bot saw of its tournament.
struct TournamentRun {
    int place = 0;
    Chips prize;
    std::int64_t table = 0;
    int hands = 0;
    std::vector<std::string> errors;
    json standings;
};

// Plays random legal actions at the tournament's table until the tournament is over for this bot
// (out, or the winner) and its end is told.
TournamentRun play_tournament(Client& c, unsigned seed) {
    TournamentRun run;
    std::mt19937 rng(seed);
    Sight sight;
    int id = 5000;
    bool done = false;
    for (;;) {
        auto m = c.read();
        if (!m) {
            run.errors.push_back("connection closed or silent");
            break;
        }
        const json& msg = *m;
        if (msg["type"] == "error") run.errors.push_back(msg.dump());
        if (msg["type"] == "tournament") {
            const std::string kind = msg["kind"];
            if (kind == "started") {
                run.table = msg["table"];
                sight.seat = msg["seat"];
            }
            if (kind == "out" || kind == "won") {
                run.place = msg["place"];
                run.prize = Chips(msg["prize"].get<std::int64_t>());
                done = kind == "out";
            }
            if (kind == "finished") {
                run.standings = msg["standings"];
                break;
            }
            if (done) break;
            continue;
        }
        if (msg["type"] != "table") continue;
        if (msg["kind"] == "snapshot" && msg["your_seat"].is_number()) { // seated again
            run.table = msg["table"];
            sight.seat = msg["your_seat"];
        }
        sight.read(msg);
        if (msg["kind"] == "hand_end") ++run.hands;
        // Its turn: in an update, or in the snapshot of a seat taken up again.
        const json* legal =
            msg["kind"] == "update" && msg.contains("turn") && msg["turn"].contains("legal")
                ? &msg["turn"]["legal"]
            : msg["kind"] == "snapshot" && msg.contains("legal") ? &msg["legal"]
                                                                 : nullptr;
        if (legal) {
            json a = random_action(*legal, sight, rng);
            a["type"] = "act";
            a["id"] = ++id;
            a["table"] = run.table;
            c.send(a);
        }
    }
    for (const std::string& leak : sight.leaks) run.errors.push_back("leak: " + leak);
    return run;
}

} // namespace

TEST_CASE("feltd: a sit-and-go registered for and played to the end by bots; entries, the fee "
          "and the prizes move through the ledger") {
    Feltd d;
    Entry host = guest(d.port());
    std::vector<Entry> players;
    for (int i = 0; i < 3; ++i) players.push_back(guest(d.port()));

    // Refused in words: a configuration that cannot run, a tournament that is not there.
    json bad = host.c->call({{"type", "create_tournament"}, {"levels", json::array()}});
    CHECK(bad["code"] == "bad_config");
    CHECK(bad["field"] == "levels");
    CHECK(host.c->call({{"type", "create_tournament"}, {"format", "multi-table"}})["field"] ==
          "format");
    CHECK(host.c->call({{"type", "tournament_register"}, {"tournament", 999}})["code"] ==
          "no_such_tournament");

    const json created = host.c->call({{"type", "create_tournament"},
                                       {"seats", 3},
                                       {"buy_in", 100},
                                       {"fee", 10},
                                       {"starting_stack", 500},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", 5000},
                                       {"levels",
                                        {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 4}},
                                         {{"small_blind", 25}, {"big_blind", 50}, {"hands", 4}}}}});
    REQUIRE_MESSAGE(created["ok"] == true, created.dump());
    const std::int64_t t = created["tournament"];
    const json listed = host.c->call({{"type", "tournaments"}});
    REQUIRE(listed["tournaments"].size() == 1);
    CHECK(listed["tournaments"][0]["status"] == "registering");
    CHECK(listed["tournaments"][0]["max_entrants"] == 3);

    // Registering: once each, with the chips; unregistering gives them back.
    const json first = players[0].c->call({{"type", "tournament_register"}, {"tournament", t}});
    REQUIRE_MESSAGE(first["ok"] == true, first.dump());
    CHECK(first["balance"] == (players[0].balance - Chips(110)).value());
    CHECK(players[0].c->call({{"type", "tournament_register"}, {"tournament", t}})["code"] ==
          "already_registered");
    CHECK(players[0].c->call({{"type", "tournament_unregister"}, {"tournament", t}})["balance"] ==
          players[0].balance.value());
    CHECK(players[0].c->call({{"type", "tournament_unregister"}, {"tournament", t}})["code"] ==
          "not_registered");
    for (Entry& p : players)
        REQUIRE(p.c->call({{"type", "tournament_register"}, {"tournament", t}})["ok"] == true);

    // The third entry fills it: it starts, and the bots play it out.
    std::vector<TournamentRun> runs(players.size());
    std::vector<std::thread> bots;
    for (std::size_t i = 0; i < players.size(); ++i)
        bots.emplace_back([&, i] { runs[i] = play_tournament(*players[i].c, 11 + i); });
    for (auto& b : bots) b.join();

    std::map<int, std::string> by_place;
    Chips prizes;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        CHECK_MESSAGE(runs[i].errors.empty(), players[i].name << ": " << runs[i].errors.front());
        CHECK(runs[i].table > 0);
        by_place[runs[i].place] = players[i].name;
        prizes += runs[i].prize;
    }
    CHECK(by_place.size() == 3); // places 1, 2 and 3, once each
    CHECK(by_place.count(1) == 1);
    CHECK(prizes == Chips(300)); // the pool: three buy-ins (fees apart)
    // Paid through the ledger: each player's balance is what they began with, less the entry,
    // plus their prize; the host has the fees.
    for (std::size_t i = 0; i < players.size(); ++i) {
        const json me = players[i].c->call({{"type", "me"}});
        CHECK(me["account"]["balance"] ==
              (players[i].balance - Chips(110) + runs[i].prize).value());
    }
    CHECK(host.c->call({{"type", "me"}})["account"]["balance"] ==
          (host.balance + Chips(30)).value());
    const json view = host.c->call({{"type", "tournament"}, {"tournament", t}});
    CHECK(view["tournament"]["status"] == "finished");
    CHECK(view["tournament"]["standings"].size() == 3);
    // The table it was played at is closed; its hands are in the history with the tournament and
    // the level.
    CHECK(host.c->call({{"type", "join"}, {"table", runs[0].table}, {"buy_in", 100}})["code"] ==
          "no_such_table");
    const json mine = players[0].c->call({{"type", "my_hands"}, {"limit", 1}});
    REQUIRE(mine["hands"].size() == 1);
    const json hand = players[0].c->call({{"type", "hand"}, {"hand", mine["hands"][0]["hand"]}});
    CHECK(hand["config"]["tournament"] == t);
    CHECK(hand["config"]["level"].get<int>() >= 1);
    CHECK(hand["replay"]["matches"] == true);
    // Tournament chips are not chips won or lost: the totals count cash hands only.
    CHECK(players[0].c->call({{"type", "totals"}})["hands"] == 0);
}

TEST_CASE("feltd: a sit-and-go cut short by SIGKILL is taken up after the restart where its "
          "last hand written left it, and played to the end; registrations go on") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::int64_t running = 0, waiting = 0;
    std::vector<std::string> tokens;
    {
        Feltd d({}, dir);
        Entry host = guest(d.port());
        std::vector<Entry> p;
        for (int i = 0; i < 2; ++i) {
            p.push_back(guest(d.port()));
            tokens.push_back(p.back().token);
        }
        // Levels of three hands, so that the bots finish it quickly after the restart.
        const json sng = {{"type", "create_tournament"},
                          {"seats", 2},
                          {"buy_in", 100},
                          {"fee", 10},
                          {"starting_stack", 1000},
                          {"hand_delay_ms", 0},
                          {"decision_ms", 60000},
                          {"levels",
                           {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 3}},
                            {{"small_blind", 50}, {"big_blind", 100}, {"hands", 3}}}}};
        running = host.c->call(sng)["tournament"];
        json later = sng;
        later["seats"] = 3;
        waiting = host.c->call(later)["tournament"];
        // One registers for the one that waits; both fill the other, which starts.
        REQUIRE(p[0].c->call({{"type", "tournament_register"}, {"tournament", waiting}})["ok"] ==
                true);
        for (Entry& e : p)
            REQUIRE(e.c->call({{"type", "tournament_register"}, {"tournament", running}})["ok"] ==
                    true);
        // The first hand is played out (the one to act folds), the second is dealt: then the kill.
        json started;
        do started = *p[0].c->read();
        while (!(started["type"] == "tournament" && started["kind"] == "started"));
        const std::int64_t table = started["table"];
        next_kind(*p[0].c, "hand_start");
        fold_first(*p[0].c, *p[1].c, table);
        next_kind(*p[0].c, "hand_start");
        d.stop(SIGKILL);
    }
    {
        Feltd d({}, dir);
        Entry host = guest(d.port());
        const json list = host.c->call({{"type", "tournaments"}});
        REQUIRE(list["tournaments"].size() == 2);
        // The one registering takes registrations again, with its entry.
        const json w = host.c->call({{"type", "tournament"}, {"tournament", waiting}});
        CHECK(w["tournament"]["status"] == "registering");
        CHECK(w["tournament"]["entrants"] == 1);
        // The running one stands as its first hand left it (a blind won: 1010 and 990); the
        // second, cut short, never happened.
        const json r = host.c->call({{"type", "tournament"}, {"tournament", running}});
        REQUIRE(r["tournament"]["status"] == "running");
        std::vector<std::int64_t> stacks;
        for (const json& st : r["tournament"]["standings"]) stacks.push_back(st["stack"]);
        std::sort(stacks.begin(), stacks.end());
        CHECK(stacks == std::vector<std::int64_t>{990, 1010});
        // Its players sign in again: seated where they were, and they play it to the end.
        std::vector<std::unique_ptr<Client>> back;
        for (const std::string& token : tokens) {
            back.push_back(std::make_unique<Client>(d.port()));
            back.back()->hello();
            REQUIRE(back.back()->call({{"type", "resume"}, {"token", token}})["ok"] == true);
        }
        std::vector<TournamentRun> runs(back.size());
        std::vector<std::thread> bots;
        for (std::size_t i = 0; i < back.size(); ++i)
            bots.emplace_back([&, i] { runs[i] = play_tournament(*back[i], 21 + i); });
        for (auto& b : bots) b.join();
        std::set<int> places;
        for (const TournamentRun& run : runs) {
            CHECK_MESSAGE(run.errors.empty(), run.errors.front());
            places.insert(run.place);
        }
        CHECK(places == std::set<int>{1, 2});
        // Paid once, through the ledger: the pool to the winner, the fees to the host; every
        // chip is somewhere.
        felt::db::Database db(dir + "/data/felt.db");
        CHECK(sql_int(db, "SELECT SUM(amount) FROM ledger WHERE reason = 'tournament_prize'") ==
              200);
        CHECK(sql_int(db, "SELECT COUNT(*) FROM ledger WHERE reason = 'tournament_prize'") == 1);
        CHECK(sql_int(db, "SELECT COUNT(*) FROM ledger WHERE reason = 'tournament_share'") == 0);
        CHECK(sql_int(db, "SELECT SUM(amount) FROM ledger WHERE reason = 'tournament_fee'") == 20);
        CHECK(sql_int(db, "SELECT SUM(balance) FROM accounts") +
                  sql_int(db, "SELECT SUM(buy_in + fee) FROM tournament_entries e JOIN "
                              "tournaments t ON t.id = e.tournament_id WHERE t.status = "
                              "'registering'") ==
              sql_int(db, "SELECT SUM(amount) FROM ledger WHERE reason = 'grant'"));
        // Its hands went on numbered from where they stopped, at the same table.
        CHECK(sql_int(db, "SELECT COUNT(DISTINCT table_id) FROM hands") == 1);
        CHECK(sql_int(db, "SELECT COUNT(*) FROM hands WHERE status = 'void'") == 1);
        CHECK(sql_int(db, "SELECT COUNT(*) FROM (SELECT number FROM hands GROUP BY number "
                          "HAVING COUNT(*) > 1)") == 0);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: a tournament's player who times out is sat out at once and folded without "
          "waiting from then on, dealt in all the same; one who leaves is blinded away, not "
          "cashed out") {
    Feltd d;
    Entry host = guest(d.port());
    std::vector<Entry> p;
    for (int i = 0; i < 3; ++i) p.push_back(guest(d.port()));
    const json sng = {{"type", "create_tournament"},
                      {"seats", 3},
                      {"starting_stack", 1000},
                      {"hand_delay_ms", 0},
                      {"decision_ms", 300},
                      {"levels", {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 50}}}}};
    const std::int64_t t = host.c->call(sng)["tournament"];
    for (Entry& e : p)
        REQUIRE(e.c->call({{"type", "tournament_register"}, {"tournament", t}})["ok"] == true);
    // p[0] plays (checks or calls), p[1] never answers, p[2] leaves at once.
    json started;
    do started = *p[2].c->read();
    while (!(started["type"] == "tournament" && started["kind"] == "started"));
    const std::int64_t table = started["table"];
    const json left = p[2].c->call({{"type", "leave"}, {"table", table}});
    CHECK(left["blinded_away"] == true);
    int seat1 = -1, seat2 = started["seat"];
    int hands = 0, sat_out_at = -1, acted_for = 0, dealt_after = 0;
    int waiting_for = -1; // a seat the server must act for in its very next update
    std::set<int> sat_out;
    for (int id = 100; hands < 12;) {
        auto m = p[0].c->read();
        REQUIRE(m.has_value());
        if ((*m)["type"] != "table") continue;
        const std::string kind = (*m)["kind"];
        if (kind == "snapshot")
            for (const json& st : (*m)["seats"])
                if (st["name"] == p[1].name) seat1 = st["seat"];
        if (kind == "sitting_out") {
            sat_out.insert((*m)["seat"].get<int>());
            if ((*m)["seat"] == seat1 && sat_out_at < 0) sat_out_at = hands;
        }
        if (kind == "hand_start") {
            ++hands;
            // Dealt in all the same, sat out or blinded away.
            if (sat_out_at >= 0) dealt_after += (*m)["stacks"][seat1] > 0;
            CHECK((*m)["stacks"][seat2] > 0);
        }
        if (waiting_for >= 0) {
            // Acted for at once: the server's fold or check is the next message (not a time-out
            // after the clock ran).
            REQUIRE(kind == "update");
            REQUIRE(!(*m)["events"].empty());
            const json& e = (*m)["events"][0];
            CHECK(e["seat"] == waiting_for);
            CHECK((e["kind"] == "fold" || e["kind"] == "check"));
            ++acted_for;
            waiting_for = -1;
        }
        if (kind != "update" || !m->contains("turn")) continue;
        const int to_act = (*m)["turn"]["seat"];
        if (to_act == seat2 || (to_act == seat1 && sat_out_at >= 0 && sat_out_at < hands))
            waiting_for = to_act;
        if ((*m)["turn"].contains("legal")) {
            const json& legal = (*m)["turn"]["legal"];
            p[0].c->send(json{{"type", "act"},
                              {"id", ++id},
                              {"table", table},
                              {"action", legal["check"] == true ? "check" : "call"}});
        }
    }
    REQUIRE(seat1 >= 0);
    CHECK(sat_out.count(seat2) == 1); // blinded away: told as sitting out
    CHECK(sat_out.count(seat1) == 1); // timed out once: sat out
    CHECK(sat_out_at >= 0);
    CHECK_MESSAGE(acted_for >= 3, acted_for); // the blinded away and the sat out, at once
    CHECK(dealt_after >= 3);
    // Nobody was cashed out: no ledger row moved chips to a balance but the registrations.
    const json view = host.c->call({{"type", "tournament"}, {"tournament", t}});
    CHECK(view["tournament"]["status"] == "running");
}

TEST_CASE("feltd: a graceful stop in the middle of a sit-and-go lets its seats go, exits, and the "
          "next start takes it up") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::int64_t t = 0;
    {
        Feltd d({}, dir);
        Entry host = guest(d.port());
        std::vector<Entry> p;
        for (int i = 0; i < 2; ++i) p.push_back(guest(d.port()));
        t = host.c->call({{"type", "create_tournament"},
                          {"seats", 2},
                          {"hand_delay_ms", 0},
                          {"decision_ms", 60000}})["tournament"];
        for (Entry& e : p)
            REQUIRE(e.c->call({{"type", "tournament_register"}, {"tournament", t}})["ok"] == true);
        next_kind(*p[0].c, "hand_start"); // a hand waits for its first action: then the stop
        CHECK(d.stop(SIGTERM) == 0);
    }
    {
        Feltd d({}, dir);
        Entry host = guest(d.port());
        const json r = host.c->call({{"type", "tournament"}, {"tournament", t}});
        CHECK(r["tournament"]["status"] == "running");
        CHECK(r["tournament"]["standings"].size() == 2);
    }
    std::filesystem::remove_all(dir);
}
