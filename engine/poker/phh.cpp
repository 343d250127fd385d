#include "poker/phh.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include <toml++/toml.h>

namespace felt::poker {

namespace {

struct Code {
    const char* variant;
    Structure structure;
    const char* code;
};

// PHH's codes first (NT, FT, F7S); then Felt's, built the same way.
constexpr Code kCodes[] = {
    {"holdem", Structure::no_limit, "NT"},
    {"holdem", Structure::fixed_limit, "FT"},
    {"holdem", Structure::pot_limit, "PT"},
    {"stud", Structure::fixed_limit, "F7S"},
    {"stud", Structure::no_limit, "N7S"},
    {"stud", Structure::pot_limit, "P7S"},
    {"draw", Structure::no_limit, "N5CD"},
    {"draw", Structure::pot_limit, "P5CD"},
    {"draw", Structure::fixed_limit, "F5CD"},
    {"straight", Structure::no_limit, "N5CS"},
    {"straight", Structure::pot_limit, "P5CS"},
    {"straight", Structure::fixed_limit, "F5CS"},
    {"mexican", Structure::no_limit, "NMS"},
    {"mexican", Structure::pot_limit, "PMS"},
    {"mexican", Structure::fixed_limit, "FMS"},
    {"shrinking", Structure::no_limit, "NSD"},
    {"shrinking", Structure::pot_limit, "PSD"},
    {"shrinking", Structure::fixed_limit, "FSD"},
    // The mixed games: PHH's code for the structure they are played in first, then Felt's for
    // the others, built the same way.
    {"omaha", Structure::pot_limit, "PO"},
    {"omaha", Structure::no_limit, "NO"},
    {"omaha", Structure::fixed_limit, "FO"},
    {"omaha-hilo", Structure::fixed_limit, "FO/8"},
    {"omaha-hilo", Structure::pot_limit, "PO/8"},
    {"omaha-hilo", Structure::no_limit, "NO/8"},
    {"razz", Structure::fixed_limit, "FR"},
    {"razz", Structure::pot_limit, "PR"},
    {"razz", Structure::no_limit, "NR"},
    {"stud-hilo", Structure::fixed_limit, "F7S/8"},
    {"stud-hilo", Structure::pot_limit, "P7S/8"},
    {"stud-hilo", Structure::no_limit, "N7S/8"},
    {"deuce-single-draw", Structure::no_limit, "N2L1D"},
    {"deuce-single-draw", Structure::pot_limit, "P2L1D"},
    {"deuce-single-draw", Structure::fixed_limit, "F2L1D"},
    {"deuce-triple-draw", Structure::fixed_limit, "F2L3D"},
    {"deuce-triple-draw", Structure::pot_limit, "P2L3D"},
    {"deuce-triple-draw", Structure::no_limit, "N2L3D"},
    {"badugi", Structure::fixed_limit, "FB"},
    {"badugi", Structure::pot_limit, "PB"},
    {"badugi", Structure::no_limit, "NB"},
    {"short-deck", Structure::no_limit, "NS"},
    {"short-deck", Structure::pot_limit, "PS"},
    {"short-deck", Structure::fixed_limit, "FS"},
};

const char* structure_name(Structure s) {
    return s == Structure::no_limit    ? "no-limit"
           : s == Structure::pot_limit ? "pot-limit"
                                       : "fixed-limit";
}

bool blinds_game(const HandConfig& c) {
    return !c.variant->bring_in_opens();
}

// Cards as PHH writes them: together, "AcKd".
std::string cards_text(const Ranking& r, std::span<const Card> cards) {
    std::string out = r.to_string(cards);
    out.erase(std::remove(out.begin(), out.end(), ' '), out.end());
    return out;
}

// Words joined by single spaces, empty ones left out. (Built with += : g++ 12 warns falsely
// about chains of std::string operator+.)
std::string words(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view w : parts) {
        if (w.empty()) continue;
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

bool is_deal(EventType t) {
    return t == EventType::deal_down || t == EventType::deal_up || t == EventType::receive;
}

// Whether seat `seat` turned up or showed `card` after event `from`, while still holding it: a
// card it discarded face down first stays unseen, even if it came back to it later.
bool shown_later(std::span<const Event> events, std::size_t from, int seat, Card card) {
    for (std::size_t i = from + 1; i < events.size(); ++i) {
        const Event& e = events[i];
        if (e.seat != seat) continue;
        const bool holds = std::find(e.cards.begin(), e.cards.begin() + e.count, card) !=
                           e.cards.begin() + e.count;
        if (!holds) continue;
        if (e.type == EventType::discard) return false;
        if (e.type == EventType::show || e.type == EventType::rollover) return true;
    }
    return false;
}

// A bit per card of each event: the cards `reader` may not see in the finished hand's history
// (see to_phh()). Another seat's face-down cards are hidden unless that seat later turned them up
// or showed them; discards and draws stay hidden.
std::vector<std::uint16_t> hidden_cards(std::span<const Event> events, int reader) {
    std::vector<std::uint16_t> hidden(events.size(), 0);
    if (reader == kEveryCard) return hidden;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (e.visibility == Visibility::everyone || e.seat == reader) continue;
        for (int k = 0; k < e.count; ++k) {
            const Card card = e.cards[static_cast<std::size_t>(k)];
            if (!is_deal(e.type) || !shown_later(events, i, e.seat, card))
                hidden[i] |= static_cast<std::uint16_t>(1u << k);
        }
    }
    return hidden;
}

Error bad(std::string message) {
    return make_error(Errc::bad_config, std::move(message));
}

} // namespace

std::string to_phh(const HandConfig& c, std::span<const Event> events, const HandState& state,
                   int reader) {
    std::vector<int> players; // seats in PHH order
    std::array<int, kMaxSeats> index{};
    for (int i = 1; i <= c.seats; ++i) {
        const int k = (c.button + i) % c.seats;
        if (c.stacks[static_cast<std::size_t>(k)] <= 0) continue;
        players.push_back(k);
        index[static_cast<std::size_t>(k)] = static_cast<int>(players.size());
    }
    const std::size_t n = players.size();
    const bool heads_up = n == 2 && blinds_game(c);
    const Ranking& r = *c.ranking;

    toml::table t;
    std::string code = "?";
    for (const Code& k : kCodes)
        if (c.variant->name == k.variant && c.structure == k.structure) code = k.code;
    t.insert("variant", code);
    t.insert("ante_trimming_status", !c.stakes.dead_antes);
    std::vector<Chips> ante_list;
    toml::array antes, blinds, starting, finishing;
    for (int k : players) {
        ante_list.push_back(c.stakes.seat_antes.empty()
                                ? c.stakes.ante
                                : c.stakes.seat_antes[static_cast<std::size_t>(k)]);
        starting.push_back(c.stacks[static_cast<std::size_t>(k)].value());
        finishing.push_back(state.seats[static_cast<std::size_t>(k)].stack.value());
    }
    if (heads_up) std::reverse(ante_list.begin(), ante_list.end());
    for (Chips x : ante_list) antes.push_back(x.value());
    t.insert("antes", antes);
    if (blinds_game(c)) {
        // Blinds placed by a tournament's dead button are written where they were posted: with a
        // dead small blind the big blind alone, first left of the button (PokerKit opens the
        // betting left of the largest blind).
        const bool placed = c.big_blind_seat >= 0 && !heads_up;
        for (std::size_t i = 0; i < n; ++i) {
            const int k = players[i];
            blinds.push_back((placed   ? (k == c.small_blind_seat ? c.stakes.small_blind
                                          : k == c.big_blind_seat ? c.stakes.big_blind
                                                                  : Chips{})
                              : i == 0 ? c.stakes.small_blind
                              : i == 1 ? c.stakes.big_blind
                              : i - 2 < c.stakes.straddles.size() ? c.stakes.straddles[i - 2]
                                                                  : Chips{})
                                 .value());
        }
        t.insert("blinds_or_straddles", blinds);
    } else {
        t.insert("bring_in", c.stakes.bring_in.value());
    }
    if (c.structure == Structure::fixed_limit) {
        t.insert("small_bet", c.stakes.small_bet.value());
        t.insert("big_bet", c.stakes.big_bet.value());
    } else {
        t.insert("min_bet", (c.stakes.min_bet > 0     ? c.stakes.min_bet
                             : c.stakes.big_blind > 0 ? c.stakes.big_blind
                                                      : c.stakes.small_bet)
                                .value());
    }
    t.insert("starting_stacks", starting);

    toml::array actions;
    auto player = [&](int seat) {
        char name[8];
        std::snprintf(name, sizeof name, "p%d", index[static_cast<std::size_t>(seat)]);
        return std::string(name);
    };
    // An event's cards, those the reader may not see written "??", as PHH writes unknown cards.
    const std::vector<std::uint16_t> hidden = hidden_cards(events, reader);
    auto cards_of = [&](std::size_t i) {
        const Event& e = events[i];
        std::string out;
        for (int k = 0; k < e.count; ++k)
            out += hidden[i] >> k & 1u
                       ? std::string("??")
                       : cards_text(r, std::span(&e.cards[static_cast<std::size_t>(k)], 1));
        return out;
    };
    // A deal's down and up cards for one seat make one PHH dealing action.
    int pending_seat = -1;
    std::string pending;
    auto flush = [&] {
        if (pending_seat >= 0 && !pending.empty())
            actions.push_back(words({"d dh", player(pending_seat), pending}));
        pending_seat = -1;
        pending.clear();
    };
    // Cards each seat showed at once before the run-out: PHH shows a hand once, there, unless
    // it holds more cards at the showdown (stud).
    std::array<int, kMaxSeats> shown_early{};
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (e.type == EventType::show && e.seat >= 0) {
            auto& early = shown_early[static_cast<std::size_t>(e.seat)];
            if (e.number == 1)
                early = e.count;
            else if (early == e.count)
                continue;
        }
        if (is_deal(e.type)) {
            if (e.seat != pending_seat) flush();
            pending_seat = e.seat;
            pending += cards_of(i);
        } else {
            flush();
        }
        switch (e.type) {
        case EventType::deal_board:
            actions.push_back(words({"d db", cards_of(i)}));
            break;
        case EventType::bring_in:
            actions.push_back(words({player(e.seat), "pb"}));
            break;
        case EventType::bet:
        case EventType::raise:
            actions.push_back(words({player(e.seat), "cbr", to_string(e.amount)}));
            break;
        case EventType::check:
        case EventType::call:
            actions.push_back(words({player(e.seat), "cc"}));
            break;
        case EventType::fold:
            actions.push_back(words({player(e.seat), "f"}));
            break;
        case EventType::discard:
            actions.push_back(words({player(e.seat), "sd", cards_of(i)}));
            break;
        case EventType::rollover: // PHH has no rollover: the closest is showing the card
        case EventType::show:
            actions.push_back(words({player(e.seat), "sm", cards_of(i)}));
            break;
        default:
            break;
        }
    }
    flush();
    t.insert("actions", actions);
    if (state.phase == Phase::done) t.insert("finishing_stacks", finishing);

