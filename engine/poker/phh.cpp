#include "poker/phh.h"

#include <algorithm>
#include <cstdio>
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
    {"holdem", Structure::no_limit, "NT"},      {"holdem", Structure::fixed_limit, "FT"},
    {"holdem", Structure::pot_limit, "PT"},     {"stud", Structure::fixed_limit, "F7S"},
    {"stud", Structure::no_limit, "N7S"},       {"stud", Structure::pot_limit, "P7S"},
    {"draw", Structure::no_limit, "N5CD"},      {"draw", Structure::pot_limit, "P5CD"},
    {"draw", Structure::fixed_limit, "F5CD"},   {"straight", Structure::no_limit, "N5CS"},
    {"straight", Structure::pot_limit, "P5CS"}, {"straight", Structure::fixed_limit, "F5CS"},
    {"mexican", Structure::no_limit, "NMS"},    {"mexican", Structure::pot_limit, "PMS"},
    {"mexican", Structure::fixed_limit, "FMS"}, {"shrinking", Structure::no_limit, "NSD"},
    {"shrinking", Structure::pot_limit, "PSD"}, {"shrinking", Structure::fixed_limit, "FSD"},
};

const char* structure_name(Structure s) {
    return s == Structure::no_limit    ? "no-limit"
           : s == Structure::pot_limit ? "pot-limit"
                                       : "fixed-limit";
}

