// Integration, `felt bot` and `felt health` against a real feltd, and the bot's WebSocket client
// against Beast. A real feltd on a free loopback port, driven through its WebSocket protocol and
// HTTP endpoints by the harness's client, as a bot would.
#include "bot.h"
#include "phh_cards.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <sodium.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <nlohmann/json.hpp>

#include "poker/variant.h"
#include "protocol/tournament_config.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
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

// The time a bot has for a decision at the tests' tables. A strong bot works out its equity before
// it acts: under the sanitizers that can pass four seconds, and a turn left to the clock, acted on
// after the hand is over, was refused (`no_hand`); the table then sat the bot out and ended early.
#ifdef FELT_SANITIZE
constexpr int kDecisionMs = 30'000;
#else
constexpr int kDecisionMs = 4000;
#endif

// Bots for the feltd `d`: `tables` tables of `seats`, each playing `hands` hands.
felt::bot::Options bot_options(const Feltd& d, int tables, int seats, int hands) {
    felt::bot::Options o;
    o.port = std::to_string(d.port());
    o.tables = tables;
    o.seats = seats;
    o.hands = hands;
    return o;
}

// Three bots of `level` join `table` for `hands` hands (deals, games): what the table told `host`,
// its spectator, until the three had left. (The bots' own count of hands is one bot's, which may
// have sat down late.)
std::vector<json> three_join(const Feltd& d, Client& host, std::int64_t table,
                             const std::string& level, int hands) {
    felt::bot::Options o;
    o.port = std::to_string(d.port());
    o.join = table;
    o.seats = 3;
    o.hands = hands;
    o.level = level;
    const felt::bot::Report r = felt::bot::run(o);
    CHECK(r.connected == 3);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    std::vector<json> told;
    for (int left = 0; left < 3;) {
        auto m = host.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] != "table" || (*m)["table"] != table) continue;
        left += (*m)["kind"] == "left";
        told.push_back(std::move(*m));
    }
    return told;
}

TEST_CASE("felt bot: bots play whole tables through the real protocol") {
    Feltd d;
    felt::bot::Options o = bot_options(d, 3, 3, 4);
    const felt::bot::Report r = felt::bot::run(o);
    CHECK(r.connected == 9);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    CHECK(r.hands >= 3 * 4);
    // Each hand counted once (an update's hand_end event is not one): as many as feltd played,
    // less at most one a table that started as its bots were leaving.
    const int played = metric(d.port(), "felt_hands_played_total");
    CHECK(r.hands <= played);
    CHECK(r.hands + 3 >= played);
    CHECK(r.latencies_ms.size() == static_cast<std::size_t>(r.actions));
    CHECK(r.percentile(99) >= r.percentile(50));
}