    t.insert("_felt_variant", c.variant->name);
    t.insert("_felt_structure", structure_name(c.structure));
    t.insert("_felt_ranking", std::string(r.name()));
    if (c.variant->name == "draw") t.insert("_felt_max_discard", c.max_discard);
    if (c.variant->name == "shrinking") t.insert("_felt_draws", c.draws > 0 ? c.draws : 4);
    if (c.hole_cards > 0) t.insert("_felt_hole_cards", c.hole_cards);
    if (r.trips_beat_straight()) t.insert("_felt_trips_beat_straight", true);
    if (c.structure == Structure::fixed_limit && c.variant->has_open_pair()) {
        t.insert("_felt_open_pair", std::string(open_pair_name(c.open_pair)));
        t.insert("_felt_big_bet_from", std::string(big_bet_from_name(c.big_bet_from)));
    }
    // A string: TOML integers are signed 64-bit.
    t.insert("_felt_reshuffle_seed", std::to_string(c.reshuffle_seed));
    if (c.rake.percent > 0) {
        t.insert("_felt_rake_percent", c.rake.percent);
        t.insert("_felt_rake_cap", c.rake.cap.value());
    }
    std::ostringstream out;
    out << t << "\n";
    return out.str();
}

namespace {

// ---- a hand's amounts, in whole chips of the smallest decimal unit it uses ----------------------

constexpr int kMaxDecimals = 6;
constexpr std::int64_t kMaxAmount = 100'000'000'000'000; // chips, after scaling
constexpr std::int64_t kDeep = 1'000'000'000'000'000;    // an `inf` stack: deeper than any bet

bool is_digit(char ch) {
    return ch >= '0' && ch <= '9';
}

// The decimal places a number needs, up to kMaxDecimals; -1 when it needs more.
int decimals_of(double x) {
    double scaled = x;
    for (int k = 0; k <= kMaxDecimals; ++k, scaled *= 10)
        if (std::abs(scaled - std::round(scaled)) <= 1e-9 * std::max(1.0, std::abs(scaled)))
            return k;
    return -1;
}

// The decimal places of an amount an action writes ("3.50": 2); -1 when it is not one.
int decimals_of(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i == 0) return -1;
    if (i == text.size()) return 0;
    if (text[i] != '.') return -1;
    const std::size_t dot = i++;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i != text.size() || i == dot + 1) return -1;
    return static_cast<int>(i - dot - 1);
}

