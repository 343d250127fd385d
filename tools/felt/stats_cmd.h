// `felt stats PATH... [--player NAME]... [--json]`: the tracker statistics of hand histories
// (engine/stats/poker_stats.h), Felt's own or anyone's, for the players named or every player.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace felt::cli {

struct StatsArgs {
    std::vector<std::string> paths, players;
    bool json = false;
    void add_to(CLI::App* cmd);
};

int run_stats(const StatsArgs& args);

} // namespace felt::cli
