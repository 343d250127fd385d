// Bots that play through feltd's real protocol: each is a WebSocket connection that says hello,
// signs in as a guest, creates or joins a table, and plays random legal actions until it has seen
// its hands out. Many bots share one io_context; `felt bot` and the load benchmark use them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace felt::bot {

struct Options {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    int tables = 1;
    int seats = 6;   // bots per table (the table has as many seats)
    int hands = 10;  // each table plays this many hands, then its bots leave
    int threads = 1; // threads running the bots
    std::uint32_t seed = 1;
    int decision_ms = 5000;
    // Messages a second each bot sends at most, in bursts of `burst`: under feltd's default
    // limit (50 a second, bursts of 100), so that no bot is refused with rate_limited.
    double rate = 40, burst = 80;
    bool shove = false; // bet or raise all in whenever allowed (stacks go broke fast)
    // How the bots play (bots/poker_bot.h): "easy", "fair" or "strong" read every message into
    // a view of their seat and decide from it; "" plays the load generator's light way (mostly
    // check or call, reading only its turns), which leaves draws that must throw cards and
    // rollovers to the table's clock. `personality`: fair and strong's ("" for the default).
    std::string level;
    std::string personality;
    // An open table to join instead of creating one (0: create). The bots then number `seats`,
    // each buying in for twice the table's minimum (at most its maximum).
    std::int64_t join = 0;
    // A person's pace: each decision waits a random time, uniform from think_min_ms to
    // think_max_ms, before the action is sent (0, 0: at once). The round trip is timed from the
    // send, so thinking is not counted in it.
    int think_min_ms = 0, think_max_ms = 0;
    // Loopback source addresses the bots connect from, 127.0.0.1 to 127.0.0.N, the bot's number
    // modulo N (1: let the system choose). One source address has about 28,000 local ports.
    int sources = 1;
    // A tournament to register for instead of creating tables (0: none): `seats` bots register,
    // play until they are out (following their table), and stop once it ends for them.
    // `tokens`: the sessions of bots registered before (a run taken up again): those sign in with
    // them (`resume`) instead of registering, and are seated again if the tournament runs.
    std::int64_t tournament = 0;
    // The sessions of an earlier run's bots, the k-th for bot k (table t's seat s is bot
    // t * seats + s): those sign in with them (`resume`) instead of as new guests. At tables, an
    // account that is gone (another server, lapsed) or too poor for the buy-in is replaced by a
    // new guest.
    std::vector<std::string> tokens;
    // In a tournament's entry period: how many rebuys each bot takes, one each time it loses its
    // chips while it may rebuy (a rebuy refused, too late, is no error: the bot waits for its
    // place).
    int rebuys = 0;
};

struct Report {
    int bots = 0;
    int connected = 0;
    long hands = 0;   // hands that ended, counted once per table
    long actions = 0; // actions sent
    int broke = 0;    // bots cashed out with nothing left (not an error)
    double seconds = 0;
    std::vector<double> latencies_ms;  // each action's round trip: sent to its reply
    std::vector<std::string> errors;   // refusals and failures, first ones kept
    std::vector<std::string> tokens;   // every bot's session, in bot order (as Options::tokens)
    std::vector<int> places;           // a tournament's bots: where each finished (0: not yet)
    double percentile(double p) const; // of latencies_ms, 0..100
};

// Reads a think time, "MIN-MAX" or one number of milliseconds, into options.think_min_ms and
// think_max_ms: false (options unchanged) unless 0 <= MIN <= MAX <= 600000.
bool parse_think(std::string_view text, Options& options);

// Runs the bots until every table has played its hands, and reports. The first error (a refusal,
// a dropped connection) stops every bot: the report then holds it.
Report run(const Options& options);

// Bots that play on until stopped, with tables added as they run: for measuring at one count of
// tables after another. Its threads run the bots; every call here is safe from another thread.
// `options.hands` is ignored (the tables play on).
class Fleet {
  public:
    explicit Fleet(const Options& options);
    ~Fleet(); // stops the bots: their connections close at once
    Fleet(const Fleet&) = delete;
    Fleet& operator=(const Fleet&) = delete;

    void add_tables(int tables);
    int seated() const; // bots that have taken their seats so far
    // What happened since the last take (or the start): actions, hands ended, their round trips
    // and errors. `bots` and `connected` are totals.
    Report take();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Request/reply pairs per second: `connections` clients each send `ping` and wait for its reply,
// over and over, for `seconds` (after hello). Uses options.host, port and threads.
struct PingReport {
    long pairs = 0;
    double seconds = 0;
    std::vector<std::string> errors;
};
PingReport ping_flood(const Options& options, int connections, double seconds);

// Requests sent one after another over one WebSocket connection (after hello), each a JSON
// text; their replies (or refusals) in order, the pushes between them passed over. A first
// {"type":"guest"} signs the connection in. For scripts and benchmarks: `error` says what went
// wrong when the connection failed (the replies so far are returned).
std::vector<std::string> exchange(const Options& options, const std::vector<std::string>& requests,
                                  std::string& error);

// One plain HTTP GET (http://HOST:PORT/PATH; no TLS), for `felt health`: the status (0 when no
// answer came), the body, and what went wrong when nothing came back.
struct HttpAnswer {
    int status = 0;
    std::string body;
    std::string error;
};
HttpAnswer http_get(const std::string& host, const std::string& port, const std::string& target,
                    double timeout_seconds);

} // namespace felt::bot
