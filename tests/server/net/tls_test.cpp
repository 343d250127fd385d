// feltd over TLS (--tls-cert, --tls-key): https and wss with a client that trusts only the test
// certificate, plain clients turned away, and settings that cannot work refused at start.
#include "server/feltd_harness.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast.hpp>
#include <boost/beast/ssl.hpp>
#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

using namespace feltd_test;
namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

TEST_CASE("feltd: TLS with --tls-cert and --tls-key: https and wss, plain clients turned away") {
    const std::string cert = felt::test::test_file("data/tls_test_cert.pem");
    const std::string key = felt::test::test_file("data/tls_test_key.pem");
    Feltd d({"--tls-cert", cert, "--tls-key", key});
    net::io_context ioc;
    // The client trusts only the test certificate: a handshake proves the server presents it.
    ssl::context ctx(ssl::context::tls_client);
    ctx.load_verify_file(cert);
    ctx.set_verify_mode(ssl::verify_peer);
    const tcp::endpoint at(net::ip::make_address("127.0.0.1"), d.port());
    auto https_get = [&](const std::string& target) {
        beast::ssl_stream<beast::tcp_stream> s(ioc, ctx);
        beast::get_lowest_layer(s).connect(at);
        s.handshake(ssl::stream_base::client);
        http::request<http::empty_body> req{http::verb::get, target, 11};
        req.set(http::field::host, "127.0.0.1");
        http::write(s, req);
        beast::flat_buffer buf;
        http::response<http::string_body> res;
        http::read(s, buf, res);
        return HttpReply{static_cast<int>(res.result_int()), res.body()};
    };
    const auto health = https_get("/healthz");
    CHECK(health.status == 200);
    CHECK(health.body == "ok\n");

    {
        websocket::stream<beast::ssl_stream<beast::tcp_stream>> ws(ioc, ctx);
        beast::get_lowest_layer(ws).connect(at);
        ws.next_layer().handshake(ssl::stream_base::client);
        ws.handshake("127.0.0.1", "/ws");
        ws.write(net::buffer(
            json{{"type", "hello"}, {"version", felt::protocol::kVersion}, {"id", 1}}.dump()));
        beast::flat_buffer buf;
        ws.read(buf);
        const json hello = json::parse(beast::buffers_to_string(buf.data()));
        CHECK(hello["ok"] == true);
        ws.write(net::buffer(json{{"type", "guest"}, {"id", 2}}.dump()));
        buf.consume(buf.size());
        ws.read(buf);
        const json guest = json::parse(beast::buffers_to_string(buf.data()));
        CHECK(guest["id"] == 2);
        CHECK(guest["account"]["balance"].get<int>() > 0);
        ws.close(websocket::close_code::normal);
    }

    // Plain HTTP and plain WebSocket get no answer: the connection is closed, the server lives.
    {
        beast::tcp_stream plain(ioc);
        plain.connect(at);
        http::request<http::empty_body> req{http::verb::get, "/healthz", 11};
        req.set(http::field::host, "127.0.0.1");
        http::write(plain, req);
        beast::flat_buffer buf;
        http::response<http::string_body> res;
        beast::error_code ec;
        plain.expires_after(std::chrono::seconds(10));
        http::read(plain, buf, res, ec);
        CHECK(ec);
    }
    {
        websocket::stream<tcp::socket> ws(ioc);
        ws.next_layer().connect(at);
        beast::error_code ec;
        ws.handshake("127.0.0.1", "/ws", ec);
        CHECK(ec);
    }
    // A client that does not trust the certificate refuses it.
    {
        ssl::context strict(ssl::context::tls_client);
        strict.set_verify_mode(ssl::verify_peer); // no trusted roots at all
        beast::ssl_stream<beast::tcp_stream> s(ioc, strict);
        beast::get_lowest_layer(s).connect(at);
        beast::error_code ec;
        s.handshake(ssl::stream_base::client, ec);
        CHECK(ec);
    }
    CHECK(https_get("/healthz").status == 200);
}

TEST_CASE("feltd: TLS settings that cannot work stop it at start, touching nothing") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    const std::string cert = felt::test::test_file("data/tls_test_cert.pem");
    const std::string key = felt::test::test_file("data/tls_test_key.pem");
    const std::string db = dir + "/data/felt.db";
    const std::vector<std::string> base = {"--port", "0", "--db", db, "--log-level", "off"};
    auto with = [&](std::vector<std::string> extra) {
        extra.insert(extra.begin(), base.begin(), base.end());
        return extra;
    };
    CHECK(exit_status(with({"--tls-cert", cert})) == 1); // no key
    CHECK(exit_status(with({"--tls-key", key})) == 1);   // no certificate
    CHECK(exit_status(with({"--tls-cert", dir + "/none.pem", "--tls-key", key})) == 1);
    CHECK(exit_status(with({"--tls-cert", key, "--tls-key", key})) == 1); // a key is no certificate
    CHECK(exit_status(with({"--tls-cert", cert, "--tls-key", cert})) == 1); // nor the reverse
    CHECK_FALSE(std::filesystem::exists(db));
    std::filesystem::remove_all(dir);
}
