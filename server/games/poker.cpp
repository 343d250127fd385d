// Poker, every variant: its configuration, its table, and in its history the hand replayed through
// the engine from its record (whether it matches, the hands shown in words, a five-card draw's best
// draw) and the hand as PHH.
#include "games/games.h"
#include "poker/all_in.h"
#include "poker/draw_advice.h"
#include "poker/phh.h"
#include "protocol/poker_config.h"
#include "protocol/poker_messages.h"
#include "tables/poker_game.h"
#include "tables/run_out_odds.h"

#include <algorithm>

namespace felt::server {

namespace {

using protocol::json;

Outcome<NewTable> decode(const json& request, Services& services) {
    auto d = protocol::decode_poker_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    auto [config, base] = std::move(*d.value);
    return {table_of(std::move(config), services,
                     [base](const protocol::PokerConfig& c) { return poker_game(c, base); }),
            {}};
}

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
    RankingOptions options;
    options.trips_beat_straight = cfg.value("trips_beat_straight", false);
    auto named = poker::named_config(cfg.value("variant", ""), cfg.value("structure", ""),
                                     cfg.value("ranking", ""), cfg.value("wild", ""),
                                     cfg.value("seats", 0), options);
    if (!named) return mismatch(named.error().message);
    PokerReplay out;
    poker::HandConfig& c = out.config;
    c = std::move(named).value();
    if (c.variant->hole_cards_used > 0 && cfg.value("hole_cards", 4) != 4)
        c.hole_cards = cfg.value("hole_cards", 4);
    const json& st = cfg["stakes"];
    c.stakes.ante = st.value("ante", Chips());
    c.stakes.small_blind = st.value("small_blind", Chips());
    c.stakes.big_blind = st.value("big_blind", Chips());
    c.stakes.bring_in = st.value("bring_in", Chips());
    c.stakes.small_bet = st.value("small_bet", Chips());
    c.stakes.big_bet = st.value("big_bet", Chips());
    c.button = cfg.value("button", 0);
    // A tournament's hand: the blinds where its dead button put them, a big-blind ante, the cap.
    if (const auto b = cfg.find("blind_seats"); b != cfg.end() && b->is_array() && b->size() == 2) {
        c.small_blind_seat = (*b)[0].get<int>();
        c.big_blind_seat = (*b)[1].get<int>();
    }
    if (const Chips bba = cfg.value("big_blind_ante", Chips()); bba > 0 && c.big_blind_seat >= 0) {
        c.stakes.seat_antes.assign(static_cast<std::size_t>(c.seats), Chips());
        c.stakes.seat_antes[static_cast<std::size_t>(c.big_blind_seat)] = bba;
        c.stakes.dead_antes = true;
    }
    c.cap_heads_up = cfg.value("cap_heads_up", false);
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

// Five-card draw, for the asker's seat: the cards held before the draw (`held`, empty when it
// did not draw), the cards thrown, the cards that came to it, and the best exchange those cards
// allowed (throwing at most as many as it did: any more would take cards the seat never saw),
// beside the exchange made. Null when the seat did not draw.
json best_draw(const PokerReplay& replayed, std::span<const Card> held,
               std::span<const Card> thrown, int seat) {
    if (held.size() != 5) return nullptr;
    std::vector<Card> came;
    for (const poker::Event& e : replayed.events)
        if (e.type == poker::EventType::receive && e.seat == seat) {
            came.assign(e.cards.begin(), e.cards.begin() + e.count);
            break;
        }
    const Ranking& r = *replayed.config.ranking;
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

// The hands shown at the showdown, named as the table named them: each stored `show` event gets
// the `category` and `made` of the replay's show event in the same place.
void name_shown_hands(const PokerReplay& replayed, json& events) {
    const auto shown =
        protocol::show_categories(replayed.events, replayed.state, *replayed.config.ranking);
    auto stored = events.begin();
    for (std::size_t i = 0; i < replayed.events.size(); ++i) {
        const poker::Event& e = replayed.events[i];
        if (e.type != poker::EventType::show) continue;
        while (stored != events.end() && stored->value("kind", "") != "show") ++stored;
        if (stored == events.end() || stored->value("seat", -1) != e.seat) return;
        if (shown[i]) {
            (*stored)["category"] = shown[i]->category;
            if (!shown[i]->made.empty()) (*stored)["made"] = shown[i]->made;
            if (!shown[i]->low.empty()) (*stored)["low"] = shown[i]->low;
        }
        ++stored;
    }
}

// The chances at each street for the replayer (`odds`): of the hands shown (at once or at the
// showdown), or with none shown, of the asker's own hand against a random one. Each entry names
// the record event after which it holds (`event`, an index into `events`).
json replay_odds(const PokerReplay& replayed, const json& events, int seat) {
    std::vector<std::size_t> record; // the record's index of each engine event
    for (std::size_t j = 0; j < events.size(); ++j) {
        const std::string kind = events[j].value("kind", "");
        if (kind != "action" && kind != "all_in_ev") record.push_back(j);
    }
    const std::vector<poker::Event>& ev = replayed.events;
    if (record.size() != ev.size()) return json::array(); // not the record's hand
    std::array<std::vector<Card>, poker::kMaxSeats> shown, own;
    int shown_count = 0;
    for (const poker::Event& e : ev) {
        if (e.seat < 0) continue;
        const auto k = static_cast<std::size_t>(e.seat);
        if (e.type == poker::EventType::show) {
            shown_count += shown[k].empty() ? 1 : 0;
            shown[k].assign(e.cards.begin(), e.cards.begin() + e.count);
        } else if (e.seat == seat &&
                   (e.type == poker::EventType::deal_down || e.type == poker::EventType::deal_up)) {
            own[k].insert(own[k].end(), e.cards.begin(), e.cards.begin() + e.count);
        }
    }
    const bool against_random = shown_count < 2;
    if (against_random && seat < 0) return json::array();
    const auto& known = against_random ? own : shown;
    odds::Query q;
    q.target_stderr = 0.1;
    q.max_samples = 500'000;
    if (replayed.config.variant->name != "holdem") q.exact_limit = 2'000'000;
    json out = json::array();
    for (std::size_t i = 0; i < ev.size(); ++i) {
        const auto t = ev[i].type;
        const bool deal = t == poker::EventType::deal_down || t == poker::EventType::deal_up ||
                          t == poker::EventType::deal_board;
        if (!deal) continue;
        if (i + 1 < ev.size()) {
            const auto n = ev[i + 1].type;
            if (n == poker::EventType::deal_down || n == poker::EventType::deal_up ||
                n == poker::EventType::deal_board)
                continue; // the street's last deal
        }
        const auto o = poker::street_odds(replayed.config, std::span(ev).first(i + 1), known, q,
                                          against_random);
        if (!o) continue;
        json j = odds_json(*o);
        j["event"] = record[i];
        if (against_random) j["against_random"] = true;
        out.push_back(std::move(j));
    }
    return out;
}

// A finished hand replayed through the engine: whether it matches its record (`replay`), the
// hands shown in words, the chances at each street (`odds`), and for a five-card draw's seated
// asker the best draw.
void review(const HandRecord& h, const json&, int seat, json& out) {
    const json& cfg = out["config"];
    const bool draw = seat >= 0 && cfg.is_object() && cfg.value("variant", "") == "draw";
    std::vector<Card> held, thrown;
    auto replayed = replay_poker(h, cfg, [&](const poker::HandState& s, const poker::Action& a) {
        if (!held.empty() || a.seat != seat || a.type != poker::ActionType::discard) return;
        const poker::SeatState& p = s.seats[static_cast<std::size_t>(seat)];
        held.assign(p.cards.begin(), p.cards.begin() + p.count);
        thrown = a.cards;
    });
    if (!replayed) {
        out["replay"] = {{"matches", false}, {"reason", replayed.error().message}};
        if (draw) out["best_draw"] = nullptr;
        return;
    }
    out["replay"] = {{"matches", true}};
    name_shown_hands(*replayed, out["events"]);
    out["odds"] = replay_odds(*replayed, out["events"], seat);
    if (draw) out["best_draw"] = best_draw(*replayed, held, thrown, seat);
}

Result<std::string> phh(const HandRecord& h, const json& config, int seat) {
    auto replayed = replay_poker(h, config, [](const poker::HandState&, const poker::Action&) {});
    if (!replayed) return make_error(Errc::bad_config, replayed.error().message);
    return poker::to_phh(replayed->config, replayed->events, replayed->state,
                         seat >= 0 ? seat : poker::kNoSeat);
}

Result<std::vector<StatsRow>> stats(const HandRecord& h, const json& config) {
    auto replayed = replay_poker(h, config, [](const poker::HandState&, const poker::Action&) {});
    if (!replayed) return make_error(Errc::bad_config, replayed.error().message);
    auto rows = poker_stats_rows(replayed->config, replayed->events);
    for (const json& e : record_log(h))
        if (e.value("kind", "") == "all_in_ev") add_all_in_ev(rows, e);
    return rows_of(h, config, std::move(rows));
}

} // namespace

const GameEntry kPokerGame = {"poker", decode, review, phh, stats};

} // namespace felt::server
