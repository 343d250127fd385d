// The floor under bench_load: the frames that feltd's poker tables exchange, over bare loopback
// TCP, with no WebSocket, no JSON, no engine and no database. Each of T tables has S connections;
// for every action the acting connection sends a request, and the server answers it with a reply
// to the actor and an update to each of the S seats, the next actor's marked as its turn, which
// makes that connection send the next request at once. That is the frame pattern of a hand on
// feltd (one `act` in; its reply and one `update` per seat out), with nothing else done.
//
// A hand ends every --hand-actions actions (27 by default, as feltd's hold'em bots play; 0: never),
// and then, as on feltd, each seat gets two more writes of its own: the hand's end with its
// fairness reveal (--end-bytes, 4,640 as feltd's), then the next deal (--deal-bytes, 460: the
// hand's start and its first update, the first actor's with its turn). The last action's updates
// give nobody a turn.
//
// Server and clients share the machine as in bench_load: the server on --server-threads threads,
// each with its own epoll and its share of the tables; the clients on one thread. Whatever the
// real server does on top of this can only cost more, so the actions per second here bound what
// any server speaking this protocol can reach on this machine.
//
// --asio runs the server side on Boost.Asio the way feltd does, with nothing else: one io_context
// run by --server-threads threads, a strand for each connection and for each table, a request
// read on its connection's strand and handed to its table's strand, each seat's frames handed to
// that seat's strand and written there, everything waiting for a connection in one write. It
// shows what feltd's model of threads and hand-offs costs before any WebSocket, JSON, game or
// database work (docs/benchmarks.md, "Capacity"). --table-strand is --asio with each connection
// on its table's strand, so that no frame is handed from one strand to another.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <utility>
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
    int hand_actions = 27;  // actions a hand (0: hands never end)
    int end_bytes = 4640;   // a hand's end with its fairness reveal, to each seat
    int deal_bytes = 460;   // the next hand's start and first update, to each seat
    // The actor's reply and update in one write, as feltd sends them (it writes everything a
    // connection has waiting at once); --separate-reply writes them one by one.
    bool batch = true;
    bool asio = false;         // the server on Asio's strands, as feltd's is
    bool table_strand = false; // --asio with each connection on its table's strand
};

// Counts an action at a table whose count so far is `played`: true when it ends a hand (every
// `hand_actions`th; never when that is 0). Both server models end hands by this one rule.
bool ends_hand(int& played, int hand_actions) {
    return hand_actions > 0 && ++played % hand_actions == 0;
}

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
    char buf[8192]; // the largest frame whole: a hand's end
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

namespace net = boost::asio;
using Body = std::shared_ptr<const std::vector<char>>;

// The server side on Asio, shaped as feltd's: see the file's header.
class AsioServer {
  public:
    // `bodies(seat, actor, seats, last)`: what a seat is sent for an action (one or two frames);
    // `last`: the action ends a hand. `hand(seat, next)`: the writes of a hand's end and the next
    // deal, one after the other.
    using Bodies = std::function<std::vector<Body>(int seat, int actor, int seats, bool last)>;
    using HandBodies = std::function<std::vector<Body>(int seat, int next)>;

    AsioServer(const std::vector<Conn>& fds, const Options& o, Bodies bodies, HandBodies hand)
        : ioc_(o.server_threads), seats_(o.seats),
          request_(static_cast<std::size_t>(o.request_bytes)), one_strand_(o.table_strand),
          hand_actions_(o.hand_actions), bodies_(std::move(bodies)), hand_(std::move(hand)),
          played_(static_cast<std::size_t>(o.tables)) {
        for (int t = 0; t < o.tables; ++t) tables_.push_back(net::make_strand(ioc_));
        for (const Conn& c : fds) {
            auto s = std::make_unique<Side>(one_strand_ ? tables_[static_cast<std::size_t>(c.table)]
                                                        : net::make_strand(ioc_),
                                            c.table, c.seat);
            s->socket.assign(net::ip::tcp::v4(), c.fd);
            sides_.push_back(std::move(s));
        }
    }
    ~AsioServer() {
        for (auto& s : sides_) s->socket.release(); // the caller closes the descriptors
    }

    void run(int threads) {
        for (auto& s : sides_) read(*s);
        for (int k = 0; k < threads; ++k) threads_.emplace_back([this] { ioc_.run(); });
    }
    void stop() {
        ioc_.stop();
        for (auto& t : threads_) t.join();
    }

  private:
    struct Side {
        Side(net::strand<net::io_context::executor_type> s, int t, int seat)
            : strand(s), socket(s), table(t), seat(seat) {}
        net::strand<net::io_context::executor_type> strand;
        net::ip::tcp::socket socket;
        int table, seat;
        std::array<char, 4096> buf{};
        std::size_t have = 0;
        std::vector<Body> waiting, writing;
        std::vector<net::const_buffer> buffers;
        bool busy = false;
    };

