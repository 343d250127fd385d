// A thin RAII layer over libpq, the twin of storage/sqlite.h: a Connection exists only if it
// connected; a Transaction rolls back in its destructor unless committed; every error becomes one
// exception type that keeps PostgreSQL's SQLSTATE. Parameters go as text ($1, $2, ...), so that
// one query() takes integers, chips and strings alike. <libpq-fe.h> stays out of this header.
#pragma once

#include "chips.h"

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct pg_conn;
struct pg_result;

namespace felt::pg {

class Error : public std::runtime_error {
  public:
    Error(std::string sqlstate, const std::string& what)
        : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
    // Five characters ("23505": a unique key taken; "40001": a serialization failure), or ""
    // when the connection itself failed.
    const std::string& sqlstate() const { return sqlstate_; }

  private:
    std::string sqlstate_;
};

// True when `db` names a PostgreSQL database: a postgresql:// or postgres:// URL, or libpq's
// key=value form ("host=... dbname=..."). Anything else is an SQLite file.
bool is_postgres(std::string_view db);
// The same text with any password replaced by "***", for the log.
std::string redact(std::string_view conninfo);

// One parameter: its text, or SQL NULL.
class Param {
  public:
    Param(std::int64_t v) : text_(std::to_string(v)) {}
    Param(int v) : text_(std::to_string(v)) {}
    Param(Chips v) : text_(std::to_string(v.value())) {}
    Param(bool v) : text_(v ? "t" : "f") {}
    Param(std::string_view v) : text_(v) {}
    Param(const std::string& v) : text_(v) {}
    Param(const char* v) : text_(v) {}
    Param(std::nullopt_t) : text_(std::nullopt) {}
    const char* c_str() const { return text_ ? text_->c_str() : nullptr; }

  private:
    std::optional<std::string> text_;
};

class Result {
  public:
    explicit Result(pg_result* r);
    ~Result();
    Result(Result&&) noexcept;
    Result& operator=(Result&&) = delete;
    Result(const Result&) = delete;

    int rows() const;
    // Rows that an INSERT, UPDATE or DELETE touched.
    int affected() const;
    bool null(int row, int col) const;
    std::string text(int row, int col) const;
    std::int64_t integer(int row, int col) const;
    Chips chips(int row, int col) const { return Chips(integer(row, col)); }
    double real(int row, int col) const; // NULL reads as 0

  private:
    pg_result* r_;
};

class Connection {
  public:
    // Connects (URL or key=value); throws Error naming the cause when it cannot.
    explicit Connection(const std::string& conninfo);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Runs one or more statements without parameters.
    void exec(std::string_view sql);
    // Runs one statement with parameters $1, $2, ...
    Result query(const char* sql, std::initializer_list<Param> params = {});

    // Whether a transaction is open on this connection (a group commit, storage/storage.h).
    bool in_transaction() const;
    // Whether that transaction failed: it can only be rolled back now.
    bool transaction_failed() const;
    // After the connection broke (the server restarted): connects again. Throws when it cannot.
    // Whatever the old connection held (its transaction, its session locks) is gone.
    void reconnect();
    // Whether the connection is gone: a query failed on it, or (while idle) the server closed it.
    bool broken();
    // After LISTEN: waits up to `timeout` for notifications and returns their payloads, oldest
    // first (none when the wait ends without one). Throws Error once the connection is gone.
    std::vector<std::string> notifications(std::chrono::milliseconds timeout);

  private:
    [[noreturn]] void fail(pg_result* r, std::string_view sql);
    pg_conn* conn_ = nullptr;
    bool ended_ = false; // the server said it ended this session
};

// BEGIN; rolls back unless commit() ran. Inside a transaction already open it is a savepoint,
// and commit() releases it into the outer transaction (as db::Transaction does).
class Transaction {
  public:
    explicit Transaction(Connection& c);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

  private:
    Connection& c_;
    bool nested_;
    bool done_ = false;
};

} // namespace felt::pg
