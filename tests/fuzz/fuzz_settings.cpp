// libFuzzer: feltd's TOML configuration file. Anything wrong with it is a message naming the
// problem, never a crash nor an exception; a file that is accepted leaves every setting within
// the range its flag allows.
#include "fuzz_bytes.h"
#include "settings.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using felt::fuzz::check;
    felt::server::Config c;
    CLI::App app;
    std::string config_file;
    felt::server::add_settings(app, c, config_file);
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto bad = felt::server::apply_config_text(app, text, "fuzz.toml")) {
        check(bad->starts_with("fuzz.toml: ") && bad->size() > 11);
        return 0;
    }
    check(config_file.empty());
    check(c.threads >= 1 && c.threads <= 256);
    check(c.grant >= 0);
    check(c.max_frame >= 1024 && c.max_frame <= 16 * 1024 * 1024);
    check(c.rate > 0 && c.burst > 0 && c.http_rate > 0 && c.http_burst >= 1);
    check(c.per_address >= 1 && c.login_attempts >= 1 && c.accounts_per_hour >= 1);
    check(c.login_backoff_ms >= 1 && c.login_backoff_ms <= 900'000);
    check(c.token_idle_s >= 1 && c.token_max_s >= 1 && c.table_idle_s >= 1);
    check(c.http_connections >= 1 && c.tables_per_account >= 1);
    check(c.write_queue_bytes >= 64 * 1024);
    check(c.grace_seconds >= 0 && c.grace_seconds <= 3600);
    return 0;
}
