#include "history/history.h"

#include "games/games.h"
#include "protocol/fairness.h"
#include "protocol/stats_json.h"

#include <spdlog/spdlog.h>

#include "chinese/chinese.h"
#include "poker/variant.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace felt::server::history {

namespace {

int clamp_limit(int limit) {
    return limit < 1 ? 20 : limit > 100 ? 100 : limit;
}

// The game of a hand's stored configuration (the default when it names none), or null.
const GameEntry* game_of(const json& config) {
    if (config.is_discarded() || !config.is_object()) return &default_game();
    auto name = config.find("game");
    if (name == config.end()) return &default_game();
    return name->is_string() ? find_game(name->get_ref<const std::string&>()) : nullptr;
}

json summary(const HandSummary& h) {
    return {{"hand", h.id},       {"table", h.table},           {"number", h.number},
            {"status", h.status}, {"started_at", h.started_at}, {"ended_at", h.ended_at}};
}

} // namespace

json my_hands(Store& store, std::int64_t account, std::int64_t before, int limit) {
    limit = clamp_limit(limit);
    json hands = json::array();
    json next = nullptr;
    for (const PlayerHand& p : store.hands_of(account, before, limit + 1)) {
        if (static_cast<int>(hands.size()) == limit) {
            next = hands.back()["hand"];
            break;
        }
        json h = summary(p.hand);
        h["seat"] = p.seat;
        h["net"] = p.end - p.start;
        // What game it was, for a person to read the list: "no-limit holdem", "chinese classic".
        if (const json c = json::parse(p.config, nullptr, false); c.is_object()) {
            h["game"] = c.value("game", "poker");
            for (const char* k : {"variant", "structure", "profile"})
                if (c.contains(k) && c[k].is_string()) h[k] = c[k];
            for (const char* k : {"tournament", "level"}) // a tournament's hand
                if (c.contains(k) && c[k].is_number_integer()) h[k] = c[k];
        }
        hands.push_back(std::move(h));
    }
    return {{"hands", hands}, {"next", next}};
}

json my_tournaments(Store& store, std::int64_t account, int limit) {
    json out = json::array();
    for (const PlayerTournament& t : store.tournaments_of(account, clamp_limit(limit))) {
        json line = {{"tournament", t.tournament},
                     {"status", t.status},
                     {"entrants", t.entrants},
                     {"place", t.place > 0 ? json(t.place) : json(nullptr)},
                     {"tied", t.tied},
                     {"prize", t.prize},
                     {"buy_in", t.buy_in},
                     {"fee", t.fee},
                     {"net", t.status == "cancelled" ? Chips() : t.prize - t.buy_in - t.fee},
                     {"ended_at", t.ended_at.empty() ? json(nullptr) : json(t.ended_at)}};
        if (const json c = json::parse(t.config, nullptr, false); c.is_object())
            for (const char* k : {"format", "variant", "structure"})
                if (c.contains(k) && c[k].is_string()) line[k] = c[k];
        out.push_back(std::move(line));
    }
    return {{"tournaments", out}};
}

Outcome<json> hand(Store& store, std::int64_t hand_id, std::int64_t asker) {
    auto record = store.hand_record(hand_id);
    if (!record)
        return {std::nullopt, {"no_such_hand", "there is no hand " + std::to_string(hand_id)}};
    const HandRecord& h = *record;
    json out = summary(h.summary);
    out["config"] = json::parse(h.config, nullptr, false);
    out["commitment"] = h.commitment;
    int my_seat = -1;
    json seats = json::array();
    for (const HandRecord::Seat& s : h.seats) {
        if (asker != 0 && s.account == asker) my_seat = s.seat;
        seats.push_back({{"seat", s.seat},
                         {"name", s.name},
                         {"stack_start", s.start},
                         {"stack_end", s.end},
                         {"net", s.end - s.start}});
    }
    out["seats"] = seats;
    out["your_seat"] = my_seat >= 0 ? json(my_seat) : json(nullptr);
    if (out["status"] == "finished") {
        // The reveal opens what the asker may see, as the live end did. A hand committed to under
        // protocol 1 (one salt over the whole deck) has none: its deck would show mucked cards.
        auto opened =
            h.fairness.empty() ? std::nullopt : protocol::read_opened(h.deck, h.seed, h.fairness);
        out["fairness"] =
            opened ? protocol::reveal_json(opened->sealed, opened->seen, opened->seed_used, my_seat)
                   : json(nullptr);
    }
    json events = json::array(), log = json::array();
    for (const std::string& body : h.events) {
        json ev = json::parse(body, nullptr, false);
        if (ev.is_discarded()) continue;
        log.push_back(ev);
        const std::string vis = ev.value("visibility", "nobody");
        const bool mine = vis == "owner" && my_seat >= 0 && ev.value("seat", -1) == my_seat;
        if (vis != "everyone" && !mine) {
            ev.erase("cards");
            ev.erase("card");
        }
        ev.erase("visibility");
        events.push_back(std::move(ev));
    }
    out["events"] = events;
    // What the hand's game adds to it, finished: a replay that checks the record, a best draw.
    if (const GameEntry* game = game_of(out["config"]);
        out["status"] == "finished" && game && game->review)
        game->review(h, log, my_seat, out);
    return {out, {}};
}

