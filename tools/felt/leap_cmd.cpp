// `felt leap meld` and `felt leap simulate`.
#include "leap_cmd.h"

#include "cli.h"
#include "leap/leap.h"
#include "leap_sim.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace felt::cli {

namespace {

using json = nlohmann::ordered_json;

leap::SuitRule parse_suits(const std::string& s) {
    if (s == "same") return leap::SuitRule::same_suit;
    if (s == "colour" || s == "color") return leap::SuitRule::same_colour;
    if (s == "any") return leap::SuitRule::any;
    throw UsageError{"--suits is same, colour or any, not \"" + s + "\""};
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += w + " ";
    return out;
}

} // namespace

void LeapArgs::add_rules(CLI::App* cmd) {
    cmd->add_option("--ranks", rules.ranks, "Ranks around the circle: 5, 7, 11, 12, 13, 17 (13)");
    cmd->add_option("--suits", suits, "What a meld's cards share: same, colour or any (same)");
    cmd->add_option("--packs", rules.packs, "Packs in the deck (one for 2-4 players, two for 5-6)");
}

leap::Rules LeapArgs::resolved() const {
    leap::Rules r = rules;
    r.suits = parse_suits(suits);
    return r;
}

// Exit status: 0 a meld, 1 not a meld, 2 a bad command line or card.
int run_leap_meld(const LeapArgs& args, const std::vector<std::string>& words, bool as_json) {
    leap::Rules rules = args.resolved();
    if (rules.packs == 0) rules.packs = 1;
    rules.jokers = 8 / rules.packs; // as many jokers as a meld can name
    const auto table = unwrap(leap::Table::make(rules, 2));
    const std::vector<Card> cards = unwrap(table->deck().parse_cards(joined(words)));
    Result<leap::LeapMask> fits = leap::meld_leaps(*table, cards);
    if (!fits) {
        if (as_json)
            std::cout << json{{"valid", false},
                              {"reason", fits.error().message},
                              {"error", error_code_name(fits.error().code)}}
                             .dump()
                      << "\n";
        else
            std::cout << "not a meld (" << error_code_name(fits.error().code)
                      << "): " << fits.error().message << "\n";
        return 1;
    }
    const leap::Meld m = leap::lay_out(*table, cards, *fits);
    json leaps = json::array();
    for (int k = 1; k <= table->leaps(); ++k)
        if (*fits >> k & 1) leaps.push_back(k);
    if (as_json) {
        json j{{"valid", true},
               {"leap", m.leap},
               {"length", m.length()},
               {"points", m.points()},
               {"sequence", leap::to_string(*table, m)}};
        if (leaps.size() > 1) j["leaps"] = leaps;
        std::cout << j.dump() << "\n";
    } else {
        std::printf("a meld: leap %d, %d cards, %d points\n  %s\n", m.leap, m.length(), m.points(),
                    leap::to_string(*table, m).c_str());
        if (leaps.size() > 1) std::printf("  also a meld in leaps %s\n", leaps.dump().c_str());
    }
    return 0;
}

int run_leap_simulate(const LeapArgs& args, const sim::LeapOptions& base, bool as_json) {
    sim::LeapOptions o = base;
    o.rules = args.resolved();
    o.rules.jokers = base.rules.jokers;
    o.rules.distinct_leaps = base.rules.distinct_leaps;
    const sim::LeapReport r = unwrap(sim::simulate_leap(o));
    if (!r.failure.empty()) throw UsageError{"property failed: " + r.failure};
    const double per_second = r.seconds > 0 ? static_cast<double>(r.games) / r.seconds : 0;
    if (as_json) {
        json j{{"games", r.games},
               {"games_per_second", per_second},
               {"mean_score", r.mean_score()},
               {"signature", sim::hex(r.signature)},
               {"turns", r.turns},
               {"melds", r.melds},
               {"joins", r.joins}};
        std::cout << j.dump() << "\n";
    } else {
        std::printf("%d players, %d ranks, %ld games, seed %llu\n  turns %ld, melding actions %ld, "
                    "joins %ld\n  mean score %.3f\n  %.0f games per second\n  signature %s\n",
                    o.players, o.rules.ranks, r.games, static_cast<unsigned long long>(o.seed),
                    r.turns, r.melds, r.joins, r.mean_score(), per_second,
                    sim::hex(r.signature).c_str());
    }
    return 0;
}

} // namespace felt::cli
