// Integration, abuse: slow readers, idle and flooding connections, bad messages, and the
// write-queue budgets. A real feltd on a free loopback port, driven through its WebSocket protocol
// and HTTP endpoints by the harness's client, as a bot would.
#include "bot.h"
#include "phh_cards.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"
#include "server/feltd_play.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <sodium.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
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

TEST_CASE("feltd: a client that does not read is dropped once its replies pass the byte cap") {
    Feltd d({"--write-queue-bytes", "65536", "--rate", "100000", "--burst", "100000"});
    // A lobby of 40 tables, so that each `tables` reply is some 15 KB.
    auto makers = guests(d.port(), 8);
    for (auto& m : makers)
        for (int i = 0; i < 5; ++i)
            REQUIRE(m->call({{"type", "create_table"}, {"seats", 2}})["ok"] == true);
    // Its receive buffer is fixed at 64 KiB: otherwise the kernel may grow it to 32 MB here
    // (net.ipv4.tcp_rmem) as replies arrive.
    Client slow(d.port(), 65536);
    slow.hello();
    REQUIRE(slow.call({{"type", "guest"}})["ok"] == true);
    const double before = metric(d.port(), "felt_connections");
    const std::string ask = json{{"type", "tables"}, {"id", 1}}.dump();
    constexpr int kAsked = 1000; // some 15 MB of replies, far past the socket buffers
    int sent = 0;
    while (sent < kAsked && slow.try_send(ask)) ++sent; // a reset here means it was cut off
    // Not reading until feltd has dropped it: feltd answers more slowly than the requests come,
    // so a client that read at once could keep up with it.
    for (int i = 0; i < 100 && metric(d.port(), "felt_connections") >= before; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(metric(d.port(), "felt_connections") == before - 1);
    int replies = 0;
    while (auto m = slow.read()) replies += (*m).contains("tables");
    CHECK(replies < kAsked); // cut off: the rest were never queued
    CHECK(http_get(d.port(), "/healthz").status == 200);
}

TEST_CASE("feltd: one connection watching busy tables gets every message whole and in order, "
          "written from the tables' strands on both network threads between its own replies") {
    // Each table writes to its watchers from its own strand (WsSession::send), the connection
    // answers its own requests from its strand: six tables and the connection's pings all write
    // to one socket at once, under the layer's mutex.
    Feltd d(
        {"--rate", "100000", "--burst", "100000", "--threads", "2", "--tables-per-account", "10"});
    auto people = guests(d.port(), 1);
    Client& w = *people[0];
    constexpr int kTables = 6;
    std::vector<std::int64_t> tables;
    for (int i = 0; i < kTables; ++i) {
        const json made = w.call({{"type", "create_table"}, {"seats", 2}, {"hand_delay_ms", 0}});
        REQUIRE(made["ok"] == true);
        tables.push_back(made["table"]);
        REQUIRE(w.call({{"type", "spectate"}, {"table", tables.back()}})["ok"] == true);
    }
    std::atomic<int> finished{0};
    std::vector<felt::bot::Report> reports(kTables);
    std::vector<std::thread> players;
    for (int i = 0; i < kTables; ++i)
        players.emplace_back([&, i] {
            felt::bot::Options o;
            o.port = std::to_string(d.port());
            o.join = tables[static_cast<std::size_t>(i)];
            o.seats = 2;
            o.hands = 40;
            reports[static_cast<std::size_t>(i)] = felt::bot::run(o);
            ++finished;
        });
    // Read while they play, with a ping always asked: its answer comes from the connection's own
    // strand, between the tables' messages.
    int asked = 0, answered = 0, pongs_out_of_order = 0, gaps = 0, table_messages = 0;
    std::map<std::int64_t, std::int64_t> last_seq;
    auto ask = [&] { w.send(json{{"type", "ping"}, {"id", 1000 + asked++}}); };
    ask();
    bool last_asked = false;
    while (!last_asked || answered < asked) {
        auto m = w.read();
        REQUIRE(m.has_value()); // a frame broken or cut would end the connection here
        if ((*m)["type"] == "ping") {
            pongs_out_of_order += (*m)["id"] != 1000 + answered;
            ++answered;
            if (!last_asked) ask();
        } else if ((*m)["type"] == "table" && m->contains("seq")) {
            ++table_messages;
            const std::int64_t t = (*m)["table"], seq = (*m)["seq"];
            if (auto it = last_seq.find(t); it != last_seq.end()) gaps += seq != it->second + 1;
            last_seq[t] = seq;
        }
        if (!last_asked && finished == kTables) {
            last_asked = true;
            ask();
        }
    }
    for (auto& t : players) t.join();
    for (const auto& r : reports) {
        CHECK_MESSAGE(r.errors.empty(), (r.errors.empty() ? "" : r.errors.front()));
        CHECK(r.hands >= 40);
    }
    CHECK(last_seq.size() == static_cast<std::size_t>(kTables));
    CHECK(table_messages > kTables * 40 * 5); // several a hand at every table
    CHECK(answered > 20);
    CHECK(pongs_out_of_order == 0);
    CHECK(gaps == 0);
}

TEST_CASE("feltd: a connection that sends nothing for --idle is pinged halfway and closed at the "
          "end, unless it answers") {
    namespace net = boost::asio;
    namespace websocket = boost::beast::websocket;
    using net::ip::tcp;
    using Clock = std::chrono::steady_clock;
    Feltd d({"--idle", "2s"});
    net::io_context ioc;
    const tcp::endpoint at(net::ip::make_address("127.0.0.1"), d.port());

    // One that answers: Beast's client answers each ping while it waits for a message.
    websocket::stream<tcp::socket> answers(ioc);
    answers.next_layer().connect(at);
    answers.handshake("127.0.0.1", "/ws");
    int pings = 0;
    answers.control_callback([&](websocket::frame_type kind, boost::beast::string_view) {
        pings += kind == websocket::frame_type::ping;
    });
    boost::beast::flat_buffer got;
    std::optional<boost::beast::error_code> read;
    answers.async_read(got, [&](boost::beast::error_code ec, std::size_t) { read = ec; });

    // One that is upgraded and then says nothing, not even a pong.
    tcp::socket silent(ioc);
    silent.connect(at);
    net::write(silent, net::buffer(std::string("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                               "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                               "Sec-WebSocket-Version: 13\r\n\r\n")));
    const Clock::time_point upgraded = Clock::now();
    std::string heard;
    const std::size_t head = net::read_until(silent, net::dynamic_buffer(heard), "\r\n\r\n");
    REQUIRE(heard.rfind("HTTP/1.1 101", 0) == 0);
    heard.erase(0, head);
    std::array<char, 64> chunk{};
    std::optional<boost::beast::error_code> ended;
    Clock::time_point ended_at;
    std::function<void()> more = [&] {
        silent.async_read_some(net::buffer(chunk), [&](boost::beast::error_code ec, std::size_t n) {
            if (ec) {
                ended = ec;
                ended_at = Clock::now();
                return;
            }
            heard.append(chunk.data(), n);
            more();
        });
    };
    more();

    ioc.run_for(std::chrono::milliseconds(3500));
    // The silent one got one ping (empty: 0x89 0x00) after a second, then its end after two.
    CHECK(heard == std::string("\x89\x00", 2));
    REQUIRE(ended.has_value());
    CHECK(*ended == net::error::eof);
    CHECK(ended_at - upgraded >= std::chrono::milliseconds(1900));
    // The one that answered was pinged (once a second) and is still served.
    CHECK(pings >= 2);
    CHECK(!read.has_value());
    answers.text(true);
    answers.write(net::buffer(std::string(R"({"type":"hello","id":7,"version":1})")));
    ioc.restart();
    ioc.run_for(std::chrono::seconds(10));
    REQUIRE(read.has_value());
    CHECK(!*read);
    const json reply = json::parse(boost::beast::buffers_to_string(got.data()));
    CHECK(reply["id"] == 7);
    // An idle time too short to ping halfway, too long, or not a duration: refused at start.
    for (const std::string bad : {"1s", "2d", "soon", "0"}) {
        CAPTURE(bad);
        CHECK(exit_status({"--idle", bad, "--port", "0"}) != 0);
    }
}

TEST_CASE("feltd: a rate-limited request is named by its id") {
    Feltd d({"--rate", "1", "--burst", "2"});
    Client c(d.port());
    c.hello(); // one token
    for (int id = 1; id <= 3; ++id) c.send(json{{"type", "ping"}, {"id", id}});
    std::vector<json> got;
    for (int i = 0; i < 3; ++i) got.push_back(*c.read());
    int limited = 0;
    for (const json& m : got)
        if (m.value("code", "") == "rate_limited") {
            ++limited;
            CHECK(m["id"].is_number());
        }
    CHECK(limited >= 1);
}

TEST_CASE("feltd: bad messages get errors, the connection and the server live on") {
    Feltd d;
    Client c(d.port());
    c.hello();
    c.send(std::string("{not json"));
    CHECK((*c.read())["code"] == "malformed");
    c.send(std::string("[1,2]"));
    CHECK((*c.read())["code"] == "malformed");
    c.send(json{{"type", "ping"}}); // no id
    CHECK((*c.read())["code"] == "bad_request");
    c.send(json{{"type", 7}, {"id", 1}});
    CHECK((*c.read())["code"] == "bad_request");
    CHECK(c.call({{"type", "shuffle_deck"}})["code"] == "unknown_type");
    CHECK(c.call({{"type", "login"}, {"name", 5}, {"password", "x"}})["code"] == "bad_request");
    CHECK(c.call({{"type", "resume"}})["code"] == "bad_request");
    c.send_frame(std::string("\x01\x02", 2), true);
    CHECK((*c.read())["code"] == "malformed");
    CHECK(c.call({{"type", "ping"}})["ok"] == true); // still connected, still served
}

TEST_CASE("feltd: abuse closes the connection, not the server") {
    Feltd d({"--max-frame", "4096", "--rate", "20", "--burst", "10"});
    SUBCASE("a frame over the limit") {
        Client c(d.port());
        c.hello();
        c.send(std::string(5000, ' '));
        CHECK_FALSE(c.read().has_value());
    }
    SUBCASE("not JSON, again and again") {
        Client c(d.port());
        for (int i = 0; i < 9; ++i) {
            c.send(std::string("nope"));
            CHECK((*c.read())["code"] == "malformed");
        }
        c.send(std::string("nope"));
        CHECK_FALSE(c.read().has_value());
    }
    SUBCASE("binary frames, and text that is not JSON, again and again") {
        Client c(d.port());
        for (int i = 0; i < 9; ++i) {
            c.send_frame("nope", i % 2 == 0);
            CHECK((*c.read())["code"] == "malformed");
        }
        c.send_frame("nope", true);
        CHECK_FALSE(c.read().has_value());
    }
    SUBCASE("a flood past the rate limit") {
        Client c(d.port());
        for (int i = 0; i < 40; ++i) c.send(json{{"type", "ping"}, {"id", i}});
        int limited = 0;
        std::optional<json> m;
        while ((m = c.read()))
            if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") ++limited;
        CHECK(limited >= 10); // told, then closed
    }
    Client after(d.port());
    after.hello();
    CHECK(after.call({{"type", "ping"}})["ok"] == true);
    CHECK(http_get(d.port(), "/healthz").status == 200);
}

// The attacks of docs/security.md ("Figures"): timing and memory checks, so in the release build
// only (the sanitizers' builds are slower and their allocators their own).
#ifdef NDEBUG
TEST_CASE("feltd: clients that never read hold at most the write-queue budgets, and the memory "
          "goes back to the system after they are dropped") {
    Feltd d({"--per-address", "100"});
    // A lobby of 100 tables: a page of them is some 40 KB.
    auto makers = guests(d.port(), 20);
    for (auto& m : makers)
        for (int i = 0; i < 5; ++i)
            REQUIRE(m->call({{"type", "create_table"}, {"seats", 2}})["ok"] == true);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const long baseline = resident_bytes(d.pid());
    // 60 connections from one address that ask for the page 45 times a second and never read.
    // Their receive buffers are fixed small, so that what waits is feltd's.
    std::vector<std::unique_ptr<Client>> readers;
    for (int i = 0; i < 60; ++i) {
        readers.push_back(std::make_unique<Client>(d.port(), 65536));
        readers.back()->hello();
    }
    for (auto& r : readers) REQUIRE(r->call({{"type", "guest"}})["ok"] == true);
    const std::string ask = json{{"type", "tables"}, {"id", 1}, {"limit", 100}}.dump();
    long most = baseline;
    const auto start = std::chrono::steady_clock::now();
    for (int tick = 0; std::chrono::steady_clock::now() - start < std::chrono::seconds(7); ++tick) {
        for (auto& r : readers) r->try_send(ask);
        most = std::max(most, resident_bytes(d.pid()));
        std::this_thread::sleep_until(start + tick * std::chrono::milliseconds(1000) / 45);
    }
    const int left = metric(d.port(), "felt_connections") - 20;
    readers.clear();
    long after = resident_bytes(d.pid());
    for (int i = 0; i < 30 && after > baseline + (8l << 20); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        after = resident_bytes(d.pid());
    }
    MESSAGE("feltd's resident memory: " << baseline / 1048576.0 << " MiB before, at most "
                                        << most / 1048576.0 << " MiB during the attack, "
                                        << after / 1048576.0 << " MiB after; " << left
                                        << " of 60 connections left at the end");
    CHECK(most <= baseline + (64l << 20)); // the global budget (and per address, 16 MiB)
    // And the memory back. The clients feltd dropped give theirs back (release_memory_soon); on a
    // busy host some are not dropped in the 7 s and are closed by this test instead, and what was
    // queued for those stays with the allocator: at most the address's budget, 16 MiB.
    CHECK(after <= baseline + (8l << 20) + (left > 0 ? (16l << 20) : 0));
    CHECK(left < 60); // some were dropped
    CHECK(http_get(d.port(), "/healthz").status == 200);
}
#endif

TEST_CASE("feltd: connections per address are limited") {
    Feltd d({"--per-address", "2"});
    Client a(d.port()), b(d.port());
    CHECK_THROWS(Client(d.port()));
    a.hello();
    CHECK(a.call({{"type", "ping"}})["ok"] == true);
}
