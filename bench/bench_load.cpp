// Load on feltd: a real feltd (started here, on a fresh database in a temporary folder) and many
// bots side by side on this machine, playing six-seat no-limit hold'em through the WebSocket
// protocol with every hand persisted. The bots join in steps of tables; at each step, once every
// bot has its seat and a warm-up has passed, a window of play is measured: actions and hands a
// second, the action round trip (sent to its reply: p50, p99, max), feltd's and the bots' CPU,
// feltd's resident memory per connection, and the database's bytes.
//
//   bench_load [--tables T | --steps T1,T2,...] [--seats S] [--seconds W] [--warmup S]
//              [--think MIN-MAX] [--sources N] [--sample-every S] [--threads N]
//              [--feltd PATH] [--floor PATH | --no-floor] [--db URL [--nodes N]] [--ping] [--keep]
//              [--json]
//
// Saturation (no --think): the bots act the moment it is their turn. The floor runs first, back
// to back: bench_floor's bare-TCP frames at the same tables, and the ratio of feltd's actions a
// second to the floor's is printed. A person's pace (--think 1000-4000): each decision waits a
// random 1 to 4 seconds, and --steps draws the curve of tables against the round trip and CPU.
// --sample-every prints feltd's memory and the database's size every S seconds of a window: run
// a long window to see whether memory stays flat.
//
// --db gives feltd a PostgreSQL database (an empty one: postgresql://felt@127.0.0.1:PORT/bench)
// instead of a fresh SQLite file; the windows then report the database's size from PostgreSQL
// and the CPU of this machine's postgres processes beside feltd's and the bots'. --nodes N starts
// N feltd nodes on that one database (node ids bench1..benchN) and spreads the tables over them
// evenly, each node's bots a fleet of their own; CPU, memory and hands are the nodes' sums.
// --keep leaves the database in its temporary folder. --json prints one JSON object a line:
// "floor", "step", "sample", "ratio", "ping" and "tournament".
//
// --tournament N [--level-hands H]: instead, one multi-table freezeout of N entrants at 9-seat
// tables, levels in hands (every H hands dealt at all its tables, 40 by default; the blinds
// double from 10/20, and stacks are 1,500 chips), registered for and played
// by N bots at full speed: the time from its start to its end, hands a second, the longest a
// table waited for a balancing or break decision (feltd's own figure), and feltd's memory
// sampled every 200 ms from the start to the end (the status is asked as often, so times are
// good to 0.2 s). --rebuys R: rebuys in its first two levels (at most 1,500 chips, 1,500 more),
// each bot taking up to R of them as it loses its chips; the rebuys taken are the pool less the
// entries (a buy-in of 1). With --nodes, the bots connect to every node in turn, and those of
// the other nodes follow `moved` to the tournament's (the first node, whose memory is sampled).
#include "bot.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// A number from a /proc file of the form "Key: value ..." (0 when missing).
long proc_field(const std::string& file, const std::string& key) {
    std::ifstream in(file);
    std::string k;
    long value = 0;
    while (in >> k) {
        if (k == key) {
            in >> value;
            return value;
        }
        in.ignore(1 << 12, '\n');
    }
    return 0;
}

long rss_kib(pid_t pid) {
    return proc_field("/proc/" + std::to_string(pid) + "/status", "VmRSS:");
}

// Bytes the process has caused to be written to storage (its database: feltd logs only errors).
long written_bytes(pid_t pid) {
    return proc_field("/proc/" + std::to_string(pid) + "/io", "write_bytes:");
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

bool is_postgres(const std::string& db) {
    return db.rfind("postgres", 0) == 0 || db.find('=') != std::string::npos;
}

// The CPU time of every process of this machine named postgres: the database server's.
double postgres_cpu_seconds() {
    double total = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string comm;
        std::getline(std::ifstream(entry.path() / "comm"), comm);
        if (comm == "postgres") total += cpu_seconds(static_cast<pid_t>(std::stol(name)));
    }
    return total;
}

// One number that psql reads from a PostgreSQL database (0 when it cannot).
long psql_number(const std::string& db, const std::string& sql) {
    const std::string cmd = "psql -tAXc \"" + sql + "\" '" + db + "' 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return 0;
    long n = 0;
    if (std::fscanf(p, "%ld", &n) != 1) n = 0;
    pclose(p);
    return n;
}

