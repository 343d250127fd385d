#include "storage/owner_lock.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace felt::server {

namespace {

// The process id the holder wrote into the file, as text ("" when unreadable).
std::string holder_of(int fd) {
    char text[32] = {};
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    std::string pid(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return pid.find_first_not_of("0123456789") == std::string::npos ? pid : "";
}

} // namespace

OwnerLock::OwnerLock(const std::string& database) {
    if (database == ":memory:") return;
    const std::string path = path_for(database);
    if (const auto parent = std::filesystem::path(path).parent_path(); !parent.empty())
        std::filesystem::create_directories(parent);
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0)
        throw std::runtime_error("cannot open the lock file " + path + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        const std::string pid = err == EWOULDBLOCK ? holder_of(fd_) : "";
        ::close(fd_);
        fd_ = -1;
        if (err != EWOULDBLOCK)
            throw std::runtime_error("cannot lock " + path + ": " + std::strerror(err));
        throw std::runtime_error("the database " + database + " is in use by another feltd" +
                                 (pid.empty() ? "" : " (pid " + pid + ")") +
                                 "; one feltd serves a database at a time, and this one changed "
                                 "nothing");
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 ||
        ::pwrite(fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        // Only the holder's name is lost: the lock itself holds.
    }
}

OwnerLock::~OwnerLock() {
    if (fd_ >= 0) ::close(fd_); // releases the lock
}

} // namespace felt::server
