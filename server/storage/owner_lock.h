// One feltd a SQLite database: an exclusive advisory lock (flock) on a file beside it,
// `<database>.lock`, taken before anything reads or writes the database (crash recovery,
// migrations, serving) and held until the process ends. A second feltd on the same database finds
// it held and stops, having changed nothing. Outside readers (sqlite3, a backup) never take it, so
// they are still welcome; SQLite's own exclusive locking mode would lock them out too.
#pragma once

#include <string>

namespace felt::server {

class OwnerLock {
  public:
    // Takes the lock for `database` (a path; ":memory:" needs none), creating the database's
    // folder when missing. Throws, naming the database and the holder's process id, when another
    // process holds it.
    explicit OwnerLock(const std::string& database);
    ~OwnerLock();
    OwnerLock(const OwnerLock&) = delete;
    OwnerLock& operator=(const OwnerLock&) = delete;

    // The lock file's path, beside the database.
    static std::string path_for(const std::string& database) { return database + ".lock"; }

  private:
    int fd_ = -1;
};

} // namespace felt::server
