// Integration, stops and crashes: SIGTERM and SIGKILL, settings, an outside reader of the database,
// a second feltd, and void hands. A real feltd on a free loopback port, driven through its
// WebSocket protocol and HTTP endpoints by the harness's client, as a bot would.
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

TEST_CASE("feltd: SIGTERM closes connections and exits 0, without waiting out the grace period "
          "for a client that does not answer the close; data survives SIGKILL") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::string token;
    {
        Feltd d({"--grace", "30"}, dir);
        Client c(d.port());
        c.hello();
        token = c.call({{"type", "guest"}})["token"];
        // The client reads nothing until feltd has exited, so it never answers the close: it is
        // let go after a second, not held to the grace period.
        const auto asked = std::chrono::steady_clock::now();
        CHECK(d.stop(SIGTERM) == 0);
        CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(10));
        CHECK_FALSE(c.read().has_value()); // closed by the server
    }
    {
        Feltd d({}, dir);
        Client c(d.port());
        c.hello();
        CHECK(c.call({{"type", "resume"}, {"token", token}})["ok"] == true);
        d.stop(SIGKILL);
    }
    {
        Feltd d({}, dir);
        Client c(d.port());
        c.hello();
        CHECK(c.call({{"type", "resume"}, {"token", token}})["ok"] == true);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: settings from a config file and the environment") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::ofstream(dir + "/felt.toml") << "grant = 123\nper-address = 5\n";
    auto guest_balance = [&] {
        Feltd d({"--config", dir + "/felt.toml"}, dir);
        Client c(d.port());
        c.hello();
        return c.call({{"type", "guest"}})["account"]["balance"].get<int>();
    };
    CHECK(guest_balance() == 123);
    setenv("FELT_GRANT", "77", 1); // the environment wins over the file
    CHECK(guest_balance() == 77);
    unsetenv("FELT_GRANT");
    std::ofstream(dir + "/bad.toml") << "prot = 9000\n";
    // A setting the server does not have: refused at start, naming it.
    CHECK(exit_status({"--config", dir + "/bad.toml", "--port", "0", "--db", dir + "/x.db"}) == 2);
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: an outside sqlite3 reading the live database during play, then SIGKILL, loses "
          "nothing that was acknowledged") {
    const std::string sqlite3 = "/usr/bin/sqlite3"; // scripts/deps.sh installs it
    REQUIRE(std::filesystem::exists(sqlite3));
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl, db = dir + "/data/felt.db";
    constexpr int kHands = 30;
    std::set<std::int64_t> acknowledged;
    int reads = 0;
    // An outside reader, as a backup script or a report would be: it opens, reads and closes.
    // Were feltd's locks gone, its close would checkpoint and delete the -wal feltd writes to.
    auto outside_read = [&] {
        const pid_t pid =
            spawn({sqlite3, "-cmd", ".output /dev/null", db, "SELECT COUNT(*) FROM hands;"});
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
        ++reads;
    };
    // What let a reader delete the log: feltd itself opening (and closing) the database file.
    auto try_to_fetch_the_database = [&](unsigned short port) {
        for (const std::string& target : std::vector<std::string>{
                 "/data/felt.db", "/" + db, "/data/felt.db-wal", "/data/felt.db-shm"})
            CHECK(http_get(port, target).status != 200);
    };
    {
        // The database lies inside the static folder; the bots act faster than people.
        Feltd d({"--static", dir, "--rate", "1000", "--burst", "1000"}, dir);
        auto bots = guests(d.port(), 3);
        auto made = bots[0]->call({{"type", "create_table"},
                                   {"variant", "holdem"},
                                   {"seats", 3},
                                   {"hand_delay_ms", 0},
                                   {"decision_ms", 5000}});
        REQUIRE(made["ok"] == true);
        const std::int64_t table = made["table"];
        std::vector<int> seats;
        for (auto& b : bots) {
            auto j = b->call({{"type", "join"}, {"table", table}, {"buy_in", 200}});
            REQUIRE(j["ok"] == true);
            seats.push_back(j["seat"]);
        }
        std::atomic<bool> playing = true;
        std::thread reader([&] {
            while (playing) {
                try_to_fetch_the_database(d.port());
                outside_read();
            }
        });
        std::vector<BotReport> reports(3);
        std::vector<std::thread> threads;
        for (int i = 0; i < 3; ++i)
            threads.emplace_back([&, i] {
                const auto k = static_cast<std::size_t>(i);
                reports[k] =
                    play(*bots[k], table, seats[k], kHands, 11u + static_cast<unsigned>(i));
            });
        for (auto& t : threads) t.join();
        playing = false;
        reader.join();
        for (const auto& r : reports) {
            CHECK(r.hands >= kHands);
            CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
            acknowledged.insert(r.hand_ids.begin(), r.hand_ids.end());
        }
        // Acknowledged after the last outside read: an account and its session.
        try_to_fetch_the_database(d.port());
        outside_read();
        Client late(d.port());
        late.hello();
        REQUIRE(late.call({{"type", "register"},
                           {"name", "late"},
                           {"password", "late but here"}})["ok"] == true);
        d.stop(SIGKILL);
    }
    CHECK(reads >= 2);
    CHECK(static_cast<int>(acknowledged.size()) >= kHands);
    {
        Feltd d({}, dir); // recovers from the kill
        Client c(d.port());
        c.hello();
        CHECK(c.call({{"type", "login"}, {"name", "late"}, {"password", "late but here"}})["ok"] ==
              true);
        d.stop(SIGTERM);
    }
    {
        felt::db::Database dbase(db);
        for (std::int64_t id : acknowledged) {
            CAPTURE(id);
            felt::db::Statement q(dbase, "SELECT status FROM hands WHERE id = ?");
            q.bind(1, id);
            REQUIRE(q.step());
            CHECK(q.column_text(0) == "finished");
        }
    }
    check_database(dir, 4, kHands);
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: a second feltd on the database of a running one, in every order of port and "
          "database, exits at once and changes nothing; the ledger balances to the chip") {
    Feltd d;
    const std::string db = d.dir() + "/data/felt.db";
    felt::bot::Options o;
    o.port = std::to_string(d.port());
    o.seats = 3;
    o.hands = 50;
    felt::bot::Report report;
    std::thread bots([&] { report = felt::bot::run(o); });
    for (int i = 0; i < 200 && metric(d.port(), "felt_hands_played_total") < 3; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE(metric(d.port(), "felt_hands_played_total") >= 3); // in play, chips on the table
    const std::string port = std::to_string(d.port());
    char other_tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(other_tmpl) != nullptr);
    const std::string other = std::string(other_tmpl) + "/data/felt.db";
    // The same database on another port: the lock says who holds it, before anything is read.
    auto [status, out] = run_feltd({"--db", db, "--port", "0", "--static", d.dir()}, 10);
    CHECK(status == 1);
    CHECK(out.find("the database " + db + " is in use by another feltd (pid " +
                   std::to_string(d.pid()) + ")") != std::string::npos);
    CHECK(out.find("recovered") == std::string::npos);
    // The same database and the same port; another database on the same port: the port is
    // taken first, and neither database is touched (the other is not even made).
    for (const std::string& which : {db, other}) {
        std::tie(status, out) = run_feltd({"--db", which, "--port", port, "--static", d.dir()}, 10);
        CHECK(status == 1);
        CHECK(out.find("cannot listen on 127.0.0.1:" + port) != std::string::npos);
        CHECK(out.find("recovered") == std::string::npos);
    }
    CHECK_FALSE(std::filesystem::exists(std::filesystem::path(other).parent_path()));
    std::filesystem::remove_all(other_tmpl);
    CHECK(metric(d.port(), "felt_hands_played_total") < 50); // all of it during play
    bots.join();
    CHECK_MESSAGE(report.errors.empty(), (report.errors.empty() ? "" : report.errors.front()));
    CHECK(report.hands >= 3); // fewer than 50 when two bots went broke first
    CHECK(metric(d.port(), "felt_storage_failures_total") == 0);
    CHECK(metric(d.port(), "felt_hands_void_total") == 0);
    CHECK(d.stop(SIGTERM) == 0);
    check_database(d.dir(), 3, static_cast<int>(report.hands));
    // Once the first has stopped, the lock is free: the next feltd on the database serves it.
    Feltd again({}, d.dir());
    CHECK(http_get(again.port(), "/healthz").status == 200);
}

