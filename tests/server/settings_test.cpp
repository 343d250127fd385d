// feltd's settings: a TOML document applied over the flags, in process.
#include "settings.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {

// feltd's flags parsed from `args`, then the TOML `text` applied; what went wrong, if anything.
struct Applied {
    felt::server::Config config;
    std::optional<std::string> problem;
};

Applied apply(const std::string& text, std::vector<std::string> args = {}) {
    Applied out;
    CLI::App app;
    std::string config_file;
    felt::server::add_settings(app, out.config, config_file);
    std::vector<const char*> argv{"feltd"};
    for (const auto& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    out.problem = felt::server::apply_config_text(app, text, "felt.toml");
    return out;
}

} // namespace

TEST_CASE("settings: a TOML file sets what the command line left, with units and checks") {
    const Applied a = apply("grant = 123\nthreads = 4\ntoken-idle = \"12h\"\nrate = 7.5\n"
                            "log-level = \"warn\"\ntable-idle = 90\nlease = \"30s\"\n"
                            "node-id = \"n1\"\nnode-url = \"wss://n1.example.com/ws\"\n");
    REQUIRE_FALSE(a.problem);
    CHECK(a.config.grant == 123);
    CHECK(a.config.threads == 4);
    CHECK(a.config.token_idle_s == 12 * 3600);
    CHECK(a.config.rate == doctest::Approx(7.5));
    CHECK(a.config.log_level == "warn");
    CHECK(a.config.table_idle_s == 90);
    CHECK(a.config.lease_s == 30);
    CHECK(a.config.node_id == "n1");
    CHECK(a.config.node_url == "wss://n1.example.com/ws");
    CHECK(a.config.port == felt::server::Config{}.port); // untouched
    // The memory and address limits' defaults, and the file setting them.
    CHECK(a.config.write_queue_total == 64 << 20);
    CHECK(a.config.write_queue_per_address == 16 << 20);
    CHECK(a.config.ipv6_prefix == 64);
    const Applied m = apply("write-queue-total = 33554432\nwrite-queue-per-address = 1048576\n"
                            "ipv6-prefix = 48\n");
    REQUIRE_FALSE(m.problem);
    CHECK(m.config.write_queue_total == 32 << 20);
    CHECK(m.config.write_queue_per_address == 1 << 20);
    CHECK(m.config.ipv6_prefix == 48);

    // A flag wins over the file.
    const Applied b = apply("grant = 123\n", {"--grant", "5"});
    REQUIRE_FALSE(b.problem);
    CHECK(b.config.grant == 5);
}

TEST_CASE("settings: a file with a problem is refused, naming the file, the line or the key") {
    struct Case {
        const char* text;
        const char* names; // what the message must contain
    };
    const Case cases[] = {
        {"grant = \n", "felt.toml: "},                 // a syntax error ...
        {"a = 1\ngrant = = 2\n", "(line 2)"},          // ... with its line
        {"prot = 9000\n", "unknown setting \"prot\""}, // a key that is no flag
        {"config = \"other.toml\"\n", "cannot name another"},
        {"grant = [1, 2]\n", "\"grant\" must be a string or a number"},
        {"[grant]\nx = 1\n", "\"grant\" must be a string or a number"},
        {"threads = 0\n", "threads: "}, // outside the flag's range
        {"threads = 1000\n", "threads: "},
        {"log-level = \"loud\"\n", "log-level: "},
        {"token-idle = \"3 weeks\"\n", "token-idle: "}, // a unit the flag does not know
        {"grant = -1\n", "grant: "},
        {"max-frame = 99999999999\n", "max-frame: "},
        {"threads = 5.07e23\n", "threads: "}, // the fuzzer's find: never converted to an int
        {"grant = 1e300\n", "grant: "},
        {"lease = \"1s\"\n", "lease: "}, // shorter than a renewal can be trusted to take
        {"lease = \"2h\"\n", "lease: "}, // longer than an hour: a dead node's tables held too long
        {"port = 9000\nport = 9001\n", "(line 2)"}, // a key twice: TOML forbids it
        {"ipv6-prefix = 0\n", "ipv6-prefix: "},
        {"write-queue-total = 1000\n", "write-queue-total: "},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        const Applied a = apply(c.text);
        REQUIRE(a.problem);
        CHECK(a.problem->starts_with("felt.toml: "));
        CHECK(a.problem->find(c.names) != std::string::npos);
    }
}

TEST_CASE("settings: a missing file is named") {
    CLI::App app;
    felt::server::Config c;
    std::string config_file;
    felt::server::add_settings(app, c, config_file);
    const auto problem = felt::server::apply_config_file(app, "/nonexistent/felt.toml");
    REQUIRE(problem);
    CHECK(*problem == "/nonexistent/felt.toml: cannot be read");
}
