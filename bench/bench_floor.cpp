// The floor under bench_load: the frames that feltd's poker tables exchange, over bare loopback
// TCP, with no WebSocket, no JSON, no engine and no database. Each of T tables has S connections;
// for every action the acting connection sends a request, and the server answers it with a reply
// to the actor and an update to each of the S seats, the next actor's marked as its turn, which
// makes that connection send the next request at once. That is the frame pattern of a hand on
// feltd (one `act` in; its reply and one `update` per seat out), with nothing else done.
//
// Server and clients share the machine as in bench_load: the server on --server-threads threads,
// each with its own epoll and its share of the tables; the clients on one thread. Whatever the
// real server does on top of this can only cost more, so the actions per second here bound what
// any server speaking this protocol can reach on this machine.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

struct Options {
    int tables = 1000;
    int seats = 6;
    int server_threads = 2;
    double seconds = 5.0;
    int request_bytes = 64; // an `act` frame
    int reply_bytes = 48;   // its reply (0: none, the update being the answer)
    int update_bytes = 160; // an `update`: one event and the next turn, without legal actions
    // The actor's reply and update in one write, as feltd sends them (it writes everything a
    // connection has waiting at once); --separate-reply writes them one by one.
    bool batch = true;
};

[[noreturn]] void die(const char* what) {
    std::perror(what);
    std::exit(1);
}

void set_options(int fd) {
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// One side of a connection and what has arrived on it that is not yet a whole message.
struct Conn {
    int fd = -1;
    int table = 0, seat = 0;
    std::size_t have = 0;
    char buf[4096];
};

// Reads what has arrived and hands each whole message to `take` (by its first byte, which also
// tells `size` how long it is). A short read means the socket is drained for now: with
// level-triggered epoll, more data will be reported again, so no read is spent on EAGAIN.
template <class Size, class Take>
void drain(Conn& c, Size size, Take take) {
    for (;;) {
        const std::size_t room = sizeof c.buf - c.have;
        const ssize_t r = recv(c.fd, c.buf + c.have, room, 0);
        if (r <= 0) return;
        c.have += static_cast<std::size_t>(r);
        std::size_t at = 0;
        while (at < c.have && c.have - at >= size(c.buf[at])) {
            take(c.buf[at]);
            at += size(c.buf[at]);
        }
        std::memmove(c.buf, c.buf + at, c.have - at);
        c.have -= at;
        if (static_cast<std::size_t>(r) < room) return;
    }
}

void write_all(int fd, const char* buf, std::size_t n) {
    while (n > 0) {
        const ssize_t w = send(fd, buf, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR || errno == EAGAIN) continue; // small frames: the buffer drains
            die("send");
        }
        buf += w;
        n -= static_cast<std::size_t>(w);
    }
}

// User and system CPU seconds this process has used.
struct Cpu {
    double user = 0, system = 0;
};

