#include "protocol/poker_messages.h"

#include "protocol/messages.h"

#include "poker/pots.h"
#include "rankings/lowball.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace felt::protocol {

namespace {

// Indexed by poker::ActionType.
constexpr std::array<const char*, 8> kActionNames = {"fold",  "check",    "call",    "bet",
                                                     "raise", "bring_in", "discard", "rollover"};
static_assert(static_cast<int>(poker::ActionType::rollover) == kActionNames.size() - 1);

} // namespace

const char* action_name(poker::ActionType t) {
    return kActionNames[static_cast<std::size_t>(t)];
}

const char* event_name(poker::EventType t) {
    using E = poker::EventType;
    switch (t) {
    case E::ante:
        return "ante";
    case E::blind:
        return "blind";
    case E::bring_in:
        return "bring_in";
    case E::deal_down:
        return "deal_down";
    case E::deal_up:
        return "deal_up";
    case E::deal_board:
        return "deal_board";
    case E::fold:
        return "fold";
    case E::check:
        return "check";
    case E::call:
        return "call";
    case E::bet:
        return "bet";
    case E::raise:
        return "raise";
    case E::all_in:
        return "all_in";
    case E::discard:
        return "discard";
    case E::receive:
        return "receive";
    case E::rollover:
        return "rollover";
    case E::reshuffle:
        return "reshuffle";
    case E::street:
        return "street";
    case E::uncalled:
        return "uncalled";
    case E::show:
        return "show";
    case E::rake:
        return "rake";
    case E::win:
        return "win";
    case E::hand_end:
        return "hand_end";
    }
    return "unknown";
}

std::optional<poker::ActionType> parse_action_type(std::string_view s) {
    for (std::size_t i = 0; i < kActionNames.size(); ++i)
        if (s == kActionNames[i]) return static_cast<poker::ActionType>(i);
    return std::nullopt;
}

namespace {

// A hi-lo win's half: "high" or "low"; nullptr for any other event.
// A show before the cards still to come (the engine marks it 1): written `"early": true`, and
// not as an amount as other events' numbers are.
bool early_show(const poker::Event& e) {
    return e.type == poker::EventType::show && e.number == 1;
}
bool number_as_amount(const poker::Event& e) {
    return e.number != 0 && e.type != poker::EventType::show;
}

const char* half_name(const poker::Event& e) {
    if (e.type != poker::EventType::win || e.number == 0) return nullptr;
    return e.number == 1 ? "high" : "low";
}

} // namespace

json event_json(const poker::Event& e, const felt::Ranking& r, bool show_cards) {
    json j = {{"kind", event_name(e.type)}};
    if (e.seat >= 0) j["seat"] = e.seat;
    if (e.amount)
        j["amount"] = e.amount;
    else if (number_as_amount(e))
        j["amount"] = e.number; // a street's index, a stock's size, cards moved
    if (early_show(e)) j["early"] = true;
    if (const char* half = half_name(e)) j["half"] = half;
    if (e.pot >= 0) j["pot"] = e.pot;
    if (e.count) {
        j["count"] = e.count;
        if (show_cards) j["cards"] = r.to_string(std::span(e.cards.data(), e.count));
    }
    return j;
}

