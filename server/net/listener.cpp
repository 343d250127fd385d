#include "net/listener.h"

#include "net/http_session.h"

#include <algorithm>

namespace felt::server {

std::shared_ptr<Listener> Listener::listen(net::io_context& ioc, const Config& c,
                                           ssl::context* tls) {
    beast::error_code ec;
    auto address = net::ip::make_address(c.bind, ec);
    if (ec) throw std::runtime_error("bad bind address \"" + c.bind + "\": " + ec.message());
    try {
        return std::make_shared<Listener>(ioc, tcp::endpoint{address, c.port}, tls);
    } catch (const boost::system::system_error& e) {
        throw std::runtime_error("cannot listen on " + c.bind + ":" + std::to_string(c.port) +
                                 ": " + e.code().message());
    }
}

Listener::Listener(net::io_context& ioc, tcp::endpoint endpoint, ssl::context* tls)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), retry_(acceptor_.get_executor()), tls_(tls) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(net::socket_base::max_listen_connections);
}

void Listener::run(std::shared_ptr<SharedState> state) {
    state_ = std::move(state);
    do_accept();
}

void Listener::stop() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
        beast::error_code ec;
        self->acceptor_.close(ec);
        self->retry_.cancel();
    });
}

void Listener::do_accept() {
    acceptor_.async_accept(net::make_strand(ioc_),
                           beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open())
        return; // closed: shutting down
    if (ec) {
        // Out of file descriptors (or another failure the next accept would repeat): the
        // pending connection stays in the backlog, so accepting again at once would spin.
        // Wait, longer each time in a row, and say so once (and once more when it ends).
        if (!backoff_.count())
            spdlog::warn("cannot accept connections ({}): backing off until it can", ec.message());
        backoff_ = std::min(kMostBackoff, backoff_.count() ? backoff_ * 2 : kFirstBackoff);
        retry_.expires_after(backoff_);
        retry_.async_wait([self = shared_from_this()](beast::error_code e) {
            if (!e && self->acceptor_.is_open()) self->do_accept();
        });
        return;
    }
    if (backoff_.count()) spdlog::warn("accepting connections again");
    backoff_ = {};
    if (state_->http_open() >= state_->config().http_connections) {
        // Full: closed at once, before it costs a read.
        beast::error_code ignored;
        socket.close(ignored);
        ++state_->metrics().http_refused;
    } else {
        // Small frames go out at once: Nagle's algorithm would hold them for the peer's
        // delayed ACK, some 40 ms.
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<HttpSession>(std::move(socket), tls_, state_)->run();
    }
    do_accept();
}

// The TLS context from a certificate chain and a private key (PEM): TLS 1.2 and later only.
std::unique_ptr<ssl::context> tls_context(const Config& c) {
    if (c.tls_cert.empty() && c.tls_key.empty()) return nullptr;
    if (c.tls_cert.empty() || c.tls_key.empty())
        throw std::runtime_error("TLS needs both --tls-cert and --tls-key");
    auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                     ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                     ssl::context::single_dh_use);
    beast::error_code ec;
    ctx->use_certificate_chain_file(c.tls_cert, ec);
    if (ec) throw std::runtime_error("TLS certificate " + c.tls_cert + ": " + ec.message());
    ctx->use_private_key_file(c.tls_key, ssl::context::pem, ec);
    if (ec) throw std::runtime_error("TLS key " + c.tls_key + ": " + ec.message());
    return ctx;
}

} // namespace felt::server
