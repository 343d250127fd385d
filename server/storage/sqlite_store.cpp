#include "storage/sqlite_store.h"

#include "history/history.h"
#include "storage/migrate.h"

#include <spdlog/spdlog.h>

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

db::Database& migrated(db::Database& db, SqliteStore::Role role) {
    if (role == SqliteStore::Role::writer)
        spdlog::info("database at schema version {}", migrate(db));
    return db;
}

} // namespace

SqliteStore::SqliteStore(const std::string& path, Chips grant, Role role)
    : db_(with_folder(path)), accounts_(migrated(db_, role), grant) {
    if (role == Role::writer) recover();
}

void SqliteStore::recover() {
    db::Transaction t(db_);
    int seats = 0;
    {
        db::Statement q(db_, "SELECT account_id, stack FROM table_seats");
        while (q.step()) {
            if (q.column_int(1) > 0)
                accounts_.move_chips(q.column_int(0), q.column_int(1), "recovered");
            ++seats;
        }
    }
    db_.exec("DELETE FROM table_seats");
    db_.exec("UPDATE hands SET status = 'void', ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
             "WHERE status = 'running'");
    const int voided = db_.changes();
    db_.exec("UPDATE tables SET closed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
             "WHERE closed_at IS NULL");
    t.commit();
    if (seats || voided)
        spdlog::warn("recovered from an unclean stop: {} seat(s) of chips returned, {} hand(s) "
                     "void",
                     seats, voided);
}

// ---- accounts and sessions ----

Outcome<Account> SqliteStore::create_account(std::string_view name, const std::string& hash) {
    return accounts_.create(name, hash);
}

Outcome<Account> SqliteStore::create_guest() {
    return accounts_.create_guest();
}

std::optional<std::pair<Account, std::string>> SqliteStore::find_with_hash(std::string_view name) {
    return accounts_.find_with_hash(name);
}

std::optional<Account> SqliteStore::find_account(std::int64_t id) {
    return accounts_.find(id);
}

std::string SqliteStore::open_session(std::int64_t account) {
    return accounts_.open_session(account);
}

Outcome<Account> SqliteStore::resume(std::string_view token) {
    return accounts_.resume(token);
}

void SqliteStore::revoke(std::string_view token) {
    accounts_.revoke(token);
}

// ---- tables ----

std::int64_t SqliteStore::create_table(const std::string& config, std::int64_t creator) {
    db::Statement q(db_, "INSERT INTO tables (config, created_by) VALUES (?, ?)");
    q.bind(1, config).bind(2, creator).run();
    return db_.last_insert_rowid();
}

std::optional<Refusal> SqliteStore::buy_in(std::int64_t table, int seat, std::int64_t account,
                                           Chips amount) {
    db::Transaction t(db_);
    if (auto no = accounts_.move_chips(account, -amount, "buy_in")) return no;
    db::Statement q(db_, "INSERT INTO table_seats (table_id, seat, account_id, stack) "
                         "VALUES (?, ?, ?, ?)");
    q.bind(1, table).bind(2, seat).bind(3, account).bind(4, amount).run();
    t.commit();
    return std::nullopt;
}

void SqliteStore::cash_out(std::int64_t table, int seat, std::int64_t account, Chips stack,
                           std::string_view reason) {
    db::Transaction t(db_);
    db::Statement del(db_, "DELETE FROM table_seats WHERE table_id = ? AND seat = ?");
    del.bind(1, table).bind(2, seat).run();
    if (stack > 0) accounts_.move_chips(account, stack, reason);
    t.commit();
}

// ---- hands ----

std::int64_t SqliteStore::last_hand_id() {
    db::Statement q(db_, "SELECT COALESCE(MAX(id), 0) FROM hands");
    q.step();
    return q.column_int(0);
}

void SqliteStore::start_hand(const HandStart& h) {
    db::Statement q(db_, "INSERT INTO hands (id, table_id, number, config, commitment, status) "
                         "VALUES (?, ?, ?, ?, ?, 'running')");
    q.bind(1, h.id).bind(2, h.table).bind(3, h.number).bind(4, h.config).bind(5, h.commitment);
    q.run();
}

void SqliteStore::finish_hand(const HandEnd& h) {
    db::Transaction t(db_);
    db::Statement hand(db_, "UPDATE hands SET status = 'finished', deck = ?, seed = ?, salt = ?, "
                            "ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                            "WHERE id = ? AND status = 'running'");
    hand.bind(1, h.deck).bind(2, h.seed).bind(3, h.salt).bind(4, h.id).run();
    if (db_.changes() != 1)
        throw db::Error(0, "hand " + std::to_string(h.id) + " has no running row to finish");
    // Each statement is prepared once and reset for every row.
    db::Statement seat(db_, "INSERT INTO hand_seats (hand_id, seat, account_id, stack_start, "
                            "stack_end) VALUES (?, ?, ?, ?, ?)");
    db::Statement stack(db_, "UPDATE table_seats SET stack = ? WHERE table_id = ? AND seat = ?");
    for (const HandSeat& s : h.seats) {
        seat.reset();
        seat.bind(1, h.id).bind(2, s.seat).bind(3, s.account).bind(4, s.start).bind(5, s.end);
        seat.run();
        stack.reset();
        stack.bind(1, s.end).bind(2, h.table).bind(3, s.seat).run();
    }
    db::Statement ev(db_, "INSERT INTO hand_events (hand_id, seq, body) VALUES (?, ?, ?)");
    for (std::size_t i = 0; i < h.log.size(); ++i) {
        ev.reset();
        ev.bind(1, h.id).bind(2, static_cast<std::int64_t>(i)).bind(3, h.log[i]).run();
    }
    t.commit();
}

void SqliteStore::void_hand(std::int64_t hand_id) {
    db::Statement q(db_, "UPDATE hands SET status = 'void', ended_at = "
                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
    q.bind(1, hand_id).run();
}

// ---- history ----

protocol::json SqliteStore::my_hands(std::int64_t account, std::int64_t before, int limit) {
    return history::my_hands(db_, account, before, limit);
}

Outcome<protocol::json> SqliteStore::hand(std::int64_t hand_id, std::int64_t asker) {
    return history::hand(db_, hand_id, asker);
}

Outcome<protocol::json> SqliteStore::table_hands(std::int64_t table, int limit) {
    return history::table_hands(db_, table, limit);
}

Outcome<protocol::json> SqliteStore::totals(const std::string& name) {
    return history::totals(db_, name);
}

Outcome<std::string> SqliteStore::hand_phh(std::int64_t hand_id, std::int64_t asker) {
    return history::hand_phh(db_, hand_id, asker);
}

// ---- health ----

void SqliteStore::probe() {
    db_.exec("INSERT INTO storage_probe (id, at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', "
             "'now')) ON CONFLICT (id) DO UPDATE SET at = excluded.at");
}

void SqliteStore::check() {
    db_.exec("SELECT 1");
}

// ---- group commit ----

void SqliteStore::begin_group() {
    db_.exec("BEGIN IMMEDIATE");
}

void SqliteStore::commit_group() {
    db_.exec("COMMIT");
}

void SqliteStore::abandon_group() noexcept {
    try {
        db_.exec("ROLLBACK");
    } catch (const db::Error&) {
        // Already rolled back by SQLite itself (a full disk does that).
    }
}

} // namespace felt::server