TEST_CASE("felt bot: bots join an open table of somebody else's and play at it") {
    Feltd d;
    auto people = guests(d.port(), 1);
    Client& host = *people[0];
    const std::int64_t table = host.call({{"type", "create_table"},
                                          {"seats", 3},
                                          {"hand_delay_ms", 0},
                                          {"min_buy_in", 60},
                                          {"max_buy_in", 100}})["table"];
    REQUIRE(host.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    felt::bot::Options o;
    o.port = std::to_string(d.port());
    o.join = table;
    o.seats = 2;
    o.hands = 3;
    const felt::bot::Report r = felt::bot::run(o);
    CHECK(r.connected == 2);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    CHECK(r.hands >= 3);
    // Each bot bought in for the table's maximum, since twice its minimum is more.
    for (int seated = 0; seated < 2;) {
        const json m = next_kind(host, "seated");
        CHECK(m["stack"] == 100);
        ++seated;
    }
}

TEST_CASE("felt bot --level: easy, fair and strong bots read their seat's view and play every "
          "step themselves: Mexican stud's rollovers, five-card draw's draws, Omaha, hold'em") {
    Feltd d;
    auto people = guests(d.port(), 1);
    Client& host = *people[0];
    struct Case {
        const char* variant;
        const char* level;
        const char* step; // an event only a bot's own choice makes
    };
    for (const Case& c : {Case{"mexican", "easy", "rollover"}, Case{"draw", "fair", "discard"},
                          Case{"omaha", "strong", "call"}, Case{"holdem", "strong", "call"}}) {
        const std::string variant = c.variant, level = c.level;
        CAPTURE(variant);
        CAPTURE(level);
        const std::int64_t table = host.call({{"type", "create_table"},
                                              {"variant", c.variant},
                                              {"structure", "fixed-limit"},
                                              {"seats", 3},
                                              {"hand_delay_ms", 0},
                                              {"decision_ms", kDecisionMs}})["table"];
        REQUIRE(host.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
        // The hands (each bot plays six, the first two seated together at least), no turn left
        // to the clock, and the step each bot took itself.
        int timed_out = 0, steps = 0, hands = 0;
        const std::vector<json> told = three_join(d, host, table, level, 6);
        for (const json& m : told) {
            timed_out += m["kind"] == "timed_out";
            hands += m["kind"] == "hand_end";
            if (m["kind"] == "update")
                for (const json& e : m["events"]) steps += e["kind"] == c.step;
        }
        // Each bot wants six hands, but the table may end sooner: CI saw 5 hands once, and a
        // loaded machine 2 and 4, unexplained so far. What the table told is printed then.
        if (hands < 6) {
            std::string seq;
            for (const json& m : told) {
                seq += m.value("kind", "?");
                if (m.contains("seat") && m["seat"].is_number()) seq += " " + m["seat"].dump();
                seq += m["kind"] == "left" ? " " + m.dump() + "\n" : "; ";
            }
            MESSAGE("fewer hands than each bot wanted: ", hands, "\n", seq);
        }
        CHECK(hands >= 2);
        CHECK(timed_out == 0);
        CHECK(steps > 0);
    }
}

TEST_CASE("felt bot --level at a Chinese poker table it joins: each bot splits its own cards at "
          "every deal") {
    Feltd d;
    auto people = guests(d.port(), 1);
    Client& host = *people[0];
    const std::int64_t table = host.call({{"type", "create_table"},
                                          {"game", "chinese"},
                                          {"seats", 3},
                                          {"hand_delay_ms", 0},
                                          {"decision_ms", kDecisionMs}})["table"];
    REQUIRE(host.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    // The server arranges only for a bot that leaves during a deal (its hands played): its seat
    // then leaves after that deal.
    int deals = 0, by_player = 0;
    std::set<int> by_server;
    for (const json& m : three_join(d, host, table, "strong", 2)) {
        deals += m["kind"] == "deal_end";
        if (m["kind"] == "left") by_server.erase(m["seat"].get<int>());
        if (m["kind"] == "submitted") {
            by_player += m["by"] == "player";
            if (m["by"] == "server") by_server.insert(m["seat"].get<int>());
        }
    }
    CHECK(deals >= 2);
    CHECK(by_player >= 4); // each bot's two deals, one at least with two bots dealt in
    CHECK(by_server.empty());
}

TEST_CASE("felt bot --level at a leap rummy table it joins: the bots play a whole game, every "
          "step their own") {
    Feltd d;
    auto people = guests(d.port(), 1);
    Client& host = *people[0];
    const std::int64_t table = host.call({{"type", "create_table"},
                                          {"game", "leap"},
                                          {"seats", 3},
                                          {"hand_delay_ms", 0},
                                          {"turn_ms", 20'000}})["table"];
    REQUIRE(host.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    int games = 0, melds = 0, timed_out = 0;
    for (const json& m : three_join(d, host, table, "fair", 1)) {
        games += m["kind"] == "game_end";
        melds += m["kind"] == "melded";
        timed_out += m["kind"] == "timed_out";
    }
    CHECK(games >= 1);
    CHECK(melds > 0);
    CHECK(timed_out == 0); // no turn left to the clock
}

TEST_CASE("felt bot: a second run signs in to the first run's accounts; one gone, or too poor "
          "for the buy-in, is replaced by a new guest") {
    // Each guest starts with 500; a bot buys in for 320 (twice the minimum): a bot that went
    // broke, or left with less than 140, cannot buy in again.
    Feltd d({"--grant", "500"});
    auto accounts = [&] {
        felt::db::Database db(d.dir() + "/data/felt.db");
        felt::db::Statement q(db, "SELECT count(*) FROM accounts");
        REQUIRE(q.step());
        return q.column_int(0);
    };
    auto balance = [&](const std::string& token) {
        Client c(d.port());
        c.hello();
        const json r = c.call({{"type", "resume"}, {"token", token}});
        REQUIRE(r["type"] == "resume");
        return r["account"]["balance"].get<std::int64_t>();
    };
    felt::bot::Options o = bot_options(d, 1, 3, 5);
    o.shove = true;
    const felt::bot::Report first = felt::bot::run(o);
    CHECK_MESSAGE(first.errors.empty(), (first.errors.empty() ? "" : first.errors.front()));
    REQUIRE(first.tokens.size() == 3);
    for (const std::string& t : first.tokens) CHECK(!t.empty());
    CHECK(accounts() == 3);
    const bool poor0 = balance(first.tokens[0]) < 320, poor1 = balance(first.tokens[1]) < 320;
    MESSAGE("too poor to buy in again: " << poor0 + poor1 << " of the first two");
    // Again with those accounts, the third's token one the server never issued.
    o.tokens = first.tokens;
    o.tokens[2] = std::string(64, '0');
    const felt::bot::Report second = felt::bot::run(o);
    CHECK_MESSAGE(second.errors.empty(), (second.errors.empty() ? "" : second.errors.front()));
    CHECK(second.connected == 3);
    CHECK(second.hands >= 1);
    // New: one for the unknown token, one for each of the first two too poor to buy in.
    CHECK(accounts() == 3 + 1 + poor0 + poor1);
    CHECK((second.tokens[0] == first.tokens[0]) == !poor0);
    CHECK((second.tokens[1] == first.tokens[1]) == !poor1);
    CHECK(second.tokens[2] != o.tokens[2]);
}

TEST_CASE("felt bot: a bot at an open table leaves once it is alone there, though it wants more "
          "hands (it hung waiting for a deal when the others left with theirs played)") {
    Feltd d;
    auto people = guests(d.port(), 1);
    const std::int64_t table =
        people[0]->call({{"type", "create_table"}, {"seats", 3}, {"hand_delay_ms", 0}})["table"];
    felt::bot::Options few;
    few.port = std::to_string(d.port());
    few.join = table;
    few.seats = 2;
    few.hands = 3;
    felt::bot::Options many = few;
    many.seats = 1;
    many.hands = 1'000'000;
    many.seed = 2;
    auto lone = std::async(std::launch::async, [&] { return felt::bot::run(many); });
    // The lone bot sits down first. (A bot that finds its table empty waits for players; had
    // the others come and gone before it looked, it would wait, as it should.)
    auto taken = [&] {
        const json list = people[0]->call({{"type", "tables"}});
        for (const json& t : list["tables"])
            if (t["id"] == table) return t["taken"].get<int>();
        return -1;
    };
    for (int i = 0; i < 500 && taken() < 1; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE(taken() == 1);
    const felt::bot::Report r = felt::bot::run(few);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    const bool left = lone.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    if (!left) d.stop(SIGKILL); // its connection ends, so that it returns
    const felt::bot::Report alone = lone.get();
    CHECK(left);
    CHECK(alone.connected == 1);
    CHECK_MESSAGE(alone.errors.empty(), (alone.errors.empty() ? "" : alone.errors.front()));
}

TEST_CASE("felt bot: bots pace themselves under feltd's default rate, and leave when broke") {
    Feltd d({"--rate", "50", "--burst", "100"}); // feltd's defaults, said out loud
    felt::bot::Options o;
    o.port = std::to_string(d.port());
    SUBCASE("pacing") {
        // Unpaced, a bot at a table of three acts far faster than 50 messages a second.
        o.tables = 2;
        o.seats = 3;
        o.hands = 40;
        const felt::bot::Report r = felt::bot::run(o);
        CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
        CHECK(r.hands >= 40);
    }
    SUBCASE("broke") {
        o.tables = 1;
        o.seats = 3;
        o.hands = 1'000'000; // never reached: all in every time, two of three soon go broke
        o.shove = true;
        const felt::bot::Report r = felt::bot::run(o);
        CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
        CHECK(r.broke >= 1);
        CHECK(r.hands < 1'000'000);
    }
}

TEST_CASE("felt bot: a person's pace, from several source addresses, and a fleet that grows") {
    SUBCASE("thinking: every decision waits at least the shortest think time") {
        Feltd d;
        felt::bot::Options o = bot_options(d, 1, 3, 2);
        o.think_min_ms = 40;
        o.think_max_ms = 60;
        const felt::bot::Report r = felt::bot::run(o);
        CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
        REQUIRE(r.actions > 0);
        // One table: its actions follow one another, each after its bot's thinking.
        CHECK(r.seconds >= 0.040 * static_cast<double>(r.actions));
    }
    SUBCASE("sources: six bots from one address are refused where two addresses are not") {
        Feltd d({"--per-address", "4"});
        felt::bot::Options o = bot_options(d, 1, 6, 1);
        const felt::bot::Report one = felt::bot::run(o);
        CHECK_FALSE(one.errors.empty()); // the fifth connection from 127.0.0.1 is refused
        // The stopped run's connections close at feltd's pace: wait until it has none left.
        for (int i = 0; i < 200; ++i) {
            const auto m =
                felt::bot::http_get("127.0.0.1", std::to_string(d.port()), "/metrics", 5);
            if (m.body.find("\nfelt_connections 0\n") != std::string::npos) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        o.sources = 2; // 127.0.0.1 and 127.0.0.2: three each
        const felt::bot::Report two = felt::bot::run(o);
        CHECK_MESSAGE(two.errors.empty(), (two.errors.empty() ? "" : two.errors.front()));
        CHECK(two.connected == 6);
        CHECK(two.hands >= 1);
    }
    SUBCASE("a fleet: tables added while others play, figures taken window by window") {
        Feltd d;
        felt::bot::Fleet fleet(bot_options(d, 1, 3, 1));
        auto wait_seated = [&](int n) {
            for (int i = 0; i < 400 && fleet.seated() < n; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(25));
            return fleet.seated();
        };
        fleet.add_tables(2);
        CHECK(wait_seated(6) == 6);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const felt::bot::Report first = fleet.take();
        fleet.add_tables(1);
        CHECK(wait_seated(9) == 9);
        felt::bot::Report second; // at least one hand ended in it (sanitizer builds are slow)
        for (int i = 0; i < 100 && second.hands == 0; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            second = fleet.take();
        }
        CHECK_MESSAGE(first.errors.empty(), (first.errors.empty() ? "" : first.errors.front()));
        CHECK_MESSAGE(second.errors.empty(), (second.errors.empty() ? "" : second.errors.front()));
        CHECK(first.bots == 6);
        CHECK(second.bots == 9);
        CHECK(second.connected == 9);
        CHECK(first.actions > 0);
        CHECK(second.actions > 0);
        CHECK(second.hands > 0);
        // A take empties the window: what the first counted is not counted again.
        const felt::bot::Report empty_after = fleet.take();
        CHECK(empty_after.latencies_ms.size() < second.latencies_ms.size());
    }
}

// A one-connection WebSocket server made with Beast, for testing the bots' own client against an
// independent implementation: it accepts one connection, runs `serve` on it, and reads on until
// the bot goes, recording the pongs it gets. `refuse` answers the upgrade with a plain 404.
struct BeastPeer {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor acceptor{ioc, {boost::asio::ip::make_address("127.0.0.1"), 0}};
    std::vector<std::string> pongs;
    std::string hello; // the bot's first message, as Beast read it
    std::thread thread;

    template <class Serve>
    explicit BeastPeer(Serve serve, bool refuse = false) {
        thread = std::thread([this, serve, refuse] {
            namespace beast = boost::beast;
            namespace websocket = beast::websocket;
            beast::error_code ec;
            boost::asio::ip::tcp::socket socket = acceptor.accept();
            if (refuse) {
                const std::string no = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
                boost::asio::write(socket, boost::asio::buffer(no), ec);
                return;
            }
            websocket::stream<boost::asio::ip::tcp::socket> ws(std::move(socket));
            ws.control_callback([this](websocket::frame_type kind, beast::string_view payload) {
                if (kind == websocket::frame_type::pong) pongs.emplace_back(payload);
            });
            ws.accept(ec);
            if (ec) return;
            beast::flat_buffer buffer;
            ws.read(buffer, ec);
            hello = beast::buffers_to_string(buffer.data());
            serve(ws);
            for (;;) { // until the bot closes or its connection ends
                buffer.clear();
                ws.read(buffer, ec);
                if (ec) return;
            }
        });
    }
    ~BeastPeer() { join(); }
    // Waits for the connection to end: only then may `pongs` and `hello` be read.
    void join() {
        if (thread.joinable()) thread.join();
    }
    std::string port() const { return std::to_string(acceptor.local_endpoint().port()); }
};

felt::bot::Report bot_against(const BeastPeer& peer) {
    felt::bot::Options o;
    o.port = peer.port();
    o.tables = 1;
    o.seats = 1;
    return felt::bot::run(o);
}

TEST_CASE("felt bot: its WebSocket client against Beast's server: masked frames, pings, "
          "fragments, long lengths, a close and a refused upgrade") {
    namespace net = boost::asio;
    using Ws = boost::beast::websocket::stream<net::ip::tcp::socket>;
    // A message of 70,000 bytes (a 64-bit length, longer than the bot's first buffer), sent in
    // two fragments after a ping: the bot answers the ping and reads the message whole.
    const std::string code(70000, 'x');
    const std::string text = R"({"type":"error","code":")" + code + R"(","message":"too long"})";
    {
        BeastPeer peer([&](Ws& ws) {
            ws.ping("are you there");
            ws.text(true);
            ws.write_some(false, net::buffer(text.substr(0, 100)));
            ws.write_some(true, net::buffer(text.substr(100)));
        });
        const felt::bot::Report r = bot_against(peer);
        peer.join();
        REQUIRE(r.errors.size() == 1); // the bot reports an error message as an error
        CHECK(r.errors[0] == nlohmann::json::parse(text).dump());
        CHECK(r.connected == 1);
        CHECK(nlohmann::json::parse(peer.hello)["type"] == "hello"); // unmasked by Beast
        CHECK(peer.pongs == std::vector<std::string>{"are you there"});
    }
    { // the server closes: an error that says so, with the server's reason
        BeastPeer peer([](Ws& ws) {
            ws.close({boost::beast::websocket::close_code::going_away, "shutting down"});
        });
        const felt::bot::Report r = bot_against(peer);
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0] == "read: the server closed the connection: shutting down");
    }
    { // no upgrade: the bot says what it got
        BeastPeer peer([](Ws&) {}, true);
        const felt::bot::Report r = bot_against(peer);
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0] == "handshake: the server did not upgrade: HTTP/1.1 404 Not Found");
        CHECK(r.connected == 0);
    }
}

// A one-connection server that answers whatever the bot sends first with `answer`, byte for byte,
// and then reads until the bot goes: for answers no correct server gives.
struct RawPeer {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor acceptor{ioc, {boost::asio::ip::make_address("127.0.0.1"), 0}};
    std::thread thread;

    explicit RawPeer(std::string answer) {
        thread = std::thread([this, answer = std::move(answer)] {
            boost::system::error_code ec;
            boost::asio::ip::tcp::socket socket = acceptor.accept();
            std::string request;
            boost::asio::read_until(socket, boost::asio::dynamic_buffer(request), "\r\n\r\n", ec);
            boost::asio::write(socket, boost::asio::buffer(answer), ec);
            char sink[4096];
            while (!ec) socket.read_some(boost::asio::buffer(sink), ec);
        });
    }
    ~RawPeer() { thread.join(); }
    std::string port() const { return std::to_string(acceptor.local_endpoint().port()); }
};

TEST_CASE("felt bot: a server that breaks the protocol gets an error that names how") {
    // RFC 6455, 1.3: the accept value for the key the bots send.
    const std::string upgraded = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                 "Connection: Upgrade\r\n"
                                 "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
    auto bot_on = [](const RawPeer& peer) {
        felt::bot::Options o;
        o.port = peer.port();
        o.tables = 1;
        o.seats = 1;
        return felt::bot::run(o);
    };
    // The RFC's own example of a masked "Hello" (5.7), which only a client may send.
    const std::string masked = "\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58";
    // A header announcing 16 MiB and one byte, over what a bot holds.
    const std::string huge = std::string("\x81\x7f\x00\x00\x00\x00\x01\x00\x00\x01", 10);
    // An answer whose headers never end.
    std::string endless = "HTTP/1.1 101 Switching Protocols\r\n";
    while (endless.size() < 20000) endless += "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaa\r\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {upgraded + masked, "read: the server masked a frame"},
        {upgraded + huge, "read: a message longer than a bot accepts"},
        {endless, "handshake: the server's answer to the upgrade has no end"},
        {"HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: wrong\r\n\r\n",
         "handshake: the server did not upgrade: HTTP/1.1 101 Switching Protocols"}};
    for (const auto& [answer, error] : cases) {
        CAPTURE(error);
        RawPeer peer(answer);
        const felt::bot::Report r = bot_on(peer);
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0] == error);
    }
}

TEST_CASE("felt bot: think times read as MIN-MAX or one number, and nothing else") {
    felt::bot::Options o;
    CHECK(felt::bot::parse_think("1000-4000", o));
    CHECK((o.think_min_ms == 1000 && o.think_max_ms == 4000));
    CHECK(felt::bot::parse_think("250", o));
    CHECK((o.think_min_ms == 250 && o.think_max_ms == 250));
    for (const char* bad :
         {"", "-", "5-", "-5", "5-x", "x", "4000-1000", "1-2-3", "0-600001", " 5"}) {
        CAPTURE(bad);
        CHECK_FALSE(felt::bot::parse_think(bad, o));
        CHECK((o.think_min_ms == 250 && o.think_max_ms == 250)); // unchanged
    }
}

TEST_CASE("felt health: the GET behind it reads feltd's /healthz, and other answers as they are") {
    Feltd d;
    const std::string port = std::to_string(d.port());
    const felt::bot::HttpAnswer ok = felt::bot::http_get("127.0.0.1", port, "/healthz", 5);
    CHECK(ok.status == 200);
    CHECK(ok.body == "ok\n");
    CHECK(ok.error.empty());
    const felt::bot::HttpAnswer missing = felt::bot::http_get("127.0.0.1", port, "/nope", 5);
    CHECK(missing.status == 404);
    // Nobody listening: no status, and the reason.
    const felt::bot::HttpAnswer none = felt::bot::http_get("127.0.0.1", "1", "/healthz", 5);
    CHECK(none.status == 0);
    CHECK(none.error.find("connect") != std::string::npos);
}

TEST_CASE("felt bot: six bots register for a turbo sit-and-go and play it to the end") {
    Feltd d;
    auto people = guests(d.port(), 1);
    const json created = people[0]->call({{"type", "create_tournament"},
                                          {"preset", "turbo"},
                                          {"seats", 6},
                                          {"buy_in", 100},
                                          {"hand_delay_ms", 0}});
    REQUIRE_MESSAGE(created["ok"] == true, created.dump());
    felt::bot::Options o;
    o.port = std::to_string(d.port());
    o.tournament = created["tournament"];
    o.seats = 6;
    o.shove = true; // all in whenever allowed: over in a few hands
    const felt::bot::Report r = felt::bot::run(o);
    CHECK(r.connected == 6);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    // Every bot finished, in places 1 to 6, and kept its session for a run taken up again.
    std::vector<int> places = r.places;
    std::sort(places.begin(), places.end());
    CHECK(places == std::vector<int>{1, 2, 3, 4, 5, 6});
    CHECK(std::count_if(r.tokens.begin(), r.tokens.end(),
                        [](const std::string& t) { return t.size() == 64; }) == 6);
    const json t = people[0]->call({{"type", "tournament"}, {"tournament", o.tournament}});
    CHECK(t["tournament"]["status"] == "finished");
    CHECK(t["tournament"]["prizes"] == json::array({420, 180}));
}

TEST_CASE("felt bot --rebuys: shoving bots rebuy when they lose their chips while rebuys are "
          "open, at most twice, and play the sit-and-go to the end; its pool is every entry and "
          "rebuy") {
    // A player out of chips keeps their seat a minute of the tournament's clock to rebuy (a
    // bot that has rebought twice lets it pass): a second here.
    Feltd d({"--tournament-minute-ms", "1000"});
    auto people = guests(d.port(), 1);
    const json created =
        people[0]->call({{"type", "create_tournament"},
                         {"seats", 6},
                         {"buy_in", 100},
                         {"starting_stack", 500},
                         {"hand_delay_ms", 0},
                         {"rebuy_levels", 1},
                         {"rebuy_stack", 500},
                         {"levels",
                          {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 20}},
                           {{"small_blind", 100}, {"big_blind", 200}, {"hands", 20}}}}});
    REQUIRE_MESSAGE(created["ok"] == true, created.dump());
    felt::bot::Options o;
    o.port = std::to_string(d.port());
    o.tournament = created["tournament"];
    o.seats = 6;
    o.shove = true;
    o.rebuys = 2;
    const felt::bot::Report r = felt::bot::run(o);
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    std::vector<int> places = r.places;
    std::sort(places.begin(), places.end());
    CHECK(places == std::vector<int>{1, 2, 3, 4, 5, 6});
    const json t = people[0]->call({{"type", "tournament"}, {"tournament", o.tournament}});
    CHECK(t["tournament"]["status"] == "finished");
    // All in from the first hand: someone loses their chips in level 1, and rebuys.
    const std::int64_t pool = t["tournament"]["pool"];
    const std::int64_t rebuys = (pool - 600) / 100;
    CHECK(pool % 100 == 0);
    CHECK(rebuys >= 1);
    CHECK(rebuys <= 12);
    std::int64_t paid = 0, chips = 0;
    for (const json& s : t["tournament"]["standings"]) {
        paid += s["prize"].get<std::int64_t>();
        chips += s.value("stack", std::int64_t{0});
    }
    CHECK(paid == pool);
    CHECK(chips == 500 * (6 + rebuys)); // the winner holds every chip bought
}

