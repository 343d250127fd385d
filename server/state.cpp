#include "state.h"

#include "migrate.h"
#include "table_base.h"
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

// After a crash: chips left on tables go back to their owners, unfinished hands are void, and
// the tables are closed. Nothing is created or lost. One transaction.
void recover(db::Database& db, Accounts& accounts) {
    db::Transaction t(db);
    int seats = 0;
    {
        db::Statement q(db, "SELECT account_id, stack FROM table_seats");
        while (q.step()) {
            if (q.column_int(1) > 0)
                accounts.move_chips(q.column_int(0), q.column_int(1), "recovered");
            ++seats;
        }
    }
    db.exec("DELETE FROM table_seats");
    db.exec("UPDATE hands SET status = 'void', ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
            "WHERE status = 'running'");
    const int voided = db.changes();
    db.exec("UPDATE tables SET closed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
            "WHERE closed_at IS NULL");
    t.commit();
    if (seats || voided)
        spdlog::warn("recovered from an unclean stop: {} seat(s) of chips returned, {} hand(s) "
                     "void",
                     seats, voided);
}

db::Database& migrated(db::Database& db) {
    const int version = migrate(db);
    spdlog::info("database at schema version {}", version);
    return db;
}

} // namespace

SharedState::SharedState(Config config)
    : config_(std::move(config)), db_(with_folder(config_.db)),
      accounts_(migrated(db_), config_.grant) {
    recover(db_, accounts_);
}

std::optional<std::string> SharedState::storage_failure() const {
    if (!storage_failing_) return std::nullopt;
    std::lock_guard lock(failure_mutex_);
    return failure_;
}

bool SharedState::probe_storage() {
    try {
        with_db(
            [](Accounts&, db::Database& db) {
                db.exec(
                    "INSERT INTO storage_probe (id, at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', "
                    "'now')) ON CONFLICT (id) DO UPDATE SET at = excluded.at");
            },
            true);
        return true;
    } catch (const db::Error&) {
        return false;
    }
}

void SharedState::storage_fails(const std::string& cause) {
    ++metrics_.storage_failures;
    std::lock_guard lock(failure_mutex_);
    if (storage_failing_) return;
    failure_ = cause;
    storage_failing_ = true;
    spdlog::error("storage is failing: {} (tables pause; refused or void until it works again)",
                  cause);
}

void SharedState::storage_recovered() {
    std::lock_guard lock(failure_mutex_);
    if (!storage_failing_) return;
    storage_failing_ = false;
    spdlog::warn("storage works again (it failed with: {})", failure_);
    failure_.clear();
}

std::shared_ptr<TableBase>
SharedState::create_table(const protocol::json& config, std::int64_t creator,
                          const std::function<std::shared_ptr<TableBase>(std::int64_t id)>& make) {
    const std::int64_t id = with_db(
        [&](Accounts&, db::Database& db) {
            db::Statement q(db, "INSERT INTO tables (config, created_by) VALUES (?, ?)");
            q.bind(1, config.dump()).bind(2, creator).run();
            return db.last_insert_rowid();
        },
        true);
    auto t = make(id);
    std::lock_guard lock(tables_mutex_);
    tables_[id] = t;
    ++metrics_.tables;
    return t;
}

std::shared_ptr<TableBase> SharedState::find_table(std::int64_t id) {
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

std::vector<std::shared_ptr<TableBase>> SharedState::tables() {
    std::lock_guard lock(tables_mutex_);
    std::vector<std::shared_ptr<TableBase>> out;
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
