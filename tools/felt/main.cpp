// felt: the command-line tool for game designers and scripts.
//
//   felt                      a short demonstration
//   felt eval CARDS...        category and value of a hand, under any ranking
//   felt compare H1 H2        which of two hands wins
//   felt distribution ...     exact category counts over every hand of a size
//   felt equity HANDS...      each player's chance to win, exactly or by Monte Carlo
//   felt duel --a K --b K     two bots heads-up: big blinds per 100 hands, with an interval
//   felt stats PATH...        hand trackers' statistics of hand histories, by player
//
// Rankings are chosen by name (engine/rankings/ranking.h): standard, vertical, horizontal, flush,
// pokem.
//
// Every error is one line on stderr naming the problem, nothing on stdout, exit status 2.
#include "bot.h"
#include "cards/deck.h"
#include "chinese/chinese.h"
#include "chinese_settle.h"
#include "cli.h"
#include "duel_cmd.h"
#include "equity_cmd.h"
#include "leap_cmd.h"
#include "openface_cmd.h"
#include "phh_files.h"
#include "poker/all_in.h"
#include "poker/draw_advice.h"
#include "poker/phh.h"
#include "poker_bot.h"
#include "protocol/chips_json.h"
#include "rankings/distribution.h"
#include "rankings/evaluator.h"
#include "rankings/meld_distribution.h"
#include "rankings/pokem.h"
#include "rankings/ranking.h"
#include "rankings/wild.h"
#include "simulate.h"
#include "stats_cmd.h"
#include "tournament/deal.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace felt;
using json = nlohmann::ordered_json;

using cli::unwrap;
using cli::UsageError;

// The ranking options every subcommand takes, and which of them the user gave.
struct RankingArgs {
    std::string ranking = "standard";
    std::string wild = "none";
    int ranks = 13;
    int copies = 4;
    bool quads_over_one_of_each = false;
    CLI::Option* ranks_opt = nullptr;
    CLI::Option* copies_opt = nullptr;
    CLI::Option* wild_opt = nullptr;
    CLI::Option* quads_opt = nullptr;

    void add_to(CLI::App* cmd) {
        cmd->add_option("--ranking", ranking,
                        "Ranking: standard, vertical, horizontal, flush or pokem");
        wild_opt =
            cmd->add_option("--wild", wild, "Standard ranking: none, joker, bug, deuces, one-eyes");
        ranks_opt = cmd->add_option("--ranks", ranks, "Meld rankings: ranks in the deck (13)");
        copies_opt =
            cmd->add_option("--copies", copies, "Meld rankings: cards per rank, one a suit (4)");
        quads_opt = cmd->add_flag("--quads-over-one-of-each", quads_over_one_of_each,
                                  "Poke'm: a lone one-of-each ranks below four of a kind");
    }

    bool is_meld() const {
        return ranking == "vertical" || ranking == "horizontal" || ranking == "flush";
    }

    // Refuses an option that does not apply to the chosen ranking, then builds the ranking.
    std::unique_ptr<const Ranking> make() const {
        auto made = make_ranking(ranking, options());
        if (!made) throw UsageError{made.error().message};
        if (ranking != "standard" && wild_opt->count())
            throw UsageError{"--wild applies to the standard ranking only"};
        if (!is_meld() && (ranks_opt->count() || copies_opt->count()))
            throw UsageError{"--ranks and --copies apply to the meld rankings only"};
        if (ranking != "pokem" && quads_opt->count())
            throw UsageError{"--quads-over-one-of-each applies to the pokem ranking only"};
        return std::move(made).value();
    }

    RankingOptions options() const {
        RankingOptions o;
        if (ranking == "standard") o.wild = unwrap(parse_wild(wild));
        o.ranks = ranks;
        o.copies = copies;
        o.quads_over_one_of_each = quads_over_one_of_each;
        return o;
    }
};

std::string hex(const Strength& s) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < s.size(); ++i) {
        out += kDigits[s[i] >> 4];
        out += kDigits[s[i] & 15];
    }
    return out;
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
    RankingArgs ranking;
    bool json = false;
    std::vector<std::string> cards;
};

// A meld hand's three categories, side by side: vertical, horizontal, flush.
std::array<std::string, 3> meld_categories(const RankingArgs& args, std::span<const Card> cards) {
    std::array<std::string, 3> out;
    const char* names[] = {"vertical", "horizontal", "flush"};
    for (std::size_t i = 0; i < 3; ++i) {
        auto r = unwrap(make_ranking(names[i], args.options()));
        out[i] = unwrap(r->judge(cards)).category;
    }
    return out;
}

int run_eval(const EvalOptions& o) {
    const auto ranking = o.ranking.make();
    if (o.ranking.ranking == "standard") {
        const Wild wild = unwrap(parse_wild(o.ranking.wild));
        const HandValue v = evaluate_text(join(o.cards), wild);
        if (o.json) {
            json j;
            j["ranking"] = "standard";
            j["category"] = category_name(v.category());
            j["value"] = v.raw();
            j["ranks"] = class_ranks(v);
            // The same cards' meld categories, side by side (not for a hand with a joker).
            const std::vector<Card> cards = unwrap(deck_for(wild).parse_cards(join(o.cards)));
            if (std::none_of(cards.begin(), cards.end(), [](Card c) { return c.is_joker(); })) {
                const auto melds = meld_categories(RankingArgs{}, cards);
                j["melds"] = {
                    {"vertical", melds[0]}, {"horizontal", melds[1]}, {"flush", melds[2]}};
            }
            std::cout << j.dump() << "\n";
        } else {
            std::cout << category_name(v.category()) << " " << v.raw() << "\n";
        }
        return 0;
    }
    const std::vector<Card> cards = unwrap(ranking->parse_cards(join(o.cards)));
    const Judgement j = unwrap(ranking->judge(cards));
    if (!o.ranking.is_meld()) {
        if (o.json)
            std::cout << json{{"ranking", ranking->name()},
                              {"category", j.category},
                              {"strength", hex(j.strength)}}
                             .dump()
                      << "\n";
        else
            std::cout << j.category << "\n";
        return 0;
    }
    const auto melds = meld_categories(o.ranking, cards);
    if (o.json) {
        json out;
        out["ranking"] = ranking->name();
        out["category"] = j.category;
        out["strength"] = hex(j.strength);
        out["vertical"] = melds[0];
        out["horizontal"] = melds[1];
        out["flush"] = melds[2];
        std::cout << out.dump() << "\n";
    } else {
        // The chosen ranking's category first, then all three side by side.
        std::cout << j.category << "  (" << melds[0] << " " << melds[1] << " " << melds[2] << ")\n";
    }
    return 0;
}

