#include "leap_seat.h"

#include "leap_bot.h"

#include "protocol/leap_config.h"

#include <algorithm>

namespace felt::bots {

using nlohmann::json;

int LeapSeat::index_of(int seat) const {
    const auto it = std::ranges::find(players_, seat);
    return it == players_.end() ? -1 : static_cast<int>(it - players_.begin());
}

std::vector<Card> LeapSeat::cards(const json& text) const {
    if (!table_ || !text.is_string()) return {};
    auto parsed = table_->deck().parse_cards(text.get<std::string>());
    return parsed ? std::move(parsed).value() : std::vector<Card>{};
}

void LeapSeat::set_meld(int id, int seat, int leap, std::vector<Card> cards) {
    leap::Meld& m = melds_[id];
    m.id = id;
    m.owner = index_of(seat);
    if (leap > 0) m.leap = leap;
    m.cards = std::move(cards);
    // Its first rank and suit class, from its first natural card.
    for (std::size_t i = 0; i < m.cards.size(); ++i)
        if (!m.cards[i].is_joker()) {
            m.start = table_->step(m.cards[i].rank().index(), m.leap, -static_cast<int>(i));
            m.suit = table_->suit_class(m.cards[i]);
            break;
        }
}

void LeapSeat::take_from_hand(const std::vector<Card>& cards) {
    for (Card c : cards)
        if (auto it = std::ranges::find(hand_, c); it != hand_.end()) hand_.erase(it);
}

std::optional<json> LeapSeat::read(const json& m) {
    if (!m.is_object()) return std::nullopt;
    const std::string kind = m.value("kind", "");
    if (kind == "snapshot") {
        if (m.contains("your_seat") && m["your_seat"].is_number_integer()) seat_ = m["your_seat"];
        if (m.contains("config")) {
            const auto c = protocol::decode_leap_config(m["config"]);
            if (c.ok()) {
                rules_ = c.value->rules;
                configured_ = true;
            }
        }
        return std::nullopt; // a game under way is joined at its next deal
    }
    if (!configured_) return std::nullopt;
    const int seat = m.value("seat", -1);
    const bool mine = seat >= 0 && seat == seat_;
    if (kind == "deal") {
        players_ = m.value("players", std::vector<int>{});
        auto t = leap::Table::make(rules_, static_cast<int>(players_.size()));
        table_ = t ? std::move(t).value() : nullptr;
        melds_.clear();
        holder_.fill(-1);
        idle_turns_ = 0;
        played_ = melded_this_turn_ = false;
        hand_ = cards(m.value("cards", json()));
        return std::nullopt;
    }
    if (!table_) return std::nullopt;
    if (kind == "drew" && mine) {
        for (Card c : cards(m.value("cards", json()))) hand_.push_back(c);
    } else if (kind == "melded") {
        std::vector<Card> laid = cards(m["cards"]);
        if (mine) take_from_hand(laid), melded_this_turn_ = true;
        set_meld(m.value("meld", 0), seat, m.value("leap", 0), std::move(laid));
    } else if (kind == "extended" || kind == "joined") {
        const int id = m.value("meld", 0);
        std::vector<Card> now = cards(m["cards"]), before;
        if (auto it = melds_.find(id); it != melds_.end()) before = it->second.cards;
        if (kind == "joined")
            if (auto other = melds_.find(m.value("other", 0)); other != melds_.end()) {
                before.insert(before.end(), other->second.cards.begin(), other->second.cards.end());
                melds_.erase(other);
            }
        if (mine) { // what it added came from its hand
            std::vector<Card> added = now;
            for (Card c : before)
                if (auto it = std::ranges::find(added, c); it != added.end()) added.erase(it);
            take_from_hand(added);
            melded_this_turn_ = true;
        }
        const int leap = melds_.contains(id) ? melds_[id].leap : 0;
        set_meld(id, seat, leap, std::move(now));
    } else if (kind == "took_token") {
        const int k = m.value("leap", 0);
        if (k >= 1 && k <= leap::kMaxLeaps) holder_[static_cast<std::size_t>(k)] = seat;
    } else if (kind == "discarded" && mine) {
        take_from_hand(cards(m.value("card", json())));
    } else if (kind == "turn" && mine) {
        return turn(m);
    }
    return std::nullopt;
}

std::optional<json> LeapSeat::turn(const json& m) {
    const int me = index_of(seat_);
    if (me < 0) return std::nullopt;
    leap::State s;
    s.table = table_;
    const std::string phase = m.value("phase", "turn");
    s.phase = phase == "melding" ? leap::Phase::melding : leap::Phase::turn;
    s.to_act = me;
    s.melded = s.phase == leap::Phase::melding && !m.value("may_meld", true);
    s.turn = m.value("turn", 0L);
    const int stock = m.value("stock", 0);
    std::vector<Card> filler(static_cast<std::size_t>(std::max(stock, 0)),
                             hand_.empty() ? Card{} : hand_.front());
    s.stock.reset(filler, static_cast<int>(filler.size()) + 64);
    s.players.resize(players_.size());
    const json retired = m.value("retired", json::array());
    for (std::size_t i = 0; i < players_.size(); ++i) {
        const auto at = static_cast<std::size_t>(players_[i]);
        if (retired.is_array() && at < retired.size() && retired[at].is_boolean())
            s.players[i].retired = retired[at].get<bool>();
    }
    s.players[static_cast<std::size_t>(me)].hand = hand_;
    s.holder.fill(-1);
    for (int k = 1; k <= leap::kMaxLeaps; ++k) {
        const int holder = holder_[static_cast<std::size_t>(k)];
        if (holder < 0) continue;
        const int i = index_of(holder);
        s.holder[static_cast<std::size_t>(k)] = static_cast<std::int8_t>(i);
        if (i >= 0) s.players[static_cast<std::size_t>(i)].leap = k;
    }
    for (const auto& [id, meld] : melds_) {
        s.melds.push_back(meld);
        if (meld.owner >= 0)
            s.players[static_cast<std::size_t>(meld.owner)].leaps_used |= leap::LeapMask{1}
                                                                          << meld.leap;
        s.next_meld_id = std::max(s.next_meld_id, id + 1);
    }
    if (s.phase == leap::Phase::turn) { // a turn of its own begins: was the one before idle?
        if (played_) idle_turns_ = melded_this_turn_ ? 0 : idle_turns_ + 1;
        played_ = true;
        melded_this_turn_ = false;
    }
    // easy plays as felt leap simulate's random player; fair and strong as the bot.
    const Kind kind = profile_.kind == Kind::easy ? Kind::random : profile_.kind;
    const leap::Action a = leap_decide(s, kind, idle_turns_, rng_);
    const Deck& d = table_->deck();
    switch (a.type) {
    case leap::ActionType::pursue:
        return json{{"action", "pursue"}};
    case leap::ActionType::retire:
        return json{{"action", "retire"}};
    case leap::ActionType::meld:
        return json{{"action", "meld"}, {"cards", d.to_string(a.cards)}, {"leap", a.leap}};
    case leap::ActionType::extend: {
        json list = json::array();
        for (const leap::Extension& x : a.extensions) {
            json e = {{"meld", x.meld}};
            if (!x.low.empty()) e["low"] = d.to_string(x.low);
            if (!x.high.empty()) e["high"] = d.to_string(x.high);
            if (!x.cards.empty()) e["cards"] = d.to_string(x.cards);
            if (x.join) e["join"] = x.join;
            list.push_back(std::move(e));
        }
        return json{{"action", "extend"}, {"extensions", std::move(list)}};
    }
    case leap::ActionType::discard:
        if (hand_.empty()) return std::nullopt; // the turn ends by itself
        return json{{"action", "discard"}, {"card", d.to_string(a.card)}};
    }
    return std::nullopt;
}

} // namespace felt::bots