Outcome<json> table_hands(Store& store, std::int64_t table, int limit) {
    auto hands = store.finished_hands(table, clamp_limit(limit));
    if (!hands)
        return {std::nullopt, {"no_such_table", "there is no table " + std::to_string(table)}};
    json list = json::array();
    for (const HandSummary& h : *hands) list.push_back(summary(h));
    return {json{{"table", table}, {"hands", list}}, {}};
}

Outcome<json> totals(Store& store, const std::string& name) {
    auto t = store.totals_of(name);
    if (!t) return {std::nullopt, {"no_such_player", "no player named \"" + name + "\""}};
    return {json{{"name", t->name},
                 {"hands", t->hands},
                 {"net", t->net},
                 {"won", t->won},
                 {"biggest_win", t->biggest_win},
                 {"biggest_loss", t->biggest_loss}},
            {}};
}

Outcome<std::string> hand_phh(Store& store, std::int64_t hand_id, std::int64_t asker) {
    using R = Outcome<std::string>;
    auto record = store.hand_record(hand_id);
    if (!record)
        return R{std::nullopt, {"no_such_hand", "there is no hand " + std::to_string(hand_id)}};
    const HandRecord& h = *record;
    if (h.summary.status != "finished")
        return R{std::nullopt,
                 {"not_finished", "hand " + std::to_string(hand_id) + " did not finish"}};
    const json cfg = json::parse(h.config, nullptr, false);
    const GameEntry* game = game_of(cfg);
    if (!game || !game->phh)
        return R{std::nullopt,
                 {"not_poker", "hand " + std::to_string(hand_id) + " is a " +
                                   cfg.value("game", "") + " deal; PHH records poker hands only"}};
    int my_seat = -1;
    for (const HandRecord::Seat& s : h.seats)
        if (asker != 0 && s.account == asker) my_seat = s.seat;
    auto phh = game->phh(h, cfg, my_seat);
    if (!phh)
        return R{std::nullopt,
                 {"replay_mismatch",
                  "hand " + std::to_string(hand_id) + " does not replay: " + phh.error().message}};
    return R{std::move(phh).value(), {}};
}

namespace {

// A name in quotation marks, for messages.
std::string in_quotes(std::string_view name) {
    std::string q = "\"";
    q += name;
    q += '"';
    return q;
}

// A day as YYYY-MM-DD.
bool is_day(const std::string& s) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    const int month = std::stoi(s.substr(5, 2)), day = std::stoi(s.substr(8, 2));
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// A position filter, by name or seats before the button, into `out` (absent: left unset).
protocol::Refusal read_position(const protocol::Request& r, std::optional<int>& out) {
    auto it = r.body.find("position");
    if (it == r.body.end()) return {};
    static const std::map<std::string, int> names = {{"big_blind", stats::kBigBlind},
                                                     {"small_blind", stats::kSmallBlind},
                                                     {"button", 0},
                                                     {"cutoff", 1}};
    if (it->is_string() && names.contains(it->get<std::string>()))
        out = names.at(it->get<std::string>());
    else if (it->is_number_integer() && it->get<std::int64_t>() >= 0 &&
             it->get<std::int64_t>() <= 7)
        out = static_cast<int>(it->get<std::int64_t>());
    else
        return {"bad_request",
                "\"position\" is big_blind, small_blind, button, cutoff, or seats before the "
                "button (0 to 7)",
                "position"};
    return {};
}

// A hand as a search names it ("AKs", "AKo", "AK", "QQ", "pairs", "suited", "offsuit") into the
// search's pattern; false for anything else.
bool read_hole(std::string text, HandSearch& s) {
    if (text == "pairs" || text == "pocket pairs") return s.pairs = true;
    if (text == "suited" || text == "offsuit") {
        s.hole = text == "suited" ? "__s" : "__o";
        return true;
    }
    static constexpr std::string_view kRanks = "23456789TJQKA";
    if (text.size() < 2 || text.size() > 3) return false;
    for (std::size_t i = 0; i < 2; ++i)
        text[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    const auto hi = kRanks.find(text[0]), lo = kRanks.find(text[1]);
    if (hi == std::string_view::npos || lo == std::string_view::npos) return false;
    if (hi < lo) std::swap(text[0], text[1]); // "KA" is "AK"
    if (text.size() == 3) {
        text[2] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[2])));
        if ((text[2] != 's' && text[2] != 'o') || hi == lo) return false;
    } else if (hi != lo) {
        text += '_'; // suited or not
    }
    s.hole = text;
    return true;
}