// A field of amounts: a list, one per player, or a single number. `inf` where allowed.
struct Amounts {
    std::vector<double> values;
    bool present = false;
};

Result<Amounts> read_amounts(const toml::table& t, const char* key, std::size_t n, bool list,
                             bool allow_inf = false) {
    Amounts out;
    const toml::node* node = t.get(key);
    if (!node) return out;
    out.present = true;
    auto one = [&](const toml::node& v) -> std::optional<Error> {
        const std::optional<double> x =
            v.is_integer() ? std::optional<double>(double(*v.value<std::int64_t>()))
                           : v.value_exact<double>();
        if (!x || std::isnan(*x) || *x < 0 || (std::isinf(*x) && !allow_inf))
            return bad(std::string(key) + ": amounts are numbers, 0 or more" +
                       (allow_inf ? " (or inf)" : ""));
        if (!std::isinf(*x) && decimals_of(*x) < 0)
            return bad(std::string(key) + ": at most " + std::to_string(kMaxDecimals) +
                       " decimal places");
        out.values.push_back(*x);
        return std::nullopt;
    };
    if (!list) {
        if (auto e = one(*node)) return *e;
        return out;
    }
    const toml::array* a = node->as_array();
    if (!a) return bad(std::string(key) + ": a list of amounts, one per player");
    if (n != 0 && a->size() != n)
        return bad(std::string(key) + ": " + std::to_string(n) + " values, one per player, not " +
                   std::to_string(a->size()));
    for (const toml::node& v : *a)
        if (auto e = one(v)) return *e;
    return out;
}

// An amount as chips at `scale` chips to the file's unit.
Result<Chips> to_chips(double x, std::int64_t scale) {
    if (std::isinf(x)) return Chips(kDeep);
    const double v = std::round(x * static_cast<double>(scale));
    if (!(v <= static_cast<double>(kMaxAmount))) return bad("an amount is too large");
    return Chips(static_cast<std::int64_t>(v));
}

Result<Chips> to_chips(std::string_view text, int decimals) {
    const int d = decimals_of(text);
    if (d < 0 || d > decimals) {
        std::string message = "\"";
        message += text;
        message += "\" is not an amount";
        return bad(std::move(message));
    }
    std::int64_t v = 0;
    for (char ch : text) {
        if (ch == '.') continue;
        v = v * 10 + (ch - '0');
        if (v > kMaxAmount) return bad("an amount is too large");
    }
    for (int k = d; k < decimals; ++k) v *= 10;
    return Chips(v);
}

Result<std::vector<Chips>> to_chips(const Amounts& a, std::int64_t scale) {
    std::vector<Chips> out;
    for (double x : a.values) {
        auto c = to_chips(x, scale);
        if (!c) return c.error();
        out.push_back(*c);
    }
    return out;
}

// ---- cards, known and unknown -------------------------------------------------------------------

// A card of a dealing action: known, or `??` (a stand-in is chosen for it).
struct Slot {
    int player = -1; // -1: the board
    bool known = false;
    Card card{};
    std::size_t action = 0; // the action that deals it
};

// The cards of an action's text, "??" for each unknown card: nullopt for each unknown one.
Result<std::vector<std::optional<Card>>> parse_slots(const Ranking& r, std::string_view text) {
    std::vector<std::optional<Card>> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text.compare(i, 2, "??") == 0) {
            out.emplace_back();
            i += 2;
            continue;
        }
        const std::size_t next = std::min(text.find("??", i), text.size());
        auto cards = r.parse_cards(text.substr(i, next - i));
        if (!cards) return cards.error();
        for (Card c : cards.value()) out.emplace_back(c);
        i = next;
    }
    return out;
}

// What a player last showed: cards, unknown cards (`sm ????`), some of each (`sm As??`), a muck
// (`sm` alone), or nothing.
enum class Shown : unsigned char { nothing, cards, unknown, partly, muck };

struct Line {
    std::string actor, verb, arg;
};

// An action's words: actor, verb (with the player for `d dh`), argument.
Line split(std::string_view text) {
    std::array<std::string_view, 4> w{};
    std::size_t count = 0, at = 0;
    while (count < w.size()) {
        at = text.find_first_not_of(" \t", at);
        if (at == std::string_view::npos) break;
        const std::size_t end = std::min(text.find_first_of(" \t", at), text.size());
        w[count++] = text.substr(at, end - at);
        at = end;
    }
    Line l{std::string(w[0]), std::string(w[1]), std::string(w[2])};
    if (l.actor == "d" && l.verb == "dh") {
        l.verb += ' ';
        l.verb += w[2];
        l.arg = std::string(w[3]);
    }
    return l;
}

