#include "storage/migrate.h"

namespace felt::server {

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
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].version != static_cast<int>(i) + 1)
            throw MigrationError("migration steps must be numbered 1, 2, 3, ... without gaps; "
                                 "step " +
                                 std::to_string(i + 1) + " is numbered " +
                                 std::to_string(steps[i].version));
    const int known = static_cast<int>(steps.size());
    int version = schema_version(db);
    if (version > known)
        throw MigrationError("the database is at schema version " + std::to_string(version) +
                             ", newer than this program knows (" + std::to_string(known) +
                             "); run a newer feltd or another database");
    for (const Migration& m : steps.subspan(static_cast<std::size_t>(version))) {
        db::Transaction t(db);
        try {
            db.exec(m.sql);
            db::Statement rec(db, "INSERT INTO schema_migrations (version, name) VALUES (?, ?)");
            rec.bind(1, m.version).bind(2, m.name).run();
        } catch (const db::Error& e) {
            throw MigrationError("migration " + std::to_string(m.version) + " (" + m.name +
                                 ") failed and was rolled back: " + e.what());
        }
        t.commit();
        version = m.version;
    }
    return version;
}

} // namespace felt::server
