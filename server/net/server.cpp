#include "net/server.h"

#include "net/http_session.h"
#include "net/net.h"
#include "state.h"
#include "storage/owner_lock.h"
#include "storage/postgres.h"
#include "tables/table.h"

#include <fstream>
#include <thread>
#include <vector>

namespace felt::server {

namespace {

// Runs the event loop to its end. An exception that escapes a handler is a bug: it is logged and
// the loop goes on, so that one table's bug never ends every other table's game.
void run_loop(net::io_context& ioc) {
    for (;;) {
        try {
            ioc.run();
            return;
        } catch (const std::exception& e) {
            spdlog::critical("an event handler failed (a bug): {}; serving on", e.what());
        }
    }
}

} // namespace

// Accepts connections and hands each to an HttpSession on a strand of its own.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    // Binds and listens at once; accepts nothing until run().
    Listener(net::io_context& ioc, tcp::endpoint endpoint, ssl::context* tls)
        : ioc_(ioc), acceptor_(net::make_strand(ioc)), retry_(acceptor_.get_executor()), tls_(tls) {
        acceptor_.open(endpoint.protocol());
        acceptor_.set_option(net::socket_base::reuse_address(true));
        acceptor_.bind(endpoint);
        acceptor_.listen(net::socket_base::max_listen_connections);
    }

    std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
    void run(std::shared_ptr<SharedState> state) {
        state_ = std::move(state);
        do_accept();
    }
    void stop() {
        net::post(acceptor_.get_executor(), [self = shared_from_this()] {
            beast::error_code ec;
            self->acceptor_.close(ec);
            self->retry_.cancel();
        });
    }

