#include "storage/migrate.h"

namespace felt::server {

namespace {

void check_numbering(std::span<const Migration> steps) {
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].version != static_cast<int>(i) + 1)
            throw MigrationError("migration steps must be numbered 1, 2, 3, ... without gaps; "
                                 "step " +
                                 std::to_string(i + 1) + " is numbered " +
                                 std::to_string(steps[i].version));
}

void check_not_newer(int version, std::span<const Migration> steps) {
    const int known = static_cast<int>(steps.size());
    if (version > known)
        throw MigrationError("the database is at schema version " + std::to_string(version) +
                             ", newer than this program knows (" + std::to_string(known) +
                             "); run a newer feltd or another database");
}

MigrationError failed(const Migration& m, const std::exception& e) {
    return MigrationError("migration " + std::to_string(m.version) + " (" + m.name +
                          ") failed and was rolled back: " + e.what());
}

// Applies the steps after `version`, each in a transaction of the engine's `Txn` with its record
// in schema_migrations (written by `record`).
template <class Db, class Txn, class Error, class Record>
int apply(Db& db, std::span<const Migration> steps, int version, Record record) {
    check_not_newer(version, steps);
    for (const Migration& m : steps.subspan(static_cast<std::size_t>(version))) {
        Txn t(db);
        try {
            db.exec(m.sql);
            record(m);
        } catch (const Error& e) {
            throw failed(m, e);
        }
        t.commit();
        version = m.version;
    }
    return version;
}

} // namespace

int schema_version(db::Database& db) {
    db.exec("CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY,"
            " name TEXT NOT NULL,"
            " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))");
    db::Statement q(db, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
    q.step();
    return static_cast<int>(q.column_int(0));
}

int migrate(db::Database& db, std::span<const Migration> steps) {
    check_numbering(steps);
    return apply<db::Database, db::Transaction, db::Error>(
        db, steps, schema_version(db), [&](const Migration& m) {
            db::Statement rec(db, "INSERT INTO schema_migrations (version, name) VALUES (?, ?)");
            rec.bind(1, m.version).bind(2, m.name).run();
        });
}

int schema_version(pg::Connection& db) {
    db.exec("CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY,"
            " name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
    return static_cast<int>(
        db.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").integer(0, 0));
}

int migrate(pg::Connection& db, std::span<const Migration> steps) {
    check_numbering(steps);
    // One key for Felt's migrations; released however this ends.
    constexpr const char* kLock = "SELECT pg_advisory_lock(7236001)";
    db.exec(kLock);
    struct Unlock {
        pg::Connection& db;
        ~Unlock() {
            try {
                db.exec("SELECT pg_advisory_unlock(7236001)");
            } catch (const pg::Error&) {
                // The connection is gone, and the lock with it.
            }
        }
    } unlock{db};
    return apply<pg::Connection, pg::Transaction, pg::Error>(
        db, steps, schema_version(db), [&](const Migration& m) {
            db.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                     {m.version, m.name});
        });
}

} // namespace felt::server