// The hand_search query's filters: every field known, each of its type and within its values.
protocol::Refusal read_search(const protocol::Request& r, Query& q) {
    using protocol::Refusal;
    static const std::set<std::string> known = {
        "type",   "id",   "hand", "position", "result", "min_pot", "showdown",
        "all_in", "from", "to",   "table",    "before", "limit"};
    for (const auto& [key, value] : r.body.items())
        if (!known.contains(key))
            return {"bad_request",
                    "unknown filter \"" + key +
                        "\" (known: hand, position, result, min_pot, showdown, all_in, from, to, "
                        "table, before, limit)",
                    key};
    HandSearch& s = q.search;
    s.limit = clamp_limit(q.limit);
    if (auto it = r.body.find("hand"); it != r.body.end())
        if (!it->is_string() || !read_hole(it->get<std::string>(), s))
            return {"bad_request",
                    "\"hand\" is two ranks, suited (s) or offsuit (o) or either (\"AKs\", "
                    "\"AKo\", \"AK\", \"QQ\"), or pairs, suited or offsuit",
                    "hand"};
    if (Refusal no = read_position(r, s.position); !no.code.empty()) return no;
    if (auto it = r.body.find("result"); it != r.body.end()) {
        if (!it->is_string() || (*it != "won" && *it != "lost"))
            return {"bad_request", "\"result\" is won or lost", "result"};
        s.result = *it == "won" ? 1 : -1;
    }
    for (auto [key, out] : {std::pair<const char*, std::optional<bool>*>{"showdown", &s.showdown},
                            {"all_in", &s.all_in}})
        if (auto it = r.body.find(key); it != r.body.end()) {
            if (!it->is_boolean())
                return {"bad_request", in_quotes(key) + " must be true or false", key};
            *out = it->get<bool>();
        }
    for (auto [key, out] : {std::pair<const char*, std::string*>{"from", &s.from}, {"to", &s.to}})
        if (auto it = r.body.find(key); it != r.body.end()) {
            if (!it->is_string() || !is_day(it->get<std::string>()))
                return {"bad_request", in_quotes(key) + " must be a day as YYYY-MM-DD", key};
            *out = it->get<std::string>();
        }
    if (!s.from.empty() && !s.to.empty() && s.from > s.to)
        return {"bad_request", "\"from\" (" + s.from + ") is after \"to\" (" + s.to + ")", "from"};
    for (auto [key, least] :
         {std::pair<const char*, std::int64_t>{"min_pot", 0}, {"table", 1}, {"before", 1}})
        if (auto it = r.body.find(key); it != r.body.end()) {
            if (!it->is_number_integer() || it->get<std::int64_t>() < least)
                return {"bad_request",
                        in_quotes(key) + " must be a whole number, at least " +
                            std::to_string(least),
                        key};
            const std::int64_t v = it->get<std::int64_t>();
            if (std::string(key) == "min_pot")
                s.min_pot = Chips(v);
            else if (std::string(key) == "table")
                s.table = v;
            else
                s.before = v;
        }
    return {};
}

