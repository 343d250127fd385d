#include "history/history.h"

#include "cards/deck.h"
#include "chinese/chinese.h"
#include "poker/draw_advice.h"
#include "poker/phh.h"
#include "protocol/chinese_config.h"
#include "protocol/chinese_messages.h"
#include "protocol/fairness.h"
#include "protocol/leap_config.h"
#include "protocol/leap_messages.h"
#include "protocol/poker_messages.h"

#include <algorithm>

namespace felt::server::history {

namespace {

int clamp_limit(int limit) {
    return limit < 1 ? 20 : limit > 100 ? 100 : limit;
}

json summary(const HandSummary& h) {
    return {{"hand", h.id},       {"table", h.table},           {"number", h.number},
            {"status", h.status}, {"started_at", h.started_at}, {"ended_at", h.ended_at}};
}

// A finished Chinese poker deal settled again by the engine from its configuration and revealed
// arrangements: whether every seat ends with the stack recorded, and if not, why.
json replay_chinese(const json& config, const json& events, const json& seats) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        auto table = protocol::decode_chinese_config(protocol::table_part(config));
        if (!table.ok()) return differs(table.refusal.message);
        std::vector<chinese::Player> players;
        std::vector<int> order;
        int dealer = -1;
        for (const json& e : events) {
            if (e.value("kind", "") != "reveal") continue;
            const int seat = e.at("seat");
            chinese::Player p;
            p.surrender = e.at("surrender"); // shows no rows: it settles none
            if (!p.surrender) {
                auto read = protocol::parse_chinese_split(e);
                if (!read.ok())
                    return differs("seat " + std::to_string(seat) +
                                   "'s split: " + read.refusal.message);
                p = std::move(*read.value);
            }
            p.name = std::to_string(seat);
            p.stack = config.at("stacks").at(static_cast<std::size_t>(seat));
            if (seat == config.at("dealer")) dealer = static_cast<int>(players.size());
            players.push_back(std::move(p));
            order.push_back(seat);
        }
        if (dealer < 0) return differs("the record has no reveal of the dealer");
        chinese::Options o = table.value->options;
        o.edition = std::min(protocol::rules_of(config), 2);
        if (table.value->banker) o.banker = dealer;
        auto settled = chinese::settle(table.value->rules(), o, players, dealer);
        if (!settled) return differs(settled.error().message);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Chips want = settled.value().final_stacks[k];
            for (const json& s : seats)
                if (s.at("seat") == order[k] && s.at("stack_end").get<Chips>() != want)
                    return differs("seat " + std::to_string(order[k]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   to_string(want));
        }
        return {{"matches", true}};
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
}

// A finished leap rummy game replayed from its record: the configuration written when it was
// dealt, the revealed deck and the log. Whether it reaches the same end (the settled chips), and
// if not, why; when it does, `steps`: for each action, the messages everyone at the table saw
// (its public events, then the turn that followed).
json replay_leap(const json& config, const std::string& deck, const json& log, const json& seats,
                 int hand) {
    auto differs = [](std::string why) { return json{{"matches", false}, {"reason", why}}; };
    try {
        auto parsed = protocol::decode_stored_leap_config(protocol::table_part(config),
                                                          protocol::rules_of(config));
        if (!parsed.ok()) return differs(parsed.refusal.message);
        const std::vector<int> players = config.at("players").get<std::vector<int>>();
        const auto dealer =
            std::find(players.begin(), players.end(), config.at("dealer").get<int>());
        if (dealer == players.end()) return differs("the dealer is not among the players");
        auto table = leap::Table::make(parsed.value->rules, static_cast<int>(players.size()));
        if (!table) return differs(table.error().message);
        const leap::Table& t = *table.value();
        auto cards = t.deck().parse_cards(deck);
        if (!cards) return differs("the revealed deck: " + cards.error().message);
        auto started =
            leap::start_game(table.value(), static_cast<int>(dealer - players.begin()), *cards);
        if (!started) return differs(started.error().message);
        leap::State state = std::move(started).value().state;
        const int seat_count = config.at("seats").get<int>();
        // What everyone saw after each action, as the table told it: a replay shows the melds and
        // tokens as they were, step by step, without knowing the rules.
        json steps = json::array();
        int n = 0;
        for (const json& e : log) {
            if (e.value("kind", "") != "action") continue;
            ++n;
            const auto at = std::find(players.begin(), players.end(), e.at("seat").get<int>());
            if (at == players.end())
                return differs("action " + std::to_string(n) + " by no player");
            auto a = protocol::parse_leap_action(t, e, static_cast<int>(at - players.begin()));
            if (!a.ok()) return differs("action " + std::to_string(n) + ": " + a.refusal.message);
            std::vector<leap::Event> events;
            if (auto err = leap::apply_in_place(state, *a.value, events))
                return differs("action " + std::to_string(n) + ": " + err->message);
            json told = json::array();
            for (const leap::Event& ev : events)
                if (protocol::leap_event_told(ev))
                    told.push_back(protocol::leap_event_json(
                        t, ev, players[static_cast<std::size_t>(ev.seat)], hand));
            if (state.phase != leap::Phase::over)
                told.push_back(protocol::leap_turn_json(state, players, seat_count, hand));
            steps.push_back(std::move(told));
        }
        if (state.phase != leap::Phase::over) return differs("the game does not reach its end");
        std::vector<int> scores;
        std::vector<Chips> start;
        for (std::size_t i = 0; i < players.size(); ++i) {
            scores.push_back(leap::score(state, static_cast<int>(i)));
            start.push_back(
                config.at("stacks").at(static_cast<std::size_t>(players[i])).get<Chips>());
        }
        const auto end =
            leap::settle_chips(scores, start, config.at("chips_per_point").get<Chips>());
        for (std::size_t i = 0; i < players.size(); ++i)
            for (const json& s : seats)
                if (s.at("seat") == players[i] && s.at("stack_end").get<Chips>() != end[i])
                    return differs("seat " + std::to_string(players[i]) + " ends with " +
                                   s.at("stack_end").dump() + ", the engine says " +
                                   to_string(end[i]));
        json result = {{"matches", true}, {"scores", json::object()}, {"steps", std::move(steps)}};
        for (std::size_t i = 0; i < players.size(); ++i)
            result["scores"][std::to_string(players[i])] = scores[i];
        return result;
    } catch (const json::exception&) {
        return differs("the record is incomplete");
    }
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
        hands.push_back(std::move(h));
    }
    return {{"hands", hands}, {"next", next}};
}

