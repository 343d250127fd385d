// feltd: the Felt game server. Every setting comes from a flag, a config file (--config) or a
// FELT_* environment variable, in that order of precedence; the defaults work on a fresh machine.
#include "server.h"
#include "settings.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    felt::server::Config c;
    CLI::App app{"feltd: the Felt game server (WebSocket protocol at /ws, see docs/protocol.md)"};
    std::string config_file;
    felt::server::add_settings(app, c, config_file);
    CLI11_PARSE(app, argc, argv);
    if (!config_file.empty()) {
        if (auto bad = felt::server::apply_config_file(app, config_file)) {
            std::cerr << "feltd: " << *bad << "\n";
            return 2;
        }
    }

    spdlog::set_level(spdlog::level::from_str(c.log_level));
    try {
        felt::server::Server server(c);
        server.run();
    } catch (const std::exception& e) {
        spdlog::critical("{}", e.what());
        return 1;
    }
    return 0;
}