    void read(Side& c) {
        c.socket.async_read_some(
            net::buffer(c.buf.data() + c.have, c.buf.size() - c.have),
            net::bind_executor(c.strand, [this, &c](boost::system::error_code ec, std::size_t n) {
                if (ec) return;
                c.have += n;
                std::size_t at = 0;
                for (; c.have - at >= request_; at += request_)
                    if (one_strand_)
                        act(c.table, c.seat);
                    else
                        net::post(tables_[static_cast<std::size_t>(c.table)],
                                  [this, table = c.table, actor = c.seat] { act(table, actor); });
                std::memmove(c.buf.data(), c.buf.data() + at, c.have - at);
                c.have -= at;
                read(c);
            }));
    }
    // On the table's strand: every seat's frames, handed to the seat's strand (queued at once
    // when that is the table's).
    void act(int table, int actor) {
        const bool last = ends_hand(played_[static_cast<std::size_t>(table)], hand_actions_);
        for (int s = 0; s < seats_; ++s) hand_over(table, s, bodies_(s, actor, seats_, last));
        if (!last) return;
        // Each its own write, as feltd's come from turns of the table of their own.
        const int next = (actor + 1) % seats_;
        for (int s = 0; s < seats_; ++s)
            for (const Body& b : hand_(s, next)) hand_over(table, s, {b});
    }
    void hand_over(int table, int seat, std::vector<Body> bodies) {
        Side& d = *sides_[static_cast<std::size_t>(table * seats_ + seat)];
        auto queue = [this, &d, bodies = std::move(bodies)] {
            d.waiting.insert(d.waiting.end(), bodies.begin(), bodies.end());
            if (!d.busy) write(d);
        };
        if (one_strand_)
            queue();
        else
            net::post(d.strand, std::move(queue));
    }
    void write(Side& d) {
        d.busy = true;
        d.writing.swap(d.waiting);
        d.buffers.clear();
        for (const Body& b : d.writing) d.buffers.push_back(net::buffer(*b));
        net::async_write(
            d.socket, d.buffers,
            net::bind_executor(d.strand, [this, &d](boost::system::error_code ec, std::size_t) {
                d.writing.clear();
                if (ec) return;
                if (!d.waiting.empty())
                    write(d);
                else
                    d.busy = false;
            }));
    }