// Bytes written for the database: by feltd's process for SQLite; for PostgreSQL, the bytes of
// write-ahead log the server has written (every change goes through it first).
long written_for(const std::string& db, pid_t feltd) {
    if (is_postgres(db)) return psql_number(db, "SELECT pg_current_wal_lsn() - '0/0'");
    return written_bytes(feltd);
}

// The database's bytes on disk: the file and its write-ahead log; for PostgreSQL, what
// pg_database_size says.
long db_bytes(const std::string& db) {
    if (is_postgres(db)) return psql_number(db, "SELECT pg_database_size(current_database())");
    long total = 0;
    for (const char* suffix : {"", "-wal"}) {
        std::error_code ec;
        const auto n = std::filesystem::file_size(db + suffix, ec);
        if (!ec) total += static_cast<long>(n);
    }
    return total;
}

// bench_floor at the same tables, with its JSON line read back (null when it failed).
json run_floor(const std::string& path, int tables, int seats, double seconds) {
    const std::string command = path + " --tables " + std::to_string(tables) + " --seats " +
                                std::to_string(seats) + " --seconds " + std::to_string(seconds) +
                                " --json";
    FILE* p = popen(command.c_str(), "r");
    if (!p) return nullptr;
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    if (pclose(p) != 0) return nullptr;
    return json::parse(out, nullptr, false);
}

struct Args {
    std::string feltd, floor, db; // db: a PostgreSQL URL, or "" for SQLite
    bool no_floor = false, ping = false, as_json = false, keep = false;
    int nodes = 1;
    int tournament = 0; // entrants of a tournament to run instead of the steps
    int level_hands = 40;
    std::vector<int> steps{1000};
    double seconds = 10, warmup = 3, sample_every = 0;
    felt::bot::Options bots;
};

std::vector<int> parse_steps(const std::string& text) {
    std::vector<int> out;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) out.push_back(std::atoi(part.c_str()));
    return out;
}

Args parse(int argc, char** argv) {
    Args a;
    const auto here = std::filesystem::path(argv[0]).parent_path();
    a.feltd = (here / "feltd").string();
    a.floor = (here / "bench_floor").string();
    a.bots.seats = 6;
    // The feltd below allows 1,000 messages a second a connection: the bots need not pace.
    a.bots.rate = 900;
    a.bots.burst = 900;
    a.bots.sources = 8;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        const std::string v = i + 1 < argc ? argv[i + 1] : "";
        auto take = [&] { ++i; };
        if (k == "--no-floor")
            a.no_floor = true;
        else if (k == "--ping")
            a.ping = true;
        else if (k == "--json")
            a.as_json = true;
        else if (k == "--keep")
            a.keep = true;
        else if (k == "--feltd")
            a.feltd = v, take();
        else if (k == "--floor")
            a.floor = v, take();
        else if (k == "--db")
            a.db = v, take();
        else if (k == "--tournament")
            a.tournament = std::atoi(v.c_str()), take();
        else if (k == "--rebuys")
            a.bots.rebuys = std::max(0, std::atoi(v.c_str())), take();
        else if (k == "--level-hands")
            a.level_hands = std::max(1, std::atoi(v.c_str())), take();
        else if (k == "--nodes")
            a.nodes = std::max(1, std::atoi(v.c_str())), take();
        else if (k == "--tables" || k == "--steps")
            a.steps = parse_steps(v), take();
        else if (k == "--seats")
            a.bots.seats = std::atoi(v.c_str()), take();
        else if (k == "--seconds")
            a.seconds = std::atof(v.c_str()), take();
        else if (k == "--warmup")
            a.warmup = std::atof(v.c_str()), take();
        else if (k == "--sample-every")
            a.sample_every = std::atof(v.c_str()), take();
        else if (k == "--threads")
            a.bots.threads = std::atoi(v.c_str()), take();
        else if (k == "--sources")
            a.bots.sources = std::atoi(v.c_str()), take();
        else if (k == "--think") {
            if (!felt::bot::parse_think(v, a.bots)) {
                std::fprintf(stderr, "bench_load: --think takes MIN-MAX milliseconds, not %s\n",
                             v.c_str());
                std::exit(2);
            }
            take();
        } else {
            std::fprintf(stderr, "bench_load: unknown argument %s (see the file's header)\n",
                         k.c_str());
            std::exit(2);
        }
    }
    if (a.nodes > 1 && !is_postgres(a.db)) {
        std::fprintf(stderr, "bench_load: --nodes needs --db with a PostgreSQL database\n");
        std::exit(2);
    }
    return a;
}

