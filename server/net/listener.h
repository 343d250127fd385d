// The listening socket, after Boost.Beast's examples: it only accepts, and hands each connection
// to an HttpSession (health, metrics, static files, the upgrade to WebSocket) on a strand of its
// own; and the TLS context, when feltd has a certificate.
#pragma once

#include "config.h"
#include "net/net.h"
#include "state.h"

#include <chrono>
#include <cstdint>
#include <memory>

namespace felt::server {

class Listener : public std::enable_shared_from_this<Listener> {
  public:
    // Binds and listens at once; accepts nothing until run(). Throws, naming the address, when it
    // cannot.
    static std::shared_ptr<Listener> listen(net::io_context& ioc, const Config& c,
                                            ssl::context* tls);
    Listener(net::io_context& ioc, tcp::endpoint endpoint, ssl::context* tls);

    std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
    void run(std::shared_ptr<SharedState> state);
    void stop(); // from any thread

  private:
    void do_accept();
    void on_accept(beast::error_code ec, tcp::socket socket);

    static constexpr std::chrono::milliseconds kFirstBackoff{50}, kMostBackoff{1000};
    std::chrono::milliseconds backoff_{};

    net::io_context& ioc_;
    tcp::acceptor acceptor_;
    net::steady_timer retry_; // the next accept after a failure
    ssl::context* tls_;       // null: plain
    std::shared_ptr<SharedState> state_;
};

// The TLS context from a certificate chain and a private key (PEM): TLS 1.2 and later only; none
// without either. Throws, naming the file, when one cannot be used.
std::unique_ptr<ssl::context> tls_context(const Config& c);

} // namespace felt::server