namespace {

// A stored poker hand played again through the engine from its revealed deck.
struct PokerReplay {
    poker::HandConfig config;
    poker::HandState state;
    std::vector<poker::Event> events;
};

// Replays a finished poker hand's record; `before` sees the state before each recorded action.
// The error is why it does not replay (its end must be the recorded stacks).
template <class Before>
Result<PokerReplay> replay_poker(const HandRecord& h, const json& cfg, Before&& before) {
    auto mismatch = [](std::string why) { return make_error(Errc::bad_config, std::move(why)); };
    if (cfg.is_discarded() || !cfg.contains("stacks")) return mismatch("its record is incomplete");
    auto named =
        poker::named_config(cfg.value("variant", ""), cfg.value("structure", ""),
                            cfg.value("ranking", ""), cfg.value("wild", ""), cfg.value("seats", 0));
    if (!named) return mismatch(named.error().message);
    PokerReplay out;
    poker::HandConfig& c = out.config;
    c = std::move(named).value();
    const json& st = cfg["stakes"];
    c.stakes.ante = st.value("ante", Chips());
    c.stakes.small_blind = st.value("small_blind", Chips());
    c.stakes.big_blind = st.value("big_blind", Chips());
    c.stakes.bring_in = st.value("bring_in", Chips());
    c.stakes.small_bet = st.value("small_bet", Chips());
    c.stakes.big_bet = st.value("big_bet", Chips());
    c.button = cfg.value("button", 0);
    // Edition 1 had no open-pair rule: its stud hands bet the small bet on fourth street.
    const auto open_pair = protocol::rules_of(cfg) < 2
                               ? std::optional(poker::OpenPair::off)
                               : poker::parse_open_pair(cfg.value("open_pair", "big_bet"));
    if (!open_pair) return mismatch("its open_pair rule is unknown");
    c.open_pair = *open_pair;
    const auto big_bet_from = poker::parse_big_bet_from(cfg.value("big_bet_from", "fifth"));
    if (!big_bet_from) return mismatch("its big_bet_from rule is unknown");
    c.big_bet_from = *big_bet_from;
    // Shrinking draw: four optional draws (the table's `draws`) since edition 3; before it, three
    // of exactly two.
    if (cfg.value("variant", "") == "shrinking") {
        if (protocol::rules_of(cfg) < 3)
            c.variant = poker::builtin_variant("shrinking-3");
        else
            c.draws = cfg.value("draws", 4);
    }
    for (int i = 0; i < c.seats && i < static_cast<int>(cfg["stacks"].size()); ++i)
        c.stacks[static_cast<std::size_t>(i)] = cfg["stacks"][static_cast<std::size_t>(i)];
    auto deck = c.ranking->parse_cards(h.deck);
    if (!deck) return mismatch(deck.error().message);
    c.deck = std::move(deck).value();
    try { // a variant that never draws has no seed
        c.reshuffle_seed = h.seed.empty() ? 0 : std::stoull(h.seed);
    } catch (const std::exception&) {
        return mismatch("its reshuffle seed is unreadable");
    }
    auto config = std::make_shared<const poker::HandConfig>(c);
    auto started = poker::start_hand(config);
    if (!started) return mismatch(started.error().message);
    out.state = std::move(started.value().state);
    out.events = started.value().events;
    for (const std::string& body : h.events) {
        json ev = json::parse(body, nullptr, false);
        if (ev.is_discarded() || ev.value("kind", "") != "action") continue;
        poker::Action a;
        a.seat = ev.value("seat", -1);
        auto type = protocol::parse_action_type(ev.value("action", ""));
        if (!type) return mismatch("an unknown action");
        a.type = *type;
        a.amount = ev.value("amount", poker::Chips());
        if (ev.contains("cards")) {
            auto cards = c.ranking->parse_cards(ev["cards"].get<std::string>());
            if (!cards) return mismatch(cards.error().message);
            a.cards = std::move(cards).value();
        }
        before(out.state, a);
        if (auto err = poker::apply_in_place(out.state, a, out.events))
            return mismatch(err->message);
    }
    if (out.state.phase != poker::Phase::done) return mismatch("it does not reach its end");
    for (const HandRecord::Seat& s : h.seats) {
        const auto seat = static_cast<std::size_t>(s.seat);
        if (seat >= out.state.seats.size() || out.state.seats[seat].stack != s.end)
            return mismatch("seat " + std::to_string(seat) + " ends with " +
                            (seat < out.state.seats.size() ? to_string(out.state.seats[seat].stack)
                                                           : std::string("nothing")) +
                            ", recorded " + to_string(s.end));
    }
    return out;
}

// Five-card draw, for the asker's seat: the cards held before the draw, the cards that came to
// it, and the best exchange those cards allowed (throwing at most as many as it did: any more
// would take cards the seat never saw), beside the exchange made. Null when the seat did not
// draw or the hand does not replay.
json best_draw(const HandRecord& h, const json& cfg, int seat) {
    std::vector<Card> held, thrown;
    bool drew = false;
    auto replayed = replay_poker(h, cfg, [&](const poker::HandState& s, const poker::Action& a) {
        if (drew || a.seat != seat || a.type != poker::ActionType::discard) return;
        drew = true;
        const poker::SeatState& p = s.seats[static_cast<std::size_t>(seat)];
        held.assign(p.cards.begin(), p.cards.begin() + p.count);
        thrown = a.cards;
    });
    if (!replayed || !drew || held.size() != 5) return nullptr;
    std::vector<Card> came;
    for (const poker::Event& e : replayed->events)
        if (e.type == poker::EventType::receive && e.seat == seat) {
            came.assign(e.cards.begin(), e.cards.begin() + e.count);
            break;
        }
    const Ranking& r = *replayed->config.ranking;
    auto best = poker::best_exchange(r, held, came, static_cast<int>(came.size()));
    if (!best) return nullptr;
    std::vector<Card> made;
    for (Card c : held)
        if (std::find(thrown.begin(), thrown.end(), c) == thrown.end()) made.push_back(c);
    made.insert(made.end(), came.begin(), came.end());
    auto judged = r.judge(made);
    return json{{"seat", seat},
                {"held", r.to_string(held)},
                {"came", r.to_string(came)},
                {"best", protocol::best_exchange_json(r, held, best.value())},
                {"made",
                 {{"discard", r.to_string(thrown)},
                  {"count", thrown.size()},
                  {"hand", r.to_string(made)},
                  {"category", judged ? judged->category : std::string()}}}};
}

} // namespace

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
    const std::string game =
        out["config"].is_object() ? out["config"].value("game", "poker") : "poker";
    if (out["status"] == "finished" && game == "chinese")
        out["replay"] = replay_chinese(out["config"], events, seats);
    if (out["status"] == "finished" && game == "leap")
        out["replay"] = replay_leap(out["config"], h.deck, log, seats, out["number"].get<int>());
    if (out["status"] == "finished" && game == "poker" && my_seat >= 0 &&
        out["config"].value("variant", "") == "draw")
        out["best_draw"] = best_draw(h, out["config"], my_seat);
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
    if (!cfg.is_discarded() && cfg.value("game", "poker") != "poker")
        return R{std::nullopt,
                 {"not_poker", "hand " + std::to_string(hand_id) + " is a " +
                                   cfg.value("game", "") + " deal; PHH records poker hands only"}};
    auto replayed = replay_poker(h, cfg, [](const poker::HandState&, const poker::Action&) {});
    if (!replayed)
        return R{std::nullopt,
                 {"replay_mismatch", "hand " + std::to_string(hand_id) +
                                         " does not replay: " + replayed.error().message}};
    int my_seat = -1;
    for (const HandRecord::Seat& s : h.seats)
        if (asker != 0 && s.account == asker) my_seat = s.seat;
    return R{poker::to_phh(replayed->config, replayed->events, replayed->state,
                           my_seat >= 0 ? my_seat : poker::kNoSeat),
             {}};
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
    if (q.type == "hand") return hand(store, q.id, asker);
    if (q.type == "hand_phh") {
        auto phh = hand_phh(store, q.id, asker);
        if (!phh.ok()) return {std::nullopt, phh.refusal};
        return {json{{"hand", q.id}, {"phh", std::move(*phh.value)}}, {}};
    }
    if (q.type == "table_hands") return table_hands(store, q.id, q.limit);
    return totals(store, q.name.value_or(""));
}

} // namespace felt::server::history
