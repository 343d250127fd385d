// felt: the command-line tool for game designers and scripts.
//
//   felt                      a short demonstration
//   felt eval CARDS...        category and value of a hand
//   felt compare H1 H2        which of two hands wins
//   felt distribution ...     exact category counts over every hand of a size
//
// Every error is one line on stderr naming the problem, nothing on stdout, exit status 2.
#include "deck.h"
#include "distribution.h"
#include "evaluator.h"
#include "wild.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace felt;
using json = nlohmann::ordered_json;

// A problem with the command line or its cards: reported in main, exit status 2.
struct UsageError {
    std::string message;
};

template <class T>
T unwrap(Result<T> r) {
    if (!r) throw UsageError{r.error().message};
    return std::move(r).value();
}

void check_ranking(const std::string& ranking) {
    if (ranking != "standard")
        throw UsageError{"unknown ranking \"" + ranking + "\" (known: standard)"};
}

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += w + " ";
    return out;
}

// The rank labels a value's class lists: defining ranks, then kickers.
json class_ranks(HandValue v) {
    json ranks = json::array();
    const Deck deck = Deck::standard();
    for (int i = 0; i < 5; ++i) {
        int r = hand_class::rank_at(v.hand_class(), i);
        if (r >= 0) ranks.push_back(deck.rank_label(Rank(r)));
    }
    return ranks;
}

HandValue evaluate_text(const std::string& text, Wild wild) {
    const std::vector<Card> cards = unwrap(deck_for(wild).parse_cards(text));
    return unwrap(evaluate_hand(cards, wild));
}

struct EvalOptions {
    std::string ranking = "standard";
    std::string wild = "none";
    bool json = false;
    std::vector<std::string> cards;
};

int run_eval(const EvalOptions& o) {
    check_ranking(o.ranking);
    const Wild wild = unwrap(parse_wild(o.wild));
    const HandValue v = evaluate_text(join(o.cards), wild);
    if (o.json) {
        json j;
        j["ranking"] = o.ranking;
        j["category"] = category_name(v.category());
        j["value"] = v.raw();
        j["ranks"] = class_ranks(v);
        std::cout << j.dump() << "\n";
    } else {
        std::cout << category_name(v.category()) << " " << v.raw() << "\n";
    }
    return 0;
}

struct CompareOptions {
    std::string ranking = "standard";
    std::string wild = "none";
    bool json = false;
    std::string first, second;
};

int run_compare(const CompareOptions& o) {
    check_ranking(o.ranking);
    const Wild wild = unwrap(parse_wild(o.wild));
    const HandValue a = evaluate_text(o.first, wild);
    const HandValue b = evaluate_text(o.second, wild);
    const char* winner = a > b ? "first" : b > a ? "second" : "tie";
    if (o.json)
        std::cout << json{{"winner", winner}}.dump() << "\n";
    else
        std::cout << winner << "\n";
    return 0;
}

struct DistributionOptions {
    std::string ranking = "standard";
    int cards = 0;
    bool json = false;
};

int run_distribution(const DistributionOptions& o) {
    check_ranking(o.ranking);
    if (o.cards != 3 && o.cards != 5 && o.cards != 6 && o.cards != 7)
        throw UsageError{"--cards must be 3, 5, 6 or 7 for the standard ranking, not " +
                         std::to_string(o.cards)};
    const auto start = std::chrono::steady_clock::now();
    const StandardDistribution d = standard_distribution(o.cards);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // Highest category first; five of a kind needs wild cards and never occurs here.
    constexpr Category shown[] = {
        Category::straight_flush, Category::four_of_a_kind, Category::full_house,
        Category::flush,          Category::straight,       Category::three_of_a_kind,
        Category::two_pair,       Category::one_pair,       Category::high_card};
    if (o.json) {
        json j;
        j["ranking"] = o.ranking;
        j["cards"] = o.cards;
        j["total"] = d.total;
        json cats = json::object();
        for (Category c : shown)
            cats[std::string(category_name(c))] = d.categories[static_cast<int>(c)];
        j["categories"] = cats;
        j["distinct_values"] = d.distinct_values;
        j["seconds"] = seconds;
        std::cout << j.dump() << "\n";
        return 0;
    }
    std::printf("standard ranking, every %d-card hand of one 52-card pack\n", o.cards);
    for (Category c : shown) {
        const auto n = d.categories[static_cast<int>(c)];
        std::printf("  %-16s %12llu  %9.5f%%\n", std::string(category_name(c)).c_str(),
                    static_cast<unsigned long long>(n),
                    100.0 * static_cast<double>(n) / static_cast<double>(d.total));
    }
    std::printf("  %-16s %12llu\n", "total", static_cast<unsigned long long>(d.total));
    std::printf("distinct values: %d\nseconds: %.3f\n", d.distinct_values, seconds);
    return 0;
}

