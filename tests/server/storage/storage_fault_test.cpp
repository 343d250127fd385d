// A full disk under a running feltd: its database on a small tmpfs that the test fills mid-hand
// and frees again. Needs root (to mount the tmpfs); elsewhere it says so and checks nothing.
#include "server/feltd_harness.h"
#include "server/storage/engines.h"

#include <doctest/doctest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

using namespace feltd_test;

namespace {

// Writes `path` until the file system has no byte left for it.
void fill(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    std::vector<char> block(64 * 1024, 'x');
    for (std::size_t size = block.size(); size > 0; size /= 2)
        while (::write(fd, block.data(), size) == static_cast<ssize_t>(size)) {
        }
    CHECK(errno == ENOSPC);
    ::close(fd);
}

// The next table message a client reads.
json next_table(Client& c) {
    for (;;) {
        auto m = c.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] == "table") return *m;
    }
}

// Reads on to the table message with this sequence number.
json catch_up(Client& c, const json& seq) {
    for (;;) {
        json m = next_table(c);
        if (m["seq"] == seq) return m;
    }
}

// Heads-up, from one thread: both players check or call until the hand ends. The hand's last
// message (hand_end or hand_void), as `a` read it.
json play_out(Client& a, int seat_a, Client& b, std::int64_t table) {
    int id = 5000;
    for (;;) {
        json m = next_table(a);
        const std::string kind = m["kind"];
        if (kind == "hand_end" || kind == "hand_void") {
            catch_up(b, m["seq"]);
            return m;
        }
        if (kind != "update" || !m.contains("turn")) continue;
        Client* who = &a;
        json legal = m["turn"].value("legal", json());
        if (m["turn"]["seat"] != seat_a) {
            legal = catch_up(b, m["seq"])["turn"]["legal"];
            who = &b;
        }
        REQUIRE(legal.is_object());
        who->send(json{{"type", "act"},
                       {"id", ++id},
                       {"table", table},
                       {"action", legal["check"] == true ? "check" : "call"}});
    }
}

// The hand_start of the next hand, read by both.
json next_hand(Client& a, Client& b) {
    for (;;) {
        json m = next_table(a);
        if (m["kind"] == "hand_start") {
            catch_up(b, m["seq"]);
            return m;
        }
    }
}