  private:
    void do_accept() {
        acceptor_.async_accept(net::make_strand(ioc_),
                               beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
    }
    void on_accept(beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted || !acceptor_.is_open())
            return; // closed: shutting down
        if (ec) {
            // Out of file descriptors (or another failure the next accept would repeat): the
            // pending connection stays in the backlog, so accepting again at once would spin.
            // Wait, longer each time in a row, and say so once (and once more when it ends).
            if (!backoff_.count())
                spdlog::warn("cannot accept connections ({}): backing off until it can",
                             ec.message());
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

    static constexpr std::chrono::milliseconds kFirstBackoff{50}, kMostBackoff{1000};
    std::chrono::milliseconds backoff_{};

    net::io_context& ioc_;
    tcp::acceptor acceptor_;
    net::steady_timer retry_; // the next accept after a failure
    ssl::context* tls_;       // null: plain
    std::shared_ptr<SharedState> state_;
};

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

struct Server::Impl {
    // In this order, so that a failure changes nothing: the certificate, the port, the
    // database's lock (SQLite: one feltd a database), and only then the database itself
    // (migrations, crash recovery).
    explicit Impl(Config c)
        : ioc(c.threads), tls(tls_context(c)), listener(listen(ioc, c, tls.get())),
          owner(pg::is_postgres(c.db) ? nullptr : std::make_unique<OwnerLock>(c.db)),
          state(std::make_shared<SharedState>(c)), signals(ioc, SIGINT, SIGTERM), grace(ioc) {}

    static std::shared_ptr<Listener> listen(net::io_context& ioc, const Config& c,
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

    // Graceful shutdown: no new connections and no new hands; running hands may finish, and then
    // every player is cashed out and every WebSocket asked to close. When the grace period ends
    // first, running hands are void (their stacks as before them) and the rest goes the same way.
    void shutdown() {
        if (state->stopping()) return;
        state->set_stopping();
        listener->stop();
        for (auto& t : state->lobby().all()) t->stop();
        spdlog::info("shutting down: {} table(s), {} connection(s), grace {} s",
                     state->lobby().all().size(), state->metrics().connections.load(),
                     state->config().grace_seconds);
        grace.expires_after(std::chrono::seconds(state->config().grace_seconds));
        grace.async_wait([this](beast::error_code ec) {
            if (ec) return;
            for (auto& t : state->lobby().all()) t->void_and_close();
            state->close_all();
            auto last = std::make_shared<net::steady_timer>(ioc, std::chrono::milliseconds(200));
            last->async_wait([this, last](beast::error_code) { ioc.stop(); });
        });
        poll_closed();
    }

    // Closes the connections once no table has a player, and stops once they have closed.
    void poll_closed() {
        auto t = std::make_shared<net::steady_timer>(ioc, std::chrono::milliseconds(50));
        t->async_wait([this, t](beast::error_code ec) {
            if (ec) return;
            int seated = 0;
            for (auto& table : state->lobby().all()) seated += table->seats_taken();
            if (seated == 0 && !closing) {
                closing = true;
                state->close_all();
            }
            if (closing && state->metrics().connections.load() == 0)
                ioc.stop();
            else
                poll_closed();
        });
    }

    // Every third of the lease: renews this node's lease and recovers the tables of nodes whose
    // leases lapsed (storage/store.h, tend). A node whose lease was taken over stops.
    void tend() {
        tending.expires_after(std::chrono::seconds(state->config().lease_s) / 3);
        tending.async_wait([this](beast::error_code ec) {
            if (ec || state->stopping()) return;
            state->storage().write([](Store& s) { return s.tend(); }, ioc.get_executor(),
                                   [this](std::optional<Tending> t) {
                                       if (t && !t->lease_held) {
                                           spdlog::error("this node's lease was taken over by "
                                                         "another node, which recovered its "
                                                         "tables: stopping");
                                           shutdown();
                                           return;
                                       }
                                       if (t && t->nodes_recovered)
                                           spdlog::warn("recovered {} table(s) of {} node(s) "
                                                        "whose leases lapsed",
                                                        t->tables_recovered, t->nodes_recovered);
                                       tend();
                                   });
        });
    }

    net::io_context ioc;
    std::unique_ptr<ssl::context> tls;  // before the database: a bad certificate touches nothing
    std::shared_ptr<Listener> listener; // bound before the database: a port in use touches nothing
    std::unique_ptr<OwnerLock> owner;   // held while the database is open, and after
    std::shared_ptr<SharedState> state;
    net::signal_set signals;
    net::steady_timer grace, tending{ioc};
    bool closing = false;
};

Server::Server(Config config) : impl_(std::make_unique<Impl>(std::move(config))) {}

Server::~Server() = default;

std::uint16_t Server::port() const {
    return impl_->listener->port();
}

void Server::run() {
    Impl& s = *impl_;
    const Config& c = s.state->config();
    s.signals.async_wait([&s](beast::error_code ec, int sig) {
        if (ec) return;
        spdlog::info("signal {}: stopping", sig);
        s.shutdown();
    });
    s.state->set_io(&s.ioc);
    s.listener->run(s.state);
    if (c.chosen_decks)
        spdlog::warn("--chosen-decks: players may choose the cards dealt; for tests only");
    spdlog::info("feltd listening on {}:{} (database {}, static files {})", c.bind, port(),
                 pg::redact(c.db), c.static_dir);
    if (!c.port_file.empty()) std::ofstream(c.port_file) << port() << "\n";
    // Nodes sharing a database (PostgreSQL) say where they are and hold leases; one SQLite file
    // has one node.
    const bool shared = pg::is_postgres(c.db);
    if (shared) {
        const std::string url = !c.node_url.empty()
                                    ? c.node_url
                                    : "ws://" + c.bind + ":" + std::to_string(port()) + "/ws";
        s.state->storage().write(
            [url](Store& st) {
                st.announce(url);
                return true;
            },
            s.ioc.get_executor(), [](std::optional<bool>) {});
        s.state->join_cluster(url);
        s.tend();
    }
    std::vector<std::thread> threads;
    for (int i = 1; i < c.threads; ++i) threads.emplace_back([&s] { run_loop(s.ioc); });
    run_loop(s.ioc);
    for (auto& t : threads) t.join();
    s.state->workers().join();
    // Cash-outs queued at the end are written before we say so; then the lease lapses, so that
    // another node need not wait to recover anything left open.
    if (shared)
        s.state->storage().write(
            [](Store& st) {
                st.release();
                return true;
            },
            s.ioc.get_executor(), [](std::optional<bool>) {});
    s.state->storage().drain();
    spdlog::info("feltd stopped");
}

void Server::stop() {
    net::post(impl_->ioc, [this] { impl_->shutdown(); });
}

} // namespace felt::server
