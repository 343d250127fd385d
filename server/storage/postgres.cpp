#include "storage/postgres.h"

#include <libpq-fe.h>
#include <poll.h>

#include <charconv>
#include <vector>

namespace felt::pg {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

// libpq's message on one line: "server closed the connection unexpectedly\n\tThis probably...".
std::string trimmed(const char* message) {
    std::string m;
    for (const char* p = message ? message : ""; *p; ++p) {
        const bool space = *p == '\n' || *p == '\t' || *p == ' ';
        if (space && (m.empty() || m.back() == ' ')) continue;
        m += space ? ' ' : *p;
    }
    while (!m.empty() && m.back() == ' ') m.pop_back();
    return m;
}

// Server notices ("relation already exists, skipping") are not printed; a FATAL one, which a
// server sends an idle session as it ends it (a shutdown, pg_terminate_backend), marks the
// connection as ended.
void on_notice(void* ended, const PGresult* r) {
    const char* severity = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
    if (severity &&
        (std::string_view(severity) == "FATAL" || std::string_view(severity) == "PANIC"))
        *static_cast<bool*>(ended) = true;
}

} // namespace

bool is_postgres(std::string_view db) {
    if (starts_with(db, "postgresql://") || starts_with(db, "postgres://")) return true;
    // key=value: the text starts with one of libpq's keywords and '=' (a file path would not).
    std::size_t i = db.find_first_not_of(" \t");
    if (i == std::string_view::npos) return false;
    const std::size_t end = db.find_first_not_of("abcdefghijklmnopqrstuvwxyz_", i);
    const std::string_view key = db.substr(i, end == std::string_view::npos ? db.npos : end - i);
    const std::size_t eq = end == std::string_view::npos ? end : db.find_first_not_of(" \t", end);
    if (eq == std::string_view::npos || db[eq] != '=') return false;
    for (std::string_view k : {"host", "hostaddr", "port", "dbname", "user", "service"})
        if (key == k) return true;
    return false;
}

std::string redact(std::string_view conninfo) {
    std::string s(conninfo);
    if (const auto scheme = s.find("://"); scheme != std::string::npos && is_postgres(s)) {
        // postgresql://user:secret@host/...: the password sits between the user's ':' and '@'.
        const auto start = scheme + 3;
        const auto at = s.find('@', start);
        const auto colon = s.find(':', start);
        if (at != std::string::npos && colon != std::string::npos && colon < at)
            s.replace(colon + 1, at - colon - 1, "***");
    }
    // password=secret, password = 'a secret', or ?password=secret&... in a URL.
    for (std::size_t at = s.find("password"); at != std::string::npos;
         at = s.find("password", at + 1)) {
        std::size_t v = s.find_first_not_of(" \t", at + 8);
        if (v == std::string::npos || s[v] != '=') continue;
        const std::size_t from = at + 8;
        v = s.find_first_not_of(" \t", v + 1);
        std::size_t end = s.size();
        if (v != std::string::npos && s[v] == '\'') {
            end = s.find('\'', v + 1);
            end = end == std::string::npos ? s.size() : end + 1;
        } else if (v != std::string::npos) {
            end = s.find_first_of(" \t&", v);
            if (end == std::string::npos) end = s.size();
        }
        s.replace(from, end - from, "=***");
    }
    return s;
}

// ---- Result ----

Result::Result(pg_result* r) : r_(r) {}
Result::~Result() {
    if (r_) PQclear(r_);
}
Result::Result(Result&& o) noexcept : r_(o.r_) {
    o.r_ = nullptr;
}

int Result::rows() const {
    return PQntuples(r_);
}

int Result::affected() const {
    const char* n = PQcmdTuples(r_);
    return n && *n ? std::atoi(n) : 0;
}

bool Result::null(int row, int col) const {
    return PQgetisnull(r_, row, col) != 0;
}

std::string Result::text(int row, int col) const {
    return std::string(PQgetvalue(r_, row, col),
                       static_cast<std::size_t>(PQgetlength(r_, row, col)));
}

double Result::real(int row, int col) const {
    const char* v = PQgetvalue(r_, row, col);
    const char* end = v + PQgetlength(r_, row, col);
    double out = 0;
    if (v == end) return 0;
    const auto [p, ec] = std::from_chars(v, end, out);
    if (ec != std::errc() || p != end)
        throw Error("",
                    "column " + std::to_string(col) + " is not a number: " + std::string(v, end));
    return out;
}

