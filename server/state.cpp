#include "state.h"

#include "storage/pg_store.h"
#include "storage/sqlite_store.h"

#include <unistd.h>

namespace felt::server {

namespace {

constexpr std::chrono::minutes kLongestBackoff{15};

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0 || !name[0]) return "felt";
    return name;
}

std::unique_ptr<Storage> open_storage(const Config& c, Metrics& metrics) {
    const TokenLife life{std::chrono::seconds(c.token_idle_s), std::chrono::seconds(c.token_max_s)};
    if (pg::is_postgres(c.db)) {
        NodeIdentity node;
        node.id = c.node_id.empty() ? host_name() : c.node_id;
        node.lease = std::chrono::seconds(c.lease_s);
        return std::make_unique<Storage>(
            std::make_unique<PgStore>(c.db, Chips(c.grant), PgStore::Role::writer, life, node),
            std::make_unique<PgStore>(c.db, Chips(c.grant), PgStore::Role::reader, life), metrics);
    }
    auto writer =
        std::make_unique<SqliteStore>(c.db, Chips(c.grant), SqliteStore::Role::writer, life);
    // A second connection reads beside the writer (WAL); an in-memory database has only one.
    std::unique_ptr<Store> reader;
    if (c.db != ":memory:")
        reader =
            std::make_unique<SqliteStore>(c.db, Chips(c.grant), SqliteStore::Role::reader, life);
    return std::make_unique<Storage>(std::move(writer), std::move(reader), metrics);
}

} // namespace

SharedState::SharedState(Config config)
    : config_(std::move(config)), storage_(open_storage(config_, metrics_)),
      name_failures_(config_.login_attempts, std::chrono::milliseconds(config_.login_backoff_ms),
                     kLongestBackoff),
      address_failures_(4 * config_.login_attempts,
                        std::chrono::milliseconds(config_.login_backoff_ms), kLongestBackoff),
      new_accounts_(config_.accounts_per_hour, std::chrono::hours(1)),
      http_requests_(config_.http_rate, config_.http_burst) {}

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

void SharedState::join(Connection* c, std::weak_ptr<Connection> w) {
    std::lock_guard lock(sessions_mutex_);
    sessions_[c] = std::move(w);
}

void SharedState::leave(Connection* c) {
    std::lock_guard lock(sessions_mutex_);
    sessions_.erase(c);
}

int SharedState::close_all() {
    std::vector<std::shared_ptr<Connection>> open;
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto& [raw, weak] : sessions_)
            if (auto s = weak.lock()) open.push_back(std::move(s));
    }
    for (auto& s : open) s->close();
    return static_cast<int>(open.size());
}

void SharedState::sign_out(const SignOut& which, const Connection* skip) {
    std::vector<std::shared_ptr<Connection>> open;
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto& [raw, weak] : sessions_)
            if (auto s = weak.lock(); s && raw != skip) open.push_back(std::move(s));
    }
    for (auto& s : open) s->sign_out(which);
}

} // namespace felt::server