namespace {

// Three shoving bots play tournament `id` to their end.
felt::bot::Report three_bots(int port, std::int64_t id) {
    felt::bot::Options o;
    o.port = std::to_string(port);
    o.tournament = id;
    o.seats = 3;
    o.shove = true;
    return felt::bot::run(o);
}

// The bots' tournament ended without an error, each in a place of their own: a client signed in
// as its winner.
std::unique_ptr<Client> winner_of(int port, const felt::bot::Report& r) {
    CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
    std::vector<int> places = r.places;
    std::sort(places.begin(), places.end());
    CHECK(places == std::vector<int>{1, 2, 3}); // each its own place, ties too
    const auto winner = std::find(r.places.begin(), r.places.end(), 1);
    REQUIRE(winner != r.places.end());
    auto c = std::make_unique<Client>(port);
    c->hello();
    REQUIRE(
        c->call({{"type", "resume"},
                 {"token", r.tokens[static_cast<std::size_t>(winner - r.places.begin())]}})["ok"] ==
        true);
    return c;
}

} // namespace

TEST_CASE("felt bot: a sit-and-go of every betting variant and structure is played to the end by "
          "bots, and its last hand replays to its result") {
    // Three bots at each of the 42 games, all at once, from one address.
    Feltd d({"--rate", "1000", "--burst", "1000", "--per-address", "1000"});
    auto host = guests(d.port(), 1);
    struct Game {
        std::string variant, structure;
        std::int64_t id = 0;
        felt::bot::Report report;
    };
    std::vector<Game> games;
    for (std::string_view variant : felt::poker::builtin_variant_names())
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"}) {
            // Levels of three hands that climb fast, so that shoving bots finish in a few.
            const json created =
                host[0]->call({{"type", "create_tournament"},
                               {"variant", variant},
                               {"structure", structure},
                               {"seats", 3},
                               {"buy_in", 10},
                               {"starting_stack", 500},
                               {"hand_delay_ms", 0},
                               // The bots leave Mexican stud's rollover to the clock.
                               {"decision_ms", 200},
                               {"levels",
                                {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 3}},
                                 {{"small_blind", 50}, {"big_blind", 100}, {"hands", 3}},
                                 {{"small_blind", 100}, {"big_blind", 200}, {"hands", 3}}}}});
            REQUIRE_MESSAGE(created["ok"] == true,
                            variant << " " << structure << ": " << created.dump());
            games.push_back(
                {std::string(variant), structure, created["tournament"].get<std::int64_t>(), {}});
        }
    std::vector<std::thread> runs;
    for (Game& g : games) runs.emplace_back([&d, &g] { g.report = three_bots(d.port(), g.id); });
    for (auto& t : runs) t.join();
    for (const Game& g : games) {
        INFO(g.variant << " " << g.structure);
        const json t = host[0]->call({{"type", "tournament"}, {"tournament", g.id}});
        CHECK(t["tournament"]["status"] == "finished");
        // The winner's last hand, replayed by the server, ends as it was played.
        const auto winner = winner_of(d.port(), g.report);
        Client& c = *winner;
        const json mine = c.call({{"type", "my_hands"}, {"limit", 1}});
        REQUIRE(mine["hands"].size() == 1);
        CHECK(mine["hands"][0]["tournament"] == g.id);
        CHECK(mine["hands"][0]["variant"] == g.variant);
        const json hand = c.call({{"type", "hand"}, {"hand", mine["hands"][0]["hand"]}});
        CHECK_MESSAGE(hand["replay"]["matches"] == true, hand["replay"].dump());
    }
}

