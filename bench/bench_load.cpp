// Load on feltd: a real feltd (started here, on a fresh database in a temporary folder) and many
// bots side by side on this machine, playing hold'em through the WebSocket protocol with every
// hand persisted. Prints hands per second, the action round trip (p50, p99) and the server's
// memory per connection (its resident set at the peak, less before the bots, over the bots).
//
//   bench_load [--feltd PATH] [--tables T] [--seats S] [--hands H] [--threads N]
//
// First, for scale, request/reply pairs a second: 64 connections sending `ping` and waiting for
// each reply, for 5 seconds.
//
// Defaults: the feltd beside this program, 1,000 tables of 6 bots, 5 hands each, 1 bot thread.
#include "bot.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

long rss_kib(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string key;
    long value = 0;
    while (in >> key) {
        if (key == "VmRSS:") {
            in >> value;
            return value;
        }
        in.ignore(1 << 12, '\n');
    }
    return 0;
}

// CPU seconds (user + system) a process has used, from /proc/PID/stat.
double cpu_seconds(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    // Fields after the command name in parentheses (which may hold spaces): utime is the 14th
    // field of the line, stime the 15th.
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string field;
    long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14) utime = std::stol(field);
        if (i == 15) stime = std::stol(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double own_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return s(u.ru_utime) + s(u.ru_stime);
}

// GET /metrics from feltd on loopback: the Prometheus text, or "" when it cannot be read.
std::string metrics(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return "";
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string out;
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
        const char request[] = "GET /metrics HTTP/1.0\r\n\r\n";
        if (write(fd, request, sizeof request - 1) == static_cast<ssize_t>(sizeof request - 1)) {
            char buf[4096];
            for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
                out.append(buf, static_cast<std::size_t>(n));
        }
    }
    close(fd);
    return out;
}

// A counter's value in Prometheus text (0 when it is missing).
double counter(const std::string& text, const std::string& name) {
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? 0 : std::atof(text.c_str() + at + name.size() + 2);
}

} // namespace

int main(int argc, char** argv) {
    std::string feltd = (std::filesystem::path(argv[0]).parent_path() / "feltd").string();
    felt::bot::Options o;
    o.tables = 1000;
    o.seats = 6;
    o.hands = 5;
    // The feltd below allows 1,000 messages a second a connection: the bots need not pace.
    o.rate = 900;
    o.burst = 900;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--feltd")) feltd = argv[i + 1];
        if (!std::strcmp(argv[i], "--tables")) o.tables = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--seats")) o.seats = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--hands")) o.hands = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--threads")) o.threads = std::atoi(argv[i + 1]);
    }
    char tmpl[] = "/tmp/felt_load_XXXXXX";
    if (!mkdtemp(tmpl)) return 1;
    const std::string dir = tmpl;
    const pid_t pid = fork();
    if (pid == 0) {
        const std::string port_file = dir + "/port", db = dir + "/felt.db";
        execl(feltd.c_str(), feltd.c_str(), "--port", "0", "--port-file", port_file.c_str(), "--db",
              db.c_str(), "--log-level", "error", "--per-address", "1000000", "--rate", "1000",
              "--burst", "1000", "--accounts-per-hour", "100000000", static_cast<char*>(nullptr));
        _exit(127);
    }
    int port = 0;
    for (int i = 0; i < 200 && port == 0; ++i) {
        std::ifstream(dir + "/port") >> port;
        if (!port) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!port) {
        std::printf("feltd did not start (%s)\n", feltd.c_str());
        return 1;
    }
    o.port = std::to_string(port);
    const long base = rss_kib(pid);
    std::atomic<long> peak{base};
    std::atomic<bool> running{true};
    std::thread sampler([&] {
        while (running) {
            peak = std::max(peak.load(), rss_kib(pid));
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    // Request/reply pairs first: 64 connections pinging for 5 seconds.
    const felt::bot::PingReport ping = felt::bot::ping_flood(o, 64, 5.0);
    const double server_before = cpu_seconds(pid), bots_before = own_cpu_seconds();
    const felt::bot::Report r = felt::bot::run(o);
    const double server_cpu = cpu_seconds(pid) - server_before;
    const double bots_cpu = own_cpu_seconds() - bots_before;
    running = false;
    sampler.join();
    const std::string m = metrics(port);
    const double commits = counter(m, "felt_storage_commits_total");
    const double writes = counter(m, "felt_storage_writes_total");
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    std::filesystem::remove_all(dir);
    const double per_conn =
        r.connected ? static_cast<double>(peak - base) / static_cast<double>(r.connected) : 0;
    const double pairs = ping.seconds > 0 ? static_cast<double>(ping.pairs) / ping.seconds : 0;
    std::printf("ping, 64 connections, 5 s: %.0f request/reply pairs a second (%.0f%%-%.0f%% of a "
                "bare Beast echo server's 40,000-50,000)%s\n",
                pairs, pairs / 500.0, pairs / 400.0, ping.errors.empty() ? "" : ", with errors");
    std::printf("%d bots at %d tables of %d, %d hands each (one feltd, %d bot thread(s)):\n"
                "  connected %d, hands %ld in %.2f s: %.0f hands/s (every hand persisted)\n"
                "  actions %ld: round trip p50 %.2f ms, p99 %.2f ms\n"
                "  feltd resident memory %ld KiB before, %ld KiB at the peak: %.1f KiB a "
                "connection\n"
                "  CPU: feltd %.1f s, bots %.1f s; %.0f hands per feltd CPU-second\n"
                "  storage: %.0f writes in %.0f commits (%.1f a commit)\n"
                "  errors %zu%s%s\n",
                r.bots, o.tables, o.seats, o.hands, o.threads, r.connected, r.hands, r.seconds,
                r.seconds > 0 ? static_cast<double>(r.hands) / r.seconds : 0, r.actions,
                r.percentile(50), r.percentile(99), base, peak.load(), per_conn, server_cpu,
                bots_cpu, server_cpu > 0 ? static_cast<double>(r.hands) / server_cpu : 0, writes,
                commits, commits > 0 ? writes / commits : 0, r.errors.size(),
                r.errors.empty() ? "" : ", first: ", r.errors.empty() ? "" : r.errors[0].c_str());
    return r.errors.empty() ? 0 : 1;
}
