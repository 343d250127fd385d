// feltd's settings: flags, a config file and FELT_* environment variables all fill this.
#pragma once

#include <cstdint>
#include <string>

namespace felt::server {

struct Config {
    std::string bind = "127.0.0.1";
    std::uint16_t port = 8080;           // 0: any free port (see port_file)
    std::string db = "data/felt.db";     // its folder is created if missing
    std::string static_dir = "web/dist"; // the built web client; a placeholder page when missing
    std::string log_level = "info";      // trace, debug, info, warn, error, off
    std::string port_file;               // if set, the bound port is written there once listening
    std::string tls_cert, tls_key; // PEM files; both set: every connection is TLS (https, wss)
    int threads = 2;               // network threads
    std::int64_t grant = 10'000;   // chips a new account starts with
    std::size_t max_frame = 64 * 1024;
    double rate = 50;       // messages a second per connection, sustained
    double burst = 100;     // and in a burst
    int per_address = 64;   // WebSocket connections from one address
    int write_queue = 1024; // messages waiting for a slow client before it is dropped
    int grace_seconds = 10; // at shutdown, for connections to close
    // Failed sign-ins for one name before each further one must wait, the first wait (it doubles
    // with every failure after, up to 15 minutes); an address may fail four times as often.
    int login_attempts = 5;
    int login_backoff_ms = 1'000;
    int accounts_per_hour = 20; // new accounts, guests included, from one address in an hour
    std::int64_t token_idle_s = 14 * 86'400; // a session token expires this long unused ...
    std::int64_t token_max_s = 90 * 86'400;  // ... and this long after it was issued
    double http_rate = 20;                   // plain HTTP requests a second from one address ...
    double http_burst = 60;                  // ... and in a burst
    int http_connections = 512;              // plain HTTP connections open at once, in all
    int tables_per_account = 5;              // open tables one account may have created
    // The server's bots (docs/bots.md): their balances together at most this (granted as needed),
    // and each decision after a wait from think_min to think_max milliseconds.
    std::int64_t bot_bank = 1'000'000;
    int bot_think_min_ms = 700, bot_think_max_ms = 2'000;
    std::string bot_log; // for tests only: every message each bot receives, a JSON line each
    std::int64_t table_idle_s = 600; // a table nobody sits at closes after this long
    std::int64_t idle_s = 300;       // a connection silent this long is closed (pinged halfway)
    std::int64_t write_queue_bytes = 4
                                     << 20; // bytes waiting for a slow client before it is dropped
    // Bytes waiting for every client together, and for the clients of one address: past either,
    // the clients with the most waiting are dropped first.
    std::int64_t write_queue_total = std::int64_t{64} << 20;
    std::int64_t write_queue_per_address = std::int64_t{16} << 20;
    // Limits kept by address count an IPv6 address by its first this many bits (its /64).
    int ipv6_prefix = 64;
    // Several nodes on one PostgreSQL database (docs/operations.md): this node's name ("": the
    // host's name), how clients reach it ("": ws://BIND:PORT/ws), and its lease on its tables,
    // renewed every third of it; other nodes recover its tables once it lapses.
    std::string node_id, node_url;
    std::int64_t lease_s = 10;
    // The table overlay: a player may ask what they saw of their opponents (opponent_stats).
    bool table_stats = true;
    // For tests only: `choose_deck` sets the next deal's cards. Off, it is refused.
    bool chosen_decks = false;
    // For tests only: how long a tournament's minute lasts (levels and breaks in minutes).
    int tournament_minute_ms = 60'000;
};

} // namespace felt::server