// The stats query's filters: every field known, each of its type and within its values.
protocol::Refusal read_filter(const protocol::Request& r, Query& q) {
    using protocol::Refusal;
    static const std::set<std::string> known = {"type",       "id",        "name",   "game",
                                                "variant",    "structure", "stakes", "position",
                                                "table_size", "from",      "to",     "kind"};
    for (const auto& [key, value] : r.body.items())
        if (!known.contains(key))
            return {"bad_request",
                    "unknown filter \"" + key +
                        "\" (known: game, variant, structure, stakes, position, table_size, "
                        "from, to, kind, name)",
                    key};
    auto text = [&](const char* key, std::string& out) -> std::optional<Refusal> {
        auto it = r.body.find(key);
        if (it == r.body.end()) return std::nullopt;
        if (!it->is_string())
            return Refusal{"bad_request", in_quotes(key) + " must be a string", key};
        out = it->get<std::string>();
        return std::nullopt;
    };
    StatsFilter& f = q.filter;
    std::string kind = "cash", name;
    for (auto [key, out] : {std::pair<const char*, std::string*>{"game", &f.game},
                            {"variant", &f.variant},
                            {"structure", &f.structure},
                            {"from", &f.from},
                            {"to", &f.to},
                            {"kind", &kind},
                            {"name", &name}})
        if (auto no = text(key, *out)) return *no;
    if (r.body.contains("name")) q.name = name;
    if (!f.game.empty() && !find_game(f.game))
        return {"bad_request", "unknown game \"" + f.game + "\" (known: " + game_names() + ")",
                "game"};
    if (f.game.empty()) f.game = "poker"; // one game's figures at a time: their units differ
    if (!f.variant.empty()) {
        const bool known = f.game == "poker"     ? poker::builtin_variant(f.variant) != nullptr
                           : f.game == "chinese" ? chinese::find_profile(f.variant) != nullptr
                                                 : false; // leap rummy has none
        if (!known)
            return {"bad_request",
                    "unknown variant \"" + f.variant + "\" of " + f.game +
                        (f.game == "chinese" ? " (a Chinese poker variant is its profile)" : ""),
                    "variant"};
    }
    if (!f.structure.empty() && f.structure != "no-limit" && f.structure != "pot-limit" &&
        f.structure != "fixed-limit")
        return {"bad_request",
                "unknown structure \"" + f.structure +
                    "\" (known: no-limit, pot-limit, fixed-limit)",
                "structure"};
    for (const char* key : {"from", "to"})
        if (const std::string& d = std::string(key) == "from" ? f.from : f.to;
            !d.empty() && !is_day(d))
            return {"bad_request",
                    in_quotes(key) + " must be a day as YYYY-MM-DD, not " + in_quotes(d), key};
    if (!f.from.empty() && !f.to.empty() && f.from > f.to)
        return {"bad_request", "\"from\" (" + f.from + ") is after \"to\" (" + f.to + ")", "from"};
    if (kind != "cash" && kind != "tournament")
        return {"bad_request", "\"kind\" is cash or tournament, not \"" + kind + "\"", "kind"};
    f.tournament = kind == "tournament";
    if (auto it = r.body.find("stakes"); it != r.body.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1)
            return {"bad_request", "\"stakes\" must be a whole number of chips, at least 1",
                    "stakes"};
        f.stake = Chips(it->get<std::int64_t>());
    }
    if (protocol::Refusal no = read_position(r, f.position); !no.code.empty()) return no;
    if (auto it = r.body.find("table_size"); it != r.body.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 2 || it->get<std::int64_t>() > 10)
            return {"bad_request", "\"table_size\" is the players dealt in, 2 to 10", "table_size"};
        f.table_size = static_cast<int>(it->get<std::int64_t>());
    }
    return {};
}

} // namespace

std::optional<protocol::Refusal> stats_private(const Query& q, const std::string& asker_name) {
    if (!q.name) return std::nullopt;
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    if (lower(*q.name) == lower(asker_name)) return std::nullopt;
    return protocol::Refusal{"private",
                             "statistics are private: you may see your own only (the table "
                             "shows a little of your opponents')",
                             "name"};
}

