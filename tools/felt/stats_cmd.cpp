// `felt stats`: each hand replayed (engine/poker/phh.h), counted (engine/stats/poker_stats.h) and
// added to its players' totals, by name.
#include "stats_cmd.h"

#include "cli.h"
#include "phh_files.h"
#include "poker/phh.h"
#include "protocol/stats_json.h"
#include "stats/poker_stats.h"

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace felt::cli {

namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// Chips are counted in ten-thousandths of the files' unit (a dollar, a chip).
constexpr std::int64_t kScale = 10000;

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError{path + ": cannot be read"};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The players' names in PHH order: `players`, or p1...pN without it.
std::vector<std::string> names_of(const std::string& text, std::size_t n) {
    std::vector<std::string> names;
    try {
        const toml::table t = toml::parse(text);
        if (const toml::array* a = t["players"].as_array())
            for (const toml::node& x : *a) names.push_back(x.value_or(std::string()));
    } catch (const toml::parse_error&) {
    }
    if (names.size() != n) {
        names.clear();
        for (std::size_t i = 1; i <= n; ++i) names.push_back("p" + std::to_string(i));
    }
    return names;
}

std::string percent(const json& t) {
    const double n = t["opportunities"].get<double>();
    if (n == 0) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", 100.0 * t["times"].get<double>() / n);
    return buf;
}

} // namespace

void StatsArgs::add_to(CLI::App* cmd) {
    cmd->add_option("paths", paths, "PHH hand histories: .phh and .phhs files, or folders of them")
        ->required();
    cmd->add_option("--player", players,
                    "A player's name (as the files' `players` give it; p1...pN in a file "
                    "without); again for more. Without: every player");
    cmd->add_flag("--json", json, "Print one JSON object, keyed by player");
}

int run_stats(const StatsArgs& a) {
    struct Player {
        stats::Totals totals;
        bool board = false; // played a game with a flop: its statistics are printed
    };
    std::map<std::string, Player> by_name;
    const std::set<std::string> wanted(a.players.begin(), a.players.end());
    long hands = 0, counted = 0, failed = 0, undecided = 0;
    std::vector<std::string> failures;
    for (const std::string& p : a.paths)
        if (!fs::exists(p)) throw UsageError{p + ": no such file or folder"};
    for (const std::string& file : phh_files(a.paths)) {
        for (const poker::HandText& hand : poker::split_hands(read_text(file))) {
            ++hands;
            auto r = poker::replay_phh(hand.text);
            if (!r) {
                ++failed;
                if (failures.size() < 5)
                    failures.push_back(file + (hand.name.empty() ? "" : " [" + hand.name + "]") +
                                       ": " + r.error().message);
                continue;
            }
            ++counted;
            undecided += r.value().undecided;
            const stats::HandLines h = stats::count_replay(r.value());
            const auto names = names_of(hand.text, h.lines.size());
            for (std::size_t i = 0; i < h.lines.size(); ++i) {
                const std::string& name = names[static_cast<std::size_t>(h.lines[i].seat)];
                if (!wanted.empty() && !wanted.contains(name)) continue;
                // Each hand's chips in ten-thousandths of the file's unit, whatever its decimals.
                stats::Line line = h.lines[i];
                const std::int64_t hand_scale = r.value().scale;
                auto common = [&](poker::Chips c) {
                    return hand_scale <= kScale ? c * (kScale / hand_scale)
                                                : c / (hand_scale / kScale);
                };
                line.net = common(line.net);
                line.rake = common(line.rake);
                Player& p = by_name[name];
                p.board = p.board || h.family == stats::Family::board;
                p.totals.add(line, common(h.unit));
            }
        }
    }
    json out = json::object();
    for (const std::string& name : a.players)
        if (!by_name.contains(name))
            out[name] = protocol::totals_json(stats::Totals{}, kScale, true);
    for (const auto& [name, p] : by_name)
        out[name] = protocol::totals_json(p.totals, kScale, p.board);
    if (a.json) {
        std::cout << json{{"hands", hands},
                          {"counted", counted},
                          {"failed", failed},
                          {"undecided", undecided},
                          {"players", out}}
                         .dump()
                  << "\n";
    } else {
        std::printf("%ld hands: %ld counted, %ld failed, %ld undecided\n", hands, counted, failed,
                    undecided);
        std::printf("%-24s %7s %10s %9s %6s %6s %6s %6s %6s %6s %6s\n", "player", "hands", "net",
                    "bb/100", "VPIP", "PFR", "3B", "AF", "WTSD", "W$SD", "WWSF");
        for (const auto& [name, j] : out.items()) {
            const double calls = j.contains("af") ? j["af"]["opportunities"].get<double>() : 0;
            char af[16] = "-";
            if (calls > 0)
                std::snprintf(af, sizeof af, "%.2f", j["af"]["times"].get<double>() / calls);
            std::printf("%-24s %7lld %10.2f %9.2f %6s %6s %6s %6s %6s %6s %6s\n", name.c_str(),
                        j["hands"].get<long long>(), j["net"].get<double>(),
                        j["bb_per_100"].get<double>(), percent(j["vpip"]).c_str(),
                        percent(j["pfr"]).c_str(),
                        j.contains("three_bet") ? percent(j["three_bet"]).c_str() : "-", af,
                        percent(j["wtsd"]).c_str(), percent(j["wsd"]).c_str(),
                        j.contains("wwsf") ? percent(j["wwsf"]).c_str() : "-");
        }
    }
    for (const std::string& f : failures) std::fprintf(stderr, "not counted: %s\n", f.c_str());
    return 0;
}

} // namespace felt::cli
