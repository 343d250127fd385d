#include "state.h"

#include "migrate.h"
#include "ws_session.h"

#include <filesystem>

namespace felt::server {

namespace {

// Creates the database's folder, so that the defaults work on a fresh machine.
const std::string& with_folder(const std::string& path) {
    if (path != ":memory:") {
        const auto parent = std::filesystem::path(path).parent_path();
        if (!parent.empty()) std::filesystem::create_directories(parent);
    }
    return path;
}

db::Database& migrated(db::Database& db) {
    const int version = migrate(db);
    spdlog::info("database at schema version {}", version);
    return db;
}

} // namespace

SharedState::SharedState(Config config)
    : config_(std::move(config)), db_(with_folder(config_.db)),
      accounts_(migrated(db_), config_.grant) {}

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
