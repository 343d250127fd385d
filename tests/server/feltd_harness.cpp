// The harness's network side: Beast's HTTP and WebSocket clients, compiled once for every test
// that drives feltd.
#include "server/feltd_harness.h"

#include <boost/asio.hpp>
#include <boost/beast.hpp>

namespace feltd_test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

namespace {

tcp::endpoint loopback(unsigned short port) {
    return {net::ip::make_address("127.0.0.1"), port};
}

} // namespace

HttpReply http_get(unsigned short port, const std::string& target, const std::string& bearer) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(loopback(port));
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    return {static_cast<int>(res.result_int()), res.body()};
}

int raw_http_status(unsigned short port, const std::string& request) {
    net::io_context ioc;
    tcp::socket s(ioc);
    s.connect(loopback(port));
    beast::error_code ec;
    net::write(s, net::buffer(request), ec);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(s, buf, res, ec);
    return ec ? 0 : static_cast<int>(res.result_int());
}

struct IdleConnections::Impl {
    net::io_context ioc;
    std::vector<tcp::socket> sockets;
};

IdleConnections::IdleConnections(unsigned short port, int n) : impl_(std::make_unique<Impl>()) {
    impl_->sockets.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        impl_->sockets.emplace_back(impl_->ioc);
        impl_->sockets.back().connect(loopback(port));
    }
}

IdleConnections::~IdleConnections() = default;

struct Client::Impl {
    net::io_context ioc;
    websocket::stream<tcp::socket> ws{ioc};
};

Client::Client(unsigned short port, int receive_buffer, const std::string& source)
    : impl_(std::make_unique<Impl>()) {
    if (receive_buffer > 0 || !source.empty()) impl_->ws.next_layer().open(tcp::v4());
    if (receive_buffer > 0)
        impl_->ws.next_layer().set_option(net::socket_base::receive_buffer_size(receive_buffer));
    if (!source.empty()) impl_->ws.next_layer().bind({net::ip::make_address(source), 0});
    impl_->ws.next_layer().connect(loopback(port));
    impl_->ws.handshake("127.0.0.1", "/ws");
}

Client::~Client() = default;

void Client::send(const std::string& text) {
    impl_->ws.write(net::buffer(text));
}

void Client::send_frame(const std::string& bytes, bool binary) {
    impl_->ws.binary(binary);
    impl_->ws.write(net::buffer(bytes));
    impl_->ws.binary(false);
}

bool Client::try_send(const std::string& text) {
    beast::error_code ec;
    impl_->ws.write(net::buffer(text), ec);
    return !ec;
}

std::optional<json> Client::read() {
    auto& ws = impl_->ws;
    auto& ioc = impl_->ioc;
    beast::flat_buffer buf;
    std::optional<beast::error_code> done;
    ws.async_read(buf, [&](beast::error_code ec, std::size_t) { done = ec; });
    ioc.restart();
    ioc.run_for(std::chrono::seconds(60));
    if (!done) { // timed out: the read is cancelled and the connection given up
        FAIL_CHECK("no message from feltd for a minute");
        beast::error_code ignored;
        ws.next_layer().close(ignored);
        ioc.restart();
        ioc.run();
        return std::nullopt;
    }
    if (*done) return std::nullopt;
    return json::parse(beast::buffers_to_string(buf.data()));
}

json Client::call(json req) {
    req["id"] = ++id_;
    send(req);
    for (;;) {
        auto r = read();
        REQUIRE(r.has_value());
        if ((*r)["type"] == "table" || (*r)["type"] == "lobby" || (*r)["type"] == "balance" ||
            ((*r)["type"] == "tournament" && !(*r).contains("id")) ||
            ((*r).contains("id") && (*r)["id"] != id_ && !(*r)["id"].is_null()))
            continue;
        CHECK((*r)["id"] == id_);
        return *r;
    }
}

void Client::hello() {
    REQUIRE(call({{"type", "hello"}, {"version", felt::protocol::kVersion}})["ok"] == true);
}

} // namespace feltd_test
