#include "protocol/tournament_config.h"

#include "poker/hand.h"
#include "poker/variant.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace felt::protocol {

namespace {

constexpr std::int64_t kMostChips = 1'000'000'000'000;
constexpr std::int64_t kLongestWait = 30LL * 24 * 3600; // a start at most 30 days ahead

using tournament::Level;

constexpr std::array<const char*, 7> kAmounts = {
    "small_blind", "big_blind", "ante", "big_blind_ante", "small_bet", "big_bet", "bring_in"};

Chips* amount(Level& l, std::size_t k) {
    std::array<Chips*, 7> at = {&l.small_blind, &l.big_blind, &l.ante,    &l.big_blind_ante,
                                &l.small_bet,   &l.big_bet,   &l.bring_in};
    return at[k];
}

// One entry of "levels": a level, or a break ({"break_minutes": 5}).
std::optional<Level> read_level(const json& body, std::size_t i, ConfigReader& outer) {
    const std::string where = "levels[" + std::to_string(i) + "]";
    if (!body.is_object()) {
        outer.refuse("levels", where + " must be an object: a level, or {\"break_minutes\": N}");
        return std::nullopt;
    }
    ConfigReader in(body, {});
    in.unknown_as("level setting", " in " + where);
    Level l;
    if (body.contains("break_minutes")) {
        l.break_minutes = static_cast<int>(in.integer("break_minutes", 0, 1, 24 * 60));
    } else {
        for (std::size_t k = 0; k < kAmounts.size(); ++k)
            *amount(l, k) = in.chips(kAmounts[k], Chips(), 0, kMostChips);
        l.minutes = static_cast<int>(in.integer("minutes", 0, 0, 24 * 60));
        l.hands = static_cast<int>(in.integer("hands", 0, 0, 10'000));
    }
    if (auto why = in.finish()) {
        outer.refuse("levels", where + ": " + why->message);
        return std::nullopt;
    }
    return l;
}

json level_json(const Level& l) {
    if (l.is_break()) return {{"break_minutes", l.break_minutes}};
    json j = json::object();
    Level copy = l;
    for (std::size_t k = 0; k < kAmounts.size(); ++k)
        if (*amount(copy, k) > 0) j[kAmounts[k]] = amount(copy, k)->value();
    if (l.minutes > 0) j["minutes"] = l.minutes;
    if (l.hands > 0) j["hands"] = l.hands;
    return j;
}

// A percentage with at most two decimals, as hundredths of a percent.
std::optional<int> share_of(const json& v) {
    if (!v.is_number()) return std::nullopt;
    const double hundredths = v.get<double>() * 100;
    const double whole = std::round(hundredths);
    if (std::abs(hundredths - whole) > 1e-6 || whole < -1e9 || whole > 1e9) return std::nullopt;
    return static_cast<int>(whole);
}

// "payouts": a list of percentages for every field size, or a table of them by entrants:
// [{"max_entrants": 6, "percentages": [70, 30]}, ...].
std::optional<tournament::PayoutTable> read_payouts(const json& v, int max_entrants,
                                                    ConfigReader& in) {
    auto refuse = [&](std::string why) {
        in.refuse("payouts", std::move(why));
        return std::nullopt;
    };
    if (!v.is_array() || v.empty())
        return refuse("\"payouts\" is a list of percentages, or of {\"max_entrants\": N, "
                      "\"percentages\": [...]} by field size");
    auto shares = [&](const json& list,
                      const std::string& where) -> std::optional<std::vector<int>> {
        if (!list.is_array()) return refuse(where + " must be a list of percentages");
        std::vector<int> out;
        for (const json& p : list) {
            auto s = share_of(p);
            if (!s)
                return refuse(where + ": " + p.dump() +
                              " is not a percentage with at most two decimals");
            out.push_back(*s);
        }
        return out;
    };
    tournament::PayoutTable t;
    if (!v.front().is_object()) {
        auto s = shares(v, "\"payouts\"");
        if (!s) return std::nullopt;
        t.push_back({max_entrants, std::move(*s)});
    } else {
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string where = "payouts[" + std::to_string(i) + "]";
            const json& tier = v[i];
            if (!tier.is_object() || !tier.contains("max_entrants") ||
                !tier.contains("percentages") || tier.size() != 2 ||
                !tier["max_entrants"].is_number_integer())
                return refuse(where + " must be {\"max_entrants\": N, \"percentages\": [...]}");
            auto s = shares(tier["percentages"], where + ".percentages");
            if (!s) return std::nullopt;
            const auto most = tier["max_entrants"].get<std::int64_t>();
            t.push_back({static_cast<int>(std::clamp<std::int64_t>(most, -1, kMostEntrants + 1)),
                         std::move(*s)});
        }
    }
    if (auto e = tournament::check(t)) return refuse(e->message);
    return t;
}

// The entry period's settings (TournamentConfig), checked against the format and the levels.
void read_entry_period(ConfigReader& in, TournamentConfig& c) {
    constexpr int kMostLevels = 1'000;
    const bool sng = c.format == "sit-and-go";
    for (const char* key : {"late_registration_levels", "reentries", "reentry_levels"})
        if (sng && in.raw(key))
            in.refuse(key, std::string("a sit-and-go starts when its seats are full and takes no "
                                       "late entries: \"") +
                               key + "\" is for multi-table tournaments");
    c.late_registration_levels =
        static_cast<int>(in.integer("late_registration_levels", 0, 0, kMostLevels));
    c.reentries = static_cast<int>(in.integer("reentries", 0, 0, 100));
    c.reentry_levels = static_cast<int>(in.integer(
        "reentry_levels", c.reentries > 0 ? c.late_registration_levels : 0, 0, kMostLevels));
    if (c.reentries > 0 && c.reentry_levels == 0)
        in.refuse("reentry_levels", "re-entries need a window: \"reentry_levels\" (or "
                                    "\"late_registration_levels\") of at least 1");
    if (c.reentries == 0 && c.reentry_levels > 0)
        in.refuse("reentries", "\"reentry_levels\" is given but \"reentries\" (how many) is 0");
    c.rebuy_levels = static_cast<int>(in.integer("rebuy_levels", 0, 0, kMostLevels));
    c.rebuy_stack = in.chips("rebuy_stack", c.starting_stack, 1, kMostChips);
    c.rebuy_stack_limit = in.chips("rebuy_stack_limit", c.starting_stack, 0, kMostChips);
    c.add_on_stack = in.chips("add_on_stack", Chips(), 0, kMostChips);
    if (c.rebuy_levels == 0)
        for (const char* key : {"rebuy_stack", "rebuy_stack_limit"})
            if (in.raw(key))
                in.refuse(key, std::string("\"") + key + "\" is given but \"rebuy_levels\" is 0");
    if (c.add_on_stack > 0 && !in.failed()) {
        // The add-on is taken at the first break after the rebuy period.
        int played = 0;
        bool break_after = false;
        for (const Level& l : c.levels.levels) {
            if (l.is_break()) {
                if (c.rebuy_levels > 0 && played >= c.rebuy_levels) {
                    break_after = true;
                    break;
                }
                continue;
            }
            ++played;
        }
        if (c.rebuy_levels == 0)
            in.refuse("add_on_stack", "the add-on is taken at the break after the rebuy period: "
                                      "give \"rebuy_levels\" too");
        else if (!break_after)
            in.refuse("add_on_stack", "the add-on is taken at the break after the rebuy period, "
                                      "and the levels have no break after level " +
                                          std::to_string(c.rebuy_levels));
    }
}

} // namespace

std::optional<std::vector<TournamentGame>> mixed_games(std::string_view name) {
    const TournamentGame limit_holdem{"holdem", "fixed-limit"}, omaha8{"omaha-hilo", "fixed-limit"},
        razz{"razz", "fixed-limit"}, stud{"stud", "fixed-limit"}, stud8{"stud-hilo", "fixed-limit"};
    if (name == "horse") return std::vector{limit_holdem, omaha8, razz, stud, stud8};
    if (name == "8-game")
        return std::vector{TournamentGame{"deuce-triple-draw", "fixed-limit"},
                           limit_holdem,
                           omaha8,
                           razz,
                           stud,
                           stud8,
                           TournamentGame{"holdem", "no-limit"},
                           TournamentGame{"omaha", "pot-limit"}};
    return std::nullopt;
}

namespace {

// "games": a mix's name, or a list of {"variant", "structure"} (structure no-limit unless given);
// each a game Felt deals with `seats` seats, from the 52-card pack.
void read_games(ConfigReader& in, TournamentConfig& c) {
    const json* v = in.raw("games");
    if (!v) {
        if (in.raw("rotate_hands"))
            in.refuse("rotate_hands", "\"rotate_hands\" is for a mixed tournament (\"games\")");
        return;
    }
    for (const char* key : {"variant", "structure"})
        if (in.raw(key))
            in.refuse(key, std::string("a mixed tournament names its games in \"games\", not \"") +
                               key + "\"");
    if (v->is_string()) {
        auto mix = mixed_games(v->get<std::string>());
        if (!mix)
            return in.refuse("games",
                             "\"games\" is \"horse\", \"8-game\" or a list of games, not \"" +
                                 v->get<std::string>() + "\"");
        c.games = std::move(*mix);
        c.mix = v->get<std::string>();
    } else if (v->is_array() && !v->empty() && v->size() <= 16) {
        for (std::size_t i = 0; i < v->size(); ++i) {
            const json& g = (*v)[i];
            const std::string where = "game " + std::to_string(i + 1);
            if (!g.is_object() || !g.contains("variant") || !g["variant"].is_string() ||
                (g.contains("structure") && !g["structure"].is_string()) ||
                g.size() != 1u + g.contains("structure"))
                return in.refuse("games",
                                 where + " must be {\"variant\": ..., \"structure\": ...}");
            c.games.push_back(
                {g["variant"].get<std::string>(), g.value("structure", std::string("no-limit"))});
        }
    } else {
        return in.refuse("games", "\"games\" is \"horse\", \"8-game\" or a list of 1 to 16 games");
    }
    // Seats: as many as every game seats, unless the host says.
    if (!in.raw("seats"))
        for (const TournamentGame& g : c.games)
            if (const poker::Variant* v = poker::builtin_variant(g.variant))
                c.seats = std::min(c.seats, v->max_seats);
    for (std::size_t i = 0; i < c.games.size(); ++i) {
        const TournamentGame& g = c.games[i];
        const std::string where = "game " + std::to_string(i + 1) + " (" + g.variant + "): ";
        if (auto alone = poker::named_config(g.variant, g.structure, "standard", "none", 2); !alone)
            return in.refuse("games", where + alone.error().message);
        if (auto seated = poker::named_config(g.variant, g.structure, "standard", "none", c.seats);
            !seated)
            return in.refuse("seats", where + seated.error().message);
    }
    // The tables' own game: the first that deals from the whole pack (a short deck's hand takes
    // its 36 cards from it; the other way round would not do).
    const auto whole = std::find_if(c.games.begin(), c.games.end(), [](const TournamentGame& g) {
        return g.variant != "short-deck";
    });
    const TournamentGame& table = whole != c.games.end() ? *whole : c.games.front();
    c.variant = table.variant;
    c.structure = table.structure;
    c.rotate_hands = static_cast<int>(in.integer("rotate_hands", 0, 0, 1000));
}

} // namespace

json TournamentConfig::to_json() const {
    json levels_json = json::array();
    for (const Level& l : levels.levels) levels_json.push_back(level_json(l));
    json j = {{"format", format},
              {"variant", variant},
              {"structure", structure},
              {"seats", seats},
              {"buy_in", buy_in},
              {"fee", fee},
              {"guarantee", guarantee},
              {"starting_stack", starting_stack},
              {"levels", levels_json},
              {"beyond", std::string(tournament::beyond_name(levels.beyond))},
              {"balance_by", balance_by},
              {"decision_ms", decision_ms},
              {"time_bank_ms", time_bank_ms},
              {"hand_delay_ms", hand_delay_ms}};
    if (!preset.empty()) j["preset"] = preset;
    if (!games.empty()) {
        json list = json::array();
        for (const TournamentGame& g : games)
            list.push_back({{"variant", g.variant}, {"structure", g.structure}});
        j["games"] = mix.empty() ? list : json(mix);
        j.erase("variant");
        j.erase("structure");
        if (rotate_hands > 0) j["rotate_hands"] = rotate_hands;
    }
    if (seed) j["seed"] = *seed;
    if (late_registration_levels > 0) j["late_registration_levels"] = late_registration_levels;
    if (reentries > 0) {
        j["reentries"] = reentries;
        j["reentry_levels"] = reentry_levels;
    }
    if (rebuy_levels > 0) {
        j["rebuy_levels"] = rebuy_levels;
        j["rebuy_stack"] = rebuy_stack;
        j["rebuy_stack_limit"] = rebuy_stack_limit;
    }
    if (add_on_stack > 0) j["add_on_stack"] = add_on_stack;
    if (levels.beyond == tournament::Beyond::step) j["step"] = levels.step;
    if (own_payouts) {
        json tiers = json::array();
        for (const tournament::PayoutTier& t : payouts) {
            json percentages = json::array();
            for (int s : t.shares) percentages.push_back(s / 100.0);
            tiers.push_back({{"max_entrants", t.max_entrants}, {"percentages", percentages}});
        }
        j["payouts"] = tiers;
    }
    if (format == "multi-table") {
        j["max_entrants"] = max_entrants;
        j["min_entrants"] = min_entrants;
        j["start_at"] = start_at;
    }
    return j;
}

Outcome<TournamentConfig> decode_tournament_config(const json& request, std::int64_t now) {
    using D = Outcome<TournamentConfig>;
    ConfigReader in(request, {"type", "id"});
    in.unknown_as("tournament setting", "");
    TournamentConfig c;
    c.format = in.choice("format", c.format, {"sit-and-go", "multi-table"});
    const bool sng = c.format == "sit-and-go";
    c.variant = in.text("variant", c.variant);
    c.structure = in.text("structure", c.structure);
    c.seats = static_cast<int>(in.integer("seats", c.seats, 2, poker::kMaxSeats));
    read_games(in, c);
    auto named = poker::named_config(c.variant, c.structure, "standard", "none", c.seats);
    if (!in.failed() && !named) {
        // The first of the three that the engine refuses with the others at their defaults.
        if (!poker::named_config(c.variant, "no-limit", "standard", "none", 2))
            in.refuse("variant", named.error().message);
        else if (!poker::named_config(c.variant, c.structure, "standard", "none", 2))
            in.refuse("structure", named.error().message);
        else
            in.refuse("seats", named.error().message);
    }

    c.preset =
        in.choice("preset", sng ? "regular" : "multi-table", {"turbo", "regular", "multi-table"});
    const auto preset = tournament::preset(c.preset);
    c.levels = preset->structure;
    c.starting_stack = preset->starting_stack;
    c.hand_delay_ms = preset->hand_delay_ms ? preset->hand_delay_ms : c.hand_delay_ms;

    c.buy_in = in.chips("buy_in", c.buy_in, 0, kMostChips);
    c.fee = in.chips("fee", c.fee, 0, kMostChips);
    c.guarantee = in.chips("guarantee", c.guarantee, 0, kMostChips);
    c.starting_stack = in.chips("starting_stack", c.starting_stack, 1, kMostChips);
    if (const json* levels = in.raw("levels")) {
        if (!levels->is_array() || levels->empty()) {
            in.refuse("levels", "\"levels\" is a list of levels (and breaks), at least one");
        } else {
            c.levels.levels.clear();
            for (std::size_t i = 0; i < levels->size() && !in.failed(); ++i)
                if (auto l = read_level((*levels)[i], i, in)) c.levels.levels.push_back(*l);
        }
    }
    c.levels.beyond =
        *tournament::parse_beyond(in.choice("beyond", "double", {"double", "step", "stay"}));
    c.levels.step = in.chips("step", Chips(), 0, kMostChips);
    if (!in.failed()) {
        if (auto e = tournament::check(c.levels))
            in.refuse(e->message.find("step") != std::string::npos ? "step" : "levels", e->message);
    }
    if (!in.failed()) {
        const Level first = tournament::level(c.levels, 1);
        const Chips opening = first.big_blind ? first.big_blind : first.small_bet;
        if (opening > c.starting_stack)
            in.refuse("starting_stack", "the starting stack (" + to_string(c.starting_stack) +
                                            ") is below the first level's " +
                                            (first.big_blind ? "big blind (" : "small bet (") +
                                            to_string(opening) + ")");
    }

    if (sng) {
        for (const char* key : {"max_entrants", "min_entrants", "start_at", "start_in_s"})
            if (in.raw(key))
                in.refuse(key, std::string("a sit-and-go starts when its ") + "seats are full: \"" +
                                   key + "\" is for multi-table tournaments");
        c.max_entrants = c.seats;
        c.min_entrants = c.seats;
    } else {
        c.max_entrants =
            static_cast<int>(in.integer("max_entrants", kMostEntrants, 2, kMostEntrants));
        c.min_entrants = static_cast<int>(in.integer("min_entrants", 2, 2, kMostEntrants));
        if (c.min_entrants > c.max_entrants)
            in.refuse("min_entrants", "min_entrants (" + std::to_string(c.min_entrants) +
                                          ") is above max_entrants (" +
                                          std::to_string(c.max_entrants) + ")");
        const std::int64_t at = in.integer("start_at", -1, 0, 253'402'300'799); // 9999-12-31
        const std::int64_t in_s = in.integer("start_in_s", -1, 0, kLongestWait);
        if (at >= 0 && in_s >= 0)
            in.refuse("start_in_s", "give \"start_at\" or \"start_in_s\", not both");
        else if (at >= 0 && now > 0 && at < now)
            in.refuse("start_at", "the start time " + std::to_string(at) +
                                      " is in the past (now is " + std::to_string(now) + ")");
        else if (at >= 0 && now > 0 && at > now + kLongestWait)
            in.refuse("start_at", "the start time is more than 30 days ahead");
        c.start_at = at >= 0 ? at : now + (in_s >= 0 ? in_s : 300);
    }
    if (const json* p = in.raw("payouts")) {
        if (auto t = read_payouts(*p, c.max_entrants, in)) {
            c.payouts = std::move(*t);
            c.own_payouts = true;
        }
    } else {
        c.payouts = tournament::default_payouts();
    }
    c.balance_by = static_cast<int>(in.integer("balance_by", c.balance_by, 1, 2));
    c.decision_ms = static_cast<int>(in.integer("decision_ms", c.decision_ms, 100, 3'600'000));
    c.time_bank_ms = static_cast<int>(in.integer("time_bank_ms", c.time_bank_ms, 0, 3'600'000));
    c.hand_delay_ms = static_cast<int>(in.integer("hand_delay_ms", c.hand_delay_ms, 0, 60'000));
    read_entry_period(in, c);
    if (in.raw("seed"))
        c.seed = static_cast<std::uint64_t>(
            in.integer("seed", 0, 0, std::numeric_limits<std::int64_t>::max()));
    if (auto why = in.finish()) return D{std::nullopt, std::move(*why)};
    return D{std::move(c), {}};
}

} // namespace felt::protocol
