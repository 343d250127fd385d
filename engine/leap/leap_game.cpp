#include "leap/leap_game.h"

#include <algorithm>
#include <bit>

namespace felt::leap {

namespace {

// Jokers are interchangeable: the game keeps them all as joker 0.
Card normal(Card c) {
    return c.is_joker() ? Card::joker(0) : c;
}

std::string seat_name(int seat) {
    return "seat " + std::to_string(seat);
}

// Whether `hand` holds every card of `cards` (as a multiset); names the first it lacks.
std::optional<Error> check_held(const Table& t, std::span<const Card> hand,
                                std::span<const Card> cards) {
    std::array<int, 256> have{};
    for (Card c : hand) ++have[normal(c).code()];
    for (Card c : cards)
        if (--have[normal(c).code()] < 0)
            return make_error(Errc::not_in_hand,
                              t.deck().to_string(c) + " is not in your hand" +
                                  (std::count_if(cards.begin(), cards.end(),
                                                 [&](Card x) { return normal(x) == normal(c); }) > 1
                                       ? " that many times"
                                       : ""));
    return std::nullopt;
}

void remove_from(std::vector<Card>& hand, std::span<const Card> cards) {
    for (Card c : cards) {
        auto it = std::find(hand.begin(), hand.end(), normal(c));
        assert(it != hand.end());
        hand.erase(it);
    }
}

int hand_penalty(const Table& t, std::span<const Card> hand) {
    int sum = 0;
    for (Card c : hand) sum += t.face(c);
    return sum;
}

Event event(EventType type, int seat) {
    Event e;
    e.type = type;
    e.seat = static_cast<std::int8_t>(seat);
    return e;
}

// The next player who has not retired, clockwise; the game ends when there is none.
void end_turn(State& s, std::vector<Event>& ev) {
    const int n = static_cast<int>(s.players.size());
    s.melded = false;
    for (int i = 1; i <= n; ++i) {
        int seat = (s.to_act + i) % n;
        if (!s.players[static_cast<std::size_t>(seat)].retired) {
            s.to_act = seat;
            s.phase = Phase::turn;
            ++s.turn;
            return;
        }
    }
    s.phase = Phase::over;
    s.to_act = -1;
    ev.push_back(event(EventType::game_over, -1));
}

std::string leap_list(LeapMask m) {
    std::string out;
    for (int k = 1; k <= kMaxLeaps; ++k)
        if (m >> k & 1) {
            if (!out.empty()) out += ", ";
            out += std::to_string(k);
        }
    return out;
}

std::optional<Error> do_meld(State& s, const Action& a, std::vector<Event>& ev) {
    const Table& t = *s.table;
    PlayerState& p = s.players[static_cast<std::size_t>(a.seat)];
    if (auto e = check_held(t, p.hand, a.cards)) return e;
    if (a.leap < 0 || a.leap > t.leaps())
        return make_error(Errc::bad_option, "no leap " + std::to_string(a.leap) + " with " +
                                                std::to_string(t.ranks()) + " ranks (1 to " +
                                                std::to_string(t.leaps()) + ")");
    const LeapMask allowed = open_leaps(s, a.seat);
    const LeapMask wanted = a.leap ? LeapMask{1} << a.leap : kAllLeaps;

    std::vector<Card> cards(a.cards.size());
    std::transform(a.cards.begin(), a.cards.end(), cards.begin(), normal);
    std::optional<Meld> meld = as_given(t, cards);
    if (!meld || !(allowed & wanted & (LeapMask{1} << meld->leap))) {
        Result<LeapMask> fits = meld_leaps(t, cards);
        if (!fits) return fits.error();
        if (!(*fits & wanted))
            return make_error(Errc::not_a_sequence,
                              t.deck().to_string(cards) + " do not run along leap " +
                                  std::to_string(a.leap) + " (they run along " + leap_list(*fits) +
                                  ")");
        const LeapMask ok = *fits & wanted & allowed;
        if (!ok) {
            const int k = std::countr_zero(*fits & wanted);
            if (t.rules().distinct_leaps)
                return make_error(Errc::leap_used,
                                  "you already have a meld in leap " + leap_list(*fits & wanted));
            if (p.leap != 0)
                return make_error(Errc::not_your_leap,
                                  "your melds must be in leap " + std::to_string(p.leap) +
                                      "; these run along leap " + leap_list(*fits & wanted));
            return make_error(Errc::leap_taken,
                              "leap " + std::to_string(k) + " belongs to " +
                                  seat_name(s.holder[static_cast<std::size_t>(k)]));
        }
        meld = lay_out(t, cards, ok);
    }

    meld->id = s.next_meld_id++;
    meld->owner = a.seat;
    remove_from(p.hand, cards);
    p.leaps_used |= LeapMask{1} << meld->leap;
    Event e = event(EventType::melded, a.seat);
    e.meld = meld->id;
    e.leap = meld->leap;
    e.count = static_cast<std::uint8_t>(meld->length());
    e.cards = meld->cards;
    ev.push_back(std::move(e));
    if (!t.rules().distinct_leaps && p.leap == 0) {
        p.leap = meld->leap;
        s.holder[static_cast<std::size_t>(meld->leap)] = static_cast<std::int8_t>(a.seat);
        Event tok = event(EventType::took_token, a.seat);
        tok.leap = meld->leap;
        ev.push_back(std::move(tok));
    }
    s.melds.push_back(std::move(*meld));
    return std::nullopt;
}

std::optional<Error> do_extend(State& s, const Action& a, std::vector<Event>& ev) {
    const Table& t = *s.table;
    PlayerState& p = s.players[static_cast<std::size_t>(a.seat)];
    if (a.extensions.empty())
        return make_error(Errc::wrong_count, "an extension names at least one meld");
    std::vector<Card> all;
    for (const Extension& x : a.extensions) {
        for (const auto* list : {&x.low, &x.high, &x.cards})
            std::transform(list->begin(), list->end(), std::back_inserter(all), normal);
    }
    if (auto e = check_held(t, p.hand, all)) return e;

    std::vector<Meld> melds = s.melds; // worked on, kept only if every extension holds
    std::vector<Event> out;
    auto find = [&](int id) -> Result<std::size_t> {
        for (std::size_t i = 0; i < melds.size(); ++i)
            if (melds[i].id == id) {
                if (melds[i].owner != a.seat)
                    return make_error(Errc::not_your_meld, "meld #" + std::to_string(id) +
                                                               " belongs to " +
                                                               seat_name(melds[i].owner));
                return i;
            }
        return make_error(Errc::no_such_meld, "there is no meld #" + std::to_string(id));
    };
    auto normalized = [](const std::vector<Card>& v) {
        std::vector<Card> n(v.size());
        std::transform(v.begin(), v.end(), n.begin(), normal);
        return n;
    };
    for (const Extension& x : a.extensions) {
        Result<std::size_t> at = find(x.meld);
        if (!at) return at.error();
        const bool exact = !x.low.empty() || !x.high.empty();
        if (exact && !x.cards.empty())
            return make_error(Errc::illegal_action,
                              "give the cards for meld #" + std::to_string(x.meld) +
                                  " either by end (low, high) or all together (cards), not both");
        if (!exact && x.cards.empty())
            return make_error(Errc::wrong_count,
                              "no cards to add to meld #" + std::to_string(x.meld));
        std::optional<std::size_t> other;
        if (x.join != 0) {
            if (t.rules().distinct_leaps)
                return make_error(Errc::no_conjoining, "this table plays without conjoining");
            Result<std::size_t> o = find(x.join);
            if (!o) return o.error();
            if (*o == *at) return make_error(Errc::not_abutting, "a meld cannot join itself");
            const Meld& m = melds[*at];
            const Meld& j = melds[*o];
            if (m.leap != j.leap || m.suit != j.suit)
                return make_error(Errc::not_abutting,
                                  "melds #" + std::to_string(m.id) + " and #" +
                                      std::to_string(j.id) +
                                      " differ in leap or suit and cannot join");
            other = *o;
        }
        Meld& m = melds[*at];
        std::optional<Error> err =
            exact ? extend_exact(t, m, normalized(x.low), normalized(x.high))
                  : extend_any(t, m, normalized(x.cards), other ? &melds[*other] : nullptr);
        if (err) return err;
        Event e = event(EventType::extended, a.seat);
        e.meld = m.id;
        e.leap = m.leap;
        e.count = static_cast<std::uint8_t>(x.low.size() + x.high.size() + x.cards.size());
        e.cards = m.cards;
        out.push_back(std::move(e));
        if (other) {
            if (auto je = join(t, m, melds[*other])) return je;
            Event j = event(EventType::joined, a.seat);
            j.meld = m.id;
            j.other = melds[*other].id;
            j.leap = m.leap;
            j.cards = m.cards;
            out.push_back(std::move(j));
            melds.erase(melds.begin() + static_cast<std::ptrdiff_t>(*other));
        }
    }
    s.melds = std::move(melds);
    remove_from(p.hand, all);
    for (Event& e : out) ev.push_back(std::move(e));
    return std::nullopt;
}

} // namespace

void Stock::reset(std::span<const Card> cards, int capacity) {
    assert(capacity >= static_cast<int>(cards.size()));
    ring_.assign(static_cast<std::size_t>(capacity), Card{});
    std::copy(cards.begin(), cards.end(), ring_.begin());
    head_ = 0;
    size_ = static_cast<int>(cards.size());
}

Card Stock::at(int i) const {
    assert(i >= 0 && i < size_);
    return ring_[static_cast<std::size_t>((head_ + i) % static_cast<int>(ring_.size()))];
}

Card Stock::draw() {
    assert(size_ > 0);
    Card c = ring_[static_cast<std::size_t>(head_)];
    head_ = (head_ + 1) % static_cast<int>(ring_.size());
    --size_;
    return c;
}

void Stock::put_bottom(Card c) {
    assert(size_ < static_cast<int>(ring_.size()));
    ring_[static_cast<std::size_t>((head_ + size_) % static_cast<int>(ring_.size()))] = c;
    ++size_;
}

Result<Applied> start_game(std::shared_ptr<const Table> table, int dealer,
                           std::span<const Card> deck) {
    const Table& t = *table;
    const int n = t.players();
    if (dealer < 0 || dealer >= n)
        return make_error(Errc::bad_config, "the dealer must be a seat from 0 to " +
                                                std::to_string(n - 1) + ", not " +
                                                std::to_string(dealer));
    std::vector<Card> full = t.deck().cards();
    std::array<int, 256> want{};
    for (Card c : full) ++want[normal(c).code()];
    for (Card c : deck) --want[normal(c).code()];
    if (deck.size() != full.size() ||
        std::any_of(want.begin(), want.end(), [](int v) { return v != 0; }))
        return make_error(Errc::bad_deck, "the deck to deal must be a shuffle of the table's " +
                                              std::to_string(full.size()) + " cards");
    Applied out;
    State& s = out.state;
    s.table = std::move(table);
    s.dealer = dealer;
    s.players.resize(static_cast<std::size_t>(n));
    s.holder.fill(-1);
    std::size_t next = 0;
    for (int round = 0; round < t.rules().hand_size; ++round)
        for (int i = 1; i <= n; ++i)
            s.players[static_cast<std::size_t>((dealer + i) % n)].hand.push_back(
                normal(deck[next++]));
    std::vector<Card> rest(deck.size() - next);
    std::transform(deck.begin() + static_cast<std::ptrdiff_t>(next), deck.end(), rest.begin(),
                   normal);
    s.stock.reset(rest, static_cast<int>(deck.size()));
    s.to_act = (dealer + 1) % n;
    s.turn = 1;
    for (int i = 1; i <= n; ++i) {
        int seat = (dealer + i) % n;
        Event e = event(EventType::dealt, seat);
        e.private_cards = true;
        e.cards = s.players[static_cast<std::size_t>(seat)].hand;
        e.count = static_cast<std::uint8_t>(e.cards.size());
        out.events.push_back(std::move(e));
    }
    return out;
}

std::optional<Error> apply_in_place(State& s, const Action& a, std::vector<Event>& ev) {
    if (s.phase == Phase::over) return make_error(Errc::game_over, "the game is over");
    if (a.seat != s.to_act)
        return make_error(Errc::not_your_turn, "it is " + seat_name(s.to_act) + "'s turn, not " +
                                                   seat_name(a.seat) + "'s");
    const Table& t = *s.table;
    PlayerState& p = s.players[static_cast<std::size_t>(a.seat)];
    switch (a.type) {
    case ActionType::pursue: {
        if (s.phase == Phase::melding)
            return make_error(Errc::must_discard, "you have pursued this turn; discard a card");
        Event e = event(EventType::drew, a.seat);
        e.private_cards = true;
        for (int i = 0; i < 2 && s.stock.size() > 0; ++i) {
            Card c = s.stock.draw();
            p.hand.push_back(c);
            e.cards.push_back(c);
        }
        e.count = static_cast<std::uint8_t>(e.cards.size());
        ev.push_back(std::move(e));
        s.phase = Phase::melding;
        s.melded = false;
        if (p.hand.empty()) end_turn(s, ev); // nothing drawn, nothing to meld or discard
        return std::nullopt;
    }
    case ActionType::retire: {
        if (s.phase == Phase::melding)
            return make_error(Errc::must_discard,
                              "you have pursued this turn; discard a card (retire next turn)");
        p.retired_score = score(s, a.seat) - hand_penalty(t, p.hand);
        p.retired = true;
        Event e = event(EventType::retired, a.seat);
        e.score = p.retired_score;
        e.count = static_cast<std::uint8_t>(p.hand.size());
        ev.push_back(std::move(e));
        end_turn(s, ev);
        return std::nullopt;
    }
    case ActionType::meld:
    case ActionType::extend: {
        if (s.phase == Phase::turn)
            return make_error(Errc::must_pursue, "pursue (draw) before melding");
        if (s.melded) return make_error(Errc::already_melded, "you have already melded this turn");
        auto err = a.type == ActionType::meld ? do_meld(s, a, ev) : do_extend(s, a, ev);
        if (err) return err;
        s.melded = true;
        if (p.hand.empty()) end_turn(s, ev); // nothing left to discard
        return std::nullopt;
    }
    case ActionType::discard: {
        if (s.phase == Phase::turn)
            return make_error(Errc::must_pursue, "pursue (draw) before discarding");
        auto it = std::find(p.hand.begin(), p.hand.end(), normal(a.card));
        if (it == p.hand.end())
            return make_error(Errc::not_in_hand,
                              t.deck().to_string(a.card) + " is not in your hand");
        p.hand.erase(it);
        s.stock.put_bottom(normal(a.card));
        Event e = event(EventType::discarded, a.seat);
        e.private_cards = true;
        e.count = 1;
        e.cards.push_back(normal(a.card));
        ev.push_back(std::move(e));
        end_turn(s, ev);
        return std::nullopt;
    }
    }
    return make_error(Errc::illegal_action, "unknown action");
}

Result<Applied> apply(const State& state, const Action& action) {
    Applied out{state, {}};
    if (auto e = apply_in_place(out.state, action, out.events)) return *e;
    return out;
}

Preview preview(const State& state, const Action& a) {
    Preview out;
    if (a.seat < 0 || a.seat >= static_cast<int>(state.players.size())) {
        out.error = make_error(Errc::illegal_action, "no such player");
        return out;
    }
    if (a.type != ActionType::meld && a.type != ActionType::extend &&
        a.type != ActionType::retire) {
        out.error = make_error(Errc::illegal_action,
                               "only a meld, an extension or a retirement is previewed");
        return out;
    }
    const bool retiring = a.type == ActionType::retire;
    out.now = state.to_act == a.seat && (retiring ? state.phase == Phase::turn
                                                  : state.phase == Phase::melding && !state.melded);
    if (a.type == ActionType::meld)
        if (auto leaps = meld_leaps(*state.table, a.cards)) out.leaps = leaps.value();
    out.points_before = score(state, a.seat);
    if (state.phase == Phase::over || state.players[static_cast<std::size_t>(a.seat)].retired) {
        out.error = make_error(Errc::game_over, "you have retired");
        return out;
    }
    // As if it were the player's melding phase (for a retirement: the start of their turn).
    auto melding = [&] {
        State s = state;
        s.phase = retiring ? Phase::turn : Phase::melding;
        s.to_act = a.seat;
        s.melded = false;
        return s;
    };
    State s = melding();
    std::vector<Event> events;
    if (auto err = apply_in_place(s, a, events)) {
        out.error = std::move(err);
        return out;
    }
    out.points_after = score(s, a.seat);
    for (const Event& e : events) {
        if (e.type == EventType::joined) out.joined.push_back(e.other);
        if (e.type != EventType::melded && e.type != EventType::extended &&
            e.type != EventType::joined)
            continue;
        auto it = std::find_if(s.melds.begin(), s.melds.end(),
                               [&](const Meld& m) { return m.id == e.meld; });
        if (it == s.melds.end()) continue;
        if (e.type == EventType::melded) out.leap = it->leap;
        auto known = std::find_if(out.melds.begin(), out.melds.end(),
                                  [&](const Meld& m) { return m.id == e.meld; });
        if (known != out.melds.end())
            *known = *it;
        else
            out.melds.push_back(*it);
    }
    // An extension that names no join: the player's other melds it would run into.
    if (a.type == ActionType::extend && !a.extensions.empty() && a.extensions.back().join == 0)
        for (const Meld& m : state.melds) {
            if (m.owner != a.seat || m.id == a.extensions.back().meld) continue;
            Action with = a;
            with.extensions.back().join = m.id;
            State t = melding();
            std::vector<Event> ignored;
            if (!apply_in_place(t, with, ignored)) out.could_join.push_back(m.id);
        }
    return out;
}

LeapMask open_leaps(const State& s, int seat) {
    const Table& t = *s.table;
    const PlayerState& p = s.players[static_cast<std::size_t>(seat)];
    LeapMask open = 0;
    for (int k = 1; k <= t.leaps(); ++k) {
        const bool ok = t.rules().distinct_leaps ? !(p.leaps_used >> k & 1)
                        : p.leap != 0            ? k == p.leap
                                                 : s.holder[static_cast<std::size_t>(k)] < 0;
        if (ok) open |= LeapMask{1} << k;
    }
    return open;
}

int score(const State& s, int seat) {
    const PlayerState& p = s.players[static_cast<std::size_t>(seat)];
    if (p.retired) return p.retired_score;
    int sum = 0;
    for (const Meld& m : s.melds)
        if (m.owner == seat) sum += m.points();
    return sum;
}

View view_for(const State& s, int seat) {
    View v;
    v.seat = seat;
    v.phase = s.phase;
    v.to_act = s.to_act;
    if (seat >= 0 && seat < static_cast<int>(s.players.size()))
        v.hand = s.players[static_cast<std::size_t>(seat)].hand;
    for (std::size_t i = 0; i < s.players.size(); ++i) {
        v.hand_sizes.push_back(static_cast<int>(s.players[i].hand.size()));
        v.retired.push_back(s.players[i].retired);
        v.scores.push_back(score(s, static_cast<int>(i)));
    }
    v.stock_size = s.stock.size();
    v.melds = s.melds;
    for (int k = 1; k <= s.table->leaps(); ++k)
        v.token_holders.push_back(s.holder[static_cast<std::size_t>(k)]);
    return v;
}

std::vector<Chips> settle_chips(std::span<const int> scores, std::span<const Chips> stacks,
                                Chips per_point) {
    assert(scores.size() == stacks.size());
    std::vector<Chips> out(stacks.begin(), stacks.end());
    for (std::size_t i = 0; i < out.size(); ++i)
        for (std::size_t j = i + 1; j < out.size(); ++j) {
            if (scores[i] == scores[j]) continue;
            const bool i_wins = scores[i] > scores[j];
            Chips& payer = i_wins ? out[j] : out[i];
            Chips& payee = i_wins ? out[i] : out[j];
            const Chips owed = per_point * (i_wins ? scores[i] - scores[j] : scores[j] - scores[i]);
            const Chips paid = std::min(owed, payer);
            payer -= paid;
            payee += paid;
        }
    return out;
}

std::array<int, 256> card_census(const State& s) {
    std::array<int, 256> n{};
    for (int i = 0; i < s.stock.size(); ++i) ++n[s.stock.at(i).code()];
    for (const PlayerState& p : s.players)
        for (Card c : p.hand) ++n[c.code()];
    for (const Meld& m : s.melds)
        for (Card c : m.cards) ++n[c.code()];
    return n;
}

} // namespace felt::leap