Outcome<poker::Action> parse_poker_action(const json& body, int seat, const Ranking& r) {
    auto refuse = [](std::string code, std::string message) {
        return Outcome<poker::Action>{std::nullopt, {std::move(code), std::move(message)}};
    };
    auto kind = body.find("action");
    if (kind == body.end() || !kind->is_string())
        return refuse("bad_request", "\"act\" needs a string \"action\"");
    auto type = parse_action_type(kind->get_ref<const std::string&>());
    if (!type)
        return refuse("bad_request",
                      "no action \"" + kind->get<std::string>() +
                          "\" (fold, check, call, bet, raise, bring_in, discard, rollover)");
    poker::Action act;
    act.type = *type;
    act.seat = seat;
    if (auto amount = body.find("amount"); amount != body.end()) {
        if (!amount->is_number_integer() ||
            (amount->is_number_unsigned() &&
             amount->get<std::uint64_t>() >
                 static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
            return refuse("bad_request", "\"amount\" must be an integer of chips, below 2^63");
        act.amount = amount->get<poker::Chips>();
    }
    if (auto cards = body.find("cards"); cards != body.end()) {
        if (!cards->is_string()) return refuse("bad_request", "\"cards\" must be a string");
        auto parsed = r.parse_cards(cards->get_ref<const std::string&>());
        if (!parsed) return refuse("bad_card", parsed.error().message);
        act.cards = std::move(parsed).value();
    }
    return {std::move(act), {}};
}

namespace {

const char* phase_name(poker::Phase p) {
    return p == poker::Phase::drawing    ? "drawing"
           : p == poker::Phase::rollover ? "rollover"
                                         : "betting";
}

// legal_json's text, as json::dump() writes it: the members by key.
std::string legal_text(const poker::Legal& l) {
    ObjectText o;
    o.boolean("bet", l.bet)
        .boolean("bring_in", l.bring_in)
        .member("bring_in_amount", l.bring_in_amount.value())
        .boolean("call", l.call)
        .member("call_amount", l.call_amount.value())
        .boolean("check", l.check)
        .boolean("fold", l.fold)
        .member("max_discard", l.max_discard)
        .member("max_to", l.max_to.value())
        .member("min_discard", l.min_discard)
        .member("min_to", l.min_to.value())
        .member("phase", phase_name(l.phase))
        .boolean("raise", l.raise)
        .member("rollover", l.rollover)
        .boolean("stand_pat", l.stand_pat)
        .boolean("two_sizes", l.two_sizes);
    return std::move(o).done();
}

} // namespace

json legal_json(const poker::Legal& l) {
    return {{"fold", l.fold},
            {"check", l.check},
            {"call", l.call},
            {"bet", l.bet},
            {"raise", l.raise},
            {"bring_in", l.bring_in},
            {"call_amount", l.call_amount},
            {"min_to", l.min_to},
            {"max_to", l.max_to},
            {"two_sizes", l.two_sizes},
            {"bring_in_amount", l.bring_in_amount},
            {"phase", phase_name(l.phase)},
            {"min_discard", l.min_discard},
            {"max_discard", l.max_discard},
            {"rollover", l.rollover},
            {"stand_pat", l.stand_pat}};
}

bool visible_to(const poker::Event& e, int seat) {
    switch (e.visibility) {
    case poker::Visibility::everyone:
        return true;
    case poker::Visibility::owner:
        return seat >= 0 && seat == e.seat;
    case poker::Visibility::nobody:
        return false;
    }
    return false;
}

namespace {

// A batch's events as `seat` sees them.
json events_json(std::span<const poker::Event> batch, const Ranking& r, int seat) {
    json events = json::array();
    for (const poker::Event& e : batch) events.push_back(event_json(e, r, visible_to(e, seat)));
    return events;
}

} // namespace

json hand_start_json(int hand, std::int64_t hand_id, int button, std::span<const Chips> stacks,
                     const std::string& commitment) {
    return {{"kind", "hand_start"}, {"hand", hand},     {"hand_id", hand_id},
            {"button", button},     {"stacks", stacks}, {"commitment", commitment}};
}

json update_json(std::span<const poker::Event> batch, const poker::Legal* turn, const Ranking& r,
                 int seat) {
    json m = {{"kind", "update"}, {"events", events_json(batch, r, seat)}};
    if (turn) {
        m["turn"] = {{"seat", turn->seat}};
        if (seat >= 0 && turn->seat == seat) m["turn"]["legal"] = legal_json(*turn);
    }
    return m;
}

std::vector<std::optional<ShownHand>> show_categories(std::span<const poker::Event> batch,
                                                      const poker::HandState& s, const Ranking& r) {
    std::vector<std::optional<ShownHand>> out(batch.size());
    std::vector<std::vector<Card>> hands;
    std::vector<LowValue> lows;
    std::vector<std::size_t> at; // the event of each hand
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const poker::Event& e = batch[i];
        // A hand shown at once is named at the showdown, with the whole board, not before.
        if (e.type != poker::EventType::show || early_show(e)) continue;
        // The cards the hand plays: Omaha's two and three, else all of them with the board.
        poker::ShowdownCards played = poker::showdown_cards(
            *s.config, std::span(e.cards.data(), e.count),
            std::span(s.board.data(), static_cast<std::size_t>(s.board_count)));
        auto judged = r.judge(played.high);
        if (!judged) continue;
        out[i] = ShownHand{std::move(judged->category), {}, {}};
        hands.push_back(std::move(played.high));
        lows.push_back(played.low.size() == 5
                           ? ace_to_five_low(std::span<const Card, 5>(played.low.data(), 5))
                           : LowValue());
        at.push_back(i);
    }
    if (hands.empty()) return out;
    std::vector<std::string> words = r.showdown_words(hands);
    const std::vector<std::string> low = low_words(lows);
    for (std::size_t k = 0; k < at.size(); ++k) {
        out[at[k]]->made = std::move(words[k]);
        out[at[k]]->low = low[k];
    }
    return out;
}

namespace {

// Whether the event deals `seat` cards that only it may see.
bool deals_own_cards(const poker::Event& e, int seat) {
    return e.visibility == poker::Visibility::owner && e.seat == seat && e.count > 0;
}

bool owns_cards_in(std::span<const poker::Event> batch, int seat) {
    return std::ranges::any_of(batch,
                               [&](const poker::Event& e) { return deals_own_cards(e, seat); });
}

} // namespace

void add_show_categories(json& update, std::span<const poker::Event> batch,
                         const poker::HandState& s, const Ranking& r) {
    json& events = update["events"];
    auto shown = show_categories(batch, s, r);
    for (std::size_t i = 0; i < batch.size() && i < events.size(); ++i)
        if (shown[i]) {
            events[i]["category"] = shown[i]->category;
            if (!shown[i]->made.empty()) events[i]["made"] = shown[i]->made;
            if (!shown[i]->low.empty()) events[i]["low"] = shown[i]->low;
        }
}

json own_update(std::span<const poker::Event> batch, const poker::Legal* turn, const Ranking& r,
                int seat) {
    json own;
    if (owns_cards_in(batch, seat)) own["events"] = events_json(batch, r, seat);
    if (turn && turn->seat == seat) own["turn"] = {{"legal", legal_json(*turn)}};
    return own;
}

UpdateText::UpdateText(std::span<const poker::Event> batch, const poker::Legal* turn,
                       const Ranking& r, const poker::HandState& s, std::optional<json> pots) {
    const bool showdown = s.phase == poker::Phase::done;
    auto shown = showdown ? show_categories(batch, s, r) : std::vector<std::optional<ShownHand>>();
    events_.reserve(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const poker::Event& e = batch[i];
        Shown& x = events_.emplace_back(Shown{e, {}, std::nullopt, std::nullopt, std::nullopt});
        if (e.count) x.cards = r.to_string(std::span(e.cards.data(), e.count));
        if (!showdown || !shown[i]) continue;
        x.category = std::move(shown[i]->category);
        if (!shown[i]->made.empty()) x.made = std::move(shown[i]->made);
        if (!shown[i]->low.empty()) x.low = std::move(shown[i]->low);
    }
    if (turn) {
        turn_seat_ = turn->seat;
        legal_ = legal_text(*turn);
    }
    if (pots) pots_ = pots->dump();
}

bool UpdateText::own(int seat) const {
    if (seat < 0) return false;
    if (turn_seat_ == seat) return true;
    return std::ranges::any_of(events_,
                               [&](const Shown& x) { return deals_own_cards(x.event, seat); });
}

// The events as `seat` sees them, each object's members in json::dump()'s order (by key):
// event_json's, with the category between.
std::string UpdateText::events(int seat) const {
    // A seat without cards of its own in the batch sees what everyone sees.
    const int viewer = own(seat) ? seat : -1;
    std::string out = "[";
    for (const Shown& x : events_) {
        const poker::Event& e = x.event;
        ObjectText o;
        if (e.amount)
            o.member("amount", e.amount.value());
        else if (number_as_amount(e))
            o.member("amount", e.number);
        if (e.count && visible_to(e, viewer)) o.member("cards", x.cards);
        if (x.category) o.member("category", *x.category);
        if (e.count) o.member("count", e.count);
        if (early_show(e)) o.raw("early", "true");
        if (const char* half = half_name(e)) o.member("half", half);
        o.member("kind", event_name(e.type));
        if (x.low) o.member("low", *x.low);
        if (x.made) o.member("made", *x.made);
        if (e.pot >= 0) o.member("pot", e.pot);
        if (e.seat >= 0) o.member("seat", e.seat);
        if (out.size() > 1) out += ',';
        out += std::move(o).done();
    }
    out += ']';
    return out;
}

std::string UpdateText::write(const Stamp& stamp, int seat) const {
    ObjectText o;
    o.raw("events", events(seat)).member("kind", "update");
    if (pots_) o.raw("pots", *pots_);
    o.member("seq", stamp.seq).member("table", stamp.table);
    if (turn_seat_) {
        ObjectText turn;
        turn.member("deadline_ms", stamp.deadline_ms);
        if (seat >= 0 && seat == *turn_seat_) turn.raw("legal", legal_);
        turn.member("seat", *turn_seat_).member("time_bank_ms", stamp.time_bank_ms);
        o.raw("turn", std::move(turn).done());
    }
    o.member("type", "table");
    return std::move(o).done();
}

json hand_end_json(int hand, std::int64_t hand_id, std::span<const Chips> net) {
    return {{"kind", "hand_end"}, {"hand", hand}, {"hand_id", hand_id}, {"net", net}};
}

void seat_view_json(const poker::SeatState& p, bool own, const Ranking& r, json& j) {
    j["stack"] = p.stack;
    j["bet"] = p.bet;
    j["in_hand"] = p.total;
    j["folded"] = p.folded;
    std::vector<Card> shown;
    for (int c = 0; c < p.count; ++c)
        if (own || (p.up >> c & 1)) shown.push_back(p.cards[static_cast<std::size_t>(c)]);
    j["cards"] = r.to_string(shown);
    j["card_count"] = p.count;
}

json pots_json(const poker::HandState& s, int seats) {
    std::array<Chips, poker::kMaxSeats> collected{};
    std::uint16_t folded = 0;
    for (int i = 0; i < seats; ++i) {
        const poker::SeatState& p = s.seats[static_cast<std::size_t>(i)];
        collected[static_cast<std::size_t>(i)] = p.total - p.bet;
        if (p.in_hand && p.folded) folded |= static_cast<std::uint16_t>(1u << i);
    }
    json out = json::array();
    for (const poker::Pot& pot : poker::build_pots(collected, folded, seats)) {
        if (pot.amount <= 0) continue;
        json eligible = json::array();
        for (int i = 0; i < seats; ++i)
            if (pot.eligible >> i & 1) eligible.push_back(i);
        out.push_back({{"amount", pot.amount}, {"eligible", std::move(eligible)}});
    }
    return out;
}

json hand_view_json(int hand, int button, const poker::HandState& s, const Ranking& r) {
    return {
        {"number", hand},
        {"button", button},
        {"board", r.to_string(std::span(s.board.data(), static_cast<std::size_t>(s.board_count)))},
        {"to_act", s.legal.seat}};
}

// The records are written as text, their members in key order: what json::dump() writes for
// event_json(e, r, true) with the event's visibility, and for the action's object.
std::string event_record(const poker::Event& e, const Ranking& r) {
    ObjectText o;
    if (e.amount)
        o.member("amount", e.amount.value());
    else if (number_as_amount(e))
        o.member("amount", e.number);
    if (e.count)
        o.member("cards", r.to_string(std::span(e.cards.data(), e.count))).member("count", e.count);
    if (early_show(e)) o.raw("early", "true");
    if (const char* half = half_name(e)) o.member("half", half);
    o.member("kind", event_name(e.type));
    if (e.pot >= 0) o.member("pot", e.pot);
    if (e.seat >= 0) o.member("seat", e.seat);
    o.member("visibility", e.visibility == poker::Visibility::everyone ? "everyone"
                           : e.visibility == poker::Visibility::owner  ? "owner"
                                                                       : "nobody");
    return std::move(o).done();
}

std::string action_record(const poker::Action& a, const Ranking& r, const char* by) {
    ObjectText o;
    o.member("action", action_name(a.type));
    if (a.amount) o.member("amount", a.amount.value());
    o.member("by", by);
    if (!a.cards.empty()) o.member("cards", r.to_string(a.cards));
    o.member("kind", "action")
        .member("seat", a.seat)
        .member("visibility", a.type == poker::ActionType::discard ? "owner" : "everyone");
    return std::move(o).done();
}

namespace {

// The cards of `hand` whose bits are set in `thrown`, as card text ("" for none).
std::string thrown_text(const Ranking& r, std::span<const Card> hand, unsigned thrown) {
    std::vector<Card> out;
    for (std::size_t i = 0; i < hand.size(); ++i)
        if (thrown >> i & 1) out.push_back(hand[i]);
    return r.to_string(out);
}

} // namespace

json draw_hint_json(const Ranking& r, std::span<const Card> hand,
                    std::span<const poker::DrawOption> options, std::size_t count) {
    json list = json::array();
    for (std::size_t i = 0; i < options.size() && i < count; ++i) {
        const poker::DrawOption& o = options[i];
        list.push_back({{"discard", thrown_text(r, hand, o.thrown)},
                        {"count", o.count},
                        {"expected", std::round(o.expected * 1e4) / 1e4},
                        {"draws", o.draws}});
    }
    return json{{"exchanges", std::move(list)}};
}

json best_exchange_json(const Ranking& r, std::span<const Card> hand, const poker::Exchange& x) {
    return json{{"discard", thrown_text(r, hand, x.thrown)},
                {"count", x.count},
                {"hand", r.to_string(x.hand)},
                {"category", x.judgement.category}};
}

} // namespace felt::protocol
