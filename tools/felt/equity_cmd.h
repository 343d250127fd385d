// `felt equity`: each player's chance, exactly or by Monte Carlo (engine/odds/equity.h).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace felt::cli {

struct EquityArgs {
    std::vector<std::string> hands;
    std::string board, dead, game = "holdem";
    int hole = 0;
    bool exact = false, monte_carlo = false, json = false;
    double target_stderr = 0.05;
    std::uint64_t seed = 1;
    void add_to(CLI::App* cmd);
};

int run_equity(const EquityArgs& args);

} // namespace felt::cli
