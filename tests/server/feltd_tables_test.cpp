// Integration, tables: bots playing every variant, no card leaked, refused actions, reconnecting,
// sitting out, chat, clocks and time banks, and hints. A real feltd on a free loopback port, driven
// through its WebSocket protocol and HTTP endpoints by the harness's client, as a bot would.
#include "bot.h"
#include "odds/equity.h"
#include "phh_cards.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"
#include "server/feltd_play.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <sodium.h>

#include <nlohmann/json.hpp>

#include "poker/variant.h"

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

TEST_CASE("feltd: three bots play hands to the end in every betting structure") {
    for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"}) {
        CAPTURE(structure);
        char tmpl[] = "/tmp/feltd_test_XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        const std::string dir = tmpl;
        constexpr int kHands = 12;
        {
            Feltd d({}, dir);
            auto bots = guests(d.port(), 3);
            auto made = bots[0]->call({{"type", "create_table"},
                                       {"variant", "holdem"},
                                       {"structure", structure},
                                       {"seats", 3},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", 5000}});
            REQUIRE(made["ok"] == true);
            const std::int64_t table = made["table"];
            auto watching = std::make_unique<Client>(d.port());
            Client& watcher = *watching;
            watcher.hello();
            watcher.call({{"type", "guest"}});
            REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
            CHECK(bots[0]->call({{"type", "join"}, {"table", table}, {"buy_in", 5}})["code"] ==
                  "bad_amount");
            std::vector<int> seats;
            for (auto& b : bots) {
                auto j = b->call({{"type", "join"}, {"table", table}, {"buy_in", 200}});
                REQUIRE(j["ok"] == true);
                seats.push_back(j["seat"]);
            }
            std::vector<BotReport> reports(3);
            std::vector<std::thread> threads;
            for (int i = 0; i < 3; ++i)
                threads.emplace_back([&, i] {
                    reports[static_cast<std::size_t>(i)] = play(
                        *bots[static_cast<std::size_t>(i)], table,
                        seats[static_cast<std::size_t>(i)], kHands, 7u + static_cast<unsigned>(i));
                });
            for (auto& t : threads) t.join();
            for (const auto& r : reports) {
                CHECK(r.hands >= kHands);
                CHECK(r.actions > 0);
                CHECK(r.leaks.empty());
                CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
            }
            // The spectator never saw a hole card.
            watcher.send(json{{"type", "ping"}, {"id", 1}});
            int down_seen = 0, hands_seen = 0;
            std::string commitment;
            for (auto m = watcher.read(); m && (*m)["type"] != "ping"; m = watcher.read()) {
                if ((*m)["kind"] == "update")
                    for (const json& e : (*m)["events"])
                        down_seen += e["kind"] == "deal_down" && e.contains("cards");
                if ((*m)["kind"] == "hand_start") commitment = (*m)["commitment"];
                if ((*m)["kind"] == "hand_end") {
                    ++hands_seen;
                    // The reveal matches the commitment the spectator can check.
                    const auto c = fairness_check::check(commitment, (*m)["fairness"]);
                    CHECK_MESSAGE(c.problems.empty(), (*m).dump());
                }
            }
            CHECK(down_seen == 0);
            CHECK(hands_seen >= kHands);
            bots.clear(); // gone: the server need not wait for their close handshakes
            watching.reset();
            CHECK(d.stop(SIGTERM) == 0);
        }
        // The database: every chip where it belongs, every hand whole.
        {
            felt::db::Database db(dir + "/data/felt.db");
            felt::server::Accounts accounts(db, 0);
            auto one = [&](const std::string& sql) { return sql_int(db, sql); };
            CHECK(one("SELECT SUM(balance) FROM accounts") == 4 * 10'000);
            CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
            CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'finished'") >= kHands);
            CHECK(one("SELECT COUNT(*) FROM hands WHERE status <> 'finished'") == 0);
            CHECK(one("SELECT COUNT(*) FROM (SELECT hand_id FROM hand_seats GROUP BY hand_id "
                      "HAVING SUM(stack_start) <> SUM(stack_end))") == 0);
            CHECK(one("SELECT COUNT(*) FROM hand_logs") ==
                  one("SELECT COUNT(*) FROM hands WHERE status = 'finished'"));
            // Every event of every hand, a line each.
            CHECK(one("SELECT SUM(LENGTH(body) - LENGTH(REPLACE(body, char(10), '')) + 1) FROM "
                      "hand_logs") > kHands * 10);
            felt::db::Statement q(db, "SELECT id, balance FROM accounts");
            while (q.step()) CHECK(accounts.ledger_sum(q.column_int(0)) == q.column_chips(1));
        }
        std::filesystem::remove_all(dir);
    }
}

TEST_CASE("feltd: in every variant and structure, no message carries a card its reader may not "
          "see") {
    // Four bots and a spectator at a table of each of the 42 games, all at once: every message
    // each of them reads is checked (Sight), over kHands hands a table. Each bot may leave on a
    // turn of its last hand, so the server acts for leaving players in every phase of every game
    // (a draw, a rollover, a bring-in, a bet). The first deal waits hand_delay_ms, by which time
    // all four have sat down: nobody joins a hand under way, where a snapshot would show up cards
    // dealt before the reader came.
#ifdef FELT_SANITIZE
    constexpr int kHands = 8; // the 42 tables, fewer hands each: all-ins work out their EV too
#else
    constexpr int kHands = 20;
#endif
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    Feltd d({"--rate", "1000", "--burst", "1000", "--per-address", "1000"}, dir);
    struct Game {
        std::string name;
        std::int64_t table = 0;
        std::vector<std::unique_ptr<Client>> bots;
        std::vector<int> seats;
        std::unique_ptr<Client> watcher;
        std::vector<BotReport> reports;
        Sight watched;
        int hands_watched = 0;
        std::map<std::int64_t, std::set<std::string>> public_cards; // by hand id
    };
    std::vector<Game> games;
    for (std::string_view variant : felt::poker::builtin_variant_names())
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"}) {
            Game g;
            g.name = std::string(variant) + " " + structure;
            for (int i = 0; i < 5; ++i) {
                auto c = std::make_unique<Client>(d.port());
                c->hello();
                REQUIRE(c->call({{"type", "guest"}})["ok"] == true);
                if (i < 4)
                    g.bots.push_back(std::move(c));
                else
                    g.watcher = std::move(c);
            }
            // All-ins told at once (runout_ms 0): the odds of each street are another test's.
            auto made = g.bots[0]->call({{"type", "create_table"},
                                         {"variant", variant},
                                         {"structure", structure},
                                         {"seats", 4},
                                         {"hand_delay_ms", 300},
                                         {"runout_ms", 0},
                                         {"decision_ms", 10'000}});
            REQUIRE_MESSAGE(made["ok"] == true, made.dump());
            g.table = made["table"];
            REQUIRE(g.watcher->call({{"type", "spectate"}, {"table", g.table}})["ok"] == true);
            for (auto& b : g.bots) {
                auto j = b->call({{"type", "join"},
                                  {"table", g.table},
                                  {"buy_in", made["config"]["max_buy_in"]}});
                REQUIRE(j["ok"] == true);
                g.seats.push_back(j["seat"]);
            }
            g.reports.resize(4);
            g.watched.attack = true;
            games.push_back(std::move(g));
        }
    std::vector<std::thread> threads;
    unsigned seed = 100;
    for (Game& g : games) {
        for (std::size_t i = 0; i < 4; ++i)
            threads.emplace_back([&g, i, s = ++seed] {
                g.reports[i] = play(*g.bots[i], g.table, g.seats[i], kHands, s, true);
            });
        threads.emplace_back([&g] { // the spectator reads until the four have left
            for (int left = 0; left < 4;) {
                auto m = g.watcher->read();
                if (!m) break;
                if ((*m)["type"] != "table") continue;
                g.watched.read(*m);
                left += (*m)["kind"] == "left";
                g.hands_watched += (*m)["kind"] == "hand_end";
                if ((*m)["kind"] == "hand_end") g.public_cards[(*m)["hand_id"]] = g.watched.shown;
            }
        });
    }
    for (auto& t : threads) t.join();
    for (const Game& g : games) {
        CAPTURE(g.name);
        for (const BotReport& r : g.reports) {
            CHECK(r.hands >= kHands);
            CHECK(r.cards > 0); // the check had cards of its own to see
            CHECK_MESSAGE(r.leaks.empty(), (r.leaks.empty() ? "" : r.leaks.front()));
            CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
        }
        CHECK(g.hands_watched >= kHands);
        CHECK(g.watched.public_seen > 0); // every game shows cards at a showdown, at least
        CHECK_MESSAGE(g.watched.leaks.empty(),
                      (g.watched.leaks.empty() ? "" : g.watched.leaks.front()));
        // Every hand's reveal was checked, by the spectator and by each player, and left cards
        // sealed (folded hands, the stock).
        CHECK(g.watched.reveals >= kHands);
        CHECK(g.watched.sealed > 0);
        for (const BotReport& r : g.reports) CHECK(r.reveals >= kHands);
        // Each hand's history, asked for anonymously, shows only what the spectator saw shown:
        // in its PHH, and in its fairness reveal, which checks out and gives no sealed card away.
        int hidden = 0;
        for (const auto& [hand, shown] : g.public_cards) {
            CAPTURE(hand);
            const HttpReply phh = http_get(d.port(), "/api/hands/" + std::to_string(hand) + "/phh");
            REQUIRE(phh.status == 200);
            for (const std::string& card : phh_cards(phh.body)) {
                hidden += card == "??";
                if (card != "??") CHECK_MESSAGE(shown.count(card), phh.body);
            }
            const HttpReply record = http_get(d.port(), "/api/hands/" + std::to_string(hand));
            REQUIRE(record.status == 200);
            const json h = json::parse(record.body);
            const auto c = fairness_check::check(h["commitment"], h["fairness"]);
            CHECK_MESSAGE(c.problems.empty(), record.body);
            CHECK_FALSE(h["fairness"].contains("yours"));
            for (const std::string& card : c.shown) CHECK_MESSAGE(shown.count(card), record.body);
            CHECK(fairness_check::derivable(h["fairness"], c) == 0);
        }
        CHECK(hidden > 0);
    }
    games.clear();
    CHECK(d.stop(SIGTERM) == 0);
    const int tables = 3 * static_cast<int>(felt::poker::builtin_variant_names().size());
    check_database(dir, tables * 5, tables * kHands);
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: refused actions change nothing") {
    Feltd d;
    Client a(d.port()), b(d.port());
    a.hello();
    b.hello();
    a.call({{"type", "guest"}});
    b.call({{"type", "guest"}});
    const std::int64_t table = a.call({{"type", "create_table"},
                                       {"seats", 2},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", 600000}})["table"];
    CHECK(a.call({{"type", "act"}, {"table", table}, {"action", "call"}})["code"] == "not_seated");
    CHECK(a.call({{"type", "join"}, {"table", 999}, {"buy_in", 100}})["code"] == "no_such_table");
    CHECK(a.call({{"type", "join"}, {"table", table}, {"buy_in", 20'000}})["code"] == "bad_amount");
    // A field of the wrong type, or past 64 bits, is refused by name, never read as a default
    // or narrowed: a buy-in of "100" or 100.0, seat 2^32 (which narrowed to seat 0).
    for (const json& bad :
         {json{{"buy_in", "100"}}, json{{"buy_in", 100.0}}, json{{"buy_in", 100}, {"seat", "0"}},
          json{{"buy_in", 100}, {"seat", std::int64_t{4'294'967'296}}},
          json{{"buy_in", std::uint64_t{18'446'744'073'709'551'615u}}}}) {
        json req = bad;
        req["type"] = "join";
        req["table"] = table;
        const json got = a.call(req);
        CHECK(got["code"] == "bad_request");
        CHECK(got["field"] == (bad.contains("seat") ? "seat" : "buy_in"));
    }
    CHECK(a.call({{"type", "create_table"}, {"variant", "kuhn"}})["code"] == "bad_config");
    CHECK(a.call({{"type", "create_table"}, {"seats", 12}})["code"] == "bad_config");
    // Stricter since the configs moved to protocol/: past int, wrong type, unknown, by name.
    for (const json& bad :
         {json{{"decision_ms", std::int64_t{4'294'967'396}}}, json{{"decision_ms", "100"}},
          json{{"decison_ms", 100}}, json{{"game", "chinese"}, {"hints", 1}}, json{{"game", 7}},
          json{{"game", "leap"}, {"turn_ms", 99}}}) {
        json req = bad;
        req["type"] = "create_table";
        const json refused = a.call(req);
        CAPTURE(refused.dump());
        CHECK(refused["code"] == "bad_config");
        const std::string field = bad.begin().key() == "game" && bad.size() > 1
                                      ? std::next(bad.begin()).key()
                                      : bad.begin().key();
        CHECK(refused["field"] == field);
    }
    REQUIRE(a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
    CHECK(a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["code"] ==
          "already_seated");
    REQUIRE(b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
    // Find who is to act from b's stream (a's replies and pushes interleave; b only reads here).
    json turn;
    for (auto m = b.read(); m; m = b.read())
        if ((*m)["kind"] == "update" && (*m).contains("turn")) {
            turn = (*m)["turn"];
            break;
        }
    const int to_act = turn["seat"];
    const bool b_acts = turn.contains("legal");
    Client& actor = b_acts ? b : a;
    Client& other = b_acts ? a : b;
    auto act = [&](Client& c, json fields) {
        fields["type"] = "act";
        fields["table"] = table;
        fields["id"] = 77;
        c.send(fields);
        for (auto m = c.read(); m; m = c.read())
            if ((*m).contains("id") && (*m)["id"] == 77) return *m;
        return json();
    };
    const json early = act(other, {{"action", "call"}});
    CHECK(early["code"] == "not_your_turn");
    // In a player's words: seats counted from 1, with the players' names.
    const std::string said = early["message"];
    CAPTURE(said);
    CHECK(said.find("(seat " + std::to_string(to_act + 1) + ")'s turn, not ") != std::string::npos);
    CHECK(said.find("(seat " + std::to_string(2 - to_act) + ")'s") != std::string::npos);
    CHECK(said.find("guest-") != std::string::npos);
    CHECK(act(actor, {{"action", "dance"}})["code"] == "bad_request");
    CHECK(act(actor, {{"action", "raise"}, {"amount", 1}})["code"] == "bad_amount");
    CHECK(act(actor, {{"action", "raise"}, {"amount", "lots"}})["code"] == "bad_request");
    CHECK(act(actor, {{"action", "raise"},
                      {"amount", std::numeric_limits<std::uint64_t>::max()}})["code"] ==
          "bad_request");                                               // past 2^63 - 1
    CHECK(act(actor, {{"action", "check"}})["code"] == "cannot_check"); // the small blind owes
    CHECK(act(actor, {{"action", "fold"}})["ok"] == true);
    // The fold ends the hand: 1 chip moved, nothing else.
    json end;
    for (auto m = actor.read(); m; m = actor.read())
        if ((*m)["kind"] == "hand_end") {
            end = *m;
            break;
        }
    CHECK(end["net"][0].get<int>() + end["net"][1].get<int>() == 0);
    CHECK(std::abs(end["net"][0].get<int>()) == 1);
}

TEST_CASE("feltd: reconnecting mid-hand with the token gives the seat back") {
    Feltd d;
    auto a = std::make_unique<Client>(d.port());
    Client b(d.port());
    a->hello();
    b.hello();
    const std::string token = a->call({{"type", "guest"}})["token"];
    b.call({{"type", "guest"}});
    const std::int64_t table = b.call({{"type", "create_table"},
                                       {"seats", 2},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", 600000}})["table"];
    const int seat = a->call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"];
    b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}});
    std::string hole; // a's cards, as dealt
    json start;       // the hand's start: its id and commitment
    for (auto m = a->read(); m; m = a->read()) {
        if ((*m)["kind"] == "hand_start") start = *m;
        if ((*m)["kind"] != "update") continue;
        for (const json& e : (*m)["events"])
            if (e["kind"] == "deal_down" && e["seat"] == seat)
                hole += (hole.empty() ? "" : " ") + e["cards"].get<std::string>();
        if ((*m).contains("turn")) break;
    }
    REQUIRE(hole.size() == 5); // two cards: "Ah Kd"
    a.reset();                 // the connection drops mid-hand

    Client again(d.port());
    again.hello();
    REQUIRE(again.call({{"type", "resume"}, {"token", token}})["ok"] == true);
    auto snap = again.read();
    REQUIRE(snap.has_value());
    CHECK((*snap)["kind"] == "snapshot");
    CHECK((*snap)["your_seat"] == seat);
    for (const json& s : (*snap)["seats"]) {
        if (s["seat"] == seat)
            CHECK(s["cards"] == hole); // its own cards again
        else
            CHECK(s["cards"] == ""); // never the other's
    }
    // What a resumed player needs: the hand's id and commitment (to verify the deal at its end),
    // the running clock, and the hand so far with its own cards and nobody else's.
    const json& hand = (*snap)["hand"];
    CHECK(hand["hand_id"] == start["hand_id"]);
    CHECK(hand["commitment"] == start["commitment"]);
    REQUIRE(snap->contains("clock"));
    CHECK((*snap)["clock"]["seat"] == hand["to_act"]);
    CHECK((*snap)["clock"]["deadline_ms"].get<int>() > 590'000);
    CHECK((*snap)["clock"]["deadline_ms"].get<int>() <= 600'000);
    CHECK((*snap)["clock"]["banking"] == false);
    int downs = 0, blinds = 0;
    for (const json& e : hand["events"]) {
        blinds += e["kind"] == "blind";
        if (e["kind"] != "deal_down") continue;
        ++downs;
        if (e["seat"] == seat)
            CHECK(e["cards"] == hole);
        else
            CHECK_FALSE(e.contains("cards"));
    }
    CHECK(downs == 2);
    CHECK(blinds == 2);
    const bool my_turn = hand["to_act"] == seat;
    CHECK(snap->contains("legal") == my_turn);
    if (my_turn) {
        again.send(json{{"type", "act"}, {"id", 5}, {"table", table}, {"action", "fold"}});
        for (auto m = again.read(); m; m = again.read())
            if ((*m).contains("id") && (*m)["id"] == 5) {
                CHECK((*m)["ok"] == true);
                break;
            }
    }
}

TEST_CASE("feltd: a showdown stays on the table before the next hand, and an all-in's streets "
          "come one at a time") {
    using Clock = std::chrono::steady_clock;
    const auto since = [](Clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
    };
    Feltd d;
    auto players = guests(d.port(), 3);
    Client &a = *players[0], &b = *players[1], &watcher = *players[2];
    const std::int64_t table = a.call({{"type", "create_table"},
                                       {"seats", 2},
                                       {"hand_delay_ms", 0},
                                       {"showdown_delay_ms", 1500},
                                       {"runout_ms", 300},
                                       {"decision_ms", 600000}})["table"];
    REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    std::map<int, Client*> at;
    at[a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"]] = &a;
    at[b.call({{"type", "join"}, {"table", table}, {"buy_in", 150}})["seat"]] = &b;
    const auto act = [&](int seat, json fields) {
        fields["type"] = "act";
        fields["table"] = table;
        return at.at(seat)->call(fields);
    };
    // Hand 1: called and checked down to a showdown.
    json start = next_kind(watcher, "hand_start");
    for (;;) {
        const json m = next_kind(watcher, "update");
        if (!m.contains("turn")) break;
        const int seat = m["turn"]["seat"];
        if (act(seat, {{"action", "call"}})["ok"] != true)
            REQUIRE(act(seat, {{"action", "check"}})["ok"] == true);
    }
    next_kind(watcher, "hand_end");
    const auto ended = Clock::now();
    start = next_kind(watcher, "hand_start");
    CHECK(since(ended) >= 1200); // hand_delay_ms alone would be 0
    // Hand 2: the first to act goes all in and is called; the board comes a street at a time.
    json turn = next_kind(watcher, "update")["turn"];
    const int first = turn["seat"];
    REQUIRE(act(first, {{"action", "raise"}, {"amount", start["stacks"][first]}})["ok"] == true);
    turn = next_kind(watcher, "update")["turn"];
    REQUIRE(act(turn["seat"], {{"action", "call"}})["ok"] == true);
    std::vector<int> boards; // cards dealt to the board by each update after the call
    std::vector<long> apart; // ms between those updates
    bool shown_with_river = false;
    auto last = Clock::now();
    // The hands shown at once (with the call, before the flop), the board so far, and each
    // odds message after the update it follows, checked against the calculator itself.
    std::map<int, std::string> shown;
    std::string board;
    std::vector<std::string> kinds;
    std::int64_t hand_id = 0;
    for (;;) {
        const json m = watcher.read().value();
        if (m["type"] != "table") continue;
        if (m["kind"] == "hand_end") {
            hand_id = m["hand_id"];
            break;
        }
        if (m["kind"] == "odds") {
            kinds.push_back("odds");
            REQUIRE(m["seats"].size() == 2);
            std::vector<std::string> hands;
            for (const json& s : m["seats"]) hands.push_back(shown.at(s["seat"].get<int>()));
            auto q = felt::odds::make_query(felt::odds::Game::holdem, hands, board, "");
            REQUIRE(q.ok());
            const auto e = felt::odds::equity(*q);
            REQUIRE(e.ok());
            for (std::size_t k = 0; k < 2; ++k)
                CHECK(m["seats"][k]["equity"].get<double>() ==
                      doctest::Approx(std::round(e->equity[k] * 10) / 10));
            CHECK(m["method"] == "exact");
            continue;
        }
        if (m["kind"] != "update") continue;
        kinds.push_back("update");
        int cards = 0;
        bool shows = false;
        for (const json& e : m["events"]) {
            if (e["kind"] == "deal_board") {
                cards += e["count"].get<int>();
                board += e["cards"].get<std::string>() + " ";
            }
            if (e["kind"] == "show" && e.value("early", false)) {
                CHECK_FALSE(e.contains("category")); // named at the showdown, not before
                shown[e["seat"].get<int>()] = e["cards"].get<std::string>();
            }
            shows |= e["kind"] == "show" && !e.value("early", false);
        }
        if (!boards.empty()) apart.push_back(since(last));
        last = Clock::now();
        boards.push_back(cards);
        shown_with_river = shows;
    }
    CHECK(boards == std::vector<int>{0, 3, 1, 1}); // the call, the flop, the turn, the river
    for (long ms : apart) CHECK(ms >= 250);
    CHECK(shown_with_river);
    CHECK(shown.size() == 2);
    // Odds after the call, the flop and the turn; none once the river decides it.
    CHECK(kinds ==
          std::vector<std::string>{"update", "odds", "update", "odds", "update", "odds", "update"});
    // The hand's record keeps its all-in EV: the pot shared by the chances at the all-in.
    const json h = a.call({{"type", "hand"}, {"hand", hand_id}});
    double expected = 0;
    bool found = false;
    for (const json& e : h["events"])
        if (e.value("kind", "") == "all_in_ev") {
            found = true;
            CHECK(e["street"] == 0);
            for (const json& s : e["seats"]) expected += s["expected"].get<double>();
        }
    CHECK(found);
    // The replayer's chances: before the flop, on the flop and on the turn, of the two hands.
    REQUIRE(h["odds"].size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
        const json& o = h["odds"][k];
        CHECK(o["street"] == k);
        CHECK(o["seats"].size() == 2);
        CHECK_FALSE(o.contains("against_random"));
        const std::size_t at = o["event"];
        REQUIRE(at < h["events"].size());
        CHECK(h["events"][at]["kind"].get<std::string>().rfind("deal_", 0) == 0);
        if (k > 0) CHECK(at > h["odds"][k - 1]["event"].get<std::size_t>());
    }
    // Both all in for the smaller stack (the larger one's rest came back).
    std::int64_t smaller = std::numeric_limits<std::int64_t>::max();
    for (const json& x : start["stacks"])
        if (x.get<std::int64_t>() > 0) smaller = std::min(smaller, x.get<std::int64_t>());
    CHECK(expected == doctest::Approx(2.0 * static_cast<double>(smaller)));
}

TEST_CASE("feltd: a disconnected player is sat out after missing hands, and sits in on return") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::string token_c;
    std::int64_t account_c = 0;
    {
        Feltd d({}, dir);
        Client a(d.port()), b(d.port());
        auto c = std::make_unique<Client>(d.port());
        for (Client* x : {&a, &b, c.get()}) x->hello();
        a.call({{"type", "guest"}});
        b.call({{"type", "guest"}});
        auto gc = c->call({{"type", "guest"}});
        token_c = gc["token"];
        account_c = gc["account"]["id"];
        const std::int64_t table = a.call({{"type", "create_table"},
                                           {"seats", 3},
                                           {"hand_delay_ms", 0},
                                           {"decision_ms", 100},
                                           {"sit_out_after", 2}})["table"];
        const int sa = a.call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["seat"];
        const int sb = b.call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["seat"];
        REQUIRE(c->call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["ok"] == true);
        c.reset(); // gone
        BotReport ra, rb;
        std::thread ta([&] { ra = play(a, table, sa, 8, 3); });
        std::thread tb([&] { rb = play(b, table, sb, 8, 4); });
        ta.join();
        tb.join();
        CHECK(ra.hands >= 8);
        // Back with the token: the seat is still there, and in again.
        Client back(d.port());
        back.hello();
        REQUIRE(back.call({{"type", "resume"}, {"token", token_c}})["ok"] == true);
        auto snap = back.read();
        REQUIRE(snap.has_value());
        CHECK((*snap)["kind"] == "snapshot");
        CHECK((*snap)["your_seat"].is_number());
        for (const json& st : (*snap)["seats"])
            if (st["seat"] == (*snap)["your_seat"]) CHECK(st["sitting_out"] == false);
    }
    felt::db::Database db(dir + "/data/felt.db");
    felt::db::Statement q(db, "SELECT COUNT(*) FROM hand_seats WHERE account_id = ?");
    q.bind(1, account_c);
    q.step();
    CHECK(q.column_int(0) <= 3); // dealt in until two hands were missed (and the one running)
    felt::db::Statement all(db, "SELECT COUNT(*) FROM hands WHERE status = 'finished'");
    all.step();
    CHECK(all.column_int(0) >= 8);
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: table chat reaches everyone watching; bad lines and floods are refused") {
    Feltd d;
    Client a(d.port()), b(d.port()), c(d.port());
    for (Client* x : {&a, &b, &c}) {
        x->hello();
        REQUIRE(x->call({{"type", "guest"}})["ok"] == true);
    }
    const json made = a.call({{"type", "create_table"}, {"game", "leap"}, {"seats", 2}});
    REQUIRE(made["ok"] == true);
    const std::int64_t table = made["table"];
    const json seat = a.call({{"type", "join"}, {"table", table}});
    REQUIRE(seat["ok"] == true);
    REQUIRE(c.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    auto say = [&](Client& who, json text) {
        return who.call({{"type", "chat"}, {"table", table}, {"text", text}});
    };
    CHECK(say(b, "hello")["code"] == "not_watching"); // neither seated nor spectating
    REQUIRE(b.call({{"type", "spectate"}, {"table", table}})["ok"] == true); // B listens now
    CHECK(a.call({{"type", "chat"}, {"table", table}})["code"] == "bad_request");
    CHECK(say(a, 42)["code"] == "bad_request");
    CHECK(say(a, "")["code"] == "bad_request");
    CHECK(say(a, "two\nlines")["code"] == "bad_request");
    CHECK(say(a, std::string(201, 'x'))["code"] == "bad_request");
    // 200 characters of two bytes each are within the limit: characters, not bytes, count.
    std::string wide;
    for (int i = 0; i < 200; ++i) wide += "\xc3\xa9"; // é
    CHECK(say(a, wide)["ok"] == true);
    CHECK(say(c, "gl \xe2\x99\xa0")["ok"] == true); // a spectator may chat: "gl ♠"
    // Text that would hide or disguise itself is refused (protocol/chat.h); a line in another
    // normal form is passed on in NFC: "cafe" + U+0301 (combining acute) becomes "café".
    CHECK(say(a, "evil \xe2\x80\xae")["code"] == "bad_request"); // U+202E
    CHECK(say(a, "\xe3\x80\x80 ")["code"] == "bad_request");     // only whitespace
    CHECK(say(a, "cafe\xcc\x81")["ok"] == true);
    // Five lines from one player in ten seconds, then the sixth is refused.
    for (int i = 0; i < 3; ++i) CHECK(say(a, "line " + std::to_string(i))["ok"] == true);
    CHECK(say(a, "one too many")["code"] == "rate_limited");
    // A spectator heard every line said, in order, with who said it, and nothing refused.
    std::vector<json> heard;
    b.send(json{{"type", "ping"}, {"id", 999}});
    for (auto m = b.read(); m && (*m)["type"] != "ping"; m = b.read())
        if ((*m)["type"] == "table" && (*m)["kind"] == "chat") heard.push_back(*m);
    REQUIRE(heard.size() == 6);
    CHECK(heard[0]["text"] == wide);
    CHECK(heard[0]["seat"] == seat["seat"]);
    CHECK(heard[0]["name"].get<std::string>().rfind("guest-", 0) == 0);
    CHECK(heard[1]["seat"].is_null());
    CHECK(heard[1]["text"] == "gl \xe2\x99\xa0");
    CHECK(heard[2]["text"] == "caf\xc3\xa9");
    CHECK(heard[5]["text"] == "line 2");
}

// Two guests at a new two-seat table that deals at once, created with `fields` added to the
// request: A and B, both seated, with what creating it answered.
struct TwoSeats {
    Client a, b;
    json made;
    std::int64_t table = 0;

    TwoSeats(const Feltd& d, json fields) : a(d.port()), b(d.port()) {
        for (Client* x : {&a, &b}) {
            x->hello();
            REQUIRE(x->call({{"type", "guest"}})["ok"] == true);
        }
        fields.update({{"type", "create_table"}, {"seats", 2}, {"hand_delay_ms", 0}});
        made = a.call(fields);
        REQUIRE(made["ok"] == true);
        table = made["table"];
        for (Client* x : {&a, &b})
            REQUIRE(x->call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["ok"] == true);
    }
    Client& at(int seat) { return seat == 0 ? a : b; }
    bool act(int seat, const char* what) {
        return at(seat).call({{"type", "act"}, {"table", table}, {"action", what}})["ok"] == true;
    }
    // Answers a turn at once: check, else call, else fold.
    bool quick(int seat) { return act(seat, "check") || act(seat, "call") || act(seat, "fold"); }
};

TEST_CASE("feltd: a decision's clock runs its whole time, however many clocks ran out before") {
    // The table keeps one wait on its timer and lets it run past a decision made early (see
    // Table::arm_clock). A seat that takes its time and then acts leaves that wait pending into
    // the next decisions: the next decision must still get its whole time.
    Feltd d;
    TwoSeats t(d, {{"decision_ms", 800}});
    Client& a = t.a;
    using Clock = std::chrono::steady_clock;
    // A's copy of the next update that gives someone the turn, and when it was read.
    auto next_turn = [&]() -> std::pair<json, Clock::time_point> {
        for (;;) {
            auto m = a.read();
            REQUIRE(m.has_value());
            if ((*m)["kind"] == "update" && (*m).contains("turn")) return {*m, Clock::now()};
        }
    };
    auto [first, t0] = next_turn();
    const int slow = first["turn"]["seat"];
    // The slow seat takes 500 of its 800 ms, and the other answers at once: the clock of the slow
    // seat's first decision would run out 300 ms into whichever decision comes next.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    REQUIRE(t.quick(slow));
    for (;;) {
        auto [m, at] = next_turn();
        if (m["turn"]["seat"] != slow) {
            REQUIRE(t.quick(1 - slow));
            continue;
        }
        // The slow seat's turn again, and it does nothing: the server acts for it only after
        // the whole 800 ms (less what the update took to arrive).
        CHECK(m["turn"]["deadline_ms"] > 700);
        bool told = false; // everyone is told the seat timed out, before the server's action
        for (;;) {
            auto next = a.read();
            REQUIRE(next.has_value());
            if ((*next)["kind"] == "timed_out") {
                CHECK((*next)["seat"] == slow);
                CHECK((*next)["hand"].get<int>() >= 1);
                told = true;
            }
            if ((*next)["kind"] != "update") continue;
            bool acted = false;
            for (const json& e : (*next)["events"]) acted |= e.value("seat", -1) == slow;
            if (!acted) continue;
            const auto waited =
                std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - at).count();
            CHECK(waited >= 700);
            CHECK(waited < 5000);
            CHECK(told);
            break;
        }
        break;
    }
}

TEST_CASE("feltd: a time bank runs after the decision's time, and is spent as used") {
    Feltd d;
    TwoSeats t(d, {{"decision_ms", 400}, {"time_bank_ms", 1500}});
    Client& a = t.a;
    Client watcher(d.port());
    watcher.hello();
    REQUIRE(watcher.call({{"type", "guest"}})["ok"] == true);
    CHECK(t.made["config"]["time_bank_ms"] == 1500);
    const std::int64_t table = t.table;
    // Reads A's copy of the table's messages; B answers its turns at once. The first seat to act
    // is the one whose bank is watched.
    int watched = -1;
    auto next_turn_of_watched = [&]() -> json {
        for (;;) {
            auto m = a.read();
            REQUIRE(m.has_value());
            if ((*m)["kind"] != "update" || !(*m).contains("turn")) continue;
            const int seat = (*m)["turn"]["seat"];
            if (watched < 0) watched = seat;
            if (seat == watched) return *m;
            REQUIRE(t.quick(1 - watched));
        }
    };
    auto next_kind = [&](const std::string& kind) {
        for (;;) {
            auto m = a.read();
            REQUIRE(m.has_value());
            if ((*m)["kind"] == kind) return *m;
        }
    };
    json turn = next_turn_of_watched()["turn"];
    CHECK(turn["time_bank_ms"] == 1500);
    // The time left when the update was written: the decision's 400 ms, less the moments it took
    // to send (a slow build under the sanitizers spends one or two).
    CHECK(turn["deadline_ms"] <= 400);
    CHECK(turn["deadline_ms"] > 300);
    // Nobody acts: after 400 ms the bank starts, with all of it.
    json bank = next_kind("time_bank");
    CHECK(bank["seat"] == watched);
    CHECK(bank["bank_ms"] == 1500);
    std::this_thread::sleep_for(std::chrono::milliseconds(150)); // some of the bank spent
    REQUIRE(t.quick(watched));                                   // in time, from the bank
    turn = next_turn_of_watched()["turn"];
    const int left = turn["time_bank_ms"];
    CHECK(left > 0);
    CHECK(left <= 1500 - 150);
    // This time the bank runs out: the server acts, and the bank is empty from then on.
    bank = next_kind("time_bank");
    CHECK(bank["bank_ms"] == left);
    for (;;) { // the server's action for the watched seat
        const json m = next_kind("update");
        bool acted = false;
        for (const json& e : m["events"]) acted |= e.value("seat", -1) == watched;
        if (acted) break;
    }
    REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    for (;;) {
        auto m = watcher.read();
        REQUIRE(m.has_value());
        if ((*m)["kind"] != "snapshot") continue;
        for (const json& s : (*m)["seats"])
            CHECK(s["time_bank_ms"] == (s["seat"] == watched ? 0 : 1500));
        break;
    }
    CHECK(a.call({{"type", "create_table"}, {"time_bank_ms", -1}})["code"] == "bad_config");
}

TEST_CASE("feltd: sitting out by choice and back in, topping up between hands, and who is "
          "connected") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    {
        Feltd d({}, dir);
        auto people = guests(d.port(), 2);
        Client &b = *people[0], &w = *people[1];
        auto a = std::make_unique<Client>(d.port());
        a->hello();
        const std::string token = a->call({{"type", "guest"}})["token"];
        const std::int64_t table = a->call({{"type", "create_table"},
                                            {"seats", 3},
                                            {"hand_delay_ms", 0},
                                            {"min_buy_in", 50},
                                            {"max_buy_in", 300}})["table"];
        const int sa = a->call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"];
        auto top_up = [&](Client& c, json amount) {
            return c.call({{"type", "top_up"}, {"table", table}, {"amount", amount}});
        };
        // Refusals first: nothing moves.
        CHECK(top_up(*a, 201)["code"] == "bad_amount"); // 100 + 201 passes the maximum, 300
        CHECK(top_up(*a, 201)["field"] == "amount");
        CHECK(top_up(*a, 0)["code"] == "bad_request");
        CHECK(top_up(*a, "ten")["field"] == "amount");
        CHECK(a->call({{"type", "top_up"}, {"table", table}})["field"] == "amount");
        CHECK(top_up(w, 10)["code"] == "not_seated");
        CHECK(w.call({{"type", "sit_out"}, {"table", table}})["code"] == "not_seated");
        CHECK(w.call({{"type", "sit_in"}, {"table", table}})["code"] == "not_seated");
        // A top-up between hands: the stack and the balance move, and the table is told.
        const json up = top_up(*a, 150);
        REQUIRE(up["ok"] == true);
        CHECK(up["stack"] == 250);
        const json told = next_kind(*a, "topped_up");
        CHECK(told["seat"] == sa);
        CHECK(told["amount"] == 150);
        CHECK(told["stack"] == 250);
        CHECK(a->call({{"type", "me"}})["account"]["balance"] == 10'000 - 100 - 150);
        CHECK(top_up(*a, 51)["code"] == "bad_amount"); // 250 + 51 > 300

        // Sitting out by choice: no hand starts with a and b seated.
        const json out = a->call({{"type", "sit_out"}, {"table", table}});
        REQUIRE(out["ok"] == true);
        CHECK(out["after_hand"] == false);
        const json sat_out = next_kind(*a, "sitting_out");
        CHECK(sat_out["seat"] == sa);
        CHECK(sat_out["reason"] == "chosen");
        const int sb = b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["seat"];
        CHECK(sb != sa);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        CHECK(w.call({{"type", "snapshot"}, {"table", table}})["code"] == "not_watching");
        REQUIRE(w.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
        json snap = next_kind(w, "snapshot");
        CHECK(snap["your_seat"].is_null());
        // Asked again (a client that missed a message): the same table, as each may see it.
        REQUIRE(w.call({{"type", "snapshot"}, {"table", table}})["ok"] == true);
        CHECK(next_kind(w, "snapshot")["seats"] == snap["seats"]);
        REQUIRE(a->call({{"type", "snapshot"}, {"table", table}})["ok"] == true);
        CHECK(next_kind(*a, "snapshot")["your_seat"] == sa);
        CHECK_FALSE(snap.contains("hand"));
        for (const json& st : snap["seats"]) {
            CHECK(st["connected"] == true);
            CHECK(st["sitting_out"] == (st["seat"] == sa));
        }

        // Back in: a hand starts. In it, neither player may top up; a sits out after it.
        REQUIRE(a->call({{"type", "sit_in"}, {"table", table}})["ok"] == true);
        CHECK(next_kind(w, "sitting_in")["seat"] == sa);
        next_kind(*a, "hand_start");
        next_kind(b, "hand_start");
        CHECK(top_up(*a, 10)["code"] == "in_hand");
        CHECK(top_up(b, 10)["code"] == "in_hand");
        const json mid = a->call({{"type", "sit_out"}, {"table", table}});
        CHECK(mid["after_hand"] == true);
        const json end = fold_first(*a, b, table);
        CHECK(end["stacks"][sa] != 250); // a blind moved
        // Between hands (a sits out, so none starts): both may top up again.
        REQUIRE(top_up(b, 10)["ok"] == true);

        // a's connection goes: the watchers are told, the seat is held.
        a.reset();
        const json gone = next_kind(w, "connection");
        CHECK(gone["seat"] == sa);
        CHECK(gone["connected"] == false);
        REQUIRE(w.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
        snap = next_kind(w, "snapshot");
        REQUIRE(snap["seats"].size() == 2);
        for (const json& st : snap["seats"]) CHECK(st["connected"] == (st["seat"] != sa));
        // Back with the token: connected again, and still sitting out, by choice, until sit_in.
        Client a2(d.port());
        a2.hello();
        REQUIRE(a2.call({{"type", "resume"}, {"token", token}})["ok"] == true);
        snap = next_kind(a2, "snapshot");
        for (const json& st : snap["seats"])
            if (st["seat"] == sa) {
                CHECK(st["connected"] == true);
                CHECK(st["sitting_out"] == true);
                CHECK(st["stack"] == end["stacks"][sa]);
            }
        const json back = next_kind(w, "connection");
        CHECK(back["seat"] == sa);
        CHECK(back["connected"] == true);
        REQUIRE(a2.call({{"type", "sit_in"}, {"table", table}})["ok"] == true);
        next_kind(a2, "hand_start");
        next_kind(b, "hand_start");
        REQUIRE(a2.call({{"type", "sit_out"}, {"table", table}})["ok"] == true);
        fold_first(a2, b, table); // and no hand after it
        CHECK(d.stop(SIGTERM) == 0);
    }
    check_database(dir, 3, 1);
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd draw: hint gives the exchange with the best expected hand, until the seat draws") {
    Feltd d({"--chosen-decks"});
    Client a(d.port()), b(d.port()), watcher(d.port());
    for (Client* c : {&a, &b, &watcher}) {
        c->hello();
        REQUIRE(c->call({{"type", "guest"}})["ok"] == true);
    }
    // Options: only five-card draw has hints, and a table may turn them off.
    CHECK(a.call({{"type", "create_table"}, {"variant", "holdem"}, {"hints", true}})["code"] ==
          "bad_config");
    const json plain = a.call({{"type", "create_table"}, {"variant", "holdem"}, {"seats", 2}});
    REQUIRE(plain["ok"] == true);
    CHECK_FALSE(plain["config"].contains("hints"));
    const json off = a.call({{"type", "create_table"}, {"variant", "draw"}, {"hints", false}});
    REQUIRE(off["ok"] == true);
    CHECK(off["config"]["hints"] == false);
    for (const json& t : {plain, off}) {
        REQUIRE(a.call({{"type", "join"}, {"table", t["table"]}, {"buy_in", 100}})["ok"] == true);
        CHECK(a.call({{"type", "hint"}, {"table", t["table"]}})["code"] == "no_hints");
        REQUIRE(a.call({{"type", "leave"}, {"table", t["table"]}})["ok"] == true);
    }

    const json made = a.call({{"type", "create_table"},
                              {"variant", "draw"},
                              {"seats", 2},
                              {"hand_delay_ms", 0},
                              {"decision_ms", 60'000}});
    REQUIRE(made["ok"] == true);
    CHECK(made["config"]["hints"] == true);
    const std::int64_t table = made["table"];
    // Seat 0 holds the button heads-up: seat 1 is dealt first.
    REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    REQUIRE(watcher.call({{"type", "choose_deck"},
                          {"table", table},
                          {"cards", "Ah Kh Qh Jh 2c 7c 7d Ks 9h 3c"}})["ok"] == true);
    REQUIRE(a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}, {"seat", 0}})["ok"] ==
            true);
    CHECK(a.call({{"type", "hint"}, {"table", table}})["code"] == "not_in_hand");
    REQUIRE(b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}, {"seat", 1}})["ok"] ==
            true);
    next_kind(b, "update"); // the deal
    auto hint = [&](Client& c, int count) {
        return c.call({{"type", "hint"}, {"table", table}, {"count", count}});
    };
    // Four to a royal flush: throw the deuce (47 draws); the classic play.
    json h = hint(b, 2);
    REQUIRE(h["ok"] == true);
    REQUIRE(h["exchanges"].size() == 2);
    CHECK(h["exchanges"][0]["discard"] == "2c");
    CHECK(h["exchanges"][0]["count"] == 1);
    CHECK(h["exchanges"][0]["draws"] == 47);
    CHECK(h["exchanges"][0]["expected"] == 0.7227);
    CHECK(h["exchanges"][1]["discard"] == "Jh 2c");
    // A pair of sevens: keep the pair, throw three.
    h = hint(a, 1);
    REQUIRE(h["exchanges"].size() == 1);
    CHECK(h["exchanges"][0]["discard"] == "Ks 9h 3c");
    CHECK(hint(a, 0)["code"] == "bad_request");
    CHECK(hint(watcher, 1)["code"] == "not_seated");
    // The button calls, the big blind checks; seat 1 draws first, and then has no hint.
    REQUIRE(a.call({{"type", "act"}, {"table", table}, {"action", "call"}})["ok"] == true);
    REQUIRE(b.call({{"type", "act"}, {"table", table}, {"action", "check"}})["ok"] == true);
    REQUIRE(
        b.call({{"type", "act"}, {"table", table}, {"action", "discard"}, {"cards", "2c"}})["ok"] ==
        true);
    CHECK(hint(b, 1)["code"] == "not_in_hand");
    CHECK(hint(a, 1)["exchanges"][0]["discard"] == "Ks 9h 3c");
    REQUIRE(a.call({{"type", "act"},
                    {"table", table},
                    {"action", "discard"},
                    {"cards", "Ks 9h 3c"}})["ok"] == true);
    REQUIRE(b.call({{"type", "act"}, {"table", table}, {"action", "check"}})["ok"] == true);
    REQUIRE(a.call({{"type", "act"}, {"table", table}, {"action", "check"}})["ok"] == true);
    next_kind(a, "hand_end");

    // The history shows each asker, and only them, their own draw against the best one the
    // cards that came allowed.
    const json page = b.call({{"type", "my_hands"}, {"limit", 1}});
    REQUIRE(page["hands"].size() == 1);
    const std::int64_t hand_id = page["hands"][0]["hand"];
    const json mine = b.call({{"type", "hand"}, {"hand", hand_id}});
    REQUIRE(mine["ok"] == true);
    const json& bd = mine["best_draw"];
    REQUIRE(bd.is_object());
    CHECK(bd["seat"] == 1);
    CHECK(bd["held"] == "Ah Kh Qh Jh 2c");
    const std::string came = bd["came"];
    CHECK(came.size() == 2); // one card
    CHECK(bd["made"]["discard"] == "2c");
    CHECK(bd["made"]["hand"] == "Ah Kh Qh Jh " + came);
    CHECK(bd["best"]["count"].get<int>() <= 1);
    CHECK((came == "Th" ? bd["best"]["category"] == "straight_flush" : true));
    const json theirs = a.call({{"type", "hand"}, {"hand", hand_id}});
    REQUIRE(theirs["best_draw"].is_object());
    CHECK(theirs["best_draw"]["seat"] == 0);
    CHECK(theirs["best_draw"]["held"] == "7c 7d Ks 9h 3c");
    CHECK(theirs["best_draw"]["made"]["count"] == 3);
    const std::string a_came = theirs["best_draw"]["came"];
    REQUIRE(a_came.size() == 8);
    CHECK(theirs["best_draw"]["best"]["count"].get<int>() <= 3);
    CHECK_FALSE(watcher.call({{"type", "hand"}, {"hand", hand_id}}).contains("best_draw"));
}

TEST_CASE("feltd: every connection of an account is told its balance when a buy-in, a top-up or "
          "a cash-out moves it") {
    Feltd d;
    Client first(d.port()), second(d.port()), stranger(d.port());
    for (Client* c : {&first, &second, &stranger}) c->hello();
    const json guest = first.call({{"type", "guest"}});
    const std::int64_t grant = guest["account"]["balance"];
    REQUIRE(second.call({{"type", "resume"}, {"token", guest["token"]}})["ok"] == true);
    stranger.call({{"type", "guest"}});
    const std::int64_t table =
        first.call({{"type", "create_table"}, {"seats", 2}, {"hand_delay_ms", 0}})["table"];
    // `c` asks; the reply, then the balance told to `c` and to the other connection.
    int id = 100;
    const auto moved = [&](Client& c, json req, std::int64_t balance) {
        req["id"] = ++id;
        c.send(req);
        json reply;
        for (auto m = c.read(); m; m = c.read())
            if ((*m)["id"] == id) {
                reply = *m;
                break;
            }
        CHECK(reply["ok"] == true);
        for (Client* x : {&first, &second})
            CHECK(next_of_type(*x, "balance")["balance"] == balance);
    };
    moved(first, {{"type", "join"}, {"table", table}, {"buy_in", 100}}, grant - 100);
    moved(first, {{"type", "top_up"}, {"table", table}, {"amount", 50}}, grant - 150);
    moved(second, {{"type", "leave"}, {"table", table}}, grant);
    // And nobody else: the stranger's next message is the reply to its own request.
    stranger.send(json{{"type", "ping"}, {"id", 41}});
    CHECK(stranger.read().value()["id"] == 41);
}
