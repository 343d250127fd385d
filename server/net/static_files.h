// The static folder (the web client): which file a request path names, and opening it without
// ever reaching a file outside the folder or the database.
#pragma once

#include <boost/beast/core/file.hpp>

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt::server {

// The path of a request target relative to the static folder ("" for the folder itself), or
// nothing when the target is not a plain path below it. The query is dropped, %XX escapes are
// decoded, and then refused: a target not starting with '/', an empty segment ("//", which would
// make the rest absolute), "." and "..", a backslash, a NUL or a control character, and a bad
// escape. A trailing '/' names the folder's index.html.
std::optional<std::string> static_relative_path(std::string_view target);

// Whether a relative path (from static_relative_path) names a hidden file or folder: one whose
// name starts with '.', which is never served (.git, .env, ...).
bool is_hidden(std::string_view relative);

// Opens for reading the regular file at `relative` under `root`. Refused (false) when the file is
// missing, hidden, not a regular file, resolves (through symlinks) outside the root, or is one of
// the `guarded` files (the database and its -wal, -shm and -journal files). Those are compared by
// device and inode with stat(), before any descriptor is opened: a process that closes any
// descriptor of the database file drops every POSIX lock SQLite holds on it, and an outside
// reader could then delete the write-ahead log that feltd is still writing to.
// On success `file` holds the open file.
bool open_static(const std::filesystem::path& root, const std::string& relative,
                 std::span<const std::filesystem::path> guarded, boost::beast::file& file);

// The database file and the files SQLite keeps beside it.
std::vector<std::filesystem::path> database_files(const std::string& db);

} // namespace felt::server