int run_demo() {
    std::cout << "Felt: an open-source server for card games. This is the felt tool's demo.\n\n";
    const char* hands[][2] = {
        {"As Ks Qs Js Ts", "none"},   {"5d 4c 3h 2s Ad", "none"},  {"Ah Ad 7c 7s 2d Kh 9c", "none"},
        {"Ah Ad Kc", "none"},         {"Xx As Ad Ac Ah", "joker"}, {"Xx Kh Qh Jh Th", "bug"},
        {"2c 2d 9s 9h 4c", "deuces"},
    };
    for (const auto& [cards, wild] : hands) {
        const HandValue v = evaluate_text(cards, unwrap(parse_wild(wild)));
        const std::string command =
            std::string(std::string_view(wild) == "none" ? "" : " --wild ") +
            (std::string_view(wild) == "none" ? "" : wild) + " " + cards;
        std::printf("  felt eval%-36s -> %s %u\n", command.c_str(),
                    std::string(category_name(v.category())).c_str(), v.raw());
    }
    const HandValue a = evaluate_text("Ah Ad Kc Qs Jd", Wild::none);
    const HandValue b = evaluate_text("Ah Ad Kc Qs Td", Wild::none);
    std::printf("\n  felt compare \"Ah Ad Kc Qs Jd\" \"Ah Ad Kc Qs Td\" -> %s\n\n", a > b ? "first"
                                                                                    : b > a
                                                                                        ? "second"
                                                                                        : "tie");
    DistributionOptions o;
    o.cards = 5;
    std::cout << "  felt distribution --cards 5\n";
    run_distribution(o);
    std::cout << "\nTry `felt --help`, `felt eval --help`, `felt distribution --cards 7`.\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"felt: hands, rankings and distributions of the Felt card-game engine.\n"
                 "Without a subcommand it runs a short demonstration."};
    app.require_subcommand(0, 1);

    EvalOptions eval;
    auto* eval_cmd =
        app.add_subcommand("eval", "Category and value of a hand (3, 5, 6 or 7 cards)");
    eval_cmd->add_option("--ranking", eval.ranking, "Ranking (standard)");
    eval_cmd->add_option("--wild", eval.wild, "Wild cards: none, joker, bug, deuces, one-eyes");
    eval_cmd->add_flag("--json", eval.json, "Print {\"category\", \"value\", \"ranks\"}");
    eval_cmd->add_option("cards", eval.cards, "Cards: As Kd, As,Kd or AsKd; a joker is Xx")
        ->required();

    CompareOptions cmp;
    auto* cmp_cmd = app.add_subcommand("compare", "Which of two hands wins: first, second or tie");
    cmp_cmd->add_option("--ranking", cmp.ranking, "Ranking (standard)");
    cmp_cmd->add_option("--wild", cmp.wild, "Wild cards: none, joker, bug, deuces, one-eyes");
    cmp_cmd->add_flag("--json", cmp.json, "Print {\"winner\": \"first\"|\"second\"|\"tie\"}");
    cmp_cmd->add_option("first", cmp.first, "First hand, quoted: \"As Ks Qs Js Ts\"")->required();
    cmp_cmd->add_option("second", cmp.second, "Second hand, quoted")->required();

    DistributionOptions dist;
    auto* dist_cmd = app.add_subcommand(
        "distribution", "Count every hand of a size by category, with the fast evaluator");
    dist_cmd->add_option("--ranking", dist.ranking, "Ranking (standard)");
    dist_cmd->add_option("--cards", dist.cards, "Hand size: 3, 5, 6 or 7")->required();
    dist_cmd->add_flag("--json", dist.json, "Print one JSON object");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string msg = e.what();
        if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
        std::cerr << "felt: " << msg << "\n";
        return 2;
    }

    try {
        if (*eval_cmd) return run_eval(eval);
        if (*cmp_cmd) return run_compare(cmp);
        if (*dist_cmd) return run_distribution(dist);
        return run_demo();
    } catch (const UsageError& e) {
        std::cerr << "felt: " << e.message << "\n";
        return 2;
    }
}
