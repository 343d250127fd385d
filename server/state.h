// What every connection shares: settings, storage (accounts, tables, hands and history, off the
// event loop), metrics, who is connected, the lobby of tables, and a pool for slow work (password
// hashing).
#pragma once

#include "accounts/account.h"
#include "config.h"
#include "limits/fair_pool.h"
#include "limits/limits.h"
#include "metrics.h"
#include "protocol/messages.h"
#include "storage/bulletin.h"
#include "storage/storage.h"
#include "tables/lobby.h"
#include "tournaments/tournament.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace felt::server {

// Which connections of an account a sign-out reaches: those signed in with the token whose hash
// (accounts/account.h, token_hash) is `token_hash`, or (with `other_tokens`) those signed in with
// any other token ("": every one of the account's). A hash, so that other nodes may be told.
struct SignOut {
    std::int64_t account = 0;
    std::string token_hash;
    bool other_tokens = false;
    std::string reason = "logout"; // told to each connection signed out: logout, password_changed
};

// What the connections of one address (limits/limits.h, address_key) share.
struct AddressShare {
    int connections = 0;                // open now (SharedState::admit)
    std::atomic<std::size_t> queued{0}; // bytes queued for them to read
};

// A connection the server may ask to close (at shutdown), or to sign out.
class Connection {
  public:
    virtual ~Connection() = default;
    virtual void close() = 0;
    // Signs the connection out, on its own strand, if the sign-out reaches it.
    virtual void sign_out(const SignOut& which) = 0;
    // The account's balance is now `balance`: a connection signed in to it tells its client.
    virtual void balance(std::int64_t, Chips) {}
    // A tournament's news: a connection signed in to an account it names passes on the
    // account's messages, then attaches to the table it seats the account at (and gets the
    // table's snapshot).
    virtual void news(std::shared_ptr<const TournamentNews>) {}
    // Bytes queued for the client now, what it shares with its address, and whether it is being
    // dropped already (so that its bytes are on their way out).
    virtual std::size_t queued() const { return 0; }
    virtual const AddressShare* share() const { return nullptr; }
    virtual bool dropping() const { return false; }
    // Drops the client to free what is queued for it (a write-queue budget is spent); from any
    // thread.
    virtual void drop() {}
};

class SharedState {
  public:
    explicit SharedState(Config config);

    const Config& config() const { return config_; }
    Metrics& metrics() { return metrics_; }
    net::thread_pool& workers() { return workers_; }
    net::thread_pool& odds() { return odds_; }

    // Accounts, tables, hands and history, off the event loop (storage/storage.h).
    Storage& storage() { return *storage_; }

    // Connections by address, for the per-address limit. False when the address is full.
    bool admit(const std::string& address);
    void release(const std::string& address);
    // What the connections of an admitted address share.
    std::shared_ptr<AddressShare> share_of(const std::string& address);

    // Bytes queued for every client to read, together (--write-queue-total).
    std::atomic<std::size_t>& queued_total() { return queued_total_; }
    // A write-queue budget is spent: of every connection (`share` null, --write-queue-total) or
    // of one address's (--write-queue-per-address). Drops the connections with the most queued,
    // largest first, until what the rest hold is within it.
    void shed(const AddressShare* share);
    // Hands memory the allocator keeps free back to the system, soon: after clients were dropped
    // with what was queued for them. Calls close together are served once.
    void release_memory_soon();

    void join(Connection* c, std::weak_ptr<Connection> w);
    void leave(Connection* c);
    // Asks every open WebSocket to close; the number asked.
    int close_all();
    // Asks every open WebSocket but `skip` to sign out if `which` reaches it, on every node.
    void sign_out(const SignOut& which, const Connection* skip);
    // Tells every connection of the account its new balance, on every node.
    void balance_changed(std::int64_t account, Chips balance);

    // One node of several (PostgreSQL): listens to the other nodes (storage/bulletin.h), and
    // tells them of this node's lobby changes and sign-outs. `url`: how clients reach this node.
    void join_cluster(const std::string& url);
    // Whether this node is one of several (it listens to the others).
    bool clustered() const { return bulletin_ != nullptr; }
    // This node's name among several (--node-id, or the host's name).
    const std::string& node_id() const { return node_id_; }

    // Every table, and who sits where.
    Lobby& lobby() { return lobby_; }
    // Every tournament of this node.
    Tournaments& tournaments() { return tournaments_; }
    // How tournaments reach their players' connections (on this node).
    TournamentOutlet tournament_outlet();
    // What tables use of the server. set_io() once, before the first table is made.
    void set_io(net::io_context* ioc) {
        ioc_ = ioc;
        services_.emplace(*storage_, metrics_, lobby_, *ioc, workers_,
                          std::chrono::seconds(config_.table_idle_s), config_.chosen_decks);
        services_->tournament_minute_ms = config_.tournament_minute_ms;
        services_->odds = &odds_;
        services_->balance_changed = [this](std::int64_t account, Chips balance) {
            balance_changed(account, balance);
        };
    }
    Services& services() { return *services_; }

    // Password checks (hashing, on workers()): each address in its turn, one at a time, with at
    // most kMostWaitingChecks more waiting (limits/fair_pool.h).
    static constexpr std::size_t kMostWaitingChecks = 8;
    FairPool& password_checks() { return password_checks_; }
    // Every password check, failed or not, by address (over the limit: refused) and by account
    // name (over the limit: delayed, never refused). docs/security.md gives the numbers.
    RateByKey& checks_by_address() { return checks_by_address_; }
    RateByKey& checks_by_name() { return checks_by_name_; }

    // Failed sign-ins by name and by address, and new accounts by address.
    Backoff& name_failures() { return name_failures_; }
    Backoff& address_failures() { return address_failures_; }
    WindowCap& new_accounts() { return new_accounts_; }
    // Plain HTTP requests by address, and the plain HTTP connections open now.
    RateByKey& http_requests() { return http_requests_; }
    std::atomic<int>& http_open() { return http_open_; }

    bool stopping() const { return stopping_; }
    void set_stopping() { stopping_ = true; }

  private:
    void sign_out_here(const SignOut& which, const Connection* skip);
    void balance_here(std::int64_t account, Chips balance);
    // Every open connection.
    std::vector<std::shared_ptr<Connection>> open_connections();
    // Tells the other nodes, as this node.
    void publish(protocol::json message);
    // What another node told (a message of the bulletin).
    void heard(const std::string& message);

    Config config_;
    std::string node_id_;
    Metrics metrics_;
    std::unique_ptr<Storage> storage_;
    net::thread_pool workers_{2};
    net::thread_pool odds_{1}; // all-in odds (Services::odds)
    FairPool password_checks_{workers_, 2, kMostWaitingChecks};
    RateByKey checks_by_address_{2, 60}, checks_by_name_{0.2, 20};
    Lobby lobby_{metrics_};
    Tournaments tournaments_;
    std::optional<Services> services_;
    std::mutex sessions_mutex_;
    std::map<Connection*, std::weak_ptr<Connection>> sessions_;
    std::map<std::string, std::shared_ptr<AddressShare>> per_address_;
    std::atomic<std::size_t> queued_total_{0};
    std::atomic<bool> releasing_{false};
    net::io_context* ioc_ = nullptr;
    Backoff name_failures_, address_failures_;
    WindowCap new_accounts_;
    RateByKey http_requests_;
    std::atomic<int> http_open_{0};
    std::atomic<bool> stopping_{false};
    std::unique_ptr<Bulletin> bulletin_; // several nodes; first to go, as it calls the rest
};

} // namespace felt::server