// A player's finished tournaments that a filter selects (its variant and days; the rest are the
// hands'), added up: entries, cashes (a prize won), what they paid (buy-ins, re-buys, add-ons
// and fees) and won, ROI, and the average place. Each tournament is one row: no hand is read.
json tournament_results(Store& store, std::int64_t account, const StatsFilter& filter) {
    std::int64_t entries = 0, cashes = 0, places = 0;
    Chips paid{}, won{};
    for (const PlayerTournament& t : store.tournaments_of(account, 1'000'000)) {
        if (t.status != "finished" || t.place <= 0) continue;
        const std::string day = t.ended_at.substr(0, 10);
        if ((!filter.from.empty() && day < filter.from) || (!filter.to.empty() && day > filter.to))
            continue;
        if (!filter.variant.empty()) {
            const json c = json::parse(t.config, nullptr, false);
            if (!c.is_object() || c.value("variant", "") != filter.variant) continue;
        }
        ++entries;
        cashes += t.prize > 0 ? 1 : 0;
        places += t.place;
        paid += t.buy_in + t.fee;
        won += t.prize;
    }
    auto ratio = [](double a, double b) { return b > 0 ? std::round(a / b * 10000) / 10000 : 0.0; };
    return {{"entries", entries},
            {"cashes", cashes},
            {"itm", ratio(static_cast<double>(cashes), static_cast<double>(entries))},
            {"paid", paid},
            {"won", won},
            {"roi",
             ratio(static_cast<double>((won - paid).value()), static_cast<double>(paid.value()))},
            {"average_place", ratio(static_cast<double>(places), static_cast<double>(entries))}};
}

Outcome<json> stats(Store& store, std::int64_t asker, const StatsFilter& filter) {
    if (!asker) return {std::nullopt, {"unauthorized", "sign in to see your statistics"}};
    const stats::Totals t = store.stats_of(asker, filter);
    json out;
    if (filter.game == "chinese") {
        out = protocol::chinese_totals_json(t);
    } else if (filter.game == "leap") {
        out = protocol::leap_totals_json(t);
    } else {
        const bool board =
            filter.variant.empty() ||
            stats::family_of(*poker::builtin_variant(filter.variant)) == stats::Family::board;
        out = protocol::totals_json(t, 1, board);
    }
    json days = json::array();
    for (const StatsDay& d : store.stats_days(asker, filter))
        days.push_back({{"day", d.day},
                        {"hands", d.hands},
                        {"net", d.net},
                        {"showdown_net", d.showdown_net},
                        {"ev_net", std::round(d.ev_net * 100) / 100}});
    json f = json::object();
    if (!filter.game.empty()) f["game"] = filter.game;
    if (!filter.variant.empty()) f["variant"] = filter.variant;
    if (!filter.structure.empty()) f["structure"] = filter.structure;
    if (filter.stake) f["stakes"] = *filter.stake;
    if (filter.position) f["position"] = *filter.position;
    if (filter.table_size) f["table_size"] = *filter.table_size;
    if (!filter.from.empty()) f["from"] = filter.from;
    if (!filter.to.empty()) f["to"] = filter.to;
    f["kind"] = filter.tournament ? "tournament" : "cash";
    json reply = {{"filter", std::move(f)}, {"stats", std::move(out)}, {"days", std::move(days)}};
    if (filter.tournament) reply["tournaments"] = tournament_results(store, asker, filter);
    return {std::move(reply), {}};
}

// The table overlay: what the asker saw of each player named, from the poker hands both were
// dealt (no card the asker did not see counts: VPIP and PFR are actions everyone saw).
Outcome<json> opponents(Store& store, std::int64_t asker, const std::vector<std::string>& names) {
    if (!asker) return {std::nullopt, {"unauthorized", "sign in to see your opponents"}};
    json out = json::array();
    for (const OpponentStats& o : store.opponent_stats(asker, names))
        out.push_back({{"name", o.name},
                       {"hands", o.hands},
                       {"vpip", {{"times", o.vpip.times}, {"opportunities", o.vpip.opportunities}}},
                       {"pfr", {{"times", o.pfr.times}, {"opportunities", o.pfr.opportunities}}}});
    return {json{{"opponents", std::move(out)}}, {}};
}

// The asker's poker hands a search selects, newest first; `next` pages on (null: no more).
Outcome<json> search(Store& store, std::int64_t asker, const HandSearch& s) {
    if (!asker) return {std::nullopt, {"unauthorized", "sign in to search your hands"}};
    json hands = json::array();
    const std::vector<SearchHit> hits = store.search_hands(asker, s);
    for (const SearchHit& h : hits)
        hands.push_back({{"hand", h.hand},
                         {"table", h.table},
                         {"number", h.number},
                         {"ended_at", h.ended_at},
                         {"hole", h.hole.empty() ? json(nullptr) : json(h.hole)},
                         {"position", h.position},
                         {"net", h.net},
                         {"pot", h.pot},
                         {"showdown", h.showdown},
                         {"all_in", h.all_in}});
    const bool more = static_cast<int>(hits.size()) == s.limit && !hits.empty();
    return {
        json{{"hands", std::move(hands)}, {"next", more ? json(hits.back().hand) : json(nullptr)}},
        {}};
}