    net::io_context ioc_;
    int seats_;
    std::size_t request_;
    bool one_strand_; // a connection on its table's strand
    int hand_actions_;
    Bodies bodies_;
    HandBodies hand_;
    std::vector<int> played_; // actions at each table, on its strand
    std::vector<net::strand<net::io_context::executor_type>> tables_;
    std::vector<std::unique_ptr<Side>> sides_;
    std::vector<std::thread> threads_;
};

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
    // The options that take a whole number.
    const std::pair<const char*, int*> numbers[] = {{"--tables", &o.tables},
                                                    {"--seats", &o.seats},
                                                    {"--server-threads", &o.server_threads},
                                                    {"--update-bytes", &o.update_bytes},
                                                    {"--reply-bytes", &o.reply_bytes},
                                                    {"--hand-actions", &o.hand_actions},
                                                    {"--end-bytes", &o.end_bytes},
                                                    {"--deal-bytes", &o.deal_bytes}};
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : "0";
        auto number =
            std::ranges::find_if(numbers, [a](auto& n) { return !std::strcmp(a, n.first); });
        if (number != std::end(numbers))
            *number->second = std::atoi(v), ++i;
        else if (!std::strcmp(a, "--seconds"))
            o.seconds = std::atof(v), ++i;
        else if (!std::strcmp(a, "--json"))
            as_json = true;
        else if (!std::strcmp(a, "--separate-reply"))
            o.batch = false;
        else if (!std::strcmp(a, "--asio"))
            o.asio = true;
        else if (!std::strcmp(a, "--table-strand"))
            o.asio = o.table_strand = true;
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
    // A hand's end, and the next deal ('D', or 'S' for the seat whose turn it is first).
    const std::vector<char> end(static_cast<std::size_t>(std::max(1, o.end_bytes)), 'E');
    std::vector<char> deal(static_cast<std::size_t>(std::max(1, o.deal_bytes)), 'D'),
        deal_turn = deal;
    deal_turn[0] = 'S';
    auto frame_size = [&](char first) -> std::size_t {
        switch (first) {
        case 'r':
            return reply.size();
        case 'E':
            return end.size();
        case 'D':
        case 'S':
            return deal.size();
        default:
            return update.size();
        }
    };
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
        std::vector<int> played(static_cast<std::size_t>(o.tables)); // this thread's tables'
        while (running) {
            const int m = epoll_wait(ep, events.data(), static_cast<int>(events.size()), 50);
            for (int e = 0; e < m; ++e) {
                Conn& c = *static_cast<Conn*>(events[static_cast<std::size_t>(e)].data.ptr);
                drain(
                    c, [&](char) { return request.size(); },
                    [&](char) {
                        const bool last =
                            ends_hand(played[static_cast<std::size_t>(c.table)], o.hand_actions);
                        if (!reply.empty() && !batch) write_all(c.fd, reply.data(), reply.size());
                        const int next = (c.seat + 1) % o.seats;
                        auto to = [&](int s, const std::vector<char>& body) {
                            write_all(server[static_cast<std::size_t>(c.table * o.seats + s)].fd,
                                      body.data(), body.size());
                        };
                        for (int s = 0; s < o.seats; ++s)
                            to(s, s == next && !last     ? turn
                                  : batch && s == c.seat ? reply_update
                                                         : update);
                        if (!last) return;
                        for (int s = 0; s < o.seats; ++s) to(s, end);
                        for (int s = 0; s < o.seats; ++s) to(s, s == next ? deal_turn : deal);
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
                drain(c, frame_size, [&](char first) {
                    if (first != 'T' && first != 'S') return;
                    ++done; // one turn for every action
                    write_all(c.fd, request.data(), request.size());
                });
            }
            actions = done;
        }
        close(ep);
    };

    std::unique_ptr<AsioServer> on_asio;
    if (o.asio) {
        auto frames = [](const std::vector<char>& v) {
            return std::make_shared<const std::vector<char>>(v);
        };
        const Body b_reply = frames(reply), b_update = frames(update), b_turn = frames(turn),
                   b_end = frames(end), b_deal = frames(deal), b_deal_turn = frames(deal_turn);
        on_asio = std::make_unique<AsioServer>(
            server, o,
            [=](int seat, int actor, int seats, bool last) {
                if (seat == (actor + 1) % seats && !last) return std::vector<Body>{b_turn};
                if (seat == actor && !reply.empty()) return std::vector<Body>{b_reply, b_update};
                return std::vector<Body>{b_update};
            },
            [=](int seat, int next) {
                return std::vector<Body>{b_end, seat == next ? b_deal_turn : b_deal};
            });
    }

    const Cpu cpu0 = cpu_now();
    std::vector<std::thread> threads;
    if (on_asio)
        on_asio->run(o.server_threads);
    else
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
    if (on_asio) on_asio->stop();

    const double per_s = static_cast<double>(counted) / wall;
    // Request, reply, updates; and a hand's end and deal to every seat, once a hand.
    const double per_action = 1 + (o.reply_bytes > 0) + o.seats +
                              (o.hand_actions > 0 ? 2.0 * o.seats / o.hand_actions : 0.0);
    const double hands = o.hand_actions > 0 ? per_s / o.hand_actions : 0.0;
    if (as_json)
        std::printf("{\"kind\":\"floor\",\"tables\":%d,\"seats\":%d,\"seconds\":%.3f,"
                    "\"actions_per_second\":%.1f,\"hands_per_second\":%.1f,"
                    "\"frames_per_second\":%.1f,\"cpu_user\":%.3f,\"cpu_system\":%.3f,"
                    "\"batched\":%s,\"asio\":%s,\"hand_actions\":%d}\n",
                    o.tables, o.seats, wall, per_s, hands, per_s * per_action, user, system,
                    batch ? "true" : "false", o.asio ? "true" : "false", o.hand_actions);
    else
        std::printf(
            "bench_floor: %d tables x %d seats over loopback TCP, %d server thread(s)%s and one "
            "client thread, %.1f s\n"
            "  frames an action: 1 request (%d B), %d reply (%d B), %d updates (%d B)%s\n"
            "  a hand: %d actions, then a write of its end (%d B) and one of the next deal (%d B) "
            "to each seat\n"
            "  %.0f actions/s, %.0f hands/s, %.0f frames/s; CPU %.2f s user + %.2f s system over "
            "%.2f s of wall time\n"
            "  mean action round trip by Little's law (tables / actions per second): %.2f ms\n",
            o.tables, o.seats, o.server_threads, o.asio ? " on Asio's strands" : "", wall,
            o.request_bytes, o.reply_bytes > 0 ? 1 : 0, o.reply_bytes, o.seats, o.update_bytes,
            batch ? "; the reply and the actor's update in one write" : "", o.hand_actions,
            o.end_bytes, o.deal_bytes, per_s, hands, per_s * per_action, user, system, wall,
            per_s > 0 ? 1000.0 * o.tables / per_s : 0.0);
    for (Conn& c : client) close(c.fd);
    for (Conn& c : server) close(c.fd);
    return 0;
}