// Adds what one fleet saw to the whole's report.
void merge(felt::bot::Report& into, felt::bot::Report from) {
    into.bots += from.bots;
    into.connected += from.connected;
    into.hands += from.hands;
    into.actions += from.actions;
    into.broke += from.broke;
    into.latencies_ms.insert(into.latencies_ms.end(), from.latencies_ms.begin(),
                             from.latencies_ms.end());
    for (std::string& e : from.errors)
        if (into.errors.size() < 20) into.errors.push_back(std::move(e));
}

void print(const Args& a, const json& line, const std::string& text) {
    if (a.as_json)
        std::printf("%s\n", line.dump().c_str());
    else
        std::printf("%s\n", text.c_str());
    std::fflush(stdout);
}

std::string format(const char* f, auto... v) {
    char buf[1024];
    std::snprintf(buf, sizeof buf, f, v...);
    return buf;
}

} // namespace

// A reply's JSON, or null.
json reply_of(const std::vector<std::string>& replies, std::size_t k) {
    return k < replies.size() ? json::parse(replies[k], nullptr, false) : json();
}

// --tournament: one multi-table freezeout played by bots; feltd's memory sampled as it runs.
int run_tournament(const Args& a, pid_t pid, const std::vector<int>& ports, felt::bot::Options o) {
    const int n = a.tournament;
    const int start_in_s = 10 + n / 40; // time for every bot to register
    json levels = json::array();
    for (const auto& [small, big] : {std::pair{10, 20}, {20, 40}, {40, 80}, {80, 160}})
        levels.push_back({{"small_blind", small}, {"big_blind", big}, {"hands", a.level_hands}});
    const json create = {{"type", "create_tournament"},
                         {"format", "multi-table"},
                         {"seats", 9},
                         {"max_entrants", n},
                         {"buy_in", 1},
                         {"starting_stack", 1500},
                         {"hand_delay_ms", 0},
                         {"decision_ms", 30000},
                         {"start_in_s", start_in_s},
                         {"levels", levels}};
    json config = create;
    if (o.rebuys > 0) { // rebuys during the first two levels, at most a starting stack
        config["rebuy_levels"] = 2;
        config["rebuy_stack"] = 1500;
        config["rebuy_stack_limit"] = 1500;
    }
    std::string error;
    const auto made = felt::bot::exchange(o, {R"({"type":"guest"})", config.dump()}, error);
    const json created = reply_of(made, 1);
    if (!created.is_object() || !created.contains("tournament")) {
        std::printf("create_tournament failed: %s %s\n", error.c_str(), created.dump().c_str());
        return 1;
    }
    const std::int64_t id = created["tournament"];
    auto view = [&] {
        std::string e;
        const auto r = felt::bot::exchange(
            o, {R"({"type":"guest"})", json{{"type", "tournament"}, {"tournament", id}}.dump()}, e);
        const json v = reply_of(r, 1);
        return v.is_object() && v.contains("tournament") ? v["tournament"] : json();
    };
    o.tournament = id;
    // On a cluster the bots connect to every node in turn: those of the other nodes are sent to
    // the tournament's (moved).
    std::vector<felt::bot::Options> fleets;
    for (std::size_t k = 0; k < ports.size(); ++k) {
        felt::bot::Options f = o;
        f.port = std::to_string(ports[k]);
        f.seats = n / static_cast<int>(ports.size()) +
                  (static_cast<int>(k) < n % static_cast<int>(ports.size()) ? 1 : 0);
        if (f.seats > 0) fleets.push_back(f);
    }
    felt::bot::Report report;
    std::thread bots([&] {
        std::vector<felt::bot::Report> each(fleets.size());
        std::vector<std::thread> runs;
        for (std::size_t k = 0; k < fleets.size(); ++k)
            runs.emplace_back([&, k] { each[k] = felt::bot::run(fleets[k]); });
        for (auto& r : runs) r.join();
        for (auto& r : each) {
            report.places.insert(report.places.end(), r.places.begin(), r.places.end());
            merge(report, std::move(r));
        }
    });
    // Samples: its status and feltd's memory every 200 ms while it runs.
    std::vector<std::pair<double, long>> rss;
    Clock::time_point started{}, ended{};
    std::string status;
    const auto t0 = Clock::now();
    while (Clock::now() - t0 < std::chrono::hours(2)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const json v = view();
        status = v.is_object() ? v.value("status", "") : "";
        if (started == Clock::time_point{} &&
            (status == "running" || status == "break" || status == "finished"))
            started = Clock::now();
        if (started != Clock::time_point{})
            rss.emplace_back(std::chrono::duration<double>(Clock::now() - started).count(),
                             rss_kib(pid));
        if (status == "finished" || status == "cancelled") {
            ended = Clock::now();
            break;
        }
    }
    bots.join();
    const json v = view();
    const double seconds = std::chrono::duration<double>(ended - started).count();
    const long hands = v.value("hands", 0L), wait = v.value("longest_wait_ms", 0L);
    long peak = 0;
    for (const auto& [t, kib] : rss) peak = std::max(peak, kib);
    json samples = json::array();
    for (const auto& [t, kib] : rss) samples.push_back({t, kib});
    const long first = rss.empty() ? 0 : rss.front().second,
               last = rss.empty() ? 0 : rss.back().second;
    int placed = 0;
    for (int p : report.places) placed += p > 0;
    print(a,
          {{"kind", "tournament"},
           {"entrants", n},
           {"level_hands", a.level_hands},
           {"status", status},
           {"seconds", seconds},
           {"hands", hands},
           {"hands_per_second", seconds > 0 ? hands / seconds : 0},
           {"longest_wait_ms", wait},
           {"rss_kib_start", first},
           {"rss_kib_peak", peak},
           {"rss_kib_end", last},
           {"rss_samples", samples},
           {"placed", placed},
           {"nodes", a.nodes},
           {"rebuys", v.value("pool", 0L) - n},
           {"errors", report.errors}},
          format("tournament of %d entrants at 9-seat tables, levels of %d hands: %s in %.1f s "
                 "from its start, %ld hands (%.1f a second); the longest wait for a balancing or "
                 "break decision %ld ms; feltd %ld KiB at the start, %ld at the peak, %ld at the "
                 "end; %d bots placed; %ld rebuys; %d node(s); errors %zu%s%s",
                 n, a.level_hands, status.c_str(), seconds, hands,
                 seconds > 0 ? hands / seconds : 0, wait, first, peak, last, placed,
                 v.value("pool", 0L) - n, a.nodes, report.errors.size(),
                 report.errors.empty() ? "" : ", first: ",
                 report.errors.empty() ? "" : report.errors[0].c_str()));
    return status == "finished" && report.errors.empty() ? 0 : 1;
}