StatsBatch count_stats(Store& store, std::int64_t after, int limit) {
    StatsBatch b;
    for (const std::int64_t id : store.hands_to_count(after, limit)) {
        ++b.seen;
        b.last = id;
        std::vector<StatsRow> rows;
        std::string day;
        if (auto record = store.hand_record(id)) {
            day = record->summary.ended_at.substr(0, 10);
            const json cfg = json::parse(record->config, nullptr, false);
            if (const GameEntry* game = game_of(cfg); game && game->stats) {
                if (auto lines = game->stats(*record, cfg))
                    rows = std::move(lines).value();
                else
                    spdlog::warn("statistics: hand {} does not replay ({}); counted with none", id,
                                 lines.error().message);
            }
        }
        b.counted += store.count_hand_stats(id, rows, day);
    }
    return b;
}

Outcome<Query> read_query(const protocol::Request& r) {
    using R = Outcome<Query>;
    Query q;
    q.type = r.type;
    const auto limit = protocol::integer_field(r, "limit", 20);
    if (!limit.ok()) return R{std::nullopt, limit.refusal};
    // Clamped before it is narrowed: past 100 it is 100, below 1 the default (clamp_limit).
    q.limit = static_cast<int>(std::clamp<std::int64_t>(*limit.value, 0, 101));
    if (q.type == "my_hands") {
        const auto before = protocol::integer_field(r, "before", 0);
        if (!before.ok()) return R{std::nullopt, before.refusal};
        q.before = *before.value;
    } else if (q.type == "hand" || q.type == "hand_phh" || q.type == "table_hands") {
        const auto id =
            protocol::integer_field(r, q.type == "table_hands" ? "table" : "hand", std::nullopt, 0);
        if (!id.ok()) return R{std::nullopt, id.refusal};
        q.id = *id.value;
    } else if (q.type == "stats") {
        if (protocol::Refusal no = read_filter(r, q); !no.code.empty()) return R{std::nullopt, no};
    } else if (q.type == "hand_search") {
        if (protocol::Refusal no = read_search(r, q); !no.code.empty()) return R{std::nullopt, no};
    } else if (q.type == "opponent_stats") {
        const auto it = r.body.find("names");
        bool ok = it != r.body.end() && it->is_array() && !it->empty() && it->size() <= 10;
        for (std::size_t i = 0; ok && i < it->size(); ++i) ok = (*it)[i].is_string();
        if (!ok)
            return R{
                std::nullopt,
                {"bad_request", "\"names\" must be 1 to 10 players' names (strings)", "names"}};
        q.names = it->get<std::vector<std::string>>();
    } else if (auto it = r.body.find("name"); it != r.body.end()) {
        if (!it->is_string())
            return R{std::nullopt, {"bad_request", "\"name\" must be a string", "name"}};
        q.name = it->get<std::string>();
    }
    return {std::move(q), {}};
}

Outcome<json> answer(Store& store, const Query& q, std::int64_t asker) {
    if (q.type == "my_hands") {
        if (!asker) return {std::nullopt, {"unauthorized", "sign in to see your own hands"}};
        return {my_hands(store, asker, q.before, q.limit), {}};
    }
    if (q.type == "my_tournaments") {
        if (!asker) return {std::nullopt, {"unauthorized", "sign in to see your own tournaments"}};
        return {my_tournaments(store, asker, q.limit), {}};
    }
    if (q.type == "hand") return hand(store, q.id, asker);
    if (q.type == "hand_phh") {
        auto phh = hand_phh(store, q.id, asker);
        if (!phh.ok()) return {std::nullopt, phh.refusal};
        return {json{{"hand", q.id}, {"phh", std::move(*phh.value)}}, {}};
    }
    if (q.type == "table_hands") return table_hands(store, q.id, q.limit);
    if (q.type == "stats") return stats(store, asker, q.filter);
    if (q.type == "opponent_stats") return opponents(store, asker, q.names);
    if (q.type == "hand_search") return search(store, asker, q.search);
    return totals(store, q.name.value_or(""));
}

} // namespace felt::server::history