TEST_CASE("felt bot: mixed sit-and-gos (HORSE by level, 8-game and a host's list every few "
          "hands) are played to the end, each hand in its game, and replay") {
    Feltd d({"--rate", "1000", "--burst", "1000", "--per-address", "1000"});
    auto host = guests(d.port(), 1);
    struct Game {
        json games;
        int rotate_hands = 0;
        std::int64_t id = 0;
        felt::bot::Report report;
    };
    std::vector<Game> games = {
        {"horse", 0, 0, {}},
        {"8-game", 2, 0, {}},
        {json::array({{{"variant", "short-deck"}, {"structure", "fixed-limit"}},
                      {{"variant", "badugi"}, {"structure", "fixed-limit"}},
                      {{"variant", "omaha"}, {"structure", "pot-limit"}},
                      {{"variant", "deuce-single-draw"}, {"structure", "no-limit"}}}),
         1,
         0,
         {}}};
    for (Game& g : games) {
        json request = {{"type", "create_tournament"},
                        {"games", g.games},
                        {"seats", 3},
                        {"buy_in", 10},
                        {"starting_stack", 2000},
                        {"hand_delay_ms", 0},
                        {"decision_ms", 200},
                        {"levels",
                         {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 2}},
                          {{"small_blind", 25}, {"big_blind", 50}, {"hands", 2}},
                          {{"small_blind", 50}, {"big_blind", 100}, {"hands", 2}},
                          {{"small_blind", 100}, {"big_blind", 200}, {"hands", 2}}}}};
        if (g.rotate_hands > 0) request["rotate_hands"] = g.rotate_hands;
        const json created = host[0]->call(request);
        REQUIRE_MESSAGE(created["ok"] == true, created.dump());
        g.id = created["tournament"].get<std::int64_t>();
    }
    std::vector<std::thread> runs;
    for (Game& g : games) runs.emplace_back([&d, &g] { g.report = three_bots(d.port(), g.id); });
    for (auto& t : runs) t.join();
    for (const Game& g : games) {
        INFO(g.games.dump());
        // Every hand the winner played: in the game its turn gives, and replayed to its end.
        const auto winner = winner_of(d.port(), g.report);
        Client& c = *winner;
        const json mine = c.call({{"type", "my_hands"}, {"limit", 100}});
        REQUIRE(mine["hands"].size() >= 2);
        std::set<std::string> variants;
        for (const json& line : mine["hands"]) {
            variants.insert(line["variant"].get<std::string>());
            const json hand = c.call({{"type", "hand"}, {"hand", line["hand"]}});
            CHECK_MESSAGE(hand["replay"]["matches"] == true, hand["replay"].dump());
            // The game of its turn: by level, or by the table's hand number.
            const json& cfg = hand["config"];
            const int turn = g.rotate_hands > 0 ? (hand["number"].get<int>() - 1) / g.rotate_hands
                                                : cfg["level"].get<int>() - 1;
            const auto list = g.games.is_string()
                                  ? felt::protocol::mixed_games(g.games.get<std::string>()).value()
                                  : std::vector<felt::protocol::TournamentGame>{
                                        {"short-deck", "fixed-limit"},
                                        {"badugi", "fixed-limit"},
                                        {"omaha", "pot-limit"},
                                        {"deuce-single-draw", "no-limit"}};
            const auto& want = list[static_cast<std::size_t>(turn) % list.size()];
            CHECK(cfg["variant"] == want.variant);
            CHECK(cfg["structure"] == want.structure);
        }
        CHECK(variants.size() >= 2);
    }
}

