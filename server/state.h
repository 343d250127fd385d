// What every connection shares: settings, the database (one connection, one writer at a time),
// accounts, metrics, who is connected, and a pool for slow work (password hashing).
#pragma once

#include "accounts.h"
#include "config.h"
#include "messages.h"
#include "metrics.h"
#include "sqlite.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace felt::server {

class WsSession;
class TableBase;

class SharedState {
  public:
    explicit SharedState(Config config);

    const Config& config() const { return config_; }
    Metrics& metrics() { return metrics_; }
    boost::asio::thread_pool& workers() { return workers_; }

    // Runs f(accounts, db) with the database to itself; timed as a write when `write`. A write
    // that fails (db::Error: a full disk, an I/O error) marks storage as failing before the
    // error goes on to the caller; the next write that succeeds marks it working again.
    template <class F>
    auto with_db(F&& f, bool write = false) {
        std::lock_guard lock(db_mutex_);
        if (!write) return f(accounts_, db_);
        Timer t(metrics_.db_write);
        try {
            if constexpr (std::is_void_v<decltype(f(accounts_, db_))>) {
                f(accounts_, db_);
                storage_works();
            } else {
                auto result = f(accounts_, db_);
                storage_works();
                return result;
            }
        } catch (const db::Error& e) {
            storage_fails(e.what());
            throw;
        }
    }

    // Why storage is failing now (the first error since it last worked), or nothing while it
    // works. For /healthz.
    std::optional<std::string> storage_failure() const;
    // A small write, to learn whether storage takes writes (again): true when it does.
    bool probe_storage();

    // Connections by address, for the per-address limit. False when the address is full.
    bool admit(const std::string& address);
    void release(const std::string& address);

    void join(WsSession* s, std::weak_ptr<WsSession> w);
    void leave(WsSession* s);
    // Asks every open WebSocket to close; the number asked.
    int close_all();

    // Tables. set_io() once, before the first create_table().
    void set_io(boost::asio::io_context* ioc) { ioc_ = ioc; }
    // Adds a table that `make(id)` builds once its row exists.
    std::shared_ptr<TableBase>
    create_table(const protocol::json& config, std::int64_t creator,
                 const std::function<std::shared_ptr<TableBase>(std::int64_t id)>& make);
    std::shared_ptr<TableBase> find_table(std::int64_t id);
    std::vector<std::shared_ptr<TableBase>> tables();
    boost::asio::io_context& io() { return *ioc_; }

    // Which tables an account has a seat at, for giving seats back on sign-in.
    void note_seat(std::int64_t account, std::int64_t table, bool seated);
    std::vector<std::int64_t> seats_of(std::int64_t account);

    bool stopping() const { return stopping_; }
    void set_stopping() { stopping_ = true; }

  private:
    // The log names a failure once when it begins and once when it ends, not once per write.
    void storage_works() {
        if (storage_failing_.load(std::memory_order_relaxed)) storage_recovered();
    }
    void storage_fails(const std::string& cause);
    void storage_recovered();

    struct Timer {
        Histogram& h;
        std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
        ~Timer() {
            h.observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
    };

    Config config_;
    Metrics metrics_;
    std::mutex db_mutex_;
    db::Database db_;
    Accounts accounts_;
    boost::asio::thread_pool workers_{2};
    std::mutex sessions_mutex_;
    std::map<WsSession*, std::weak_ptr<WsSession>> sessions_;
    std::map<std::string, int> per_address_;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> storage_failing_{false};
    mutable std::mutex failure_mutex_;
    std::string failure_; // the cause, while storage_failing_
    boost::asio::io_context* ioc_ = nullptr;
    std::mutex tables_mutex_;
    std::map<std::int64_t, std::shared_ptr<TableBase>> tables_;
    std::multimap<std::int64_t, std::int64_t> seated_; // account -> table
};

} // namespace felt::server
