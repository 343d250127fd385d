// `felt leap`: judge a meld, play random games.
#pragma once

#include "leap/leap.h"
#include "leap_sim.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace felt::cli {

// The table options `felt leap` subcommands share.
struct LeapArgs {
    leap::Rules rules;
    std::string suits = "same";
    void add_rules(CLI::App* cmd);
    leap::Rules resolved() const; // throws UsageError for a bad --suits
};

int run_leap_meld(const LeapArgs& args, const std::vector<std::string>& cards, bool as_json);
int run_leap_simulate(const LeapArgs& args, const sim::LeapOptions& options, bool as_json);

} // namespace felt::cli