TEST_CASE("felt bot --tournament: the bots' sessions kept in a state file; run again, they sign "
          "in with them instead of registering, and stop at once when it is over") {
    Feltd d;
    auto people = guests(d.port(), 1);
    const json created =
        people[0]->call({{"type", "create_tournament"},
                         {"seats", 2},
                         {"hand_delay_ms", 0},
                         {"levels",
                          {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 2}},
                           {{"small_blind", 100}, {"big_blind", 200}, {"hands", 2}}}}});
    REQUIRE(created["ok"] == true);
    const std::string id = std::to_string(created["tournament"].get<std::int64_t>());
    const std::string state = d.dir() + "/bots.json";
    const std::vector<std::string> args = {felt::test::felt_path(),
                                           "bot",
                                           "--url",
                                           "ws://127.0.0.1:" + std::to_string(d.port()) + "/ws",
                                           "--tournament",
                                           id,
                                           "--seats",
                                           "2",
                                           "--shove",
                                           "--state",
                                           state};
    auto run = [&] {
        const pid_t pid = spawn(args);
        int status = 0;
        waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    CHECK(run() == 0);
    std::ifstream in(state);
    const json saved = json::parse(in, nullptr, false);
    REQUIRE(saved.is_object());
    CHECK(saved["tournament"] == created["tournament"]);
    REQUIRE(saved["tokens"].size() == 2);
    CHECK(people[0]->call({{"type", "tournament"},
                           {"tournament", created["tournament"]}})["tournament"]["status"] ==
          "finished");
    // Again, the tournament over: the bots sign in with their sessions, register nobody new,
    // and stop.
    CHECK(run() == 0);
    CHECK(people[0]->call({{"type", "tournament"},
                           {"tournament", created["tournament"]}})["tournament"]["entrants"] == 2);
    CHECK(json::parse(std::ifstream(state), nullptr, false)["tokens"] == saved["tokens"]);
}
