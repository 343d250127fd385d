// `felt duel --a KIND --b KIND --hands N [--seed S] [--threads T] [--json]`.
#include "duel_cmd.h"

#include "cli.h"
#include "duel.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <thread>

namespace felt::cli {

namespace {

using json = nlohmann::ordered_json;

// To `digits` decimals, as JSON prints them (no binary remainder: 24.7, not 24.700000000000003).
double round_to(double x, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::round(x * scale) / scale;
}

bots::Profile profile(const std::string& kind, const std::string& personality) {
    bots::Profile p;
    const auto k = bots::parse_kind(kind);
    if (!k) {
        std::string known;
        for (bots::Kind x : bots::all_kinds())
            known += (known.empty() ? "" : ", ") + std::string(bots::kind_name(x));
        throw UsageError{"unknown bot \"" + kind + "\" (known: " + known + ")"};
    }
    p.kind = *k;
    if (!personality.empty()) {
        const auto q = bots::parse_personality(personality);
        if (!q) {
            std::string known;
            for (const bots::Personality& x : bots::personalities())
                known += (known.empty() ? "" : ", ") + std::string(x.name);
            throw UsageError{"unknown personality \"" + personality + "\" (known: " + known + ")"};
        }
        p.personality = *q;
    }
    return p;
}

json style(const bots::Style& s) {
    return {{"vpip", round_to(s.vpip_percent(), 1)},
            {"pfr", round_to(s.pfr_percent(), 1)},
            {"aggression", round_to(s.aggression_factor(), 2)}};
}

} // namespace

void DuelArgs::add_to(CLI::App* cmd) {
    std::string kinds;
    for (bots::Kind k : bots::all_kinds())
        kinds += (kinds.empty() ? "" : ", ") + std::string(bots::kind_name(k));
    cmd->add_option("--a", a, "The first bot: " + kinds)->required();
    cmd->add_option("--b", b, "The second bot")->required();
    cmd->add_option("--hands", hands, "Deals, each played twice with the seats swapped")
        ->required()
        ->check(CLI::Range(1L, 100'000'000L));
    cmd->add_option("--a-personality", a_personality,
                    "fair and strong: tight (the default), loose, aggressive or passive");
    cmd->add_option("--b-personality", b_personality, "The second bot's");
    cmd->add_option("--seed", seed, "The deals' and the bots' seed (1): same seed, same result");
    cmd->add_option("--threads", threads, "Threads (0: one a core)")->check(CLI::Range(0, 256));
    cmd->add_flag("--json", json, "Print one JSON object");
}

int run_duel(const DuelArgs& args) {
    bots::DuelOptions o;
    o.a = profile(args.a, args.a_personality);
    o.b = profile(args.b, args.b_personality);
    o.deals = args.hands;
    o.seed = args.seed;
    o.threads = args.threads > 0
                    ? args.threads
                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const bots::DuelReport r = bots::duel(o);
    if (!r.failure.empty()) throw UsageError{"a bot's action was refused: " + r.failure};
    if (args.json) {
        json out;
        out["a"] = args.a;
        out["b"] = args.b;
        out["deals"] = r.deals;
        out["hands"] = r.hands;
        out["seed"] = args.seed;
        out["bb_per_100"] = round_to(r.bb_per_100, 2);
        out["ci95"] = {round_to(r.ci_low, 2), round_to(r.ci_high, 2)};
        out["a_style"] = style(r.a);
        out["b_style"] = style(r.b);
        out["seconds"] = round_to(r.seconds, 2);
        std::cout << out.dump() << "\n";
        return 0;
    }
    std::printf("%s against %s: %ld deals, %ld hands in %.1f s\n", args.a.c_str(), args.b.c_str(),
                r.deals, r.hands, r.seconds);
    std::printf("  %s wins %.2f bb/100 (95 %% interval %.2f to %.2f)\n", args.a.c_str(),
                r.bb_per_100, r.ci_low, r.ci_high);
    std::printf("  %-16s VPIP %5.1f %%  PFR %5.1f %%  aggression %.2f\n", args.a.c_str(),
                r.a.vpip_percent(), r.a.pfr_percent(), r.a.aggression_factor());
    std::printf("  %-16s VPIP %5.1f %%  PFR %5.1f %%  aggression %.2f\n", args.b.c_str(),
                r.b.vpip_percent(), r.b.pfr_percent(), r.b.aggression_factor());
    return 0;
}

} // namespace felt::cli