struct CompareOptions {
    RankingArgs ranking;
    bool json = false;
    std::string first, second;
};

int run_compare(const CompareOptions& o) {
    const auto ranking = o.ranking.make();
    const Strength a = unwrap(ranking->judge(unwrap(ranking->parse_cards(o.first)))).strength;
    const Strength b = unwrap(ranking->judge(unwrap(ranking->parse_cards(o.second)))).strength;
    const char* winner = a > b ? "first" : b > a ? "second" : "tie";
    if (o.json)
        std::cout << json{{"winner", winner}}.dump() << "\n";
    else
        std::cout << winner << "\n";
    return 0;
}

struct DistributionOptions {
    RankingArgs ranking;
    int cards = 0;
    bool json = false;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Prints a table of categories, strongest first, with counts and shares; or the JSON object.
void print_counts(json head, const std::vector<std::pair<std::string, std::uint64_t>>& categories,
                  std::uint64_t total, double seconds, bool as_json, const std::string& title) {
    if (as_json) {
        head["total"] = total;
        json counts = json::object(), shares = json::object();
        for (const auto& [name, n] : categories) {
            counts[name] = n;
            shares[name] = static_cast<double>(n) / static_cast<double>(total);
        }
        head["categories"] = counts;
        head["shares"] = shares;
        head["seconds"] = seconds;
        std::cout << head.dump() << "\n";
        return;
    }
    std::cout << title << "\n";
    for (const auto& [name, n] : categories)
        std::printf("  %-24s %15llu  %9.5f%%\n", name.c_str(), static_cast<unsigned long long>(n),
                    100.0 * static_cast<double>(n) / static_cast<double>(total));
    std::printf("  %-24s %15llu\nseconds: %.3f\n", "total", static_cast<unsigned long long>(total),
                seconds);
}

int run_distribution(const DistributionOptions& o) {
    const auto& r = o.ranking;
    r.make(); // refuses an unknown ranking or an option that does not apply
    if (r.is_meld()) {
        const auto start = std::chrono::steady_clock::now();
        const MeldDistribution d = unwrap(meld_distribution(r.ranking, r.ranks, r.copies, o.cards));
        const double seconds = seconds_since(start);
        json head;
        head["ranking"] = d.ranking;
        head["ranks"] = d.ranks;
        head["copies"] = d.copies;
        head["cards"] = d.cards;
        print_counts(head, d.categories, d.total, seconds, o.json,
                     d.ranking + " ranking, every " + std::to_string(d.cards) +
                         "-card hand of a deck of " + std::to_string(d.ranks) + " ranks x " +
                         std::to_string(d.copies) + " cards");
        return 0;
    }
    if (r.ranking == "pokem") {
        if (o.cards != 5)
            throw UsageError{"--cards must be 5 for pokem, not " + std::to_string(o.cards)};
        const auto start = std::chrono::steady_clock::now();
        const PokemDistribution d = pokem_distribution(r.quads_over_one_of_each);
        const double seconds = seconds_since(start);
        json head;
        head["ranking"] = "pokem";
        head["cards"] = 5;
        head["quads_over_one_of_each"] = r.quads_over_one_of_each;
        print_counts(head, d.categories, d.total, seconds, o.json,
                     "pokem ranking, every 5-card hand of the 125-card deck");
        return 0;
    }
    if (o.cards != 3 && o.cards != 5 && o.cards != 6 && o.cards != 7)
        throw UsageError{"--cards must be 3, 5, 6 or 7 for the standard ranking, not " +
                         std::to_string(o.cards)};
    if (r.wild != "none")
        throw UsageError{"the standard distribution counts hands without wild cards"};
    const auto start = std::chrono::steady_clock::now();
    const StandardDistribution d = standard_distribution(o.cards);
    const double seconds = seconds_since(start);

    // Highest category first; five of a kind needs wild cards and never occurs here.
    constexpr Category shown[] = {
        Category::straight_flush, Category::four_of_a_kind, Category::full_house,
        Category::flush,          Category::straight,       Category::three_of_a_kind,
        Category::two_pair,       Category::one_pair,       Category::high_card};
    if (o.json) {
        json j;
        j["ranking"] = "standard";
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

int run_simulate(const sim::Options& o, bool as_json) {
    const sim::Report r = unwrap(sim::simulate(o));
    if (!r.failure.empty()) throw UsageError{"property failed: " + r.failure};
    const double per_second = r.seconds > 0 ? static_cast<double>(r.hands) / r.seconds : 0;
    if (as_json) {
        json j;
        j["hands"] = r.hands;
        j["hands_per_second"] = per_second;
        j["signature"] = sim::hex(r.signature);
        j["chips_conserved"] = r.chips_conserved;
        j["actions"] = r.actions;
        j["showdowns"] = r.showdowns;
        std::cout << j.dump() << "\n";
    } else {
        std::printf("%s %s, %d players, %ld hands, seed %llu\n  actions %ld, hands shown down "
                    "%ld\n  %.0f hands per second\n  signature %s\n  chips conserved: %s\n",
                    o.structure.c_str(), o.variant.c_str(), o.players, r.hands,
                    static_cast<unsigned long long>(o.seed), r.actions, r.showdowns, per_second,
                    sim::hex(r.signature).c_str(), r.chips_conserved ? "yes" : "no");
    }
    return 0;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError{"cannot read " + path};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Amounts in the file's units: whole numbers as integers, null for an unknown (inf) stack.
json amounts_json(const std::vector<poker::Chips>& chips, std::int64_t scale,
                  std::uint16_t deep = 0) {
    json out = json::array();
    for (std::size_t i = 0; i < chips.size(); ++i) {
        if (deep >> i & 1)
            out.push_back(nullptr);
        else if (chips[i].value() % scale == 0)
            out.push_back(chips[i].value() / scale);
        else
            out.push_back(static_cast<double>(chips[i].value()) / static_cast<double>(scale));
    }
    return out;
}

// One hand (a .phh): its finishing stacks and winnings.
// The all-in EV in the file's units, players as PHH numbers them (p1 first).
json all_in_ev_json(const poker::AllInEv& ev, std::int64_t scale) {
    json seats = json::array();
    for (const poker::AllInShare& s : ev.seats)
        seats.push_back(
            {{"player", s.seat + 1},
             {"equity", std::round(s.equity * 1000) / 1000},
             {"expected", std::round(s.expected / static_cast<double>(scale) * 100) / 100},
             {"won", amounts_json({s.won}, scale)[0]}});
    return {{"street", ev.street},
            {"method", ev.exact ? "exact" : "monte-carlo"},
            {"players", std::move(seats)}};
}

int run_replay_one(const std::string& path, bool as_json) {
    const poker::Replay r = unwrap(poker::replay_phh(read_file(path)));
    const bool done = r.state.phase == poker::Phase::done;
    if (as_json) {
        json j{{"finishing_stacks", amounts_json(r.finishing_stacks, r.scale, r.deep)},
               {"winnings", amounts_json(r.winnings, r.scale)},
               {"finished", done},
               {"undecided", r.undecided}};
        if (r.rake > 0) j["rake"] = amounts_json({r.rake}, r.scale)[0];
        if (!r.winnings_mismatch.empty()) j["winnings_mismatch"] = r.winnings_mismatch;
        if (done) {
            const auto ev = poker::all_in_ev(*r.state.config, r.events, r.state, odds::Query{});
            if (ev) j["all_in_ev"] = all_in_ev_json(*ev, r.scale);
        }
        std::cout << j.dump() << "\n";
        return r.winnings_mismatch.empty() ? 0 : 1;
    }
    std::cout << (r.undecided ? "undecided (only unknown hands contest a pot)"
                  : done      ? "finished"
                              : "unfinished")
              << "; stacks (p1 first):";
    for (std::size_t i = 0; i < r.finishing_stacks.size(); ++i)
        std::cout << " "
                  << (r.deep >> i & 1 ? "inf"
                                      : poker::format_amount(r.finishing_stacks[i], r.scale));
    std::cout << "\n";
    if (r.rake > 0) std::cout << "rake " << poker::format_amount(r.rake, r.scale) << "\n";
    if (!r.winnings_mismatch.empty()) {
        std::cout << r.winnings_mismatch << "\n";
        return 1;
    }
    return 0;
}

// Many hands: .phhs files, several files, or folders (every .phh and .phhs in them). One file
// that is not a .phhs is one hand.
int run_replay(const std::vector<std::string>& paths, bool as_json) {
    namespace fs = std::filesystem;
    if (paths.size() == 1 && fs::path(paths[0]).extension() != ".phhs" &&
        !fs::is_directory(paths[0]))
        return run_replay_one(paths[0], as_json);
    const std::vector<std::string> files = cli::phh_files(paths);
    poker::Corpus c;
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& f : files) poker::replay_corpus(read_file(f), f, c);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double per_second = seconds > 0 ? static_cast<double>(c.hands) / seconds : 0;
    auto entries = [](const std::vector<poker::CorpusEntry>& list) {
        json out = json::array();
        for (const auto& e : list) out.push_back({{"hand", e.where}, {"reason", e.reason}});
        return out;
    };
    if (as_json) {
        std::cout << json{{"files", files.size()},
                          {"hands", c.hands},
                          {"replayed", c.replayed},
                          {"failed", c.failed},
                          {"undecided", c.undecided},
                          {"winnings_checked", c.winnings_checked},
                          {"winnings_mismatches", c.winnings_mismatches},
                          {"raked", c.raked},
                          {"walks_counting_blind", c.walks_counting_blind},
                          {"hands_per_second", std::round(per_second)},
                          {"failures", entries(c.failures)},
                          {"mismatches", entries(c.mismatches)}}
                         .dump()
                  << "\n";
    } else {
        std::printf("%zu files, %ld hands: %ld replayed, %ld failed, %ld undecided\n"
                    "  winnings checked in %ld hands: %ld mismatches, %ld raked, %ld walks that "
                    "count the big blind's own chips\n"
                    "  %.0f hands per second\n",
                    files.size(), c.hands, c.replayed, c.failed, c.undecided, c.winnings_checked,
                    c.winnings_mismatches, c.raked, c.walks_counting_blind, per_second);
        for (const auto& e : c.failures)
            std::printf("  failed: %s: %s\n", e.where.c_str(), e.reason.c_str());
        for (const auto& e : c.mismatches)
            std::printf("  mismatch: %s: %s\n", e.where.c_str(), e.reason.c_str());
    }
    return c.failed == 0 && c.winnings_mismatches == 0 ? 0 : 1;
}

// The cards a draw throws, as words.
json thrown_json(const Ranking& r, std::span<const Card> hand, unsigned thrown) {
    json out = json::array();
    for (std::size_t i = 0; i < hand.size(); ++i)
        if (thrown >> i & 1) out.push_back(r.to_string(hand.subspan(i, 1)));
    return out;
}

std::string words_of(const json& list) {
    std::string out;
    for (const auto& w : list) {
        if (!out.empty()) out += ' ';
        out += w.get<std::string>();
    }
    return out.empty() ? "nothing" : out;
}

// `felt draw best`: the best exchange when the next cards of the deck are known.
int run_draw_best(const RankingArgs& ra, const std::string& hand_text, const std::string& deck_text,
                  int max_discard, bool as_json) {
    const auto ranking = ra.make();
    const std::vector<Card> hand = unwrap(ranking->parse_cards(hand_text));
    const std::vector<Card> next = unwrap(ranking->parse_cards(deck_text));
    const poker::Exchange x = unwrap(poker::best_exchange(*ranking, hand, next, max_discard));
    const json thrown = thrown_json(*ranking, hand, x.thrown);
    if (as_json) {
        std::cout << json{{"throw", thrown},
                          {"count", x.count},
                          {"hand", ranking->to_string(x.hand)},
                          {"category", x.judgement.category}}
                         .dump()
                  << "\n";
    } else {
        std::cout << "throw " << words_of(thrown) << ": " << ranking->to_string(x.hand) << ", "
                  << x.judgement.category << "\n";
    }
    return 0;
}

// `felt draw hint`: the exchange with the best expected result over the unseen cards.
int run_draw_hint(const RankingArgs& ra, const std::string& hand_text, int max_discard, int top,
                  bool as_json) {
    const auto ranking = ra.make();
    const std::vector<Card> hand = unwrap(ranking->parse_cards(hand_text));
    const auto start = std::chrono::steady_clock::now();
    const auto options = unwrap(poker::draw_hint(*ranking, hand, max_discard));
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    json list = json::array();
    for (std::size_t i = 0; i < options.size() && i < static_cast<std::size_t>(top); ++i) {
        const poker::DrawOption& o = options[i];
        list.push_back({{"throw", thrown_json(*ranking, hand, o.thrown)},
                        {"count", o.count},
                        {"expected", std::round(o.expected * 1e6) / 1e6},
                        {"draws", o.draws}});
    }
    if (as_json) {
        std::cout << json{{"options", list}, {"ms", std::round(ms * 10) / 10}}.dump() << "\n";
    } else {
        for (const auto& o : list)
            std::printf("throw %-14s expected share beaten %.4f (%llu draws)\n",
                        words_of(o["throw"]).c_str(), o["expected"].get<double>(),
                        static_cast<unsigned long long>(o["draws"].get<std::uint64_t>()));
        std::printf("%.1f ms\n", ms);
    }
    return 0;
}

// `felt chinese settle`: the JSON document on stdin, described in the README.
int run_chinese_settle(bool pretty) {
    std::ostringstream text;
    text << std::cin.rdbuf();
    const json out = cli::settle_document(text.str());
    std::cout << (pretty ? out.dump(2) : out.dump()) << "\n";
    return 0;
}

int run_chinese_arrange(const std::string& profile_name, const std::vector<std::string>& words,
                        int hints, bool as_json) {
    const chinese::Profile* profile = chinese::find_profile(profile_name);
    if (!profile) throw UsageError{"unknown profile \"" + profile_name + "\""};
    const Deck& pack = deck_for(Wild::none);
    const std::vector<Card> cards = unwrap(pack.parse_cards(join(words)));
    const auto best = unwrap(chinese::arrange(cards, *profile, {}, std::max(1, hints)));
    json list = json::array();
    for (const auto& a : best) {
        json j;
        j["front"] = pack.to_string(a.split.front);
        j["middle"] = pack.to_string(a.split.middle);
        j["back"] = pack.to_string(a.split.back);
        j["declare"] =
            a.declare ? json(std::string(chinese::special_name(*a.declare))) : json(nullptr);
        j["expected_units"] = a.expected_units;
        list.push_back(j);
    }
    if (as_json) {
        std::cout << (hints > 0 ? json{{"hints", list}} : list[0]).dump() << "\n";
        return 0;
    }
    for (const auto& j : list)
        std::printf(
            "front %s | middle %s | back %s%s  expected %+.3f units\n",
            j["front"].get<std::string>().c_str(), j["middle"].get<std::string>().c_str(),
            j["back"].get<std::string>().c_str(),
            j["declare"].is_null() ? "" : ("  declare " + j["declare"].get<std::string>()).c_str(),
            j["expected_units"].get<double>());
    return 0;
}

// `felt bot`: ws://HOST:PORT/ws only (TLS is feltd's open work).
// Where `felt bot` keeps its bots' accounts by default: $XDG_STATE_HOME/felt/bots.json, else
// ~/.local/state/felt/bots.json, else ./felt-bots.json.
std::string default_bot_state() {
    if (const char* x = std::getenv("XDG_STATE_HOME"); x && *x)
        return std::string(x) + "/felt/bots.json";
    if (const char* h = std::getenv("HOME"); h && *h)
        return std::string(h) + "/.local/state/felt/bots.json";
    return "felt-bots.json";
}

int run_bot(bot::Options o, const std::string& url, const std::string& think, bool as_json,
            std::string state, bool no_state) {
    if (!think.empty() && !bot::parse_think(think, o))
        throw UsageError{"--think takes MIN-MAX milliseconds (0 <= MIN <= MAX <= 600000), not " +
                         think};
    if (o.sources < 1 || o.sources > 254) throw UsageError{"--sources takes 1 to 254"};
    const std::string scheme = "ws://";
    if (url.rfind(scheme, 0) != 0) throw UsageError{"--url must start with ws://, not " + url};
    std::string rest = url.substr(scheme.size());
    rest = rest.substr(0, rest.find('/'));
    const auto colon = rest.rfind(':');
    o.host = colon == std::string::npos ? rest : rest.substr(0, colon);
    o.port = colon == std::string::npos ? "80" : rest.substr(colon + 1);
    if (o.join != 0 && (o.join < 0 || o.tables != 1 || o.seats < 1 || o.seats > 9))
        throw UsageError{"--join takes a table id, one table, and --seats 1 to 9"};
    if (o.tables < 1 || o.seats < (o.join ? 1 : 2) || o.seats > 9 || o.hands < 1 || o.threads < 1)
        throw UsageError{"--tables, --hands and --threads must be positive and --seats 2 to 9"};
    if (o.tournament < 0) throw UsageError{"--tournament takes a tournament's id"};
    if (o.level != "easy" && o.level != "fair" && o.level != "strong")
        throw UsageError{"--level is easy, fair or strong, not \"" + o.level + "\""};
    if (!o.personality.empty() && !bots::parse_personality(o.personality))
        throw UsageError{"--personality is tight, loose, aggressive or passive, not \"" +
                         o.personality + "\""};
    if (o.shove) o.level = "shove"; // all in whenever it may, at any level
    if (o.tournament && o.join) throw UsageError{"--tournament and --join: one or the other"};
    if (o.tournament && no_state)
        throw UsageError{"--no-state is for tables: a tournament's bots keep their entries"};
    // A tournament's bots keep their sessions in a state file: run again, they take up their
    // entries (seated again if the tournament runs) instead of registering new ones.
    if (o.tournament) {
        if (state.empty()) state = "felt-bot-tournament-" + std::to_string(o.tournament) + ".json";
        std::ifstream in(state);
        const json saved = json::parse(in, nullptr, false);
        if (in && saved.is_object() && saved.value("tournament", std::int64_t{0}) == o.tournament &&
            saved.contains("tokens") && saved["tokens"].is_array())
            for (const json& t : saved["tokens"])
                if (t.is_string()) o.tokens.push_back(t);
    }
    // Bots at tables keep their accounts too, by server, in the user's state directory (or
    // --state): run again, they sign in to them instead of making new guests, which an address
    // may make only so many of an hour.
    json kept = json::object();
    if (!o.tournament && !no_state) {
        if (state.empty()) state = default_bot_state();
        std::ifstream in(state);
        kept = json::parse(in, nullptr, false);
        if (!in || !kept.is_object()) kept = json::object();
        if (kept.contains(url) && kept[url].is_array())
            for (const json& t : kept[url])
                o.tokens.push_back(t.is_string() ? t.get<std::string>() : std::string());
    }
    const bot::Report r = bot::run(o);
    std::vector<std::string> tokens = o.tokens;
    for (std::size_t i = 0; i < r.tokens.size(); ++i) {
        if (tokens.size() <= i) tokens.resize(i + 1);
        if (!r.tokens[i].empty()) tokens[i] = r.tokens[i];
    }
    if (o.tournament) {
        std::ofstream(state) << json{{"tournament", o.tournament}, {"tokens", tokens}}.dump()
                             << "\n";
    } else if (!no_state) {
        kept[url] = tokens;
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(state).parent_path(), ec);
        std::ofstream out(state);
        out << kept.dump() << "\n";
        if (!out)
            std::fprintf(stderr, "felt bot: could not keep the bots' accounts in %s\n",
                         state.c_str());
    }
    if (as_json) {
        std::cout << json{{"bots", r.bots},
                          {"connected", r.connected},
                          {"hands", r.hands},
                          {"actions", r.actions},
                          {"broke", r.broke},
                          {"seconds", r.seconds},
                          {"hands_per_second", r.seconds > 0 ? r.hands / r.seconds : 0},
                          {"latency_ms_p50", r.percentile(50)},
                          {"latency_ms_p99", r.percentile(99)},
                          {"places", r.places},
                          {"errors", r.errors}}
                         .dump()
                  << "\n";
    } else {
        std::printf("%d bots (%d connected) at %d tables: %ld hands, %ld actions in %.2f s\n"
                    "  %.0f hands per second; action round trip p50 %.2f ms, p99 %.2f ms\n",
                    r.bots, r.connected, o.tables, r.hands, r.actions, r.seconds,
                    r.seconds > 0 ? static_cast<double>(r.hands) / r.seconds : 0, r.percentile(50),
                    r.percentile(99));
        if (r.broke > 0) std::printf("  %d bots went broke and left\n", r.broke);
        for (std::size_t i = 0; i < r.places.size(); ++i)
            if (r.places[i] > 0) std::printf("  bot %zu finished %d\n", i + 1, r.places[i]);
        for (const auto& e : r.errors) std::printf("  error: %s\n", e.c_str());
    }
    return r.errors.empty() && r.connected == r.bots ? 0 : 1;
}

// `felt health [URL]`: is a feltd up and its storage working? GET /healthz (or URL's own path);
// exit 0 on 200, 1 otherwise. Needs nothing but this binary, so a slim container image can use it
// as its HEALTHCHECK.
// felt icm: a deal of the prizes left among the players still in, by ICM and by chip count.
int run_icm(const std::vector<std::int64_t>& stack_values,
            const std::vector<std::int64_t>& prize_values, bool as_json) {
    std::vector<Chips> stacks, prizes;
    for (std::int64_t s : stack_values) stacks.push_back(Chips(s));
    for (std::int64_t p : prize_values) prizes.push_back(Chips(p));
    const std::vector<double> equity = unwrap(tournament::icm_equity(stacks, prizes));
    const std::vector<Chips> icm = unwrap(tournament::icm_deal(stacks, prizes));
    const std::vector<Chips> by_chips = unwrap(tournament::chip_deal(stacks, prizes));
    if (as_json) {
        json rounded = json::array();
        for (double e : equity) rounded.push_back(std::round(e * 100) / 100);
        std::cout << json{{"stacks", stacks},
                          {"prizes", prizes},
                          {"icm_equity", rounded},
                          {"icm_deal", icm},
                          {"chip_deal", by_chips}}
                         .dump()
                  << "\n";
        return 0;
    }
    std::printf("%-7s %14s %12s %10s %16s\n", "player", "stack", "ICM equity", "ICM deal",
                "chip-count deal");
    for (std::size_t i = 0; i < stacks.size(); ++i)
        std::printf("%-7zu %14lld %12.2f %10lld %16lld\n", i + 1,
                    static_cast<long long>(stacks[i].value()), equity[i],
                    static_cast<long long>(icm[i].value()),
                    static_cast<long long>(by_chips[i].value()));
    return 0;
}

int run_health(const std::string& url, double timeout) {
    const std::string scheme = "http://";
    if (url.rfind(scheme, 0) != 0)
        throw UsageError{"the URL must start with http:// (felt health speaks plain HTTP), not " +
                         url};
    const std::string rest = url.substr(scheme.size());
    const auto slash = rest.find('/');
    const std::string authority = rest.substr(0, slash);
    const std::string target = slash == std::string::npos ? "/healthz" : rest.substr(slash);
    const auto colon = authority.rfind(':');
    const std::string host = colon == std::string::npos ? authority : authority.substr(0, colon);
    const std::string port = colon == std::string::npos ? "80" : authority.substr(colon + 1);
    if (host.empty() || port.empty() ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
        throw UsageError{"not a URL of the form http://HOST:PORT/PATH: " + url};
    if (!(timeout > 0 && timeout <= 600)) throw UsageError{"--timeout takes 0 to 600 seconds"};
    const bot::HttpAnswer a = bot::http_get(host, port, target, timeout);
    std::string body = a.body;
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
    if (a.status == 200) {
        std::printf("healthy: %s\n", body.c_str());
        return 0;
    }
    if (a.status == 0)
        std::printf("unreachable: %s (%s)\n", a.error.c_str(), url.c_str());
    else
        std::printf("unhealthy: HTTP %d %s\n", a.status, body.substr(0, 200).c_str());
    return 1;
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
    std::cout << "  felt distribution --cards 5\n";
    const StandardDistribution d = standard_distribution(5);
    std::printf(
        "    straight_flush %llu ... high_card %llu, total %llu, distinct values: %d\n",
        static_cast<unsigned long long>(d.categories[static_cast<int>(Category::straight_flush)]),
        static_cast<unsigned long long>(d.categories[static_cast<int>(Category::high_card)]),
        static_cast<unsigned long long>(d.total), d.distinct_values);
    auto vertical = unwrap(make_ranking("vertical"));
    const auto melds = unwrap(vertical->parse_cards("Qs Jh Td Tc 9s"));
    std::printf("\n  felt eval --ranking vertical Qs Jh Td Tc 9s -> %s\n",
                unwrap(vertical->judge(melds)).category.c_str());
    std::cout << "\nTry `felt --help`, `felt eval --help`, `felt distribution --cards 7`.\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"felt: hands, rankings and distributions of the Felt card-game engine.\n"
                 "Without a subcommand it runs a short demonstration."};
    app.require_subcommand(0, 1);

    EvalOptions eval;
    auto* eval_cmd = app.add_subcommand(
        "eval", "Category of a hand (standard: also its value; melds: v, h and f side by side)");
    eval.ranking.add_to(eval_cmd);
    eval_cmd->add_flag("--json", eval.json, "Print one JSON object");
    eval_cmd
        ->add_option("cards", eval.cards,
                     "Cards: As Kd, As,Kd or AsKd; a joker is Xx; Poke'm: n3rc")
        ->required();

    CompareOptions cmp;
    auto* cmp_cmd = app.add_subcommand("compare", "Which of two hands wins: first, second or tie");
    cmp.ranking.add_to(cmp_cmd);
    cmp_cmd->add_flag("--json", cmp.json, "Print {\"winner\": \"first\"|\"second\"|\"tie\"}");
    cmp_cmd->add_option("first", cmp.first, "First hand, quoted: \"As Ks Qs Js Ts\"")->required();
    cmp_cmd->add_option("second", cmp.second, "Second hand, quoted")->required();

    DistributionOptions dist;
    auto* dist_cmd =
        app.add_subcommand("distribution", "Count every hand of a size by category, exactly");
    dist.ranking.add_to(dist_cmd);
    dist_cmd
        ->add_option("--cards", dist.cards,
                     "Hand size: standard 3, 5, 6 or 7; melds 1 and up; pokem 5")
        ->required();
    dist_cmd->add_flag("--json", dist.json, "Print one JSON object");

    sim::Options simo;
    bool sim_json = false;
    auto* sim_cmd = app.add_subcommand(
        "simulate", "Play hands with random legal actions, checking the engine's properties");
    sim_cmd->add_option("--variant", simo.variant,
                        "straight, draw, stud, holdem, mexican, shrinking (holdem)");
    sim_cmd->add_option("--structure", simo.structure,
                        "no-limit, pot-limit, fixed-limit (no-limit)");
    sim_cmd->add_option("--players", simo.players, "Players at the table (6)");
    sim_cmd->add_option("--hands", simo.hands, "Hands to play (1000)");
    sim_cmd->add_option("--seed", simo.seed, "Seed of the shuffles and choices (1)");
    sim_cmd->add_option("--ranking", simo.ranking, "standard or vertical (standard)");
    sim_cmd->add_option("--wild", simo.wild,
                        "Standard ranking: none, joker, bug, deuces, one-eyes");
    sim_cmd->add_option("--rake", simo.rake_percent, "Rake percent, capped at 10 chips a hand (0)");
    sim_cmd->add_option("--open-pair", simo.open_pair,
                        "Fixed-limit stud, a pair showing on fourth street: big_bet, choice or "
                        "off (big_bet)");
    sim_cmd->add_flag("--json", sim_json, "Print one JSON object");

    std::vector<std::string> replay_paths;
    bool replay_json = false;
    auto* replay_cmd = app.add_subcommand(
        "replay", "Play PHH hand histories through the engine: one hand's finishing stacks, or a "
                  "summary of many");
    replay_cmd
        ->add_option("files", replay_paths,
                     "A .phh file (one hand), or .phhs files and folders (a summary)")
        ->required();
    replay_cmd->add_flag("--json", replay_json, "Print one JSON object");

    auto* chinese_cmd = app.add_subcommand("chinese", "Thirteen-card Chinese poker");
    chinese_cmd->require_subcommand(1);
    bool settle_pretty = false;
    auto* settle_cmd = chinese_cmd->add_subcommand(
        "settle", "Settle a hand: a JSON document on stdin, the payments as JSON on stdout");
    settle_cmd->add_flag("--json", settle_pretty, "Indent the JSON (it is JSON either way)");

    std::string arrange_profile = "classic";
    std::vector<std::string> arrange_cards;
    int arrange_hints = 0;
    bool arrange_json = false;
    auto* arrange_cmd = chinese_cmd->add_subcommand(
        "arrange", "The split of 13 cards with the largest expected units (or the K best)");
    arrange_cmd->add_option("--profile", arrange_profile, "Scoring profile (classic)");
    arrange_cmd->add_option("--hints", arrange_hints, "Give the K best splits");
    arrange_cmd->add_flag("--json", arrange_json, "Print JSON");
    arrange_cmd->add_option("cards", arrange_cards, "13 cards")->required();

    cli::OpenFaceCommand open_face;
    open_face.add_to(app);

    auto* draw_cmd = app.add_subcommand("draw", "Five-card draw: the best exchange");
    draw_cmd->require_subcommand(1);
    RankingArgs draw_args;
    std::string draw_hand, draw_deck;
    int draw_max = 5, draw_top = 5;
    bool draw_json = false;
    auto* draw_best_cmd = draw_cmd->add_subcommand(
        "best", "The exchange that makes the best hand, the next cards of the deck known (ties: "
                "fewer thrown)");
    draw_args.add_to(draw_best_cmd);
    draw_best_cmd->add_option("--max-discard", draw_max, "The most cards to throw (5)");
    draw_best_cmd->add_flag("--json", draw_json, "Print one JSON object");
    draw_best_cmd->add_option("hand", draw_hand, "Five cards")->required();
    draw_best_cmd->add_option("deck", draw_deck, "The next cards of the deck, top first")
        ->required();
    auto* draw_hint_cmd = draw_cmd->add_subcommand(
        "hint", "Each exchange's expected share of five-card hands beaten, counted exactly over "
                "the unseen cards; best first");
    draw_args.add_to(draw_hint_cmd);
    draw_hint_cmd->add_option("--max-discard", draw_max, "The most cards to throw (5)");
    draw_hint_cmd->add_option("--top", draw_top, "Exchanges to print (5)");
    draw_hint_cmd->add_flag("--json", draw_json, "Print one JSON object");
    draw_hint_cmd->add_option("hand", draw_hand, "Five cards")->required();

    auto* leap_cmd = app.add_subcommand("leap", "Leap rummy");
    leap_cmd->require_subcommand(1);
    cli::LeapArgs leap_meld_args;
    std::vector<std::string> leap_cards;
    bool leap_meld_json = false;
    auto* leap_meld_cmd = leap_cmd->add_subcommand(
        "meld", "Whether cards (any order) make a meld: its leap, length and points");
    leap_meld_args.add_rules(leap_meld_cmd);
    leap_meld_cmd->add_flag("--json", leap_meld_json, "Print one JSON object");
    leap_meld_cmd->add_option("cards", leap_cards, "Cards: 3h 5h 7h; a joker is Xx")->required();

    cli::LeapArgs leap_sim_args;
    sim::LeapOptions leap_sim;
    bool leap_sim_json = false;
    auto* leap_sim_cmd = leap_cmd->add_subcommand(
        "simulate", "Play whole games with random legal choices, checking the engine's properties");
    leap_sim_args.add_rules(leap_sim_cmd);
    leap_sim_cmd->add_option("--players", leap_sim.players,
                             "Players, 2 to 6; under leaptokens at most one a leap (4, or the "
                             "leaps of a smaller deck)");
    leap_sim_cmd->add_option("--games", leap_sim.games, "Games to play (1000)");
    leap_sim_cmd->add_option("--seed", leap_sim.seed, "Seed of the shuffles and choices (1)");
    leap_sim_cmd->add_option("--jokers", leap_sim.rules.jokers, "Wild jokers per pack (0)");
    leap_sim_cmd->add_flag("--distinct-leaps", leap_sim.rules.distinct_leaps,
                           "Alternative rule: each meld of a player in a different leap, no "
                           "leaptokens, no conjoining");
    leap_sim_cmd->add_flag("--json", leap_sim_json, "Print one JSON object");

    bot::Options boto;
    std::string bot_url = "ws://127.0.0.1:8080/ws";
    std::string bot_think;
    bool bot_json = false;
    auto* bot_cmd = app.add_subcommand(
        "bot", "Bots that play poker through a running feltd: random legal actions, real protocol");
    bot_cmd->add_option("--url", bot_url, "feltd's WebSocket address (ws://127.0.0.1:8080/ws)");
    bot_cmd->add_option("--tables", boto.tables, "Tables to create (1)");
    bot_cmd->add_option("--seats", boto.seats, "Bots at each table (6)");
    bot_cmd->add_option("--hands", boto.hands, "Hands each table plays before its bots leave (10)");
    bot_cmd->add_option("--threads", boto.threads, "Threads running the bots (1)");
    bot_cmd->add_option("--seed", boto.seed, "Seed of the bots' choices (1)");
    bot_cmd->add_option("--rate", boto.rate,
                        "Messages a second each bot sends at most (40: under feltd's default 50)");
    bot_cmd->add_flag("--shove", boto.shove, "Bet or raise all in whenever allowed");
    boto.level = "easy";
    bot_cmd->add_option("--level", boto.level,
                        "easy (mostly check and call), fair or strong (docs/bots.md) (easy)");
    bot_cmd->add_option("--personality", boto.personality,
                        "fair and strong: tight (the default), loose, aggressive or passive");
    bot_cmd->add_option("--join", boto.join,
                        "Join this open table (its id) instead of creating tables; --seats bots");
    bot_cmd->add_option("--think", bot_think,
                        "A person's pace: each decision waits MIN-MAX milliseconds, uniformly "
                        "(e.g. 1000-4000; default: at once)");
    bot_cmd->add_option("--sources", boto.sources,
                        "Connect from 127.0.0.1 to 127.0.0.N in turn (1); for more connections "
                        "than one address has local ports");
    bot_cmd->add_option("--tournament", boto.tournament,
                        "Register --seats bots for this tournament (its id) and play until they "
                        "are out, following their table. Bots sign in as guests from one "
                        "address: a test server may need --accounts-per-hour raised");
    bot_cmd
        ->add_option("--rebuys", boto.rebuys,
                     "With --tournament: each bot rebuys up to N times, when it loses its "
                     "chips while rebuys are open (0)")
        ->check(CLI::Range(0, 1000));
    std::string bot_state;
    bot_cmd->add_option("--state", bot_state,
                        "Where the bots' sessions are kept: with --tournament "
                        "./felt-bot-tournament-ID.json (run again, they take up their entries), "
                        "else ~/.local/state/felt/bots.json, by server (run again, they sign in "
                        "to the same accounts)");
    bool bot_no_state = false;
    bot_cmd->add_flag("--no-state", bot_no_state,
                      "At tables: new guests, and nothing kept (not with --tournament)");
    bot_cmd->add_flag("--json", bot_json, "Print one JSON object");

    std::vector<std::int64_t> icm_stacks, icm_prizes;
    bool icm_json = false;
    auto* icm_cmd = app.add_subcommand(
        "icm", "A deal at a tournament's end: the prizes left split by ICM (Malmuth-Harville) "
               "and by chip count, in whole chips");
    icm_cmd->add_option("--stacks", icm_stacks, "The players' stacks: A,B,... (at most 10)")
        ->delimiter(',')
        ->required();
    icm_cmd
        ->add_option("--prizes", icm_prizes,
                     "The prizes of the places left, first place first: P,Q,... (no more than "
                     "the players; the places past them pay nothing)")
        ->delimiter(',')
        ->required();
    icm_cmd->add_flag("--json", icm_json, "Print one JSON object");

    cli::DuelArgs duel_args;
    auto* duel_cmd = app.add_subcommand(
        "duel", "Two bots heads-up at no-limit hold'em, each deal twice with the seats swapped: "
                "the first's big blinds per 100 hands");
    duel_args.add_to(duel_cmd);
    cli::StatsArgs stats_args;
    auto* stats_cmd = app.add_subcommand(
        "stats", "Hand trackers' statistics (VPIP, PFR, 3-bet, c-bet, WTSD, bb/100, ...) of PHH "
                 "hand histories, for each player");
    stats_args.add_to(stats_cmd);
    cli::EquityArgs equity_args;
    auto* equity_cmd = app.add_subcommand(
        "equity", "Each player's chance to win: exactly, or by Monte Carlo to a standard error");
    equity_args.add_to(equity_cmd);

    std::string health_url = "http://127.0.0.1:8080/healthz";
    double health_timeout = 5;
    auto* health_cmd = app.add_subcommand(
        "health", "Is feltd up? GET its /healthz: exit 0 on 200, 1 otherwise (a HEALTHCHECK)");
    health_cmd->add_option("url", health_url,
                           "http://HOST:PORT[/PATH] (http://127.0.0.1:8080/healthz; the path "
                           "defaults to /healthz)");
    health_cmd->add_option("--timeout", health_timeout, "Seconds to wait for the answer (5)");

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
        if (*sim_cmd) return run_simulate(simo, sim_json);
        if (*replay_cmd) return run_replay(replay_paths, replay_json);
        if (*settle_cmd) return run_chinese_settle(settle_pretty);
        if (*arrange_cmd)
            return run_chinese_arrange(arrange_profile, arrange_cards, arrange_hints, arrange_json);
        if (const int rc = open_face.run(); rc >= 0) return rc;
        if (*bot_cmd) return run_bot(boto, bot_url, bot_think, bot_json, bot_state, bot_no_state);
        if (*health_cmd) return run_health(health_url, health_timeout);
        if (*icm_cmd) return run_icm(icm_stacks, icm_prizes, icm_json);
        if (*equity_cmd) return cli::run_equity(equity_args);
        if (*stats_cmd) return cli::run_stats(stats_args);
        if (*duel_cmd) return cli::run_duel(duel_args);
        if (*draw_best_cmd)
            return run_draw_best(draw_args, draw_hand, draw_deck, draw_max, draw_json);
        if (*draw_hint_cmd)
            return run_draw_hint(draw_args, draw_hand, draw_max, draw_top, draw_json);
        if (*leap_meld_cmd) return cli::run_leap_meld(leap_meld_args, leap_cards, leap_meld_json);
        if (*leap_sim_cmd) {
            if (leap_sim_cmd->count("--players") == 0 && !leap_sim.rules.distinct_leaps)
                leap_sim.players = std::clamp(leap_sim_args.rules.ranks / 2, 2, 4);
            return cli::run_leap_simulate(leap_sim_args, leap_sim, leap_sim_json);
        }
        return run_demo();
    } catch (const UsageError& e) {
        std::cerr << "felt: " << e.message << "\n";
        return 2;
    }
}