Cpu cpu_now() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return {s(u.ru_utime), s(u.ru_stime)};
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    bool as_json = false;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : "0";
        if (!std::strcmp(a, "--json"))
            as_json = true;
        else if (!std::strcmp(a, "--tables"))
            o.tables = std::atoi(v), ++i;
        else if (!std::strcmp(a, "--seats"))
            o.seats = std::atoi(v), ++i;
        else if (!std::strcmp(a, "--server-threads"))
            o.server_threads = std::atoi(v), ++i;
        else if (!std::strcmp(a, "--seconds"))
            o.seconds = std::atof(v), ++i;
        else if (!std::strcmp(a, "--update-bytes"))
            o.update_bytes = std::atoi(v), ++i;
        else if (!std::strcmp(a, "--reply-bytes"))
            o.reply_bytes = std::atoi(v), ++i;
        else if (!std::strcmp(a, "--separate-reply"))
            o.batch = false;
    }
    const int n = o.tables * o.seats;
    rlimit nofile{};
    getrlimit(RLIMIT_NOFILE, &nofile);
    nofile.rlim_cur = nofile.rlim_max;
    setrlimit(RLIMIT_NOFILE, &nofile);

    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) die("bind");
    socklen_t len = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    if (listen(listener, 4096) < 0) die("listen");

    // Connect every client and accept it; connection i is seat i % seats of table i / seats.
    std::vector<Conn> client(static_cast<std::size_t>(n)), server(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0)
            die("connect");
        const int s = accept(listener, nullptr, nullptr);
        if (s < 0) die("accept");
        for (int fd : {c, s}) set_options(fd);
        client[static_cast<std::size_t>(i)] = {c, i / o.seats, i % o.seats, 0, {}};
        server[static_cast<std::size_t>(i)] = {s, i / o.seats, i % o.seats, 0, {}};
    }
    close(listener);
    for (auto* side : {&client, &server})
        for (Conn& c : *side) fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) | O_NONBLOCK);

    std::atomic<bool> running{true};
    std::atomic<long> actions{0};
    const std::vector<char> request(static_cast<std::size_t>(o.request_bytes), 'a');
    const std::vector<char> reply(static_cast<std::size_t>(o.reply_bytes), 'r');
    std::vector<char> update(static_cast<std::size_t>(o.update_bytes), 'u'), turn = update;
    turn[0] = 'T';                          // the first byte tells the next actor it is its turn
    std::vector<char> reply_update = reply; // the actor's two frames, for one write
    reply_update.insert(reply_update.end(), update.begin(), update.end());
    const bool batch = o.batch && !reply.empty() && o.seats > 1;

    // The server: thread k owns the tables t with t % threads == k. On a complete request from a
    // seat: the reply to it, then an update to every seat of its table, the next seat's a turn.
    auto serve = [&](int k) {
        const int ep = epoll_create1(0);
        for (Conn& c : server)
            if (c.table % o.server_threads == k) {
                epoll_event ev{EPOLLIN, {.ptr = &c}};
                epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
            }
        std::vector<epoll_event> events(256);
        while (running) {
            const int m = epoll_wait(ep, events.data(), static_cast<int>(events.size()), 50);
            for (int e = 0; e < m; ++e) {
                Conn& c = *static_cast<Conn*>(events[static_cast<std::size_t>(e)].data.ptr);
                drain(
                    c, [&](char) { return request.size(); },
                    [&](char) {
                        if (!reply.empty() && !batch) write_all(c.fd, reply.data(), reply.size());
                        const int next = (c.seat + 1) % o.seats;
                        for (int s = 0; s < o.seats; ++s) {
                            const auto& body = s == next              ? turn
                                               : batch && s == c.seat ? reply_update
                                                                      : update;
                            write_all(server[static_cast<std::size_t>(c.table * o.seats + s)].fd,
                                      body.data(), body.size());
                        }
                    });
            }
        }
        close(ep);
    };

    // The clients: every message read whole; a turn answered with the next request at once.
    auto play = [&] {
        const int ep = epoll_create1(0);
        for (Conn& c : client) {
            epoll_event ev{EPOLLIN, {.ptr = &c}};
            epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
        }
        // Every table's seat 0 starts.
        for (int t = 0; t < o.tables; ++t)
            write_all(client[static_cast<std::size_t>(t * o.seats)].fd, request.data(),
                      request.size());
        std::vector<epoll_event> events(256);
        long done = 0;
        while (running) {
            const int m = epoll_wait(ep, events.data(), static_cast<int>(events.size()), 50);
            for (int e = 0; e < m; ++e) {
                Conn& c = *static_cast<Conn*>(events[static_cast<std::size_t>(e)].data.ptr);
                drain(
                    c, [&](char first) { return first == 'r' ? reply.size() : update.size(); },
                    [&](char first) {
                        if (first != 'T') return;
                        ++done; // one turn for every action
                        write_all(c.fd, request.data(), request.size());
                    });
            }
            actions = done;
        }
        close(ep);
    };

    const Cpu cpu0 = cpu_now();
    std::vector<std::thread> threads;
    for (int k = 0; k < o.server_threads; ++k) threads.emplace_back(serve, k);
    threads.emplace_back(play);
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
    const long counted = actions.load();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Cpu cpu1 = cpu_now();
    const double user = cpu1.user - cpu0.user, system = cpu1.system - cpu0.system;
    running = false;
    for (auto& t : threads) t.join();

    const double per_s = static_cast<double>(counted) / wall;
    const int per_action = 1 + (o.reply_bytes > 0) + o.seats; // request, reply, updates
    if (as_json)
        std::printf("{\"kind\":\"floor\",\"tables\":%d,\"seats\":%d,\"seconds\":%.3f,"
                    "\"actions_per_second\":%.1f,\"frames_per_second\":%.1f,"
                    "\"cpu_user\":%.3f,\"cpu_system\":%.3f,\"batched\":%s}\n",
                    o.tables, o.seats, wall, per_s, per_s * per_action, user, system,
                    batch ? "true" : "false");
    else
        std::printf(
            "bench_floor: %d tables x %d seats over loopback TCP, %d server thread(s) and one "
            "client thread, %.1f s\n"
            "  frames an action: 1 request (%d B), %d reply (%d B), %d updates (%d B)%s\n"
            "  %.0f actions/s, %.0f frames/s; CPU %.2f s user + %.2f s system over %.2f s of "
            "wall time\n"
            "  hands/s at 25 actions a hand: %.0f (at 20: %.0f)\n"
            "  mean action round trip by Little's law (tables / actions per second): %.2f ms\n",
            o.tables, o.seats, o.server_threads, wall, o.request_bytes, o.reply_bytes > 0 ? 1 : 0,
            o.reply_bytes, o.seats, o.update_bytes,
            batch ? "; the reply and the actor's update in one write" : "", per_s,
            per_s * per_action, user, system, wall, per_s / 25, per_s / 20,
            per_s > 0 ? 1000.0 * o.tables / per_s : 0.0);
    for (Conn& c : client) close(c.fd);
    for (Conn& c : server) close(c.fd);
    return 0;
}
