#include "net/static_files.h"

#include <algorithm>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace felt::server {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Whether two stat results are the same file.
bool same_file(const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

} // namespace

std::optional<std::string> static_relative_path(std::string_view target) {
    target = target.substr(0, target.find('?'));
    if (target.empty() || target[0] != '/') return std::nullopt; // absolute-form, "*", ...
    std::string path;
    path.reserve(target.size());
    for (std::size_t i = 0; i < target.size(); ++i) {
        char c = target[i];
        if (c == '%') {
            if (i + 2 >= target.size()) return std::nullopt;
            const int hi = hex_digit(target[i + 1]), lo = hex_digit(target[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
        }
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f || c == '\\') return std::nullopt;
        path += c;
    }
    // Segment by segment, after decoding, so that %2F and %2e%2e are judged as what they mean.
    std::string relative;
    std::size_t start = 1;
    while (start < path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view segment(path.data() + start, end - start);
        if (segment.empty() || segment == "." || segment == "..") return std::nullopt;
        if (!relative.empty()) relative += '/';
        relative += segment;
        start = end + 1;
    }
    if (path.back() == '/') relative += relative.empty() ? "index.html" : "/index.html";
    return relative;
}

bool is_hidden(std::string_view relative) {
    return !relative.empty() && (relative[0] == '.' || relative.find("/.") != std::string::npos);
}

bool open_static(const std::filesystem::path& root, const std::string& relative,
                 std::span<const std::filesystem::path> guarded, boost::beast::file& file) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path base = fs::canonical(root, ec);
    if (ec || relative.empty() || relative[0] == '/' || is_hidden(relative)) return false;
    // canonical() resolves with lstat and readlink; it opens nothing.
    const fs::path resolved = fs::canonical(base / relative, ec);
    if (ec) return false;
    const auto [in_base, in_file] =
        std::mismatch(base.begin(), base.end(), resolved.begin(), resolved.end());
    if (in_base != base.end() || in_file == resolved.end()) return false; // outside the root
    struct stat seen {};
    if (::stat(resolved.c_str(), &seen) != 0 || !S_ISREG(seen.st_mode)) return false;
    for (const fs::path& g : guarded) {
        struct stat other {};
        if (::stat(g.c_str(), &other) == 0 && same_file(seen, other)) return false;
    }
    // O_NOFOLLOW and the inode check after opening: a path swapped since the checks is refused.
    const int fd = ::open(resolved.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
    if (fd < 0) return false;
    struct stat opened {};
    if (::fstat(fd, &opened) != 0 || !same_file(seen, opened) || !S_ISREG(opened.st_mode)) {
        ::close(fd);
        return false;
    }
    boost::beast::error_code ignored;
    file.close(ignored);
    file.native_handle(fd);
    return true;
}

std::vector<std::filesystem::path> database_files(const std::string& db) {
    return {db, db + "-wal", db + "-shm", db + "-journal"};
}

} // namespace felt::server