// Polls /healthz until it answers `status` (up to 20 s); its last body.
std::string health_turns(unsigned short port, int status) {
    HttpReply r;
    for (int i = 0; i < 200; ++i) {
        r = http_get(port, "/healthz");
        if (r.status == status) return r.body;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL("/healthz never answered " << status << "; last: " << r.status << " " << r.body);
    return r.body;
}

// Three guests: a and b seated at a new hold'em table of three, 200 chips each; `late` not yet.
struct SeatedPair {
    Client a, b, late;
    std::int64_t table = 0;
    int seat_a = 0;
    explicit SeatedPair(unsigned short port) : a(port), b(port), late(port) {
        for (Client* c : {&a, &b, &late}) {
            c->hello();
            REQUIRE(c->call({{"type", "guest"}})["ok"] == true);
        }
        auto made = a.call({{"type", "create_table"},
                            {"variant", "holdem"},
                            {"seats", 3},
                            {"hand_delay_ms", 0},
                            {"decision_ms", 10'000}});
        REQUIRE(made["ok"] == true);
        table = made["table"];
        auto ja = a.call({{"type", "join"}, {"table", table}, {"buy_in", 200}});
        REQUIRE(ja["ok"] == true);
        REQUIRE(b.call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["ok"] == true);
        seat_a = ja["seat"];
    }
};

} // namespace

TEST_CASE("feltd: a full disk voids the hand it cannot store, pauses the table, refuses joins, "
          "and play resumes once space is freed") {
    char tmpl[] = "/tmp/feltd_full_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    if (geteuid() != 0 || ::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=8m") != 0) {
        MESSAGE("skipped: mounting a small tmpfs for the database needs root (not here)");
        std::filesystem::remove(dir);
        return;
    }
    const std::string filler = dir + "/filler";
    std::int64_t void_id = 0;
    {
        Feltd d({"--rate", "1000", "--burst", "1000"}, dir);
        SeatedPair t(d.port());
        Client &a = t.a, &b = t.b, &late = t.late;
        const std::int64_t table = t.table;
        const int seat_a = t.seat_a;

        // A hand that is stored.
        next_hand(a, b);
        json end = play_out(a, seat_a, b, table);
        REQUIRE(end["kind"] == "hand_end");

        // The disk fills while the next hand runs: its end cannot be stored.
        const json start = next_hand(a, b);
        fill(filler);
        const json voided = play_out(a, seat_a, b, table);
        REQUIRE(voided["kind"] == "hand_void");
        CHECK(voided["reason"] == "storage");
        CHECK(voided["hand"] == start["hand"]);
        void_id = voided["hand_id"];
        for (int s = 0; s < 3; ++s) { // the stacks from before the hand
            CAPTURE(s);
            CHECK(voided["stacks"][static_cast<std::size_t>(s)] ==
                  end["stacks"][static_cast<std::size_t>(s)]);
        }
        // feltd serves on: health says why it is failing, requests that must write are refused
        // with `internal`, and nothing moves.
        CHECK(health_turns(d.port(), 503).find("storage failing") != std::string::npos);
        CHECK(metric(d.port(), "felt_hands_void_total") == 1);
        CHECK(metric(d.port(), "felt_storage_failures_total") >= 1);
        CHECK(late.call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["code"] ==
              "internal");
        CHECK(late.call({{"type", "me"}})["account"]["balance"] == 10'000);
        Client other(d.port());
        other.hello();
        CHECK(other.call({{"type", "guest"}})["code"] == "internal");
        CHECK(other.call({{"type", "ping"}})["ok"] == true);
        // The table deals nothing while storage fails.
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        CHECK(metric(d.port(), "felt_hands_played_total") == 1);

        // Space again: play resumes by itself.
        std::filesystem::remove(filler);
        health_turns(d.port(), 200);
        next_hand(a, b);
        end = play_out(a, seat_a, b, table);
        CHECK(end["kind"] == "hand_end");
        CHECK(late.call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["ok"] == true);
        for (Client* c : {&a, &b, &late})
            CHECK(c->call({{"type", "leave"}, {"table", table}})["ok"] == true);
        CHECK(d.stop(SIGTERM) == 0);
    }
    {
        Feltd d({}, dir); // a restart after all that
        CHECK(d.stop(SIGTERM) == 0);
    }
    {
        felt::db::Database db(dir + "/data/felt.db");
        felt::server::Accounts acc(db, 0);
        auto one = [&](const std::string& sql) { return sql_int(db, sql); };
        CHECK(one("SELECT COUNT(*) FROM accounts") == 3);
        CHECK(one("SELECT SUM(balance) FROM accounts") == 3 * 10'000); // hold'em without rake
        CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
        CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'finished'") >= 2);
        CHECK(one("SELECT status = 'void' FROM hands WHERE id = " + std::to_string(void_id)) == 1);
        CHECK(one("SELECT COUNT(*) FROM hand_seats WHERE hand_id = " + std::to_string(void_id)) ==
              0);
        felt::db::Statement q(db, "SELECT id, balance FROM accounts");
        while (q.step()) CHECK(acc.ledger_sum(q.column_int(0)) == q.column_chips(1));
    }
    // An unclean stop with chips on the table, then a start on a full disk: feltd starts all the
    // same, says why on /healthz (probing the disk at most once a second, however often it is
    // asked), plays nothing, and recovers the chips once there is space.
    {
        Feltd d({"--rate", "1000", "--burst", "1000"}, dir);
        SeatedPair t(d.port());
        next_hand(t.a, t.b);
        d.stop(SIGKILL);
    }
    fill(filler);
    {
        // (Its port file outside the full disk, where the harness can read it.)
        Feltd d({"--db", dir + "/data/felt.db"});
        const std::string why = health_turns(d.port(), 503);
        CHECK(why.find("storage failing") != std::string::npos);
        CHECK(why.find("full") != std::string::npos);
        const int failures = metric(d.port(), "felt_storage_failures_total");
        const auto t0 = std::chrono::steady_clock::now();
        int asked = 0;
        while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1500)) {
            CHECK(http_get(d.port(), "/healthz").status == 503);
            ++asked;
        }
        CHECK(asked > 20);
        CHECK(metric(d.port(), "felt_storage_failures_total") - failures <= 2);
        Client c(d.port());
        c.hello();
        CHECK(c.call({{"type", "guest"}})["code"] == "internal");
        std::filesystem::remove(filler);
        health_turns(d.port(), 200);
        CHECK(c.call({{"type", "guest"}})["ok"] == true);
        CHECK(d.stop(SIGTERM) == 0);
    }
    {
        felt::db::Database db(dir + "/data/felt.db");
        auto one = [&](const std::string& sql) { return sql_int(db, sql); };
        CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
        CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'running'") == 0);
        CHECK(one("SELECT SUM(balance) FROM accounts") ==
              one("SELECT COUNT(*) FROM accounts") * 10'000);
    }
    CHECK(::umount2(dir.c_str(), MNT_DETACH) == 0);
    std::filesystem::remove(dir);
}

TEST_CASE("feltd on PostgreSQL: the database stops mid-hand and starts again; feltd serves on, "
          "voids that hand, resumes by itself, and no chip is lost") {
    FELT_NEED_PG();
    if (!std::getenv("FELT_TEST_PG_DIR")) {
        MESSAGE("skipped: FELT_TEST_PG_DIR names no server folder to stop and start");
        return;
    }
    felt_test::PgDatabase pgdb;
    // Whatever happens, the server is up again for the tests after this one.
    struct Up {
        bool down = false;
        ~Up() {
            if (down) felt_test::pg_server_control("up");
        }
    } up;
    std::int64_t void_id = 0;
    {
        Feltd d({"--db", pgdb.url, "--rate", "1000", "--burst", "1000"});
        SeatedPair t(d.port());
        Client &a = t.a, &b = t.b, &late = t.late;
        const std::int64_t table = t.table;
        const int seat_a = t.seat_a;
        next_hand(a, b);
        json end = play_out(a, seat_a, b, table);
        REQUIRE(end["kind"] == "hand_end");

        // PostgreSQL stops while the next hand runs: its end cannot be stored.
        const json start = next_hand(a, b);
        REQUIRE(felt_test::pg_server_control("down"));
        up.down = true;
        const json voided = play_out(a, seat_a, b, table);
        REQUIRE(voided["kind"] == "hand_void");
        CHECK(voided["reason"] == "storage");
        void_id = voided["hand_id"];
        CHECK(health_turns(d.port(), 503).find("storage failing") != std::string::npos);
        CHECK(late.call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["code"] ==
              "internal");
        CHECK(late.call({{"type", "ping"}})["ok"] == true);

        // It starts again: feltd connects again by itself and play resumes.
        REQUIRE(felt_test::pg_server_control("up"));
        up.down = false;
        health_turns(d.port(), 200);
        next_hand(a, b);
        end = play_out(a, seat_a, b, table);
        CHECK(end["kind"] == "hand_end");
        CHECK(late.call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["ok"] == true);
        for (Client* c : {&a, &b, &late})
            CHECK(c->call({{"type", "leave"}, {"table", table}})["ok"] == true);
        CHECK(d.stop(SIGTERM) == 0);
    }
    {
        Feltd d({"--db", pgdb.url}); // a restart after all that
        CHECK(d.stop(SIGTERM) == 0);
    }
    felt::pg::Connection db(pgdb.url);
    auto one = [&](const std::string& sql) { return db.query(sql.c_str()).integer(0, 0); };
    CHECK(one("SELECT COUNT(*) FROM accounts") == 3);
    CHECK(one("SELECT SUM(balance) FROM accounts") == 3 * 10'000); // hold'em without rake
    CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'finished'") >= 2);
    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'running'") == 0);
    CHECK(one("SELECT (status = 'void')::int FROM hands WHERE id = " + std::to_string(void_id)) ==
          1);
    CHECK(one("SELECT COUNT(*) FROM accounts a WHERE a.balance != (SELECT SUM(amount) FROM ledger "
              "l WHERE l.account_id = a.id)") == 0);
}
