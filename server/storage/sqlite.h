// A thin RAII layer over SQLite, after SQLiteCpp: a Database exists only if it opened; a
// Transaction rolls back in its destructor unless committed; every SQLite error becomes one
// exception type that keeps the SQLite code. <sqlite3.h> stays out of this header.
#pragma once

#include "chips.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace felt::db {

class Error : public std::runtime_error {
  public:
    Error(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
    int code() const { return code_; } // the SQLite result code
  private:
    int code_;
};

class Database {
  public:
    // Opens (creating if needed) a database file, in WAL mode with foreign keys on and a busy
    // time-out. ":memory:" opens a private in-memory database.
    explicit Database(const std::string& path);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Runs one or more statements that return no rows.
    void exec(std::string_view sql);
    // Runs one statement that returns no rows, prepared once and kept (BEGIN, COMMIT, ...).
    void run(std::string_view sql);
    std::int64_t last_insert_rowid() const;
    int changes() const;
    sqlite3* handle() const { return db_; }

  private:
    friend class Statement;
    // Prepared statements are kept for reuse, by their SQL: the short statements of a hand cost
    // less to run than to prepare (docs/benchmarks.md, capacity). A statement is taken while a
    // Statement uses it; a second use of the same SQL at once prepares another, and whichever
    // comes back when one is kept already is finalised. At most kMaxCached are kept.
    static constexpr std::size_t kMaxCached = 128;
    sqlite3_stmt* take(std::string_view sql);
    void give_back(sqlite3_stmt* stmt) noexcept;

    sqlite3* db_ = nullptr;
    std::map<std::string, sqlite3_stmt*, std::less<>> cached_;
};

class Statement {
  public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Parameters count from 1, as in SQLite.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, Chips value) { return bind(index, value.value()); }
    Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    Statement& bind_null(int index);
    // True while there is a row to read; false when done.
    bool step();
    // Steps a statement that returns no rows.
    void run();
    void reset();

    std::int64_t column_int(int index) const; // columns count from 0
    Chips column_chips(int index) const { return Chips(column_int(index)); }
    double column_double(int index) const;
    std::string column_text(int index) const;
    bool column_null(int index) const;

  private:
    Database& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE (takes the write lock at once); rolls back unless commit() ran. Inside a
// transaction already open (a group commit, storage/storage.h) it is a savepoint instead, and
// commit() releases it into the outer transaction.
class Transaction {
  public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

  private:
    Database& db_;
    bool nested_;
    bool done_ = false;
};

} // namespace felt::db