bool blinds_game(const HandConfig& c) {
    return c.variant->opener == Opener::position;
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

// An array of whole numbers, exactly `n` long.
Result<std::vector<Chips>> numbers(const toml::table& t, const char* key, std::size_t n) {
    const toml::array* a = t[key].as_array();
    if (!a) return bad(std::string("missing field ") + key + " (an array)");
    if (n != 0 && a->size() != n)
        return bad(std::string(key) + ": " + std::to_string(n) + " values, one per player, not " +
                   std::to_string(a->size()));
    std::vector<Chips> out;
    for (const toml::node& v : *a) {
        auto i = v.value_exact<std::int64_t>();
        if (!i || !v.is_integer()) return bad(std::string(key) + ": whole numbers of chips only");
        out.push_back(Chips(*i));
    }
    return out;
}

Chips number(const toml::table& t, const char* key) {
    return Chips(t[key].value_exact<std::int64_t>().value_or(0));
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
        for (std::size_t i = 0; i < n; ++i)
            blinds.push_back((i == 0   ? c.stakes.small_blind
                              : i == 1 ? c.stakes.big_blind
                                       : 0)
                                 .value());
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
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
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
    if (c.structure == Structure::fixed_limit && c.variant->has_open_pair())
        t.insert("_felt_open_pair", std::string(open_pair_name(c.open_pair)));
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

Result<Replay> replay_phh(std::string_view text) {
    toml::table t;
    try {
        t = toml::parse(text);
    } catch (const toml::parse_error& e) {
        return bad("not a PHH file: " + std::string(e.description()) + " at line " +
                   std::to_string(e.source().begin.line));
    }
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
        return bad("variant \"" + code + "\": Felt plays NT, FT, PT, F7S and its own codes");
    c.variant = builtin_variant(variant);

    RankingOptions ro;
    const std::string ranking = t["_felt_ranking"].value<std::string>().value_or("standard");
    if (ranking != "standard" && ranking != "vertical")
        return bad("ranking \"" + ranking + "\": betting games use standard or vertical");
    auto made = make_ranking(ranking, ro);
    if (!made) return made.error();
    c.ranking = std::shared_ptr<const Ranking>(std::move(made).value());

    auto stacks = numbers(t, "starting_stacks", 0);
    if (!stacks) return stacks.error();
    const std::size_t n = stacks->size();
    if (n < 2 || n > static_cast<std::size_t>(c.variant->max_seats))
        return bad("starting_stacks: 2 to " + std::to_string(c.variant->max_seats) +
                   " players, not " + std::to_string(n));
    c.seats = static_cast<int>(n);
    c.button = c.seats - 1; // p1 sits left of the button, pN on it
    for (std::size_t i = 0; i < n; ++i) {
        if ((*stacks)[i] <= 0) return bad("starting_stacks: every stack is positive");
        c.stacks[i] = (*stacks)[i];
    }
    const bool heads_up = n == 2 && blinds_game(c);
    auto antes = numbers(t, "antes", n);
    if (!antes) return antes.error();
    std::vector<Chips> a = antes.value();
    if (heads_up) std::reverse(a.begin(), a.end());
    if (std::all_of(a.begin(), a.end(), [&](Chips x) { return x == a[0]; }))
        c.stakes.ante = a[0];
    else
        c.stakes.seat_antes = a;
    if (blinds_game(c)) {
        auto blinds = numbers(t, "blinds_or_straddles", n);
        if (!blinds) return blinds.error();
        std::vector<Chips> b = blinds.value();
        for (std::size_t i = 2; i < n; ++i)
            if (b[i] != 0) return bad("blinds_or_straddles: straddles are not supported");
        c.stakes.small_blind = b[0];
        c.stakes.big_blind = b[1];
    } else {
        c.stakes.bring_in = number(t, "bring_in");
    }
    c.stakes.small_bet = number(t, "small_bet");
    c.stakes.big_bet = number(t, "big_bet");
    c.stakes.min_bet = number(t, "min_bet");
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

    // The actions, and the deck they deal: every dealt card in order, until one comes back from
    // the discards (a reshuffle, which the seed repeats), then the rest of the pack.
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
    std::array<int, 256> dealt{};
    bool reshuffled = false;
    for (std::size_t i = 0; i < actions.size() && !reshuffled; ++i) {
        std::istringstream in(actions[i]);
        std::string actor, verb, who, cards;
        in >> actor >> verb;
        if (actor != "d") continue;
        if (verb == "dh") in >> who;
        in >> cards;
        if (cards.find('?') != std::string::npos)
            return bad("action " + std::to_string(i + 1) + " \"" + actions[i] +
                       "\": unknown cards cannot be replayed");
        auto parsed = c.ranking->parse_cards(cards);
        if (!parsed)
            return bad("action " + std::to_string(i + 1) + " \"" + actions[i] +
                       "\": " + parsed.error().message);
        for (Card card : parsed.value()) {
            if (dealt[card.code()]++ > 0) {
                reshuffled = true;
                break;
            }
            c.deck.push_back(card);
        }
    }
    for (Card card : c.ranking->cards())
        if (dealt[card.code()] == 0) c.deck.push_back(card);

    auto started = start_hand(config);
    if (!started) return started.error();
    Replay out;
    out.state = std::move(started).value().state;
    std::vector<Event> events;
    for (std::size_t i = 0; i < actions.size(); ++i) {
        std::istringstream in(actions[i]);
        std::string actor, verb, arg;
        in >> actor >> verb >> arg;
        if (actor.empty() || actor == "d") continue;
        const std::string where = "action " + std::to_string(i + 1) + " \"" + actions[i] + "\": ";
        if (actor.size() < 2 || actor.size() > 3 || actor[0] != 'p' ||
            !std::all_of(actor.begin() + 1, actor.end(),
                         [](char ch) { return ch >= '0' && ch <= '9'; }))
            return bad(where + "an actor is d or p1, p2, ...");
        const int p = std::stoi(actor.substr(1));
        if (p < 1 || p > c.seats) return bad(where + "no player " + actor);
        Action a{ActionType::fold, p - 1, 0, {}};
        const Legal l = legal_actions(out.state);
        if (verb == "f") {
            a.type = ActionType::fold;
        } else if (verb == "cc") {
            a.type = l.check ? ActionType::check : ActionType::call;
        } else if (verb == "cbr") {
            a.type = l.bet ? ActionType::bet : ActionType::raise;
            try {
                std::size_t used = 0;
                a.amount = Chips(std::stoll(arg, &used));
                if (used != arg.size()) throw std::invalid_argument(arg);
            } catch (const std::exception&) {
                return bad(where + "cbr needs a whole number of chips");
            }
        } else if (verb == "pb") {
            a.type = ActionType::bring_in;
        } else if (verb == "sd" || verb == "sm") {
            if (verb == "sm" && out.state.phase != Phase::rollover) continue; // shown at showdown
            a.type = verb == "sd" ? ActionType::discard : ActionType::rollover;
            if (!arg.empty()) {
                auto cards = c.ranking->parse_cards(arg);
                if (!cards) return bad(where + cards.error().message);
                a.cards = cards.value();
            }
        } else {
            return bad(where + "unknown action \"" + verb + "\"");
        }
        if (auto e = apply_in_place(out.state, a, events))
            return make_error(e->code, where + e->message);
    }
    for (int i = 0; i < c.seats; ++i)
        out.finishing_stacks.push_back(out.state.seats[static_cast<std::size_t>(i)].stack);
    if (t.contains("finishing_stacks")) {
        auto want = numbers(t, "finishing_stacks", n);
        if (!want) return want.error();
        if (want.value() != out.finishing_stacks) {
            std::string got;
            for (Chips x : out.finishing_stacks) got += (got.empty() ? "" : ", ") + to_string(x);
            return bad("finishing_stacks disagree with the engine's [" + got + "]");
        }
    }
    return out;
}

} // namespace felt::poker
