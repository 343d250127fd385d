#include "server.h"

#include "bots/bot_host.h"
#include "games/games.h"
#include "history/history.h"
#include "net/listener.h"
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

struct Server::Impl {
    // In this order, so that a failure changes nothing: the certificate, the port, the
    // database's lock (SQLite: one feltd a database), and only then the database itself
    // (migrations, crash recovery).
    explicit Impl(Config c)
        : ioc(c.threads), tls(tls_context(c)), listener(Listener::listen(ioc, c, tls.get())),
          owner(pg::is_postgres(c.db) ? nullptr : std::make_unique<OwnerLock>(c.db)),
          state(std::make_shared<SharedState>(c)), signals(ioc, SIGINT, SIGTERM), grace(ioc) {}

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

    // Each table left open by the last run, listed again with its id and settings; one whose
    // stored configuration no longer decodes is closed instead.
    void reopen(const std::vector<OpenTable>& open) {
        for (const OpenTable& o : open) {
            // A tournament's table is its tournament's to open (tournaments/tournament.h).
            const auto config = protocol::json::parse(o.config, nullptr, false);
            if (config.is_object() && config.contains("tournament")) {
                tournament_tables[o.id] = o.hands;
                continue;
            }
            auto table = reopened(o, state->services());
            if (table.ok()) {
                (*table.value)->set_creator(o.creator, o.creator_name);
                state->lobby().add(*table.value, o.creator);
                spdlog::info("table {} opened again ({}), as the last run left it", o.id,
                             (*table.value)->describe());
                continue;
            }
            spdlog::warn("table {} cannot open again ({}): closed", o.id, table.refusal.message);
            state->storage().write(
                [id = o.id](Store& st) {
                    st.close_table(id);
                    return true;
                },
                ioc.get_executor(), [](std::optional<bool>) {});
        }
    }

    // Every third of the lease: renews this node's lease and recovers the tables of nodes whose
    // leases lapsed (storage/store.h, tend). A node whose lease was taken over stops.
    // The hands finished before statistics were counted at each hand's end (an older database),
    // counted a batch at a time on the writer, between other writes, until none is left. Each
    // hand is marked as it is counted: a restart goes on where it stopped, and another node
    // counting too never counts a hand twice.
    void count_old_hands(std::int64_t after) {
        state->storage().write(
            [after](Store& st) { return history::count_stats(st, after, 100); }, ioc.get_executor(),
            [this, after](std::optional<history::StatsBatch> b) {
                if (state->stopping()) return;
                if (!b) { // storage failing: later
                    backfill.expires_after(std::chrono::seconds(5));
                    backfill.async_wait([this, after](beast::error_code ec) {
                        if (!ec && !state->stopping()) count_old_hands(after);
                    });
                    return;
                }
                backfilled += b->counted;
                if (b->seen == 0) {
                    if (backfilled > 0)
                        spdlog::info("statistics: {} hands finished before were counted",
                                     backfilled);
                    return;
                }
                count_old_hands(b->last);
            });
    }

    void tend() {
        tending.expires_after(std::chrono::seconds(state->config().lease_s) / 3);
        tending.async_wait([this](beast::error_code ec) {
            if (ec || state->stopping()) return;
            state->storage().write(
                [](Store& s) { return s.tend(); }, ioc.get_executor(),
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
                    // Their tournaments go on here, as after a restart.
                    if (t && !t->tournaments.empty())
                        open_tournaments(std::move(t->tournaments), std::move(t->tournament_tables),
                                         state->storage(), state->tournaments(), state->services(),
                                         state->tournament_outlet(), ioc.get_executor());
                    tend();
                });
        });
    }

    net::io_context ioc;
    std::unique_ptr<ssl::context> tls;  // before the database: a bad certificate touches nothing
    std::shared_ptr<Listener> listener; // bound before the database: a port in use touches nothing
    std::unique_ptr<OwnerLock> owner;   // held while the database is open, and after
    std::shared_ptr<SharedState> state;
    std::shared_ptr<BotHost> bots; // after the state: its bots are gone before the tables
    net::signal_set signals;
    net::steady_timer grace, tending{ioc}, backfill{ioc};
    long backfilled = 0; // hands counted by count_old_hands
    bool closing = false;
    // The tournament tables the last run left open, with their hands: their tournaments' to
    // take up (or close).
    std::map<std::int64_t, int> tournament_tables;
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
    s.bots = std::make_shared<BotHost>(s.state, c.bot_log);
    s.state->services().seating = [bots = std::weak_ptr<BotHost>(s.bots)](TableSeating t) {
        if (auto b = bots.lock()) b->seating(std::move(t));
    };
    s.bots->start();
    // The tables the last run left open are opened again (their seats were cashed out), before
    // the first connection is taken.
    s.state->storage().write(
        [](Store& st) { return st.left_open(); }, s.ioc.get_executor(),
        [&s](std::optional<std::vector<OpenTable>> open) {
            if (open) s.reopen(*open);
            // Then the tournaments it left open, before the first client.
            s.state->storage().read(
                [](Store& st) { return st.open_tournaments(); }, s.ioc.get_executor(),
                [&s](std::optional<std::vector<TournamentRow>> rows) {
                    if (rows)
                        open_tournaments(std::move(*rows), std::move(s.tournament_tables),
                                         s.state->storage(), s.state->tournaments(),
                                         s.state->services(), s.state->tournament_outlet(),
                                         s.ioc.get_executor());
                    s.listener->run(s.state);
                    s.count_old_hands(0);
                });
        });
    if (c.chosen_decks)
        spdlog::warn("--chosen-decks: players may choose the cards dealt; for tests only");
    if (c.tournament_minute_ms != 60'000)
        spdlog::warn("--tournament-minute-ms: a tournament's minute lasts {} ms; for tests only",
                     c.tournament_minute_ms);
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
    s.bots->stop();
    s.state->workers().join();
    s.state->odds().join();
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