std::int64_t Result::integer(int row, int col) const {
    const char* v = PQgetvalue(r_, row, col);
    const char* end = v + PQgetlength(r_, row, col);
    std::int64_t out = 0;
    if (v == end) return 0; // NULL reads as 0, as in SQLite
    const auto [p, ec] = std::from_chars(v, end, out);
    if (ec != std::errc() || p != end)
        throw Error("",
                    "column " + std::to_string(col) + " is not an integer: " + std::string(v, end));
    return out;
}

// ---- Connection ----

Connection::Connection(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {
    if (!conn_) throw Error("", "out of memory connecting to PostgreSQL");
    if (PQstatus(conn_) != CONNECTION_OK) {
        std::string why = trimmed(PQerrorMessage(conn_));
        PQfinish(conn_);
        conn_ = nullptr;
        throw Error("", "cannot connect to PostgreSQL at " + redact(conninfo) + ": " + why);
    }
    PQsetNoticeReceiver(conn_, on_notice, &ended_);
}

Connection::~Connection() {
    if (conn_) PQfinish(conn_);
}

void Connection::fail(pg_result* r, std::string_view sql) {
    std::string state;
    std::string why;
    if (r) {
        if (const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE)) state = s;
        why = trimmed(PQresultErrorMessage(r));
        PQclear(r);
    }
    if (why.empty()) why = trimmed(PQerrorMessage(conn_));
    if (PQstatus(conn_) != CONNECTION_OK) why = "the connection to PostgreSQL is lost: " + why;
    std::string head(sql.substr(0, 60));
    throw Error(state, why + " (in: " + head + (sql.size() > 60 ? "...)" : ")"));
}

void Connection::exec(std::string_view sql) {
    const std::string text(sql);
    pg_result* r = PQexec(conn_, text.c_str());
    const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(r, sql);
    PQclear(r);
}

Result Connection::query(const char* sql, std::initializer_list<Param> params) {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const Param& p : params) values.push_back(p.c_str());
    pg_result* r = PQexecParams(conn_, sql, static_cast<int>(values.size()), nullptr, values.data(),
                                nullptr, nullptr, 0);
    const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(r, sql);
    return Result(r);
}

bool Connection::in_transaction() const {
    const auto s = PQtransactionStatus(conn_);
    return s == PQTRANS_INTRANS || s == PQTRANS_INERROR || s == PQTRANS_ACTIVE;
}

bool Connection::transaction_failed() const {
    return PQtransactionStatus(conn_) == PQTRANS_INERROR;
}

bool Connection::broken() {
    // A server that shut down or ended this session sent a last error and closed the socket: read
    // what is waiting (no wait when nothing is), so that an idle connection is known dead before
    // a unit of work is sent over it.
    if (PQstatus(conn_) == CONNECTION_OK && PQtransactionStatus(conn_) == PQTRANS_IDLE) {
        pollfd p{PQsocket(conn_), POLLIN, 0};
        // The server's last word is a FATAL notice (on_notice), or the end of the stream.
        if (::poll(&p, 1, 0) == 1 && PQconsumeInput(conn_)) PQisBusy(conn_); // parses it
    }
    return ended_ || PQstatus(conn_) != CONNECTION_OK;
}

std::vector<std::string> Connection::notifications(std::chrono::milliseconds timeout) {
    std::vector<std::string> out;
    auto take = [&] {
        while (PGnotify* n = PQnotifies(conn_)) {
            out.emplace_back(n->extra);
            PQfreemem(n);
        }
    };
    take();
    if (out.empty()) {
        pollfd p{PQsocket(conn_), POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(timeout.count())) == 1) {
            if (!PQconsumeInput(conn_))
                throw Error("", "the connection to PostgreSQL was lost: " +
                                    trimmed(PQerrorMessage(conn_)));
            take();
        }
    }
    if (ended_ || PQstatus(conn_) != CONNECTION_OK)
        throw Error("", "the connection to PostgreSQL was lost");
    return out;
}

void Connection::reconnect() {
    ended_ = false;
    PQreset(conn_);
    if (PQstatus(conn_) != CONNECTION_OK)
        throw Error("", "cannot reconnect to PostgreSQL: " + trimmed(PQerrorMessage(conn_)));
}

// ---- Transaction ----

Transaction::Transaction(Connection& c) : c_(c), nested_(c.in_transaction()) {
    c_.exec(nested_ ? "SAVEPOINT felt" : "BEGIN");
}

Transaction::~Transaction() {
    if (done_) return;
    try {
        c_.exec(nested_ ? "ROLLBACK TO SAVEPOINT felt; RELEASE SAVEPOINT felt" : "ROLLBACK");
    } catch (const Error&) {
        // The connection is gone, and the transaction with it.
    }
}

void Transaction::commit() {
    c_.exec(nested_ ? "RELEASE SAVEPOINT felt" : "COMMIT");
    done_ = true;
}

} // namespace felt::pg
