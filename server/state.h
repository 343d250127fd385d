// What every connection shares: settings, storage (accounts, tables, hands and history, off the
// event loop), metrics, who is connected, the lobby of tables, and a pool for slow work (password
// hashing).
#pragma once

#include "config.h"
#include "messages.h"
#include "metrics.h"
#include "storage/accounts.h"
#include "storage/storage.h"
#include "tables/lobby.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace felt::server {

// A connection the server may ask to close (at shutdown).
class Connection {
  public:
    virtual ~Connection() = default;
    virtual void close() = 0;
};

class SharedState {
  public:
    explicit SharedState(Config config);

    const Config& config() const { return config_; }
    Metrics& metrics() { return metrics_; }
    net::thread_pool& workers() { return workers_; }

    // Accounts, tables, hands and history, off the event loop (storage/storage.h).
    Storage& storage() { return *storage_; }

    // Connections by address, for the per-address limit. False when the address is full.
    bool admit(const std::string& address);
    void release(const std::string& address);

    void join(Connection* c, std::weak_ptr<Connection> w);
    void leave(Connection* c);
    // Asks every open WebSocket to close; the number asked.
    int close_all();

    // Every table, and who sits where.
    Lobby& lobby() { return lobby_; }
    // What tables use of the server. set_io() once, before the first table is made.
    void set_io(net::io_context* ioc) {
        services_.emplace(*storage_, metrics_, lobby_, *ioc, workers_);
    }
    Services& services() { return *services_; }

    bool stopping() const { return stopping_; }
    void set_stopping() { stopping_ = true; }

  private:
    Config config_;
    Metrics metrics_;
    std::unique_ptr<Storage> storage_;
    net::thread_pool workers_{2};
    Lobby lobby_{metrics_};
    std::optional<Services> services_;
    std::mutex sessions_mutex_;
    std::map<Connection*, std::weak_ptr<Connection>> sessions_;
    std::map<std::string, int> per_address_;
    std::atomic<bool> stopping_{false};
};

} // namespace felt::server
