// What every connection shares: settings, storage (accounts, tables, hands and history, off the
// event loop), metrics, who is connected, the tables, and a pool for slow work (password hashing).
#pragma once

#include "config.h"
#include "messages.h"
#include "metrics.h"
#include "storage/accounts.h"
#include "storage/storage.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace felt::server {

class WsSession;
class Table;

class SharedState {
  public:
    explicit SharedState(Config config);

    const Config& config() const { return config_; }
    Metrics& metrics() { return metrics_; }
    boost::asio::thread_pool& workers() { return workers_; }

    // Accounts, tables, hands and history, off the event loop (storage/storage.h).
    Storage& storage() { return *storage_; }

    // Connections by address, for the per-address limit. False when the address is full.
    bool admit(const std::string& address);
    void release(const std::string& address);

    void join(WsSession* s, std::weak_ptr<WsSession> w);
    void leave(WsSession* s);
    // Asks every open WebSocket to close; the number asked.
    int close_all();

    // Tables. set_io() once, before the first table is added.
    void set_io(boost::asio::io_context* ioc) { ioc_ = ioc; }
    // A new table, once its row is written.
    void add_table(std::shared_ptr<Table> table);
    std::shared_ptr<Table> find_table(std::int64_t id);
    std::vector<std::shared_ptr<Table>> tables();
    boost::asio::io_context& io() { return *ioc_; }

    // Which tables an account has a seat at, for giving seats back on sign-in.
    void note_seat(std::int64_t account, std::int64_t table, bool seated);
    std::vector<std::int64_t> seats_of(std::int64_t account);

    bool stopping() const { return stopping_; }
    void set_stopping() { stopping_ = true; }

  private:
    Config config_;
    Metrics metrics_;
    std::unique_ptr<Storage> storage_;
    boost::asio::thread_pool workers_{2};
    std::mutex sessions_mutex_;
    std::map<WsSession*, std::weak_ptr<WsSession>> sessions_;
    std::map<std::string, int> per_address_;
    std::atomic<bool> stopping_{false};
    boost::asio::io_context* ioc_ = nullptr;
    std::mutex tables_mutex_;
    std::map<std::int64_t, std::shared_ptr<Table>> tables_;
    std::multimap<std::int64_t, std::int64_t> seated_; // account -> table
};

} // namespace felt::server