// p1, p2, ...: the player's index from 0; -1 for anything else.
int player_index(std::string_view actor, int players) {
    if (actor.size() < 2 || actor.size() > 3 || actor[0] != 'p') return -1;
    int p = 0;
    for (char ch : actor.substr(1)) {
        if (!is_digit(ch)) return -1;
        p = p * 10 + (ch - '0');
    }
    return p >= 1 && p <= players ? p - 1 : -1;
}

std::string amounts_text(std::span<const Chips> chips, std::int64_t scale, std::uint16_t deep = 0) {
    std::string out = "[";
    for (std::size_t i = 0; i < chips.size(); ++i) {
        if (i > 0) out += ", ";
        out += deep >> i & 1 ? std::string("inf") : format_amount(chips[i], scale);
    }
    out += ']';
    return out;
}

// One hand, from its TOML table.
Result<Replay> replay_table(const toml::table& t) {
    auto config = std::make_shared<HandConfig>();
    HandConfig& c = *config;

    // Variant and structure: Felt's own fields, or the PHH code.
    const std::string code = t["variant"].value<std::string>().value_or("");
    std::string variant = t["_felt_variant"].value<std::string>().value_or("");
    const std::string structure = t["_felt_structure"].value<std::string>().value_or("");
    bool found = false;
    for (const Code& k : kCodes) {
        const bool match = variant.empty()
                               ? code == k.code
                               : variant == k.variant && structure == structure_name(k.structure);
        if (!match) continue;
        variant = k.variant;
        c.structure = k.structure;
        found = true;
        break;
    }
    if (!found)
        return bad("variant \"" + code +
                   "\": Felt plays NT, FT, PT, F7S, PO, FO/8, FR, F7S/8, N2L1D, F2L3D, FB, NS and "
                   "its own codes");
    c.variant = builtin_variant(variant);
    const bool draws = c.variant->draws();

    RankingOptions ro;
    ro.trips_beat_straight = t["_felt_trips_beat_straight"].value<bool>().value_or(false);
    const std::string ranking =
        t["_felt_ranking"].value<std::string>().value_or(c.variant->ranking);
    const bool own = ranking == c.variant->ranking;
    if (!own && !(ranking == "vertical" && c.variant->ranking == "standard" &&
                  c.variant->hole_cards_used == 0 && !c.variant->split_low))
        return bad("ranking \"" + ranking + "\": " + variant + " plays " + c.variant->ranking);
    auto made = make_ranking(ranking, ro);
    if (!made) return made.error();
    c.ranking = std::shared_ptr<const Ranking>(std::move(made).value());
    const Ranking& r = *c.ranking;
    c.hole_cards = static_cast<int>(t["_felt_hole_cards"].value_exact<std::int64_t>().value_or(0));

    // The actions, comments dropped.
    const toml::array* list = t["actions"].as_array();
    if (!list) return bad("missing field actions (an array of strings)");
    std::vector<std::string> actions;
    for (const toml::node& v : *list) {
        auto s = v.value<std::string>();
        if (!s) return bad("actions: strings only");
        std::string line = *s;
        if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        actions.push_back(line);
    }
    std::vector<Line> lines;
    for (const std::string& a : actions) lines.push_back(split(a));
    auto where = [&](std::size_t i) {
        return "action " + std::to_string(i + 1) + " \"" + actions[i] + "\": ";
    };

    // Amounts, and the scale that makes them whole: the most decimal places any of them uses.
    std::array<Amounts, 9> fields; // stacks, antes, blinds, winnings, finishing, then scalars
    auto& [stacks, antes, blinds, winnings, finishing, bring_in, small_bet, big_bet, min_bet] =
        fields;
    {
        auto s = read_amounts(t, "starting_stacks", 0, true, true);
        if (!s) return s.error();
        stacks = std::move(s).value();
    }
    if (!stacks.present) return bad("missing field starting_stacks (an array)");
    const std::size_t n = stacks.values.size();
    if (n < 2 || n > static_cast<std::size_t>(c.variant->max_seats))
        return bad("starting_stacks: 2 to " + std::to_string(c.variant->max_seats) +
                   " players, not " + std::to_string(n));
    const char* const kKeys[] = {"antes",    "blinds_or_straddles", "winnings", "finishing_stacks",
                                 "bring_in", "small_bet",           "big_bet",  "min_bet"};
    for (std::size_t i = 0; i < 8; ++i) {
        auto f = read_amounts(t, kKeys[i], n, i < 4);
        if (!f) return f.error();
        fields[i + 1] = std::move(f).value();
    }
    if (!antes.present) antes.values.assign(n, 0.0);
    if (blinds_game(c) && !blinds.present)
        return bad("missing field blinds_or_straddles (an array)");
    int decimals = 0;
    for (const Amounts& f : fields)
        for (double x : f.values)
            if (!std::isinf(x)) decimals = std::max(decimals, decimals_of(x));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].verb != "cbr") continue;
        const int d = decimals_of(lines[i].arg);
        if (d < 0 || d > kMaxDecimals)
            return bad(where(i) + "cbr needs an amount (digits, at most " +
                       std::to_string(kMaxDecimals) + " decimal places)");
        decimals = std::max(decimals, d);
    }
    std::int64_t scale = 1;
    for (int k = 0; k < decimals; ++k) scale *= 10;

    Replay out;
    out.scale = scale;
    c.seats = static_cast<int>(n);
    c.button = c.seats - 1; // p1 sits left of the button, pN on it
    for (std::size_t i = 0; i < n; ++i) {
        const double x = stacks.values[i];
        if (std::isinf(x)) out.deep |= std::uint16_t(1u << i);
        auto chips = to_chips(x, scale);
        if (!chips) return chips.error();
        if (*chips <= 0) return bad("starting_stacks: every stack is positive");
        c.stacks[i] = *chips;
    }
    const bool heads_up = n == 2 && blinds_game(c);
    auto ante_chips = to_chips(antes, scale);
    if (!ante_chips) return ante_chips.error();
    std::vector<Chips> a = std::move(ante_chips).value();
    if (heads_up) std::reverse(a.begin(), a.end());
    if (std::all_of(a.begin(), a.end(), [&](Chips x) { return x == a[0]; }))
        c.stakes.ante = a[0];
    else
        c.stakes.seat_antes = a;
    // ante_trimming_status, false when missing: the antes are dead money in the main pot (as
    // PokerKit plays it, and the big-blind ante's custom). True: each ante counts at its level,
    // as Felt's tables play their one ante (the same whenever every player covers it).
    {
        const auto trimming = t["ante_trimming_status"];
        if (trimming && !trimming.is_boolean()) return bad("ante_trimming_status: true or false");
        c.stakes.dead_antes = !trimming.value<bool>().value_or(false);
    }
    if (blinds_game(c)) {
        auto b = to_chips(blinds, scale);
        if (!b) return b.error();
        c.stakes.small_blind = (*b)[0];
        c.stakes.big_blind = (*b)[1];
        // A big blind alone, left of the button: a dead small blind (a tournament's dead button).
        if (n > 2 && (*b)[0] > 0 &&
            std::all_of(b->begin() + 1, b->end(), [](Chips x) { return x == 0; })) {
            c.stakes.small_blind = Chips{};
            c.stakes.big_blind = (*b)[0];
            c.big_blind_seat = 0;
            c.small_blind_seat = -1;
        }
        std::size_t last = n;
        while (last > 2 && (*b)[last - 1] == 0) --last;
        for (std::size_t i = 2; i < last; ++i) {
            if ((*b)[i] == 0) return bad("blinds_or_straddles: a straddle after no straddle");
            c.stakes.straddles.push_back((*b)[i]);
        }
    } else if (blinds.present && std::any_of(blinds.values.begin(), blinds.values.end(),
                                             [](double x) { return x != 0; })) {
        return bad("blinds_or_straddles: " + variant + " has a bring-in, not blinds");
    }
    for (auto [field, to] : {std::pair{&bring_in, &c.stakes.bring_in},
                             {&small_bet, &c.stakes.small_bet},
                             {&big_bet, &c.stakes.big_bet},
                             {&min_bet, &c.stakes.min_bet}}) {
        if (!field->present) continue;
        auto x = to_chips(field->values[0], scale);
        if (!x) return x.error();
        *to = *x;
    }
    if (c.structure == Structure::fixed_limit && (c.stakes.small_bet <= 0 || c.stakes.big_bet <= 0))
        return bad("fixed limit: small_bet and big_bet are required");
    if (c.structure != Structure::fixed_limit && c.stakes.min_bet <= 0)
        return bad("no limit and pot limit: min_bet is required");
    c.max_discard =
        static_cast<int>(t["_felt_max_discard"].value_exact<std::int64_t>().value_or(5));
    try {
        c.reshuffle_seed =
            std::stoull(t["_felt_reshuffle_seed"].value<std::string>().value_or("0"));
    } catch (const std::exception&) {
        return bad("_felt_reshuffle_seed: a whole number");
    }
    c.rake.percent =
        static_cast<int>(t["_felt_rake_percent"].value_exact<std::int64_t>().value_or(0));
    c.rake.cap = Chips(t["_felt_rake_cap"].value_exact<std::int64_t>().value_or(0));
    // The open pair on fourth street: Felt's own histories say which rule their table played;
    // any other takes the casino custom, which accepts both sizes (a history of the source's
    // rule, or of none, replays under it too).
    const std::string open_pair = t["_felt_open_pair"].value<std::string>().value_or("choice");
    if (auto rule = parse_open_pair(open_pair))
        c.open_pair = *rule;
    else
        return bad("_felt_open_pair: off, big_bet or choice, not \"" + open_pair + "\"");
    // Shrinking draw: the draws played; a history without them is of the earlier rules (three
    // draws of exactly two, as Felt wrote them before it wrote `_felt_draws`).
    if (c.variant->name == "shrinking") {
        const auto draws = t["_felt_draws"];
        if (!draws) {
            c.variant = builtin_variant("shrinking-3");
        } else if (auto k = draws.value_exact<std::int64_t>(); k && *k >= 1 && *k <= 4) {
            c.draws = static_cast<int>(*k);
        } else {
            return bad("_felt_draws: 1 to 4");
        }
    }
    // From which street stud bets the big bet: card rooms' fifth unless the history says.
    const std::string big_from = t["_felt_big_bet_from"].value<std::string>().value_or("fifth");
    if (auto rule = parse_big_bet_from(big_from))
        c.big_bet_from = *rule;
    else
        return bad("_felt_big_bet_from: fifth or seventh, not \"" + big_from + "\"");

    // Every dealt card, in the order the history deals it, known or not; and what each player
    // last showed.
    std::vector<Slot> slots;
    std::vector<std::vector<std::size_t>> held(n + 1); // each player's slots; [n]: the board's
    std::vector<Shown> shown(n, Shown::nothing);
    std::vector<std::vector<std::optional<Card>>> shown_cards(n);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const Line& l = lines[i];
        if (l.actor == "d") {
            int player = -1;
            if (l.verb.rfind("dh ", 0) == 0) {
                player = player_index(l.verb.substr(3), c.seats);
                if (player < 0) return bad(where(i) + "no player " + l.verb.substr(3));
            } else if (l.verb != "db") {
                return bad(where(i) + "the dealer deals: d dh pN cards, or d db cards");
            }
            auto cards = parse_slots(r, l.arg);
            if (!cards) return bad(where(i) + cards.error().message);
            for (const std::optional<Card>& card : cards.value()) {
                held[player >= 0 ? static_cast<std::size_t>(player) : n].push_back(slots.size());
                slots.push_back({player, card.has_value(), card.value_or(Card{}), i});
            }
        } else if (l.verb == "sm") {
            const int p = player_index(l.actor, c.seats);
            if (p < 0) continue; // refused with the other actions below
            const auto pi = static_cast<std::size_t>(p);
            auto cards = parse_slots(r, l.arg);
            if (!cards) return bad(where(i) + cards.error().message);
            shown_cards[pi] = cards.value();
            const auto known_count =
                std::count_if(shown_cards[pi].begin(), shown_cards[pi].end(),
                              [](const std::optional<Card>& x) { return x.has_value(); });
            shown[pi] = shown_cards[pi].empty()                     ? Shown::muck
                        : known_count == 0                          ? Shown::unknown
                        : known_count < std::ssize(shown_cards[pi]) ? Shown::partly
                                                                    : Shown::cards;
        }
    }
    // A show tells a player's unknown cards, where the cards held are the cards dealt (no
    // draw): it lists them in the order dealt to the player, "??" for those it does not show.
    std::uint16_t known = 0; // bit per player: their hand can be judged at showdown
    const bool board_known =
        std::all_of(held[n].begin(), held[n].end(), [&](std::size_t j) { return slots[j].known; });
    for (std::size_t p = 0; p < n; ++p) {
        const std::vector<std::size_t>& mine = held[p];
        if (!draws && shown_cards[p].size() == mine.size()) {
            for (std::size_t j = 0; j < mine.size(); ++j) {
                if (!shown_cards[p][j]) continue;
                Slot& s = slots[mine[j]];
                const Card card = *shown_cards[p][j];
                if (s.known && s.card != card)
                    return bad("p" + std::to_string(p + 1) + " shows " + cards_text(r, {&card, 1}) +
                               " where " + cards_text(r, {&s.card, 1}) + " was dealt");
                s.known = true;
                s.card = card;
            }
        }
        const bool all_known =
            std::all_of(mine.begin(), mine.end(), [&](std::size_t j) { return slots[j].known; });
        if (all_known && board_known && shown[p] != Shown::unknown && shown[p] != Shown::muck)
            known |= std::uint16_t(1u << p);
    }
    // Stand-ins for the unknown cards: cards no action names, in the deck's order; at stud from
    // the highest down, so that an unknown up card neither brings in nor, at razz, opens later.
    std::array<std::uint8_t, 256> named{};
    for (const Slot& s : slots)
        if (s.known) named[s.card.code()] = 1;
    for (const auto& cards : shown_cards)
        for (const std::optional<Card>& card : cards)
            if (card) named[card->code()] = 1;
    std::array<std::uint8_t, 256> stand_in{};
    {
        std::vector<Card> all = r.cards();
        if (c.variant->opener == Opener::showing) std::reverse(all.begin(), all.end());
        std::size_t next = 0;
        for (Slot& s : slots) {
            if (s.known) continue;
            while (next < all.size() && named[all[next].code()]) ++next;
            if (next == all.size()) return bad("more unknown cards than the deck has left");
            s.card = all[next];
            named[s.card.code()] = 1;
            stand_in[s.card.code()] = 1;
            ++next;
        }
    }
    c.unknown_hands = static_cast<std::uint16_t>(~known & ((1u << n) - 1));

    // The engine deals in the variant's order; the history may deal a player's cards in one
    // action or several, round the table in any order. What places a card is only whom it goes
    // to and its rank among their cards (the board counts as one more player): the k-th card the
    // history deals a player is the k-th the engine deals them. The engine's order of recipients
    // is learnt from the engine itself: a replay deals to whom it deals, and each replay with the
    // deck arranged for what the last one dealt places at least one more street right (at stud,
    // who acts depends on the up cards), until the deck no longer changes.
    struct Run {
        std::vector<int> to;        // by deck position: the player dealt the card, n: board
        std::vector<int> after;     // by deck position: player actions applied before it
        std::vector<int> applied;   // by action: player actions applied before it
        std::vector<bool> drawn;    // by deck position: received in a draw
        std::vector<bool> discards; // by player action applied: a discard
        std::optional<Error> error; // an action the engine refused
        std::vector<Event> events;
    };
    auto arrange = [&](const std::vector<int>& to, std::vector<std::size_t>* from) {
        // The deck for an order of recipients: each one's cards in the history's order, then the
        // history's other cards in its own order, then the rest of the pack; up to the first
        // card dealt twice (one come back from the discards: a reshuffle, which the seed repeats).
        std::vector<Card> deck;
        std::array<int, 256> dealt{};
        std::vector<std::size_t> next(n + 1, 0);
        std::vector<std::uint8_t> placed(slots.size(), 0);
        bool whole = true;
        auto take = [&](std::size_t slot) {
            placed[slot] = 1;
            if (!whole || dealt[slots[slot].card.code()]++ > 0) return void(whole = false);
            deck.push_back(slots[slot].card);
            if (from) from->push_back(slot);
        };
        for (int who : to) {
            const auto k = static_cast<std::size_t>(who);
            if (next[k] == held[k].size()) break;
            take(held[k][next[k]++]);
        }
        for (std::size_t j = 0; j < slots.size(); ++j)
            if (!placed[j]) take(j);
        if (whole)
            for (Card card : r.cards())
                if (dealt[card.code()] == 0) deck.push_back(card);
        return deck;
    };
    auto run = [&](std::vector<Card> deck) {
        Run out_run;
        c.deck = std::move(deck);
        auto started = start_hand(config);
        if (!started) {
            out_run.error = started.error();
            return std::pair{std::move(out_run), HandState{}};
        }
        HandState state = std::move(started).value().state;
        std::vector<Event>& events = out_run.events;
        events = std::move(started).value().events;
        int applied = 0;
        auto note = [&](std::size_t from_event) {
            for (std::size_t e = from_event; e < events.size(); ++e) {
                const Event& ev = events[e];
                if (!is_deal(ev.type) && ev.type != EventType::deal_board) continue;
                const int who = ev.type == EventType::deal_board ? static_cast<int>(n) : ev.seat;
                for (int k = 0; k < ev.count; ++k) {
                    out_run.to.push_back(who);
                    out_run.after.push_back(applied);
                    out_run.drawn.push_back(ev.type == EventType::receive);
                }
            }
        };
        note(0);
        out_run.applied.assign(lines.size(), 0);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            out_run.applied[i] = applied;
            const Line& l = lines[i];
            if (l.actor.empty() || l.actor == "d") continue;
            const int p = player_index(l.actor, c.seats);
            if (p < 0) {
                out_run.error =
                    bad(where(i) + "no player " + l.actor + " (an actor is d, p1, p2, ...)");
                break;
            }
            Action act{ActionType::fold, p, 0, {}};
            const Legal legal = legal_actions(state);
            if (l.verb == "f") {
                act.type = ActionType::fold;
            } else if (l.verb == "cc") {
                act.type = legal.check ? ActionType::check : ActionType::call;
            } else if (l.verb == "cbr") {
                act.type = legal.bet ? ActionType::bet : ActionType::raise;
                auto amount = to_chips(l.arg, decimals);
                if (!amount) {
                    out_run.error = bad(where(i) + amount.error().message);
                    break;
                }
                act.amount = *amount;
            } else if (l.verb == "pb") {
                act.type = ActionType::bring_in;
            } else if (l.verb == "sd" || l.verb == "sm") {
                if (l.verb == "sm" && state.phase != Phase::rollover) continue; // at showdown
                act.type = l.verb == "sd" ? ActionType::discard : ActionType::rollover;
                auto cards = parse_slots(r, l.arg);
                if (!cards) {
                    out_run.error = bad(where(i) + cards.error().message);
                    break;
                }
                // An unknown card thrown: one of the stand-ins the player holds.
                const SeatState& me = state.seats[static_cast<std::size_t>(p)];
                int from = 0;
                for (const std::optional<Card>& card : cards.value()) {
                    if (card) {
                        act.cards.push_back(*card);
                        continue;
                    }
                    while (from < me.count &&
                           !stand_in[me.cards[static_cast<std::size_t>(from)].code()])
                        ++from;
                    if (from == me.count) break;
                    act.cards.push_back(me.cards[static_cast<std::size_t>(from++)]);
                }
                if (act.cards.size() != cards.value().size()) {
                    out_run.error = bad(where(i) + l.actor + " holds no unknown card to throw");
                    break;
                }
            } else {
                out_run.error = bad(where(i) + "unknown action \"" + l.verb + "\"");
                break;
            }
            const std::size_t before = events.size();
            if (auto e = apply_in_place(state, act, events)) {
                out_run.error = make_error(e->code, where(i) + e->message);
                break;
            }
            ++applied;
            out_run.discards.push_back(act.type == ActionType::discard);
            note(before);
        }
        return std::pair{std::move(out_run), std::move(state)};
    };
    std::vector<int> order; // the recipients the engine dealt to, as far as known
    std::vector<Card> deck = arrange(order, nullptr);
    Run last;
    for (int tries = 0;; ++tries) {
        auto [ran, state] = run(deck);
        std::vector<Card> next = arrange(ran.to, nullptr);
        if (next == deck) {
            last = std::move(ran);
            out.state = std::move(state);
            break;
        }
        if (tries == 16) return bad("the cards dealt cannot be placed in the variant's deal order");
        deck = std::move(next);
    }
    // Every card where the engine deals it: to the same player, as many as the history gives
    // each, and between the same actions.
    {
        std::vector<std::size_t> placed;
        arrange(last.to, &placed);
        std::vector<std::size_t> given(n + 1, 0), dealt_to(n + 1, 0);
        for (std::size_t pos = 0; pos < last.to.size(); ++pos)
            ++dealt_to[static_cast<std::size_t>(last.to[pos])];
        auto whom = [&](std::size_t k) {
            std::string who = "the board";
            if (k < n) who = 'p' + std::to_string(k + 1);
            return who;
        };
        for (std::size_t pos = 0; pos < placed.size() && pos < last.to.size(); ++pos) {
            const Slot& s = slots[placed[pos]];
            const auto k = static_cast<std::size_t>(s.player >= 0 ? s.player : static_cast<int>(n));
            if (static_cast<std::size_t>(last.to[pos]) != k) break; // past the history's cards
            ++given[k];
            // A draw's cards may come after the other players' discards of that draw, as
            // PokerKit writes them: the engine deals each player's at once.
            const int at = last.applied[s.action];
            const bool later_in_draw =
                last.drawn[pos] && at > last.after[pos] &&
                std::all_of(last.discards.begin() + last.after[pos], last.discards.begin() + at,
                            [](bool discard) { return discard; });
            if (at != last.after[pos] && !later_in_draw)
                return bad(where(s.action) + variant + " deals " + whom(k) + "'s card " +
                           std::to_string(given[k]) + " after " + std::to_string(last.after[pos]) +
                           " player action(s), not " + std::to_string(last.applied[s.action]));
        }
        if (last.error) return *last.error; // what it dealt by then is where the history has it
        for (std::size_t k = 0; k <= n; ++k) {
            if (held[k].size() > dealt_to[k])
                return bad(where(slots[held[k][dealt_to[k]]].action) + variant + " deals " +
                           whom(k) + " " + std::to_string(dealt_to[k]) +
                           " card(s) in this hand, not more");
            if (held[k].size() < dealt_to[k])
                return bad("the history deals " + whom(k) + " " + std::to_string(held[k].size()) +
                           " card(s), where " + variant + " deals " + std::to_string(dealt_to[k]) +
                           " in this hand");
        }
    }
    std::vector<Event>& events = last.events;
    for (std::size_t i = 0; i < n; ++i) {
        out.finishing_stacks.push_back(out.state.seats[i].stack);
        out.winnings.push_back(out.state.won[i]);
    }

    // Undecided: a pot contested at showdown by unknown hands only.
    if (out.state.phase == Phase::done) {
        std::array<Chips, kMaxSeats> totals{};
        std::uint16_t folded = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const SeatState& p = out.state.seats[i];
            totals[i] = c.stacks[i] - p.stack + out.state.won[i];
            if (!p.live()) folded |= std::uint16_t(1u << i);
        }
        const Chips dead = take_dead_antes(c, totals);
        for (const Pot& pot : build_pots(totals, folded, c.seats, dead))
            if (std::popcount(pot.eligible) >= 2 && (pot.eligible & known) == 0)
                out.undecided = true;
    }
    if (out.undecided) return out;

    // Winnings: all zeros is how some venues write none. Less than the engine's, on the same
    // winners, is a rake (see docs/betting.md, "Replaying real hands").
    if (winnings.present && out.state.phase == Phase::done &&
        std::any_of(winnings.values.begin(), winnings.values.end(),
                    [](double x) { return x != 0; })) {
        auto recorded_chips = to_chips(winnings, scale);
        if (!recorded_chips) return recorded_chips.error();
        std::vector<Chips> want = std::move(recorded_chips).value();
        out.winnings_checked = true;
        // A walk (everyone folds to the big blind, nobody bets): some venues count the big
        // blind's own returned chips as won. That is the same hand, written another way.
        std::array<Chips, kMaxSeats> returned{};
        bool bets = false;
        for (const Event& e : events) {
            if (e.type == EventType::uncalled)
                returned[static_cast<std::size_t>(e.seat)] += e.amount;
            bets |= e.type == EventType::bet || e.type == EventType::raise;
        }
        if (!bets && out.state.street == 0 && out.state.live == 1)
            for (std::size_t i = 0; i < n; ++i)
                if (returned[i] > 0 && want[i] == out.winnings[i] + returned[i]) {
                    want[i] = out.winnings[i];
                    out.walk_counts_blind = true;
                }
        Chips engine{}, recorded{};
        bool same_winners = true;
        for (std::size_t i = 0; i < n; ++i) {
            engine += out.winnings[i];
            recorded += want[i];
            same_winners &= (want[i] > 0) == (out.winnings[i] > 0) && want[i] <= out.winnings[i];
        }
        if (want != out.winnings) {
            if (same_winners && recorded < engine && (engine - recorded) * 4 <= engine) {
                out.rake = engine - recorded;
                for (std::size_t i = 0; i < n; ++i)
                    out.finishing_stacks[i] -= out.winnings[i] - want[i];
                out.winnings = want;
            } else {
                out.winnings_mismatch = "winnings " + amounts_text(want, scale) +
                                        " disagree with the engine's " +
                                        amounts_text(out.winnings, scale);
            }
        }
    }
    // The finishing stacks, less what the rake took from each winner.
    if (finishing.present) {
        auto want = to_chips(finishing, scale);
        if (!want) return want.error();
        for (std::size_t i = 0; i < n; ++i)
            if (!(out.deep >> i & 1) && (*want)[i] != out.finishing_stacks[i])
                return bad("finishing_stacks disagree with the engine's " +
                           amounts_text(out.finishing_stacks, scale, out.deep));
    }
    out.events = std::move(events);
    return out;
}