TEST_CASE("feltd: a hand cut short by SIGKILL or by the end of the grace period is void") {
    // Every game's table: its configuration, a buy-in, and the message that says play is under way.
    struct Game {
        json config;
        int buy_in;
        const char* started;
    };
    const Game games[] = {
        {{{"decision_ms", 600000}}, 300, "update"},
        {{{"game", "chinese"}, {"decision_ms", 600000}}, 100, "deal"},
        {{{"game", "leap"}, {"turn_ms", 600000}, {"chips_per_point", 1}}, 300, "turn"},
    };
    for (const Game& game : games)
        for (int sig : {SIGKILL, SIGTERM}) {
            CAPTURE(game.config.dump());
            CAPTURE(sig);
            char tmpl[] = "/tmp/feltd_test_XXXXXX";
            REQUIRE(mkdtemp(tmpl) != nullptr);
            const std::string dir = tmpl;
            std::vector<std::string> tokens;
            {
                Feltd d({"--grace", "1"}, dir);
                std::vector<std::unique_ptr<Client>> bots;
                std::int64_t table = 0;
                for (int i = 0; i < 2; ++i) {
                    bots.push_back(std::make_unique<Client>(d.port()));
                    bots.back()->hello();
                    tokens.push_back(bots.back()->call({{"type", "guest"}})["token"]);
                    if (i == 0) {
                        json create = {
                            {"type", "create_table"}, {"seats", 2}, {"hand_delay_ms", 0}};
                        create.update(game.config);
                        table = bots[0]->call(create)["table"];
                    }
                    REQUIRE(bots.back()->call({{"type", "join"},
                                               {"table", table},
                                               {"buy_in", game.buy_in}})["ok"] == true);
                }
                // Wait until the hand is dealt and someone is to act; nobody acts.
                for (auto m = bots[0]->read(); m; m = bots[0]->read())
                    if ((*m)["kind"] == game.started &&
                        (game.started != std::string("update") || (*m).contains("turn")))
                        break;
                const int status = d.stop(sig);
                if (sig == SIGTERM) CHECK(status == 0);
            }
            {
                felt::db::Database db(dir + "/data/felt.db");
                auto one = [&](const std::string& sql) { return sql_int(db, sql); };
                if (sig == SIGKILL) { // not yet recovered: the chips are still on the table
                    CHECK(one("SELECT COUNT(*) FROM table_seats") == 2);
                    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'running'") == 1);
                } else { // voided and cashed out at the end of the grace period
                    CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
                    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'void'") == 1);
                }
            }
            {
                Feltd d({}, dir); // recovers on start
                for (const std::string& token : tokens) {
                    Client c(d.port());
                    c.hello();
                    auto r = c.call({{"type", "resume"}, {"token", token}});
                    CHECK(r["account"]["balance"] == 10'000); // every chip back
                }
            }
            {
                felt::db::Database db(dir + "/data/felt.db");
                felt::db::Statement q(db, "SELECT COUNT(*) FROM hands WHERE status = 'void'");
                q.step();
                CHECK(q.column_int(0) == 1);
                felt::db::Statement left(db, "SELECT COUNT(*) FROM table_seats");
                left.step();
                CHECK(left.column_int(0) == 0);
            }
            std::filesystem::remove_all(dir);
        }
}

TEST_CASE("feltd: tables open at a stop, graceful or not, open again after the restart with their "
          "ids and settings; their seats are cashed out and their hands numbered on") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::string token_a, token_b, creator;
    std::int64_t table = 0;
    json config;
    std::int64_t balance_a = 0;
    for (const int signal : {SIGTERM, SIGKILL}) {
        CAPTURE(signal);
        Feltd d({}, dir);
        Client a(d.port()), b(d.port());
        a.hello();
        b.hello();
        if (table == 0) { // the first run makes the table
            const json guest = a.call({{"type", "guest"}});
            token_a = guest["token"];
            creator = guest["account"]["name"];
            token_b = b.call({{"type", "guest"}})["token"];
            const json made = a.call({{"type", "create_table"},
                                      {"seats", 3},
                                      {"small_blind", 5},
                                      {"big_blind", 10},
                                      {"hand_delay_ms", 0},
                                      {"decision_ms", 600000}});
            table = made["table"];
            config = made["config"];
        } else { // the table is back, as it was, and nobody sits at it
            balance_a = a.call({{"type", "resume"}, {"token", token_a}})["account"]["balance"]
                            .get<std::int64_t>();
            b.call({{"type", "resume"}, {"token", token_b}});
            const json lobby = a.call({{"type", "tables"}});
            REQUIRE(lobby["tables"].size() == 1);
            json line = lobby["tables"][0];
            CHECK(line["id"] == table);
            CHECK(line["taken"] == 0);
            CHECK(line["creator"] == creator); // who made it, kept from the database
            for (const char* k : {"id", "taken", "watching", "creator"}) line.erase(k);
            CHECK(line == config);
        }
        REQUIRE(a.call({{"type", "join"}, {"table", table}, {"buy_in", 500}})["ok"] == true);
        REQUIRE(b.call({{"type", "join"}, {"table", table}, {"buy_in", 500}})["ok"] == true);
        const json start = next_kind(a, "hand_start");
        // Hands go on from the last run's: hand 1, then hand 2 after the restart.
        CHECK(start["hand"] == (signal == SIGTERM ? 1 : 2));
        if (signal == SIGTERM) {
            CHECK(d.stop(SIGTERM) == 0);
        } else {
            d.stop(SIGKILL);
        }
    }
    // After the crash: the seats were cashed out (the hand void, so nobody lost a chip).
    Feltd d({}, dir);
    Client a(d.port());
    a.hello();
    const json me = a.call({{"type", "resume"}, {"token", token_a}});
    CHECK(me["account"]["balance"].get<std::int64_t>() == balance_a);
    const json lobby = a.call({{"type", "tables"}});
    REQUIRE(lobby["tables"].size() == 1);
    CHECK(lobby["tables"][0]["id"] == table);
    std::filesystem::remove_all(dir);
}
