// `felt duel`: two bots heads-up at no-limit hold'em, each deal played twice (bots/duel.h).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace felt::cli {

struct DuelArgs {
    std::string a, b, a_personality, b_personality;
    long hands = 0;
    std::uint64_t seed = 1;
    int threads = 0;
    bool json = false;
    void add_to(CLI::App* cmd);
};

int run_duel(const DuelArgs& args);

} // namespace felt::cli
