#include "table_seat.h"

#include "protocol/poker_config.h"
#include "protocol/poker_messages.h"

#include <algorithm>

namespace felt::bots {

using json = nlohmann::json;
using namespace poker;

struct TableSeat::Mirror {
    std::array<SeatView, kMaxSeats> seats{};
    std::array<bool, kMaxSeats> dealt{};
    std::vector<Card> cards, board;
    std::vector<Seen> seen;
    int round = 0;   // betting rounds played
    int streets = 0; // street events seen
};

namespace {

Chips chips(const json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? Chips(it->get<std::int64_t>()) : Chips{};
}

std::optional<EventType> action_event(const std::string& kind) {
    if (kind == "fold") return EventType::fold;
    if (kind == "check") return EventType::check;
    if (kind == "call") return EventType::call;
    if (kind == "bet") return EventType::bet;
    if (kind == "raise") return EventType::raise;
    if (kind == "bring_in") return EventType::bring_in;
    return std::nullopt;
}

Legal legal_from(const json& j, int seat) {
    Legal l;
    l.seat = seat;
    const std::string phase = j.value("phase", "betting");
    l.phase = phase == "drawing"    ? Phase::drawing
              : phase == "rollover" ? Phase::rollover
                                    : Phase::betting;
    l.fold = j.value("fold", false);
    l.check = j.value("check", false);
    l.call = j.value("call", false);
    l.bet = j.value("bet", false);
    l.raise = j.value("raise", false);
    l.bring_in = j.value("bring_in", false);
    l.call_amount = chips(j, "call_amount");
    l.min_to = chips(j, "min_to");
    l.max_to = chips(j, "max_to");
    l.two_sizes = j.value("two_sizes", false);
    l.bring_in_amount = chips(j, "bring_in_amount");
    l.min_discard = j.value("min_discard", 0);
    l.max_discard = j.value("max_discard", 0);
    l.stand_pat = j.value("stand_pat", false);
    l.rollover = j.value("rollover", 0);
    return l;
}

} // namespace

TableSeat::TableSeat(Profile profile, std::uint64_t seed) : profile_(profile), rng_(seed) {}

void TableSeat::configure(const json& config) {
    config_json_ = config;
    config_.reset();
    if (config.value("game", "poker") != "poker") {
        problem_ = "not a poker table";
        return;
    }
    auto decoded = protocol::decode_poker_config(config);
    if (!decoded.ok()) {
        problem_ = "its configuration: " + decoded.refusal.message;
        return;
    }
    config_ = std::make_shared<const HandConfig>(std::move(decoded.value->second));
    hand_config_ = config_;
}

void TableSeat::start_hand(const json& m) {
    hand_ = std::make_shared<Mirror>();
    hand_config_ = config_;
    if (m.contains("variant") && m.contains("structure") && config_json_.is_object()) {
        json c = config_json_; // a mixed game's hand: its own game at the table's stakes
        c["variant"] = m["variant"];
        c["structure"] = m["structure"];
        auto decoded = protocol::decode_poker_config(c);
        if (decoded.ok())
            hand_config_ = std::make_shared<const HandConfig>(std::move(decoded.value->second));
    }
    const json& stacks = m.value("stacks", json::array());
    for (std::size_t i = 0; i < stacks.size() && i < kMaxSeats; ++i) {
        SeatView& s = hand_->seats[i];
        s.seat = static_cast<int>(i);
        s.stack = stacks[i].is_number_integer() ? Chips(stacks[i].get<std::int64_t>()) : Chips{};
        s.live = s.stack > 0;
        hand_->dealt[i] = s.live;
    }
}

void TableSeat::apply(const json& e) {
    if (!hand_ || !hand_config_ || !e.is_object()) return;
    Mirror& h = *hand_;
    const std::string kind = e.value("kind", "");
    const int seat = e.value("seat", -1);
    SeatView* s =
        seat >= 0 && seat < kMaxSeats ? &h.seats[static_cast<std::size_t>(seat)] : nullptr;
    const Chips amount = chips(e, "amount");
    std::vector<Card> cards;
    if (e.contains("cards") && e["cards"].is_string()) {
        auto parsed = hand_config_->ranking->parse_cards(e["cards"].get<std::string>());
        if (parsed) cards = std::move(parsed).value();
    }
    auto add = [&](Chips c, bool as_bet) {
        if (!s) return;
        s->stack -= c;
        s->total += c;
        if (as_bet) s->bet += c;
    };
    if (kind == "ante") add(amount, false);
    if (kind == "blind" || kind == "bring_in") add(amount, true);
    if (kind == "call") add(amount, true);
    if ((kind == "bet" || kind == "raise") && s) add(amount - s->bet, true);
    if (kind == "uncalled" && s) {
        s->stack += amount;
        s->total -= amount;
        s->bet -= std::min(s->bet, amount);
    }
    if (kind == "fold" && s) s->live = false;
    if (kind == "deal_down" && seat == seat_)
        h.cards.insert(h.cards.end(), cards.begin(), cards.end());
    if (kind == "deal_up" && s) {
        s->up.insert(s->up.end(), cards.begin(), cards.end());
        if (seat == seat_) h.cards.insert(h.cards.end(), cards.begin(), cards.end());
    }
    if (kind == "rollover" && s) s->up.insert(s->up.end(), cards.begin(), cards.end());
    if (kind == "deal_board") h.board.insert(h.board.end(), cards.begin(), cards.end());
    if (kind == "discard" && seat == seat_)
        for (Card c : cards) std::erase(h.cards, c);
    if (kind == "receive" && seat == seat_)
        h.cards.insert(h.cards.end(), cards.begin(), cards.end());
    if (kind == "street") {
        // A new street: the bets are in the pot. The rounds played are the earlier streets'
        // that bet.
        const int index = e.value("amount", 0);
        for (SeatView& x : h.seats) x.bet = Chips{};
        int rounds = 0;
        const auto& streets = hand_config_->variant->streets;
        for (int k = 0; k < index && k < static_cast<int>(streets.size()); ++k)
            rounds += streets[static_cast<std::size_t>(k)].betting;
        h.round = rounds;
        ++h.streets;
    }
    if (const auto type = action_event(kind); type && s)
        h.seen.push_back({seat, *type, amount, h.round, static_cast<int>(h.board.size())});
}

std::optional<json> TableSeat::turn(const json& legal) {
    if (!hand_ || !hand_config_ || seat_ < 0) return std::nullopt;
    View v;
    v.config = hand_config_.get();
    v.legal = legal_from(legal, seat_);
    v.cards = hand_->cards;
    v.board = hand_->board;
    for (std::size_t i = 0; i < kMaxSeats; ++i)
        if (hand_->dealt[i]) v.seats.push_back(hand_->seats[i]);
    v.seen = hand_->seen;
    v.round = hand_->round;
    v.stats = stats_;
    const Action a = decide(v, profile_, rng_);
    last_ = std::move(v);
    json out = {{"action", protocol::action_name(a.type)}};
    if (a.type == ActionType::bet || a.type == ActionType::raise) out["amount"] = a.amount;
    if (a.type == ActionType::discard || a.type == ActionType::rollover)
        out["cards"] = hand_config_->ranking->to_string(a.cards);
    return out;
}

std::optional<json> TableSeat::read(const json& m) {
    if (!m.is_object() || m.value("type", "") != "table") return std::nullopt;
    const std::string kind = m.value("kind", "");
    if (kind == "snapshot") {
        if (m.contains("config")) configure(m["config"]);
        if (m.contains("your_seat") && m["your_seat"].is_number_integer())
            seat_ = m["your_seat"].get<int>();
        hand_.reset();
        if (!config_ || !m.contains("hand") || !m["hand"].is_object()) return std::nullopt;
        // The hand so far: its events replayed from the start, then the seats as they are now.
        hand_ = std::make_shared<Mirror>();
        hand_config_ = config_;
        for (const json& s : m.value("seats", json::array())) {
            const int i = s.value("seat", -1);
            if (i < 0 || i >= kMaxSeats) continue;
            names_[static_cast<std::size_t>(i)] = s.value("name", "");
            hand_->dealt[static_cast<std::size_t>(i)] =
                chips(s, "in_hand") > 0 || s.value("card_count", 0) > 0;
        }
        for (const json& e : m["hand"].value("events", json::array())) apply(e);
        for (const json& s : m.value("seats", json::array())) {
            const int i = s.value("seat", -1);
            if (i < 0 || i >= kMaxSeats) continue;
            SeatView& x = hand_->seats[static_cast<std::size_t>(i)];
            x.seat = i;
            x.stack = chips(s, "stack");
            x.bet = chips(s, "bet");
            x.total = chips(s, "in_hand");
            x.live = hand_->dealt[static_cast<std::size_t>(i)] && !s.value("folded", false);
        }
        if (m.contains("legal") && m["legal"].is_object()) return turn(m["legal"]);
        return std::nullopt;
    }
    if (kind == "seated" || kind == "left") {
        const int i = m.value("seat", -1);
        if (i >= 0 && i < kMaxSeats && names_[static_cast<std::size_t>(i)] != m.value("name", "")) {
            stats_[static_cast<std::size_t>(i)] = {}; // another player: start again
            names_[static_cast<std::size_t>(i)] = kind == "seated" ? m.value("name", "") : "";
        }
        return std::nullopt;
    }
    if (kind == "hand_start") {
        start_hand(m);
        return std::nullopt;
    }
    if (kind == "hand_end" && hand_) { // each seat's statistics take the hand in
        Watcher::tally(hand_->seen, hand_->dealt, stats_);
        hand_.reset();
        return std::nullopt;
    }
    if (kind != "update") return std::nullopt;
    for (const json& e : m.value("events", json::array())) apply(e);
    const auto t = m.find("turn");
    if (t != m.end() && t->is_object() && t->value("seat", -1) == seat_ && t->contains("legal"))
        return turn((*t)["legal"]);
    return std::nullopt;
}

} // namespace felt::bots
