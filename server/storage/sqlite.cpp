#include "storage/sqlite.h"

#include <sqlite3.h>

namespace felt::db {

namespace {

[[noreturn]] void fail(sqlite3* db, int code, std::string_view doing) {
    std::string what(doing);
    what += ": ";
    what += db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    throw Error(code, what);
}

} // namespace

Database::Database(const std::string& path) {
    int rc =
        sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = "cannot open database " + path + ": " +
                          (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
        sqlite3_close(db_);
        db_ = nullptr;
        throw Error(rc, msg);
    }
    sqlite3_busy_timeout(db_, 5000);
    exec("PRAGMA foreign_keys = ON");
    if (path != ":memory:") {
        exec("PRAGMA journal_mode = WAL");
        exec("PRAGMA synchronous = NORMAL"); // WAL: durable at checkpoints, never corrupt
    }
}

Database::~Database() {
    for (auto& [sql, stmt] : cached_) sqlite3_finalize(stmt);
    sqlite3_close_v2(db_);
}

sqlite3_stmt* Database::take(std::string_view sql) {
    if (auto it = cached_.find(sql); it != cached_.end()) {
        sqlite3_stmt* stmt = it->second;
        cached_.erase(it);
        return stmt;
    }
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) fail(db_, rc, "prepare");
    return stmt;
}

void Database::give_back(sqlite3_stmt* stmt) noexcept {
    // Ready for its next use: reset (its last error was reported when it happened) and unbound.
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    const char* sql = sqlite3_sql(stmt);
    if (!sql || cached_.size() >= kMaxCached || cached_.contains(std::string_view(sql))) {
        sqlite3_finalize(stmt);
        return;
    }
    try {
        cached_.emplace(sql, stmt);
    } catch (...) { // out of memory: not kept
        sqlite3_finalize(stmt);
    }
}

void Database::run(std::string_view sql) {
    Statement(*this, sql).run();
}

void Database::exec(std::string_view sql) {
    std::string text(sql);
    char* err = nullptr;
    int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errstr(rc);
        sqlite3_free(err);
        throw Error(rc, msg);
    }
}

std::int64_t Database::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(db_);
}

int Database::changes() const {
    return sqlite3_changes(db_);
}

Statement::Statement(Database& db, std::string_view sql) : db_(db), stmt_(db.take(sql)) {}

Statement::~Statement() {
    db_.give_back(stmt_);
}

Statement& Statement::bind(int index, std::int64_t value) {
    int rc = sqlite3_bind_int64(stmt_, index, value);
    if (rc != SQLITE_OK) fail(db_.handle(), rc, "bind");
    return *this;
}

Statement& Statement::bind(int index, double value) {
    int rc = sqlite3_bind_double(stmt_, index, value);
    if (rc != SQLITE_OK) fail(db_.handle(), rc, "bind");
    return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
    int rc = sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                               SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) fail(db_.handle(), rc, "bind");
    return *this;
}

Statement& Statement::bind_null(int index) {
    int rc = sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK) fail(db_.handle(), rc, "bind");
    return *this;
}

bool Statement::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(db_.handle(), rc, "step");
}

void Statement::run() {
    while (step()) {
    }
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::column_int(int index) const {
    return sqlite3_column_int64(stmt_, index);
}

double Statement::column_double(int index) const {
    return sqlite3_column_double(stmt_, index);
}

std::string Statement::column_text(int index) const {
    const unsigned char* text = sqlite3_column_text(stmt_, index);
    return text ? std::string(reinterpret_cast<const char*>(text),
                              static_cast<std::size_t>(sqlite3_column_bytes(stmt_, index)))
                : std::string();
}

bool Statement::column_null(int index) const {
    return sqlite3_column_type(stmt_, index) == SQLITE_NULL;
}

Transaction::Transaction(Database& db)
    : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0) {
    db_.run(nested_ ? "SAVEPOINT felt" : "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (done_) return;
    try {
        db_.exec(nested_ ? "ROLLBACK TO felt; RELEASE felt" : "ROLLBACK");
    } catch (const Error&) {
        // Nothing more to do: the transaction is gone either way (SQLite rolls back the whole
        // transaction itself after some errors, a full disk among them).
    }
}

void Transaction::commit() {
    db_.run(nested_ ? "RELEASE felt" : "COMMIT");
    done_ = true;
}

} // namespace felt::db
