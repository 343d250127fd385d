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

#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace feltd_test;
using felt::Chips;

namespace {

struct Entry {
    std::int64_t account = 0;
    std::string name;
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
        sight.read(msg);
        if (msg["kind"] == "hand_end") ++run.hands;
        if (msg["kind"] == "update" && msg.contains("turn") && msg["turn"].contains("legal")) {
            json a = random_action(msg["turn"]["legal"], sight, rng);
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

TEST_CASE("feltd: a sit-and-go cut short by SIGKILL: registrations taken again after the restart, "
          "and a running one cancelled with its pool shared by the last stacks written") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::int64_t running = 0, waiting = 0;
    {
        Feltd d({}, dir);
        Entry host = guest(d.port());
        std::vector<Entry> p;
        for (int i = 0; i < 2; ++i) p.push_back(guest(d.port()));
        const json sng = {
            {"type", "create_tournament"}, {"seats", 2},         {"buy_in", 100},       {"fee", 10},
            {"starting_stack", 1000},      {"hand_delay_ms", 0}, {"decision_ms", 60000}};
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
        // The one registering takes registrations again, with its entry.
        const json list = host.c->call({{"type", "tournaments"}});
        REQUIRE(list["tournaments"].size() == 1);
        CHECK(list["tournaments"][0]["tournament"] == waiting);
        CHECK(list["tournaments"][0]["entrants"] == 1);
        CHECK(host.c->call({{"type", "tournament"}, {"tournament", running}})["code"] ==
              "no_such_tournament");
        // The running one is cancelled: its pool (200) shared by the stacks after the hand
        // written (one blind won: 1010 and 990 of 2000, so 101 and 99), the host keeps the fees.
        felt::db::Database db(dir + "/data/felt.db");
        felt::db::Statement status(db, "SELECT status FROM tournaments WHERE id = ?");
        status.bind(1, running);
        REQUIRE(status.step());
        CHECK(status.column_text(0) == "cancelled");
        CHECK(sql_int(db, "SELECT SUM(amount) FROM ledger WHERE reason = 'tournament_share'") ==
              200);
        CHECK(sql_int(db, "SELECT COUNT(*) FROM ledger WHERE reason = 'tournament_share'") == 2);
        CHECK(sql_int(db, "SELECT MIN(amount) FROM ledger WHERE reason = 'tournament_share'") ==
              99);
        CHECK(sql_int(db, "SELECT SUM(amount) FROM ledger WHERE reason = 'tournament_fee'") == 20);
        // Every chip is somewhere: the balances and the entry still held add up to the grants.
        CHECK(sql_int(db, "SELECT SUM(balance) FROM accounts") +
                  sql_int(db, "SELECT SUM(buy_in + fee) FROM tournament_entries e JOIN "
                              "tournaments t ON t.id = e.tournament_id WHERE t.status = "
                              "'registering'") ==
              sql_int(db, "SELECT SUM(amount) FROM ledger WHERE reason = 'grant'"));
        // Its table is closed, not opened again as a cash table.
        CHECK(sql_int(db, "SELECT COUNT(*) FROM tables WHERE closed_at IS NULL") == 0);
    }
    std::filesystem::remove_all(dir);
}
