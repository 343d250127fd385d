// The harness of the integration tests: a real feltd in a folder of its own on a free loopback
// port, an HTTP getter and a WebSocket client speaking JSON, as a bot would.
#pragma once

#include "paths.h"
#include "protocol/messages.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>
#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace feltd_test {

using json = nlohmann::json;

// Starts a program (args[0]) with these arguments; its process id. `max_files` (if not 0) limits
// the file descriptors it may open; `output` (if not empty) is the file its output goes to.
//
// The child of a process with threads may run only what is safe in a signal handler until it
// execs: another thread may have held the allocator's lock at the fork, and a child that allocates
// waits for it forever (and its parent's waitpid with it). Everything is made before the fork.
inline pid_t spawn(std::vector<std::string> args, rlim_t max_files = 0,
                   const std::string& output = "") {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // Dies with the test: a test that aborts leaves no feltd behind holding ctest's pipe.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (!output.empty()) {
            const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
            }
        }
        if (max_files > 0) {
            const rlimit limit{max_files, max_files};
            setrlimit(RLIMIT_NOFILE, &limit);
        }
        execv(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}

// feltd in a folder of its own, started with --port 0 and waited for until it listens.
class Feltd {
  public:
    // `output`: a file for its log (none: the test's own output). Its log level is warn, or
    // $FELTD_LOG_LEVEL (info, debug: to see what a failing test's feltd did).
    explicit Feltd(std::vector<std::string> extra = {}, std::string dir = "", rlim_t max_files = 0,
                   std::string output = "")
        : max_files_(max_files), output_(std::move(output)) {
        if (dir.empty()) {
            char tmpl[] = "/tmp/feltd_test_XXXXXX";
            REQUIRE(mkdtemp(tmpl) != nullptr);
            dir = tmpl;
            owns_dir_ = true;
        }
        dir_ = dir;
        start(std::move(extra));
    }
    ~Feltd() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        if (owns_dir_) std::filesystem::remove_all(dir_);
    }

    void start(std::vector<std::string> extra) {
        const std::string port_file = dir_ + "/port";
        std::filesystem::remove(port_file);
        std::vector<std::string> args = {felt::test::feltd_path(),
                                         "--port",
                                         "0",
                                         "--port-file",
                                         port_file,
                                         "--log-level",
                                         getenv("FELTD_LOG_LEVEL") ? getenv("FELTD_LOG_LEVEL")
                                                                   : "warn"};
        if (std::find(extra.begin(), extra.end(), "--db") == extra.end())
            args.insert(args.end(), {"--db", dir_ + "/data/felt.db"});
        if (std::find(extra.begin(), extra.end(), "--static") == extra.end())
            extra.insert(extra.end(), {"--static", dir_ + "/web"});
        if (std::find(extra.begin(), extra.end(), "--grace") == extra.end())
            extra.insert(extra.end(), {"--grace", "5"});
        // Every test signs in guests from this one address; the limits test sets its own.
        if (std::find(extra.begin(), extra.end(), "--accounts-per-hour") == extra.end())
            extra.insert(extra.end(), {"--accounts-per-hour", "1000000"});
        // And they read HTTP faster than a person would.
        if (std::find(extra.begin(), extra.end(), "--http-rate") == extra.end())
            extra.insert(extra.end(), {"--http-rate", "100000", "--http-burst", "100000"});
        args.insert(args.end(), extra.begin(), extra.end());
        pid_ = spawn(std::move(args), max_files_, output_);
        for (int i = 0; i < 200; ++i) { // up to 10 s: the sanitizer build starts slowly
            std::ifstream in(port_file);
            int p = 0;
            if (in >> p && p > 0) {
                port_ = static_cast<unsigned short>(p);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL("feltd did not start");
    }

    // Sends a signal and waits for the exit status (-1 if it did not exit normally).
    int stop(int sig) {
        ::kill(pid_, sig);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    unsigned short port() const { return port_; }
    const std::string& dir() const { return dir_; }
    pid_t pid() const { return pid_; }

  private:
    rlim_t max_files_ = 0;
    std::string output_;
    std::string dir_;
    bool owns_dir_ = false;
    pid_t pid_ = -1;
    unsigned short port_ = 0;
};

struct HttpReply {
    int status = 0;
    std::string body;
};

// A GET over a new connection (with `Authorization: Bearer` when `bearer` is given).
HttpReply http_get(unsigned short port, const std::string& target, const std::string& bearer = "");

// Sends `request` as it is over a new connection and reads the answer's status (0: none, the
// connection was closed first).
int raw_http_status(unsigned short port, const std::string& request);

// `n` TCP connections to feltd that send nothing, held open until this is destroyed.
class IdleConnections {
  public:
    IdleConnections(unsigned short port, int n);
    ~IdleConnections();
    IdleConnections(const IdleConnections&) = delete;
    IdleConnections& operator=(const IdleConnections&) = delete;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A process's resident memory, in bytes.
inline long resident_bytes(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/statm");
    long size = 0, resident = 0;
    in >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

// The CPU time a process has used, user and system, in clock ticks.
inline long cpu_ticks(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string skip;
    for (int i = 0; i < 11; ++i) fields >> skip; // state ... cmajflt (fields 3 to 13)
    long user = 0, system = 0;
    fields >> user >> system;
    return user + system;
}

// A WebSocket client speaking JSON. (Beast lives in feltd_harness.cpp alone: the tests that use
// this harness compile without it.)
class Client {
  public:
    // receive_buffer > 0 fixes the socket's receive buffer at that many bytes (SO_RCVBUF, before
    // connecting), so that the kernel cannot grow it: what a client that never reads can hold.
    // `source`: the loopback address to connect from ("": the system's choice).
    explicit Client(unsigned short port, int receive_buffer = 0, const std::string& source = "");
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    void send(const std::string& text);
    void send(const json& j) { send(j.dump()); }
    // Sends one frame as it is, binary or text.
    void send_frame(const std::string& bytes, bool binary);
    // Sends, or says the connection is gone (the server may cut a client off mid-stream).
    bool try_send(const std::string& text);
    // The next message, or nothing when the server closed the connection or sent nothing for a
    // minute (so that a server that stops answering fails a test instead of hanging it).
    std::optional<json> read();
    // A request and its reply; table messages, balance pushes and late replies that arrive first
    // are passed over.
    json call(json req);
    void hello();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    int id_ = 0;
};

// Runs feltd with these arguments to its end: its exit status (-1 if it did not exit).
inline int exit_status(std::vector<std::string> args) {
    args.insert(args.begin(), felt::test::feltd_path());
    const pid_t pid = spawn(std::move(args));
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs feltd with these arguments (its output to a file) until it exits, or for `seconds` at
// most (then it is killed): its exit status (-1 if it did not exit by itself) and its output.
inline std::pair<int, std::string> run_feltd(std::vector<std::string> args, int seconds) {
    char tmpl[] = "/tmp/feltd_out_XXXXXX";
    const int out = mkstemp(tmpl);
    REQUIRE(out >= 0);
    close(out);
    args.insert(args.begin(), felt::test::feltd_path());
    const pid_t pid = spawn(std::move(args), 0, tmpl);
    int status = 0;
    bool exited = false;
    for (int i = 0; i < seconds * 20 && !exited; ++i) {
        exited = waitpid(pid, &status, WNOHANG) == pid;
        if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!exited) {
        ::kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    std::ifstream in(tmpl);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(tmpl);
    return {exited && WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

inline int metric(unsigned short port, const std::string& name) {
    const std::string body = http_get(port, "/metrics").body;
    auto at = body.find("\n" + name + " ");
    REQUIRE(at != std::string::npos);
    return std::stoi(body.substr(at + name.size() + 2));
}

// Reads on to the next table message of this kind.
inline json next_kind(Client& c, const std::string& kind) {
    for (;;) {
        auto m = c.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] == "table" && (*m)["kind"] == kind) return *m;
    }
}

// Reads on to the next message of this type (a push such as "signed_out").
inline json next_of_type(Client& c, const std::string& type) {
    for (;;) {
        auto m = c.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] == type) return *m;
    }
}

// `n` connections, each signed in as a new guest.
inline std::vector<std::unique_ptr<Client>> guests(unsigned short port, int n) {
    std::vector<std::unique_ptr<Client>> out;
    for (int i = 0; i < n; ++i) {
        out.push_back(std::make_unique<Client>(port));
        out.back()->hello();
        REQUIRE(out.back()->call({{"type", "guest"}})["ok"] == true);
    }
    return out;
}

// The first column of the first row of a query.
inline std::int64_t sql_int(felt::db::Database& db, const std::string& sql) {
    felt::db::Statement q(db, sql);
    REQUIRE(q.step());
    return q.column_int(0);
}

// A ledger where every chip is where it belongs, every deal whole: each account began with
// 10,000 chips, and the rake is all that left the players.
inline void check_database(const std::string& dir, int accounts, int finished) { // at least
    felt::db::Database db(dir + "/data/felt.db");
    felt::server::Accounts acc(db, 0);
    auto one = [&](const std::string& sql) { return sql_int(db, sql); };
    // The rake left the players; everything else is back in their balances.
    CHECK(one("SELECT SUM(balance) FROM accounts") ==
          accounts * 10'000 - one("SELECT COALESCE(SUM(stack_start - stack_end), 0) FROM "
                                  "hand_seats"));
    CHECK(one("SELECT COUNT(*) FROM table_seats") == 0);
    CHECK(one("SELECT COUNT(*) FROM hands WHERE status = 'finished'") >= finished);
    CHECK(one("SELECT COUNT(*) FROM hands WHERE status <> 'finished'") == 0);
    felt::db::Statement q(db, "SELECT id, balance FROM accounts");
    while (q.step()) CHECK(acc.ledger_sum(q.column_int(0)) == q.column_chips(1));
}

} // namespace feltd_test
