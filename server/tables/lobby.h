// Every table of the server and who sits where: for the lobby's list, for routing a request to its
// table, and for giving players their seats back when they sign in again; and the connections
// that watch the lobby, told as tables open, change and close; with several nodes, the other
// nodes' tables too (their lines carry the `url` of their node). Thread-safe. What a table uses of
// the server is tables/services.h.
#pragma once

#include "io.h"
#include "tables/recipient.h"
#include "tables/services.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace felt::server {

struct Metrics;
class Table;

class Lobby {
  public:
    explicit Lobby(Metrics& metrics) : metrics_(metrics) {}

    // A new table, once its row is written, made by `creator` (0: nobody's).
    void add(std::shared_ptr<Table> table, std::int64_t creator = 0);
    // A table closed (idle): no longer listed nor found; watchers are told.
    void remove(std::int64_t id);
    std::shared_ptr<Table> find(std::int64_t id);
    std::vector<std::shared_ptr<Table>> all();
    // Open tables the account created.
    int created_by(std::int64_t account);

    // Which tables an account has a seat at.
    void note_seat(std::int64_t account, std::int64_t table, bool seated);
    std::vector<std::int64_t> seats_of(std::int64_t account);

    // A connection that watches the lobby is told of every table's new line (`changed`) and of
    // every table that closes, until it stops watching or goes.
    void watch(const std::shared_ptr<Recipient>& r);
    void unwatch(const Recipient* r);
    // Somebody watches, here or (with several nodes) elsewhere: worth telling.
    bool watched();
    // A table's line changed (seats taken, watchers) or it opened: its line as the lobby lists it.
    void changed(nlohmann::json line);
    // The lobby's lines by id, this node's and the other nodes': those after `after`, at most
    // `limit`; and the id to continue after (null at the end).
    std::pair<nlohmann::json, nlohmann::json> lines(std::int64_t after, std::int64_t limit);

    // ---- one node of several (PostgreSQL) ----
    // From now on this node's lines carry `url`, and their changes and closings also go to
    // `publish`, for the other nodes (a message of the bulletin, storage/bulletin.h).
    void join_cluster(std::string url, std::function<void(nlohmann::json)> publish);
    // The lines of the other nodes' open tables, whole (the bulletin connected): the watchers
    // are told of every line that is new or changed, and of every table gone.
    void remote_tables(std::map<std::int64_t, nlohmann::json> lines);
    // Another node's table opened or changed (its line, with `url`), or closed.
    void remote_changed(nlohmann::json line);
    void remote_closed(std::int64_t id);

  private:
    // Sends `message` to every connection that watches the lobby.
    void tell(const nlohmann::json& message);

    Metrics& metrics_;
    std::mutex mutex_;
    // Looked up on every table request: hashed, a miss or two, not a walk down a tree.
    std::unordered_map<std::int64_t, std::shared_ptr<Table>> tables_;
    std::map<std::int64_t, std::int64_t> creators_;    // table -> account
    std::multimap<std::int64_t, std::int64_t> seated_; // account -> table
    std::map<const Recipient*, std::weak_ptr<Recipient>> watchers_;
    std::string url_;                               // several nodes: where this one is
    std::function<void(nlohmann::json)> publish_;   // several nodes: tells the others
    std::map<std::int64_t, nlohmann::json> remote_; // the other nodes' lines
};

} // namespace felt::server
