#include "state.h"

#include "net/ws_session.h"
#include "storage/sqlite_store.h"
#include "tables/table.h"

namespace felt::server {

namespace {

std::unique_ptr<Storage> open_storage(const Config& c, Metrics& metrics) {
    auto writer = std::make_unique<SqliteStore>(c.db, c.grant, SqliteStore::Role::writer);
    // A second connection reads beside the writer (WAL); an in-memory database has only one.
    std::unique_ptr<Store> reader;
    if (c.db != ":memory:")
        reader = std::make_unique<SqliteStore>(c.db, c.grant, SqliteStore::Role::reader);
    return std::make_unique<Storage>(std::move(writer), std::move(reader), metrics);
}

} // namespace

SharedState::SharedState(Config config)
    : config_(std::move(config)), storage_(open_storage(config_, metrics_)) {}

void SharedState::add_table(std::shared_ptr<Table> table) {
    std::lock_guard lock(tables_mutex_);
    tables_[table->id()] = std::move(table);
    ++metrics_.tables;
}

std::shared_ptr<Table> SharedState::find_table(std::int64_t id) {
    std::lock_guard lock(tables_mutex_);
    auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : it->second;
}

void SharedState::note_seat(std::int64_t account, std::int64_t table, bool seated) {
    std::lock_guard lock(tables_mutex_);
    auto [first, last] = seated_.equal_range(account);
    for (auto it = first; it != last; ++it)
        if (it->second == table) {
            if (!seated) seated_.erase(it);
            return;
        }
    if (seated) seated_.emplace(account, table);
}

std::vector<std::int64_t> SharedState::seats_of(std::int64_t account) {
    std::lock_guard lock(tables_mutex_);
    std::vector<std::int64_t> out;
    auto [first, last] = seated_.equal_range(account);
    for (auto it = first; it != last; ++it) out.push_back(it->second);
    return out;
}

std::vector<std::shared_ptr<Table>> SharedState::tables() {
    std::lock_guard lock(tables_mutex_);
    std::vector<std::shared_ptr<Table>> out;
    for (auto& [id, t] : tables_) out.push_back(t);
    return out;
}

bool SharedState::admit(const std::string& address) {
    std::lock_guard lock(sessions_mutex_);
    int& n = per_address_[address];
    if (n >= config_.per_address) return false;
    ++n;
    return true;
}

void SharedState::release(const std::string& address) {
    std::lock_guard lock(sessions_mutex_);
    auto it = per_address_.find(address);
    if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
}

void SharedState::join(WsSession* s, std::weak_ptr<WsSession> w) {
    std::lock_guard lock(sessions_mutex_);
    sessions_[s] = std::move(w);
}

void SharedState::leave(WsSession* s) {
    std::lock_guard lock(sessions_mutex_);
    sessions_.erase(s);
}

int SharedState::close_all() {
    std::vector<std::shared_ptr<WsSession>> open;
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto& [raw, weak] : sessions_)
            if (auto s = weak.lock()) open.push_back(std::move(s));
    }
    for (auto& s : open) s->close();
    return static_cast<int>(open.size());
}

} // namespace felt::server
