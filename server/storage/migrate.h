// Schema migrations: numbered SQL steps (migrations/NNNN_name.sql, built into the program),
// each applied in its own transaction that also records it in schema_migrations. PostgreSQL has
// the same steps, one file for each, in migrations/postgresql/: the same numbers and names, so
// that a schema version means the same on both engines.
#pragma once

#include "storage/postgres.h"
#include "storage/sqlite.h"

#include <span>
#include <stdexcept>
#include <string>

namespace felt::server {

struct Migration {
    int version; // 1, 2, 3, ... with no gaps
    const char* name;
    const char* sql;
};

// The program's own migrations, in order.
std::span<const Migration> builtin_migrations();
std::span<const Migration> builtin_pg_migrations();

// A database this program cannot use: newer than the program, or a step that failed.
class MigrationError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The schema version recorded in the database (0 for a new one).
int schema_version(db::Database& db);

// Applies the steps newer than the database, in order; returns the version reached. A database
// whose version is above the last step is refused; a failing step rolls back, leaving the
// database at the previous version, and is reported with its number and name.
int migrate(db::Database& db, std::span<const Migration> steps = builtin_migrations());

// The same on PostgreSQL. Nodes starting together migrate one after another: each holds an
// advisory lock while it migrates, and the next finds the work done.
int schema_version(pg::Connection& db);
int migrate(pg::Connection& db, std::span<const Migration> steps = builtin_pg_migrations());

} // namespace felt::server
