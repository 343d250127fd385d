// The layer under feltd's WebSocket streams (net/ordered_stream.h): frames feltd builds itself,
// several to a write, read back by Beast's own client as the messages they were, in order, with
// Beast's control frames (a ping here) going out whole between them, and nothing after a close
// frame.
#include "net/ordered_stream.h"

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace felt::server;

namespace {

// One whole text frame, as a session builds it: the header, then the text.
std::string framed(const std::string& text) {
    const FrameHeader h = text_frame_header(text.size());
    return std::string(reinterpret_cast<const char*>(h.bytes.data()), h.size) + text;
}

// A text longer than 100 bytes of one repeated character, as a few tests write to fill the
// socket: named "big" in the order read.
bool is_big(const std::string& text) {
    return text.size() > 100 && text.find_first_not_of(text[0]) == std::string::npos;
}

// A connected pair over loopback: a server WebSocket on the layer, a plain Beast client.
struct Pair {
    net::io_context ioc;
    websocket::stream<OrderedStream<beast::tcp_stream>> server{ioc};
    websocket::stream<beast::tcp_stream> client{ioc};

    Pair() {
        tcp::acceptor acceptor(ioc, {net::ip::make_address("127.0.0.1"), 0});
        beast::get_lowest_layer(client).connect(acceptor.local_endpoint());
        acceptor.accept(beast::get_lowest_layer(server).socket());
        bool accepted = false, shook = false;
        server.async_accept([&](beast::error_code ec) { accepted = !ec; });
        client.async_handshake("127.0.0.1", "/", [&](beast::error_code ec) { shook = !ec; });
        ioc.run_for(std::chrono::seconds(10));
        REQUIRE(accepted);
        REQUIRE(shook);
        server.next_layer().prepare_now();
    }

    // write_now with the layer's guard held, as a session calls it.
    std::size_t write_now(const std::string& bytes, beast::error_code& ec) {
        std::lock_guard lock(server.next_layer().guard());
        return server.next_layer().write_now(net::buffer(bytes), ec);
    }

    // Writes the messages as one write of frames built by text_frame_header.
    void send(const std::vector<std::string>& messages, beast::error_code& result) {
        std::vector<FrameHeader> headers;
        for (const std::string& m : messages) headers.push_back(text_frame_header(m.size()));
        std::vector<net::const_buffer> buffers;
        for (std::size_t i = 0; i < messages.size(); ++i) {
            buffers.push_back(net::buffer(headers[i].bytes.data(), headers[i].size));
            buffers.push_back(net::buffer(messages[i]));
        }
        server.next_layer().async_write_some(
            std::move(buffers), [&](beast::error_code ec, std::size_t) { result = ec; });
        ioc.restart();
        ioc.run_for(std::chrono::seconds(10));
    }

    std::string read() {
        beast::flat_buffer b;
        client.read(b);
        CHECK(client.got_text());
        return beast::buffers_to_string(b.data());
    }

    // Reads `n` messages while the server's writes run (a large one may not fit in the socket's
    // buffers): what the client saw, in order, each ping as "ping PAYLOAD", each big message as
    // "big" (the whole texts are in `texts`).
    std::vector<std::string> read_serving(std::size_t n,
                                          std::vector<std::string>* texts = nullptr) {
        std::vector<std::string> order;
        client.control_callback([&](websocket::frame_type kind, beast::string_view payload) {
            if (kind == websocket::frame_type::ping)
                order.push_back("ping " + std::string(payload));
        });
        client.read_message_max(32 << 20);
        beast::flat_buffer b;
        std::size_t got = 0;
        std::function<void()> next = [&] {
            client.async_read(b, [&](beast::error_code ec, std::size_t) {
                REQUIRE(!ec);
                std::string text = beast::buffers_to_string(b.data());
                order.push_back(is_big(text) ? "big" : text);
                if (texts) texts->push_back(std::move(text));
                b.consume(b.size());
                if (++got < n) next();
            });
        };
        next();
        ioc.restart();
        ioc.run_for(std::chrono::seconds(10));
        client.control_callback();
        return order;
    }
};

} // namespace

TEST_CASE("ordered stream: frames of every length encoding, in one write, read back by Beast") {
    Pair p;
    // Each of RFC 6455's three length forms at its edges: 7 bits, 16 bits, 64 bits.
    std::vector<std::string> messages;
    for (std::size_t n : {0u, 1u, 125u, 126u, 127u, 65535u, 65536u, 200000u})
        messages.push_back(std::string(n, static_cast<char>('a' + messages.size())));
    messages.push_back(R"({"type":"table","kind":"update"})");
    beast::error_code ec = net::error::would_block;
    p.send(messages, ec);
    CHECK(!ec);
    for (const std::string& m : messages) {
        const std::string got = p.read();
        CHECK(got.size() == m.size());
        CHECK(got == m);
    }
}

