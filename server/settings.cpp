// feltd's settings (see settings.h).
#include "settings.h"

#include <toml++/toml.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>

namespace felt::server {

void add_settings(CLI::App& app, Config& c, std::string& config_file) {
    app.add_option("--config", config_file, "Read settings from a TOML file (keys: the flag names)")
        ->envname("FELT_CONFIG");
    app.add_option("--bind", c.bind, "Address to listen on")
        ->envname("FELT_BIND")
        ->capture_default_str();
    app.add_option("--port", c.port, "Port (0: any free port)")
        ->envname("FELT_PORT")
        ->capture_default_str();
    app.add_option("--db", c.db,
                   "SQLite database file, created and migrated; or a PostgreSQL database: "
                   "postgresql://user:password@host:port/dbname or libpq's key=value form")
        ->envname("FELT_DB")
        ->capture_default_str();
    app.add_option("--static", c.static_dir, "Folder of the web client")
        ->envname("FELT_STATIC")
        ->capture_default_str();
    app.add_option("--log-level", c.log_level, "trace, debug, info, warn, error or off")
        ->envname("FELT_LOG_LEVEL")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->capture_default_str();
    app.add_option("--threads", c.threads, "Network threads")
        ->envname("FELT_THREADS")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    app.add_option("--grant", c.grant, "Chips a new account starts with")
        ->envname("FELT_GRANT")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--bot-bank", c.bot_bank,
                   "Chips the server's bots may hold together, granted to them as needed")
        ->envname("FELT_BOT_BANK")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--bot-think-min-ms", c.bot_think_min_ms,
                   "The shortest wait of a server bot before it acts, milliseconds")
        ->envname("FELT_BOT_THINK_MIN_MS")
        ->check(CLI::Range(0, 60'000))
        ->capture_default_str();
    app.add_option("--bot-think-max-ms", c.bot_think_max_ms,
                   "The longest wait of a server bot before it acts, milliseconds")
        ->envname("FELT_BOT_THINK_MAX_MS")
        ->check(CLI::Range(0, 60'000))
        ->capture_default_str();
    app.add_option("--grace", c.grace_seconds, "Seconds for connections to close at shutdown")
        ->envname("FELT_GRACE")
        ->check(CLI::Range(0, 3600))
        ->capture_default_str();
    app.add_option("--max-frame", c.max_frame, "Largest WebSocket message, bytes")
        ->envname("FELT_MAX_FRAME")
        ->check(CLI::Range(1024, 16 * 1024 * 1024))
        ->capture_default_str();
    app.add_option("--rate", c.rate, "Messages a second per connection")
        ->envname("FELT_RATE")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--burst", c.burst, "Messages in a burst per connection")
        ->envname("FELT_BURST")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--per-address", c.per_address, "WebSocket connections from one address")
        ->envname("FELT_PER_ADDRESS")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--login-attempts", c.login_attempts,
                   "Failed sign-ins for one name before each further one waits (an address: 4x)")
        ->envname("FELT_LOGIN_ATTEMPTS")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--login-backoff-ms", c.login_backoff_ms,
                   "The first wait after those; it doubles with each failure, to 15 minutes")
        ->envname("FELT_LOGIN_BACKOFF_MS")
        ->check(CLI::Range(1, 900'000))
        ->capture_default_str();
    app.add_option("--accounts-per-hour", c.accounts_per_hour,
                   "New accounts, guests included, from one address in an hour")
        ->envname("FELT_ACCOUNTS_PER_HOUR")
        ->check(CLI::Range(1, 100000000))
        ->capture_default_str();
    // Durations with a unit: 90s, 30m, 12h, 14d (a bare number is seconds).
    const auto duration = CLI::AsNumberWithUnit(
        std::map<std::string, std::int64_t>{{"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86'400}},
        CLI::AsNumberWithUnit::CASE_SENSITIVE);
    app.add_option("--token-idle", c.token_idle_s,
                   "A session token expires this long unused (e.g. 14d, 12h, 30m, 90s)")
        ->envname("FELT_TOKEN_IDLE")
        ->transform(duration)
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10} * 365 * 86'400))
        ->default_str("14d");
    app.add_option("--token-max", c.token_max_s,
                   "A session token expires this long after it was issued, used or not")
        ->envname("FELT_TOKEN_MAX")
        ->transform(duration)
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10} * 365 * 86'400))
        ->default_str("90d");
    app.add_option("--http-rate", c.http_rate,
                   "Plain HTTP requests a second from one address (/healthz, /metrics exempt)")
        ->envname("FELT_HTTP_RATE")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--http-burst", c.http_burst, "Plain HTTP requests in a burst from one address")
        ->envname("FELT_HTTP_BURST")
        ->check(CLI::Range(1.0, 1e9))
        ->capture_default_str();
    app.add_option("--http-connections", c.http_connections,
                   "Plain HTTP connections open at once; more are closed as they come")
        ->envname("FELT_HTTP_CONNECTIONS")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--tables-per-account", c.tables_per_account,
                   "Open tables one account may have created")
        ->envname("FELT_TABLES_PER_ACCOUNT")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--node-id", c.node_id,
                   "This node's name among the nodes on one PostgreSQL database (default: the "
                   "host's name)")
        ->envname("FELT_NODE_ID");
    app.add_option("--node-url", c.node_url,
                   "How clients reach this node, for the other nodes' lobbies (default: "
                   "ws://BIND:PORT/ws)")
        ->envname("FELT_NODE_URL");
    app.add_option("--lease", c.lease_s,
                   "How long this node's hold on its tables lasts unrenewed; other nodes "
                   "recover them after it (e.g. 10s)")
        ->envname("FELT_LEASE")
        ->transform(duration)
        ->check(CLI::Range(std::int64_t{2}, std::int64_t{3600}))
        ->default_str("10s");
    app.add_option("--table-idle", c.table_idle_s,
                   "A table nobody sits at closes after this long (e.g. 10m, 90s)")
        ->envname("FELT_TABLE_IDLE")
        ->transform(duration)
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{365} * 86'400))
        ->default_str("10m");
    app.add_option("--idle", c.idle_s,
                   "A WebSocket connection that sends nothing this long is closed; halfway it is "
                   "pinged, and its pong counts (e.g. 5m, 60s)")
        ->envname("FELT_IDLE")
        ->transform(duration)
        ->check(CLI::Range(std::int64_t{2}, std::int64_t{86'400}))
        ->default_str("5m");
    app.add_option("--write-queue-bytes", c.write_queue_bytes,
                   "Bytes waiting for a slow client before it is dropped")
        ->envname("FELT_WRITE_QUEUE_BYTES")
        ->check(CLI::Range(std::int64_t{64} * 1024, std::int64_t{1} << 32))
        ->capture_default_str();
    app.add_option("--write-queue-total", c.write_queue_total,
                   "Bytes waiting for all clients together; past it, the clients with the most "
                   "waiting are dropped first")
        ->envname("FELT_WRITE_QUEUE_TOTAL")
        ->check(CLI::Range(std::int64_t{1} << 20, std::int64_t{1} << 40))
        ->capture_default_str();
    app.add_option("--write-queue-per-address", c.write_queue_per_address,
                   "Bytes waiting for the clients of one address together; past it, that "
                   "address's clients with the most waiting are dropped first")
        ->envname("FELT_WRITE_QUEUE_PER_ADDRESS")
        ->check(CLI::Range(std::int64_t{64} * 1024, std::int64_t{1} << 40))
        ->capture_default_str();
    app.add_option("--ipv6-prefix", c.ipv6_prefix,
                   "Limits kept by address count an IPv6 address by this many leading bits")
        ->envname("FELT_IPV6_PREFIX")
        ->check(CLI::Range(1, 128))
        ->capture_default_str();
    app.add_option("--port-file", c.port_file, "Write the bound port to this file when listening")
        ->envname("FELT_PORT_FILE");
    app.add_option("--tls-cert", c.tls_cert,
                   "TLS certificate chain (PEM); with --tls-key, serve https and wss only")
        ->envname("FELT_TLS_CERT");
    app.add_option("--tls-key", c.tls_key, "TLS private key (PEM)")->envname("FELT_TLS_KEY");
    app.add_flag("!--no-table-stats", c.table_stats,
                 "Show players no statistics of their opponents at the table (opponent_stats is "
                 "refused; they are still counted)");
    app.add_flag("--chosen-decks", c.chosen_decks,
                 "FOR TESTS ONLY: a player at a table may choose the next deal's cards "
                 "(choose_deck). Never on a server people play on");
    app.add_option("--bot-log", c.bot_log,
                   "FOR TESTS ONLY: append every message each server bot receives to this file, "
                   "a JSON line each");
    app.add_option("--tournament-minute-ms", c.tournament_minute_ms,
                   "FOR TESTS ONLY: how many milliseconds a tournament's minute lasts, for its "
                   "levels and breaks")
        ->check(CLI::Range(1, 60'000));
}

std::optional<std::string> apply_config_text(CLI::App& app, std::string_view text,
                                             const std::string& source) {
    toml::table file;
    try {
        file = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        std::ostringstream msg;
        msg << source << ": " << e.description() << " (line " << e.source().begin.line << ")";
        return msg.str();
    }
    for (auto&& [key, value] : file) {
        const std::string name(key.str());
        CLI::Option* opt = nullptr;
        try {
            opt = app.get_option("--" + name);
        } catch (const CLI::OptionNotFound&) {
            return source + ": unknown setting \"" + name + "\"";
        }
        if (name == "config") return source + ": a config file cannot name another";
        if (opt->count() > 0) continue;
        std::string given;
        // Exact types: toml++'s converting value<>() turns a float too large for an integer
        // into undefined behaviour.
        if (auto s = value.value_exact<std::string>())
            given = *s;
        else if (auto i = value.value_exact<std::int64_t>())
            given = std::to_string(*i);
        else if (auto d = value.value_exact<double>())
            given = std::to_string(*d);
        else
            return source + ": \"" + name + "\" must be a string or a number";
        try {
            opt->add_result(given);
            opt->run_callback();
        } catch (const CLI::Error& e) {
            return source + ": " + name + ": " + e.what();
        }
    }
    return std::nullopt;
}

std::optional<std::string> apply_config_file(CLI::App& app, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return path + ": cannot be read";
    std::ostringstream text;
    text << in.rdbuf();
    return apply_config_text(app, text.str(), path);
}

} // namespace felt::server