// The hands of a .phhs text: each from a table header line ("[12]") to the next.
struct Section {
    std::string name;
    std::string_view text;
};

std::vector<Section> sections(std::string_view text) {
    std::vector<Section> out;
    std::vector<std::size_t> starts;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
        if (line.size() >= 3 && line.front() == '[' && line.back() == ']' && line[1] != '[') {
            std::string name(line.substr(1, line.size() - 2));
            if (name.size() >= 2 && (name.front() == '\'' || name.front() == '"'))
                name = name.substr(1, name.size() - 2);
            out.push_back({name, {}});
            starts.push_back(at);
        }
        at = end + 1;
    }
    starts.push_back(text.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].text = text.substr(starts[i], starts[i + 1] - starts[i]);
    return out;
}

} // namespace

std::vector<HandText> split_hands(std::string_view text) {
    std::vector<HandText> out;
    for (const Section& s : sections(text)) {
        const std::size_t body = std::min(s.text.find('\n'), s.text.size());
        out.push_back({s.name, std::string(s.text.substr(std::min(body + 1, s.text.size())))});
    }
    if (out.empty()) out.push_back({"", std::string(text)});
    return out;
}

std::string format_amount(Chips chips, std::int64_t scale) {
    const std::int64_t v = chips.value();
    if (scale <= 1) return std::to_string(v);
    std::string out = v < 0 ? "-" : "";
    out += std::to_string(std::abs(v / scale));
    std::string frac = std::to_string(std::abs(v % scale) + scale); // "1" and the zero-padded part
    while (frac.size() > 1 && frac.back() == '0') frac.pop_back();
    if (frac.size() > 1) {
        frac[0] = '.';
        out += frac;
    }
    return out;
}