int main(int argc, char** argv) {
    const Args a = parse(argc, argv);
    const bool paced = a.bots.think_max_ms > 0;

    // The floor first, before feltd exists, so that nothing else runs beside it.
    json floor = nullptr;
    if (!paced && !a.no_floor && a.tournament == 0) {
        floor = run_floor(a.floor, a.steps.back(), a.bots.seats, a.seconds);
        if (floor.is_null()) {
            std::printf("bench_floor did not run (%s)\n", a.floor.c_str());
            return 1;
        }
        print(a, floor,
              format("floor (bench_floor, bare loopback TCP, %d tables of %d, %.0f s): %.0f "
                     "actions/s",
                     a.steps.back(), a.bots.seats, a.seconds,
                     floor["actions_per_second"].get<double>()));
    }

    char tmpl[] = "/tmp/felt_load_XXXXXX";
    if (!mkdtemp(tmpl)) return 1;
    const std::string dir = tmpl, db = a.db.empty() ? dir + "/felt.db" : a.db;
    std::vector<pid_t> pids;
    std::vector<int> ports;
    for (int k = 1; k <= a.nodes; ++k) {
        const std::string port_file = dir + "/port" + std::to_string(k),
                          node = "bench" + std::to_string(k);
        const pid_t pid = fork();
        if (pid == 0) {
            execl(a.feltd.c_str(), a.feltd.c_str(), "--port", "0", "--port-file", port_file.c_str(),
                  "--db", db.c_str(), "--node-id", node.c_str(), "--log-level", "error",
                  "--per-address", "1000000", "--http-connections", "1000000", "--rate", "1000",
                  "--burst", "1000", "--accounts-per-hour", "100000000", "--tables-per-account",
                  "1000000", static_cast<char*>(nullptr));
            _exit(127);
        }
        int port = 0;
        for (int i = 0; i < 400 && port == 0; ++i) {
            std::ifstream(port_file) >> port;
            if (!port) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (!port) {
            std::printf("feltd did not start (%s)\n", a.feltd.c_str());
            return 1;
        }
        pids.push_back(pid);
        ports.push_back(port);
    }
    // The nodes' sums.
    auto cpu_of_nodes = [&] {
        double t = 0;
        for (pid_t p : pids) t += cpu_seconds(p);
        return t;
    };
    auto rss_of_nodes = [&] {
        long t = 0;
        for (pid_t p : pids) t += rss_kib(p);
        return t;
    };
    auto counter_of_nodes = [&](const char* name) {
        double t = 0;
        for (int p : ports) t += counter(metrics(p), name);
        return t;
    };
    const pid_t pid = pids.front();
    const int port = ports.front();
    felt::bot::Options o = a.bots;
    o.port = std::to_string(port);
    if (a.tournament > 0) {
        const int failed = run_tournament(a, pid, ports, o);
        for (pid_t p : pids) {
            kill(p, SIGTERM);
            waitpid(p, nullptr, 0);
        }
        if (!a.keep) std::filesystem::remove_all(dir);
        return failed;
    }

    if (a.ping) { // request/reply pairs, for scale: 64 connections pinging for 5 seconds
        const felt::bot::PingReport ping = felt::bot::ping_flood(o, 64, 5.0);
        const double pairs = ping.seconds > 0 ? static_cast<double>(ping.pairs) / ping.seconds : 0;
        print(a, {{"kind", "ping"}, {"pairs_per_second", pairs}, {"errors", ping.errors.size()}},
              format("ping, 64 connections, 5 s: %.0f request/reply pairs a second%s", pairs,
                     ping.errors.empty() ? "" : ", with errors"));
    }

    const long base_kib = rss_of_nodes();
    int failures = 0;
    json last_step;
    {
        std::vector<std::unique_ptr<felt::bot::Fleet>> fleets;
        for (int p : ports) {
            felt::bot::Options on = o;
            on.port = std::to_string(p);
            fleets.push_back(std::make_unique<felt::bot::Fleet>(on));
        }
        auto seated = [&] {
            int n = 0;
            for (auto& f : fleets) n += f->seated();
            return n;
        };
        auto take = [&] {
            felt::bot::Report r;
            for (auto& f : fleets) merge(r, f->take());
            return r;
        };
        const int n = static_cast<int>(fleets.size());
        int tables = 0;
        for (const int step : a.steps) {
            for (int k = 0; k < n; ++k) // evenly over the nodes
                fleets[static_cast<std::size_t>(k)]->add_tables(
                    step * (k + 1) / n - tables * (k + 1) / n - (step * k / n - tables * k / n));
            tables = step;
            const int want = tables * o.seats;
            const auto t_join = Clock::now();
            while (seated() < want && Clock::now() - t_join < std::chrono::seconds(300))
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const double join_s = std::chrono::duration<double>(Clock::now() - t_join).count();
            std::this_thread::sleep_for(std::chrono::duration<double>(a.warmup));
            take(); // the warm-up's figures are not counted
            const bool pg = is_postgres(db);
            const double feltd0 = cpu_of_nodes(), bots0 = own_cpu_seconds(),
                         pg0 = pg ? postgres_cpu_seconds() : 0;
            const long written0 = written_for(db, pid);
            const double hands0 = counter_of_nodes("felt_hands_played_total");
            const auto t0 = Clock::now();
            long peak_kib = rss_of_nodes();
            const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(a.seconds));
            auto next_sample = t0;
            while (Clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                peak_kib = std::max(peak_kib, rss_of_nodes());
                if (a.sample_every > 0 && Clock::now() >= next_sample) {
                    next_sample += std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(a.sample_every));
                    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
                    const long kib = rss_of_nodes();
                    const double hands = counter_of_nodes("felt_hands_played_total");
                    print(a,
                          {{"kind", "sample"},
                           {"tables", tables},
                           {"seconds", t},
                           {"rss_kib", kib},
                           {"hands", hands},
                           {"db_bytes", db_bytes(db)}},
                          format("  %6.0f s: feltd %ld KiB, %.0f hands in all, database %.1f MiB",
                                 t, kib, hands, static_cast<double>(db_bytes(db)) / 1048576.0));
                }
            }
            const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
            const felt::bot::Report r = take();
            const double feltd_cpu = cpu_of_nodes() - feltd0, bots_cpu = own_cpu_seconds() - bots0,
                         pg_cpu = pg ? postgres_cpu_seconds() - pg0 : 0;
            const double hands_played = counter_of_nodes("felt_hands_played_total");
            const double hands = hands_played - hands0;
            const double writes = counter_of_nodes("felt_storage_writes_total"),
                         commits = counter_of_nodes("felt_storage_commits_total");
            const long written = written_for(db, pid) - written0;
            const long end_kib = rss_of_nodes();
            const double per_conn = r.connected ? static_cast<double>(end_kib - base_kib) /
                                                      static_cast<double>(r.connected)
                                                : 0;
            const double actions_s = static_cast<double>(r.actions) / wall;
            const double max_ms = r.latencies_ms.empty() ? 0
                                                         : *std::max_element(r.latencies_ms.begin(),
                                                                             r.latencies_ms.end());
            failures +=
                static_cast<int>(r.errors.size()) + (r.connected < want) + (seated() < want);
            last_step = {{"kind", "step"},
                         {"tables", tables},
                         {"nodes", n},
                         {"connections", r.connected},
                         {"seated", seated()},
                         {"join_seconds", join_s},
                         {"think_ms", {o.think_min_ms, o.think_max_ms}},
                         {"seconds", wall},
                         {"actions", r.actions},
                         {"actions_per_second", actions_s},
                         {"hands_per_second", hands / wall},
                         {"p50_ms", r.percentile(50)},
                         {"p99_ms", r.percentile(99)},
                         {"max_ms", max_ms},
                         {"feltd_cpu_percent", 100 * feltd_cpu / wall},
                         {"bots_cpu_percent", 100 * bots_cpu / wall},
                         {"postgres_cpu_percent", 100 * pg_cpu / wall},
                         {"rss_kib", end_kib},
                         {"peak_rss_kib", peak_kib},
                         {"base_rss_kib", base_kib},
                         {"kib_per_connection", per_conn},
                         {"written_bytes_per_hand", hands > 0 ? written / hands : 0},
                         {"db_bytes", db_bytes(db)},
                         {"hands_played", hands_played},
                         {"storage_writes_per_commit", commits > 0 ? writes / commits : 0},
                         {"errors", r.errors}};
            print(a, last_step,
                  format(
                      "%d tables of %d%s (%d connected, %d seated in %.1f s)%s, %.0f s:\n"
                      "  %.0f actions/s, %.1f hands/s (every hand persisted); round trip "
                      "p50 %.2f ms, p99 %.2f ms, max %.1f ms\n"
                      "  CPU: feltd %.0f%%, bots %.0f%%%s (of one core); feltd %ld KiB "
                      "(%ld before the bots): %.1f KiB a connection\n"
                      "  database: %.0f bytes written a hand, %.1f MiB after %.0f hands; "
                      "errors %zu%s%s",
                      tables, o.seats, n > 1 ? format(" on %d nodes", n).c_str() : "", r.connected,
                      seated(), join_s,
                      paced ? format(", thinking %d-%d ms", o.think_min_ms, o.think_max_ms).c_str()
                            : "",
                      wall, actions_s, hands / wall, r.percentile(50), r.percentile(99), max_ms,
                      100 * feltd_cpu / wall, 100 * bots_cpu / wall,
                      pg ? format(", PostgreSQL %.0f%%", 100 * pg_cpu / wall).c_str() : "", end_kib,
                      base_kib, per_conn, hands > 0 ? static_cast<double>(written) / hands : 0,
                      static_cast<double>(db_bytes(db)) / 1048576.0, hands_played, r.errors.size(),
                      r.errors.empty() ? "" : ", first: ",
                      r.errors.empty() ? "" : r.errors[0].c_str()));
        }
    }
    for (pid_t p : pids) kill(p, SIGTERM);
    for (pid_t p : pids) {
        int status = 0;
        waitpid(p, &status, 0);
    }
    if (a.keep)
        std::fprintf(stderr, "bench_load: the database is kept in %s\n", db.c_str());
    else
        std::filesystem::remove_all(dir);

    if (!floor.is_null() && !last_step.is_null()) {
        const double f = floor["actions_per_second"], l = last_step["actions_per_second"];
        print(a,
              {{"kind", "ratio"},
               {"floor_actions_per_second", f},
               {"feltd_actions_per_second", l},
               {"share_of_floor", f > 0 ? l / f : 0}},
              format("feltd reaches %.0f%% of the floor (%.0f of %.0f actions a second)",
                     f > 0 ? 100 * l / f : 0, l, f));
    }
    return failures == 0 ? 0 : 1;
}
