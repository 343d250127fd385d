// `felt equity HAND_OR_RANGE... [--board CARDS] [--dead CARDS] [--game G] [--exact] [--json]`.
#include "equity_cmd.h"

#include "cli.h"
#include "odds/equity.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace felt::cli {

namespace {

using json = nlohmann::ordered_json;

// Percentages to three decimals, as the published tables give them.
json rounded(const std::vector<double>& v) {
    json a = json::array();
    for (double x : v) a.push_back(std::round(x * 1000) / 1000);
    return a;
}

} // namespace

void EquityArgs::add_to(CLI::App* cmd) {
    cmd->add_option("hands", hands,
                    "Each player's hand: hold'em and short deck a range (AA, QQ+, AKs, A2s+, "
                    "TT-77, AcQc, random; ITEM:W weighs it), other games the cards known so far "
                    "(\"random\" for none)")
        ->required();
    cmd->add_option("--board", board, "The board's cards so far");
    cmd->add_option("--dead", dead, "Cards out of play (folded, burnt, seen)");
    cmd->add_option("--game", game,
                    "holdem, short-deck, omaha, omaha-hilo, stud, stud-hilo or razz (holdem)");
    cmd->add_option("--hole", hole, "Omaha: hole cards each player ends with, 4 to 6 (4)");
    cmd->add_flag("--exact", exact, "Enumerate every deal, however many");
    cmd->add_flag("--monte-carlo", monte_carlo, "Sample deals, however few");
    cmd->add_option("--stderr", target_stderr,
                    "Monte Carlo: stop when each standard error is below this, in percent (0.05)");
    cmd->add_option("--seed", seed, "Monte Carlo: the draw's seed (1): same seed, same answer");
    cmd->add_flag("--json", json, "Print one JSON object");
}

int run_equity(const EquityArgs& a) {
    if (a.exact && a.monte_carlo) throw UsageError{"--exact and --monte-carlo exclude each other"};
    if (!(a.target_stderr > 0)) throw UsageError{"--stderr is a percentage above 0"};
    const odds::Game game = unwrap(odds::game_by_name(a.game));
    odds::Query q = unwrap(odds::make_query(game, a.hands, a.board, a.dead));
    q.hole = a.hole;
    q.exact = a.exact;
    q.monte_carlo = a.monte_carlo;
    q.target_stderr = a.target_stderr;
    q.seed = a.seed;
    const auto start = std::chrono::steady_clock::now();
    const odds::Equity e = unwrap(odds::equity(q));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool hilo = !e.high.empty();
    if (a.json) {
        json out;
        out["game"] = a.game;
        out["hands"] = a.hands;
        out["board"] = a.board;
        out["dead"] = a.dead;
        out["equities"] = rounded(e.equity);
        out["wins"] = rounded(e.wins);
        out["ties"] = rounded(e.ties);
        if (hilo) {
            out["high"] = rounded(e.high);
            out["low"] = rounded(e.low);
            out["scoop"] = rounded(e.scoop);
        }
        out["method"] = e.exact ? "exact" : "monte-carlo";
        out["stderr"] = std::round(e.stderr_percent * 10000) / 10000;
        out["showdowns"] = e.showdowns;
        std::cout << out.dump() << "\n";
        return 0;
    }
    std::size_t width = 4;
    for (const auto& h : a.hands) width = std::max(width, h.size());
    for (std::size_t i = 0; i < a.hands.size(); ++i) {
        std::printf("%-*s  %7.3f %%  (wins %.3f, ties %.3f", static_cast<int>(width),
                    a.hands[i].c_str(), e.equity[i], e.wins[i], e.ties[i]);
        if (hilo) std::printf("; high %.3f, low %.3f, scoop %.3f", e.high[i], e.low[i], e.scoop[i]);
        std::printf(")\n");
    }
    if (e.exact)
        std::printf("exact: %.0f showdowns in %.3f s\n", e.showdowns, seconds);
    else
        std::printf("monte carlo: %.0f showdowns in %.3f s, standard error %.4f %%\n", e.showdowns,
                    seconds, e.stderr_percent);
    return 0;
}

} // namespace felt::cli