Result<Replay> replay_phh(std::string_view text) {
    toml::table t;
    try {
        t = toml::parse(text);
    } catch (const toml::parse_error& e) {
        return bad("not a PHH file: " + std::string(e.description()) + " at line " +
                   std::to_string(e.source().begin.line));
    }
    return replay_table(t);
}

void replay_corpus(std::string_view text, std::string_view name, Corpus& into, std::size_t keep) {
    auto one = [&](std::string where, const toml::table& t) {
        ++into.hands;
        auto r = replay_table(t);
        if (!r) {
            ++into.failed;
            if (into.failures.size() < keep) into.failures.push_back({where, r.error().message});
            return;
        }
        if (r->undecided) {
            ++into.undecided;
            return;
        }
        ++into.replayed;
        into.winnings_checked += r->winnings_checked;
        into.raked += r->rake > 0;
        into.walks_counting_blind += r->walk_counts_blind;
        if (!r->winnings_mismatch.empty()) {
            ++into.winnings_mismatches;
            if (into.mismatches.size() < keep)
                into.mismatches.push_back({where, r->winnings_mismatch});
        }
    };
    auto parse = [&](std::string where, std::string_view part) -> std::optional<toml::table> {
        try {
            return toml::parse(part);
        } catch (const toml::parse_error& e) {
            ++into.hands;
            ++into.failed;
            if (into.failures.size() < keep)
                into.failures.push_back({where, "not a PHH file: " + std::string(e.description()) +
                                                    " at line " +
                                                    std::to_string(e.source().begin.line)});
            return std::nullopt;
        }
    };
    const std::vector<Section> parts = sections(text);
    if (parts.empty()) { // one hand: a .phh
        if (auto t = parse(std::string(name), text)) one(std::string(name), *t);
        return;
    }
    for (const Section& s : parts) {
        const std::string where = std::string(name) + " [" + s.name + "]";
        auto t = parse(where, s.text);
        if (!t) continue;
        const toml::table* hand = t->begin() == t->end() ? nullptr : t->begin()->second.as_table();
        if (!hand) {
            ++into.hands;
            ++into.failed;
            if (into.failures.size() < keep) into.failures.push_back({where, "not a hand's table"});
            continue;
        }
        one(where, *hand);
    }
}

} // namespace felt::poker