TEST_CASE("ordered stream: Beast's own frames go out whole, in order with feltd's") {
    Pair p;
    // A write of feltd's frames in flight, a ping queued behind it by Beast, then more frames:
    // the ping goes after the first write and before the second.
    const std::vector<std::string> first{std::string(300000, 'x'), "one"}, second{"two"};
    std::vector<FrameHeader> h1, h2;
    auto buffers = [](const std::vector<std::string>& ms, std::vector<FrameHeader>& hs) {
        std::vector<net::const_buffer> b;
        for (const std::string& m : ms) hs.push_back(text_frame_header(m.size()));
        for (std::size_t i = 0; i < ms.size(); ++i) {
            b.push_back(net::buffer(hs[i].bytes.data(), hs[i].size));
            b.push_back(net::buffer(ms[i]));
        }
        return b;
    };
    int done = 0;
    p.server.next_layer().async_write_some(buffers(first, h1),
                                           [&](beast::error_code ec, std::size_t) {
                                               CHECK(!ec);
                                               ++done;
                                           });
    p.server.async_ping("beast", [&](beast::error_code ec) {
        CHECK(!ec);
        ++done;
    });
    p.server.next_layer().async_write_some(buffers(second, h2),
                                           [&](beast::error_code ec, std::size_t) {
                                               CHECK(!ec);
                                               ++done;
                                           });
    // The client reads while the server writes: 300 KB may not fit in the socket's buffers.
    std::vector<std::string> texts;
    const std::vector<std::string> order = p.read_serving(3, &texts);
    CHECK(done == 3);
    REQUIRE(texts.size() == 3);
    CHECK(texts[0] == first[0]);
    CHECK(order == std::vector<std::string>{"big", "one", "ping beast", "two"});
}

TEST_CASE("ordered stream: nothing goes out after the close frame; a later write is refused") {
    Pair p;
    beast::error_code closed = net::error::would_block, after = net::error::would_block;
    p.server.async_close(websocket::close_code::going_away,
                         [&](beast::error_code ec) { closed = ec; });
    p.ioc.restart();
    p.ioc.poll(); // the close frame is written; Beast now waits for the client's
    CHECK(p.server.next_layer().close_sent());
    const std::string late = "\x81\x01x"; // a whole text frame
    beast::error_code now_ec;
    CHECK(p.write_now(late, now_ec) == 0);
    CHECK(!now_ec);
    p.send({"too late"}, after);
    CHECK(after == net::error::operation_aborted);
    // The client reads the close and nothing else: no text frame came after it. (It reads while
    // the server's loop runs: the server's close waits for the client's answer.)
    beast::flat_buffer b;
    beast::error_code ec = net::error::would_block;
    p.client.async_read(b, [&](beast::error_code e, std::size_t) { ec = e; });
    p.ioc.restart();
    p.ioc.run_for(std::chrono::seconds(10));
    CHECK(ec == websocket::error::closed);
    CHECK(b.size() == 0);
    CHECK(p.client.reason().code == websocket::close_code::going_away);
    CHECK(!closed); // the server's close handshake completed
}

TEST_CASE("ordered stream: write_now writes what the socket takes at once, only when no write is "
          "in flight or waiting; the rest goes out after it, whole and in order") {
    Pair p;
    auto& layer = p.server.next_layer();
    beast::error_code ec;
    // Nothing in flight: a small frame goes out whole, at once, with no operation to run.
    const std::string one = framed("one");
    CHECK(p.write_now(one, ec) == one.size());
    CHECK(!ec);
    CHECK(p.read() == "one");
    // An asynchronous write whose completion has not run yet is in flight, though its bytes are
    // out and the socket has room: write_now writes nothing, and says so.
    int done = 0;
    const std::string a = framed("a"), two = framed("two");
    layer.async_write_some(net::buffer(a), [&](beast::error_code e, std::size_t) {
        CHECK(!e);
        ++done;
    });
    CHECK(p.write_now(two, ec) == 0);
    CHECK(!ec);
    p.ioc.restart();
    p.ioc.poll(); // its completion
    CHECK(done == 1);
    CHECK(p.read() == "a");
    // A frame larger than the socket's buffers, with the client not reading: the socket takes
    // part of it; the rest is handed to write_rest under the same hold of the guard, as a
    // session on another thread does. Its write starts later, on the strand; a ping from Beast
    // and another write, queued before that, still wait behind it.
    const std::string big = framed(std::string(16 << 20, 'b'));
    std::size_t taken = 0;
    {
        std::lock_guard lock(layer.guard());
        taken = layer.write_now(net::buffer(big), ec);
        CHECK(!ec);
        CHECK(taken > 0);
        REQUIRE(taken < big.size());
        layer.write_rest({net::buffer(big.data() + taken, big.size() - taken)},
                         [&](beast::error_code e, std::size_t n) {
                             CHECK(!e);
                             CHECK(n == big.size() - taken);
                             ++done;
                         });
        // The rest counts as in flight at once.
        CHECK(layer.write_now(net::buffer(two), ec) == 0);
    }
    p.server.async_ping("after", [&](beast::error_code e) {
        CHECK(!e);
        ++done;
    });
    layer.async_write_some(net::buffer(two), [&](beast::error_code e, std::size_t) {
        CHECK(!e);
        ++done;
    });
    CHECK(p.write_now(two, ec) == 0);
    std::vector<std::string> texts;
    const std::vector<std::string> order = p.read_serving(3, &texts);
    CHECK(done == 4);
    CHECK(order == std::vector<std::string>{"big", "ping after", "two"});
    CHECK(texts[0].size() == 16u << 20);
    // Nothing in flight again: at once.
    CHECK(p.write_now(two, ec) == two.size());
    CHECK(p.read() == "two");
}

