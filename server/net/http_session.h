// One HTTP connection: /healthz, /metrics, /api/..., static files, and the upgrade at /ws.
#pragma once

#include "net/net.h"
#include "state.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace felt::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    // tls: null for plain HTTP; else the TLS handshake comes first.
    HttpSession(tcp::socket&& socket, ssl::context* tls, std::shared_ptr<SharedState> state);
    ~HttpSession();
    HttpSession(const HttpSession&) = delete;
    HttpSession& operator=(const HttpSession&) = delete;
    void run();

  private:
    void on_handshake(beast::error_code ec);
    void do_read();
    void on_read(beast::error_code ec, std::size_t bytes);
    void write(http::message_generator response, bool keep_alive);
    void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
    void do_close();
    // A request too big to read (URL, headers or body): answered with 414, 431 or 413, then closed.
    void refuse_oversized(beast::error_code ec);

    using Stream = std::variant<PlainStream, TlsStream>;
    static Stream make_stream(tcp::socket&& socket, ssl::context* tls);

    Stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<SharedState> state_;
    std::string address_;
};

// Gives a response to reply().
using Reply = std::function<void(http::message_generator)>;

// The response to a plain HTTP request (not an upgrade) from `address`, given to reply(): at
// once, or, where storage answers (/api/..., /healthz), later on `ex`.
void respond(SharedState& state, http::request<http::string_body>&& req, const std::string& address,
             const net::any_io_executor& ex, const Reply& reply);

} // namespace felt::server
