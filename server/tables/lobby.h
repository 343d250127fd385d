// Every table of the server and who sits where: for the lobby's list, for routing a request to its
// table, and for giving players their seats back when they sign in again. Thread-safe. And what a
// table uses of the server (Services), so that tables know nothing of connections.
#pragma once

#include "io.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace felt::server {

struct Metrics;
class Storage;
class Table;

class Lobby {
  public:
    explicit Lobby(Metrics& metrics) : metrics_(metrics) {}

    // A new table, once its row is written, made by `creator` (0: nobody's).
    void add(std::shared_ptr<Table> table, std::int64_t creator = 0);
    // A table closed (idle): no longer listed nor found.
    void remove(std::int64_t id);
    std::shared_ptr<Table> find(std::int64_t id);
    std::vector<std::shared_ptr<Table>> all();
    // Open tables the account created.
    int created_by(std::int64_t account);

    // Which tables an account has a seat at.
    void note_seat(std::int64_t account, std::int64_t table, bool seated);
    std::vector<std::int64_t> seats_of(std::int64_t account);

  private:
    Metrics& metrics_;
    std::mutex mutex_;
    std::map<std::int64_t, std::shared_ptr<Table>> tables_;
    std::map<std::int64_t, std::int64_t> creators_;    // table -> account
    std::multimap<std::int64_t, std::int64_t> seated_; // account -> table
};

// What a table uses of the server.
struct Services {
    Storage& storage;
    Metrics& metrics;
    Lobby& lobby;
    net::io_context& io;
    net::thread_pool& workers;            // slow work off the event loop
    std::chrono::seconds table_idle{600}; // a table nobody sits at closes after this long
};

} // namespace felt::server