TEST_CASE("ordered stream: write_now writes nothing, and the layer is not writable, before the "
          "socket is prepared, nor once the layer is shut (as Beast's teardown shuts it)") {
    const std::string frame = "\x81\x01x"; // a whole text frame: "x"
    beast::error_code ec;
    {
        Pair p;
        // A layer not prepared: its socket may block, so nothing is written at once.
        websocket::stream<OrderedStream<beast::tcp_stream>> fresh{p.ioc};
        {
            std::lock_guard lock(fresh.next_layer().guard());
            CHECK(fresh.next_layer().write_now(net::buffer(frame), ec) == 0);
            CHECK(!fresh.next_layer().writable()); // nor does the session queue anything
        }
        CHECK(p.write_now(frame, ec) == frame.size());
        CHECK(p.read() == "x");
        {
            std::lock_guard lock(p.server.next_layer().guard());
            CHECK(p.server.next_layer().writable());
            p.server.next_layer().shut();
            CHECK(!p.server.next_layer().writable());
        }
        CHECK(p.write_now(frame, ec) == 0);
        CHECK(!ec);
    }
    {
        Pair p;
        beast::error_code torn = net::error::would_block;
        async_teardown(beast::role_type::server, p.server.next_layer(),
                       [&](beast::error_code e) { torn = e; });
        // Shut before the socket is touched: not even tried (it would fail, the socket being
        // shut down for sending), and the session queues nothing more.
        CHECK(p.write_now(frame, ec) == 0);
        CHECK(!ec);
        {
            std::lock_guard lock(p.server.next_layer().guard());
            CHECK(!p.server.next_layer().writable());
        }
        beast::get_lowest_layer(p.client).close();
        p.ioc.restart();
        p.ioc.run_for(std::chrono::seconds(10));
        CHECK(torn != net::error::would_block);
    }
}

// What a table's thread meets when a client vanishes between two of its messages.
TEST_CASE("ordered stream: write_now to a client that has reset the connection fails with the "
          "error, and a later write completes with one rather than hanging") {
    Pair p;
    auto& client = beast::get_lowest_layer(p.client).socket();
    client.set_option(net::socket_base::linger(true, 0)); // closing sends a reset
    client.close();
    // Until the reset has arrived (at once over loopback), a write may still be taken.
    const std::string frame = framed("x");
    beast::error_code ec;
    std::size_t sent = 0;
    for (int i = 0; i < 100 && !ec; ++i) {
        sent = p.write_now(frame, ec);
        if (!ec) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(ec);
    CHECK(sent == 0);
    beast::error_code later;
    p.send({"y"}, later);
    CHECK(later);
}

TEST_CASE("ordered stream: write_rest behind a write in flight waits its turn, from another "
          "thread") {
    Pair p;
    auto& layer = p.server.next_layer();
    // A write larger than the socket's buffers is in flight (the client is not reading yet).
    const std::string big = framed(std::string(16 << 20, 'b')), small = framed("small");
    int done = 0;
    layer.async_write_some(net::buffer(big), [&](beast::error_code e, std::size_t n) {
        CHECK(!e);
        CHECK(n == big.size());
        ++done;
    });
    p.ioc.restart();
    p.ioc.poll(); // it has begun: part of it is in the socket
    // A session on another thread: nothing goes out at once; the write joins the queue.
    std::thread other([&] {
        std::lock_guard lock(layer.guard());
        beast::error_code ec;
        CHECK(layer.write_now(net::buffer(small), ec) == 0);
        CHECK(!ec);
        layer.write_rest({net::buffer(small)}, [&](beast::error_code e, std::size_t n) {
            CHECK(!e);
            CHECK(n == small.size());
            ++done;
        });
    });
    other.join();
    CHECK(p.read_serving(2) == std::vector<std::string>{"big", "small"});
    CHECK(done == 2);
}
