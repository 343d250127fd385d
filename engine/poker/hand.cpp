#include "poker/hand.h"

#include "rankings/best_five.h"
#include "rankings/lowball.h"
#include "rankings/melds.h"
#include "rankings/wild.h"

#include <algorithm>
#include <bit>
#include <string>

namespace felt::poker {

namespace {

using Events = std::vector<Event>;

Error fail(Errc code, std::string message) {
    return make_error(code, std::move(message));
}

const Street& street_of(const HandState& s) {
    return s.config->variant->streets[static_cast<std::size_t>(s.street)];
}

SeatState& seat(HandState& s, int i) {
    return s.seats[static_cast<std::size_t>(i)];
}
const SeatState& seat(const HandState& s, int i) {
    return s.seats[static_cast<std::size_t>(i)];
}

int seat_count(const HandState& s) {
    return s.config->seats;
}

// (a + b) mod n for 0 <= a, b and a + b < 2n, without a division.
int wrap(int a, int b, int n) {
    const int k = a + b;
    return k >= n ? k - n : k;
}

// The seats after `from` in order of play, wrapping round; `from` itself last.
template <class F>
int next_seat(const HandState& s, int from, F&& pred) {
    const int n = seat_count(s);
    for (int i = 1; i <= n; ++i) {
        const int k = wrap(from, i, n);
        if (pred(seat(s, k))) return k;
    }
    return -1;
}

int live_count(const HandState& s) {
    return s.live;
}

bool can_act(const SeatState& p) {
    return p.live() && p.stack > 0;
}

Event event(EventType t, int seat_index, Chips amount = 0) {
    Event e;
    e.type = t;
    e.seat = static_cast<std::int8_t>(seat_index);
    e.amount = amount;
    return e;
}

// Appends an event, written in place: an Event built aside and then copied in stalls on store
// forwarding (byte-sized fields stored, then read back 16 bytes at a time), which cost a tenth of
// a simulated hand. Use the reference only until the next event is added.
Event& emit(Events& ev, EventType t, int seat_index, Chips amount = 0) {
    Event& e = ev.emplace_back();
    e.type = t;
    e.seat = static_cast<std::int8_t>(seat_index);
    e.amount = amount;
    return e;
}

// The minimum opening bet of no limit and pot limit, and the fixed-limit unit of this round
// (the small bet while the open pair's choice is still to be made).
Chips bet_unit(const HandState& s) {
    const Stakes& k = s.config->stakes;
    if (s.config->structure == Structure::fixed_limit) return s.unit > 0 ? s.unit : k.small_bet;
    return k.min_bet > 0 ? k.min_bet : k.big_blind > 0 ? k.big_blind : k.small_bet;
}

// ---- the stock --------------------------------------------------------------------------------

// A permutation of the discards that depends only on the seed (splitmix64 and Fisher-Yates):
// the engine draws no random numbers; the seed is part of the hand's configuration.
void reshuffle(HandState& s, Events& ev) {
    std::uint64_t x = s.config->reshuffle_seed + static_cast<std::uint64_t>(s.discards.size());
    auto next = [&x] {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    std::vector<Card> stock = std::move(s.discards);
    s.discards.clear();
    for (std::size_t i = stock.size(); i > 1; --i) std::swap(stock[i - 1], stock[next() % i]);
    s.stock_extra.insert(s.stock_extra.end(), stock.begin(), stock.end());
    emit(ev, EventType::reshuffle, -1).number = static_cast<std::int16_t>(s.stock_extra.size());
}

int stock_size(const HandState& s) {
    return static_cast<int>(s.config->deck.size()) - s.next_card +
           static_cast<int>(s.stock_extra.size());
}

// The next card of the stock, reshuffling the discards when it is empty; false when none is left.
bool take_card(HandState& s, Events& ev, Card& out) {
    if (s.next_card < static_cast<int>(s.config->deck.size())) {
        out = s.config->deck[static_cast<std::size_t>(s.next_card++)];
        return true;
    }
    if (s.stock_extra.empty() && !s.discards.empty()) reshuffle(s, ev);
    if (s.stock_extra.empty()) return false;
    out = s.stock_extra.front();
    s.stock_extra.erase(s.stock_extra.begin());
    return true;
}

// ---- forced bets and dealing --------------------------------------------------------------------

void post(HandState& s, int i, Chips amount, EventType type, bool as_bet, Events& ev) {
    SeatState& p = seat(s, i);
    const Chips paid = std::min(amount, p.stack);
    p.stack -= paid;
    p.total += paid;
    if (as_bet) p.bet += paid;
    emit(ev, type, i, paid);
    if (p.stack == 0) emit(ev, EventType::all_in, i);
}

// An event of up to nine cards, the cards copied one by one (see emit).
void emit_cards(Events& ev, EventType t, int seat_index, Visibility vis,
                std::span<const Card> cards) {
    Event& e = emit(ev, t, seat_index);
    e.visibility = vis;
    for (Card c : cards)
        if (e.count < 9) e.cards[e.count++] = c;
}

void deal_step(HandState& s, const Step& step, Events& ev) {
    // Cards are taken first, then their events written: taking may add a reshuffle event.
    std::array<Card, 16> got{};
    if (step.kind == Step::Kind::deal_board) {
        int n = 0;
        for (int c = 0; c < step.count; ++c) {
            if (!take_card(s, ev, got[static_cast<std::size_t>(n)])) break;
            s.board[static_cast<std::size_t>(s.board_count++)] = got[static_cast<std::size_t>(n++)];
        }
        emit_cards(ev, EventType::deal_board, -1, Visibility::everyone,
                   std::span<const Card>(got.data(), static_cast<std::size_t>(n)));
        return;
    }
    // Omaha's hole cards: the table's option, in place of the variant's four.
    const int count = s.street == 0 && s.config->hole_cards > 0 ? s.config->hole_cards : step.count;
    const unsigned all = (1u << count) - 1;
    const unsigned up = step.kind == Step::Kind::deal_up ? all : step.up & all;
    // Too few cards for one each (eight at stud): one card to the board, shared by all.
    if (count == 1 && stock_size(s) < live_count(s) && s.discards.empty()) {
        deal_step(s, Step{Step::Kind::deal_board, 1}, ev);
        return;
    }
    for (int i = 1; i <= seat_count(s); ++i) {
        const int k = wrap(s.config->button, i, seat_count(s));
        SeatState& p = seat(s, k);
        if (!p.live()) continue;
        std::array<Card, 16> shown{};
        int downs = 0, ups = 0;
        for (int c = 0; c < count; ++c) {
            Card card;
            if (!take_card(s, ev, card)) break;
            if (up >> c & 1) {
                p.up |= std::uint16_t(1u << p.count);
                shown[static_cast<std::size_t>(ups++)] = card;
            } else {
                got[static_cast<std::size_t>(downs++)] = card;
            }
            p.cards[p.count++] = card;
        }
        if (downs)
            emit_cards(ev, EventType::deal_down, k, Visibility::owner,
                       std::span<const Card>(got.data(), static_cast<std::size_t>(downs)));
        if (ups)
            emit_cards(ev, EventType::deal_up, k, Visibility::everyone,
                       std::span<const Card>(shown.data(), static_cast<std::size_t>(ups)));
    }
}

// ---- stud order ---------------------------------------------------------------------------------

// A rank's place for the order of play: as printed, or with `aces_low` (razz) the ace below the
// deuce.
int play_rank(Card c, bool aces_low) {
    if (!aces_low) return c.rank().index();
    return c.rank() == rank::ace ? 0 : c.rank().index() + 1;
}

// An up card's key for the bring-in: rank, then suit with clubs lowest, then diamonds, hearts,
// spades.
int card_key(Card c, bool aces_low) {
    return play_rank(c, aces_low) * 4 + (3 - c.suit().index());
}

// Strength of a seat's up cards for the order of play: vertical melds under the vertical
// ranking, else groups of equal rank (larger groups, then higher ranks; razz counts the ace
// lowest, and the weakest showing is the best low).
Strength showing(const HandState& s, const SeatState& p) {
    const bool aces_low = s.config->variant->opener == Opener::showing_low;
    std::array<std::uint8_t, kMaxRanks> counts{};
    for (int c = 0; c < p.count; ++c)
        if (p.up >> c & 1)
            ++counts[static_cast<std::size_t>(
                play_rank(p.cards[static_cast<std::size_t>(c)], aces_low))];
    const melds::RankCounts rc(counts.data(), 16);
    if (s.config->ranking->name() == "vertical") return melds::encode(melds::vertical_melds(rc));
    return melds::encode(melds::horizontal_melds(rc));
}

int first_to_act(const HandState& s) {
    const HandConfig& c = *s.config;
    if (c.variant->bring_in_opens()) {
        // Razz turns every comparison over: the highest card brings in, the lowest hand opens.
        const bool low = c.variant->opener == Opener::showing_low;
        int best = -1;
        if (s.rounds_played == 0) {
            int top = 0;
            for (int i = 1; i <= seat_count(s); ++i) {
                const int k = wrap(c.button, i, seat_count(s));
                const SeatState& p = seat(s, k);
                if (!p.live()) continue;
                for (int j = 0; j < p.count; ++j) {
                    if (!(p.up >> j & 1)) continue;
                    const int key = card_key(p.cards[static_cast<std::size_t>(j)], low);
                    if (best < 0 || (low ? key > top : key < top)) {
                        top = key;
                        best = k;
                    }
                }
            }
        } else {
            Strength top;
            for (int i = 1; i <= seat_count(s); ++i) {
                const int k = wrap(c.button, i, seat_count(s));
                if (!can_act(seat(s, k))) continue;
                const Strength v = showing(s, seat(s, k));
                if (best < 0 || (low ? v < top : v > top)) {
                    best = k;
                    top = v;
                }
            }
        }
        if (best >= 0) return best;
    }
    // Position: left of the big blind in the first round of a game with blinds, else left of
    // the button.
    const int from = s.rounds_played == 0 && s.big_blind_seat >= 0 ? s.big_blind_seat : c.button;
    return next_seat(s, from, [](const SeatState& p) { return p.live(); });
}

// ---- betting rounds -----------------------------------------------------------------------------

// The seat to act after `from`, or -1 when the round is over.
int next_to_act(const HandState& s, int from) {
    return next_seat(s, from, [&](const SeatState& p) {
        return can_act(p) && (!p.acted || p.bet < s.current_bet);
    });
}

bool round_needs_action(const HandState& s) {
    int can = 0;
    for (int i = 0; i < seat_count(s); ++i) {
        const SeatState& p = seat(s, i);
        if (!can_act(p)) continue;
        ++can;
        if (p.bet < s.current_bet) return true;
    }
    return can >= 2;
}

// A pair of one rank among the up cards of a player still in (a natural pair: jokers aside).
bool pair_showing(const HandState& s) {
    for (int i = 0; i < seat_count(s); ++i) {
        const SeatState& p = seat(s, i);
        if (!p.live()) continue;
        std::uint64_t seen = 0;
        for (int c = 0; c < p.count; ++c) {
            const Card card = p.cards[static_cast<std::size_t>(c)];
            if (!(p.up >> c & 1) || card.is_joker()) continue;
            const std::uint64_t bit = std::uint64_t{1} << card.rank().index();
            if (seen & bit) return true;
            seen |= bit;
        }
    }
    return false;
}

// The fixed-limit bet of the round about to start: the street's, or with a pair showing on an
// open-pair street the big bet (0 under the custom: the first bettor chooses).
Chips round_unit(const HandState& s) {
    const HandConfig& c = *s.config;
    const Street& street = street_of(s);
    const bool big =
        c.big_bet_from == BigBetFrom::last ? s.street == final_street(c) : street.big_bet;
    if (big) return c.stakes.big_bet;
    if (!street.open_pair || c.open_pair == OpenPair::off || !pair_showing(s))
        return c.stakes.small_bet;
    return c.open_pair == OpenPair::big_bet ? c.stakes.big_bet : Chips{};
}

void start_round(HandState& s) {
    s.phase = Phase::betting;
    const bool first = s.rounds_played == 0;
    const Stakes& k = s.config->stakes;
    if (s.config->structure == Structure::fixed_limit) s.unit = round_unit(s);
    if (!(first && k.big_blind > 0)) {
        s.current_bet = 0;
        s.last_raise = 0;
        s.bets = 0;
    }
    s.full_raises = 0;
    if (!round_needs_action(s)) {
        s.betting_done = true;
        s.actor = -1;
        return;
    }
    int a = first_to_act(s);
    if (!can_act(seat(s, a))) a = next_to_act(s, a);
    s.actor = a;
    s.bring_in_pending =
        first && s.config->variant->bring_in_opens() && k.bring_in > 0 && k.big_blind == 0;
}

// Returns the part of the highest bet no one matched.
void return_uncalled(HandState& s, Events& ev) {
    int top = -1;
    Chips first{}, second{};
    for (int i = 0; i < seat_count(s); ++i) {
        const Chips b = seat(s, i).bet;
        if (b > first) {
            second = first;
            first = b;
            top = i;
        } else if (b > second) {
            second = b;
        }
    }
    if (top < 0 || first == second) return;
    SeatState& p = seat(s, top);
    const Chips back = first - second;
    p.bet -= back;
    p.total -= back;
    p.stack += back;
    emit(ev, EventType::uncalled, top, back);
}

void end_round(HandState& s, Events& ev) {
    return_uncalled(s, ev);
    for (int i = 0; i < seat_count(s); ++i) {
        SeatState& p = seat(s, i);
        p.bet = 0;
        p.acted = false;
        p.raises_seen = 0;
    }
    s.current_bet = 0;
    s.last_raise = 0;
    s.bets = 0;
    s.full_raises = 0;
    s.betting_done = true;
    s.actor = -1;
    ++s.rounds_played;
}

// ---- the end of the hand ------------------------------------------------------------------------

// The seat's showdown values: its best hand under the ranking, and in a hi-lo game its best
// ace-to-five low if it is eight or better. Omaha takes exactly two of the seat's cards and three
// of the board's for each.
void judge_showdown(const HandState& s, const SeatState& p, Strength& high, LowValue& low) {
    const HandConfig& c = *s.config;
    const Variant& v = *c.variant;
    const auto keep_low = [&](LowValue x) {
        if (x.qualifies()) low = std::max(low, x);
    };
    const std::span<const Card> hole(p.cards.data(), p.count);
    const std::span<const Card> board(s.board.data(), static_cast<std::size_t>(s.board_count));
    if (v.hole_cards_used == 0) {
        std::array<Card, 24> cards{};
        std::copy(hole.begin(), hole.end(), cards.begin());
        std::copy(board.begin(), board.end(), cards.begin() + p.count);
        const std::span<const Card> all(cards.data(), hole.size() + board.size());
        // A hand the ranking cannot judge (too few cards after a dry stock) is the weakest.
        high = c.ranking->strength(all);
        if (v.split_low && all.size() >= 5 && all.size() <= 7) keep_low(best_ace_to_five_low(all));
        return;
    }
    high = c.ranking->omaha_strength(hole, board);
    if (v.split_low)
        for_each_omaha_five(hole, board, [&](std::span<const Card, 5> five) {
            low = std::max(low, eight_or_better_low(five));
        });
}

// The seats among `eligible` with the greatest value: one bit each.
template <class V>
std::uint16_t best_of(const std::array<V, kMaxSeats>& values, std::uint16_t eligible, int seats) {
    std::uint16_t winners = 0;
    V best{};
    for (int i = 0; i < seats; ++i) {
        if (!(eligible >> i & 1)) continue;
        const V& v = values[static_cast<std::size_t>(i)];
        if (winners == 0 || v > best) {
            winners = std::uint16_t(1u << i);
            best = v;
        } else if (v == best) {
            winners |= std::uint16_t(1u << i);
        }
    }
    return winners;
}

// Pays `amount` of pot `pot` to `winners` (split by the engine's rule), each win event marked
// with the half it pays: 0 the whole pot, 1 the high half, 2 the low half.
void pay(HandState& s, Events& ev, Chips amount, std::uint16_t winners, std::size_t pot, int half) {
    const HandConfig& c = *s.config;
    const auto shares = split(amount, winners, c.seats, c.button);
    for (int i = 0; i < c.seats; ++i) {
        const Chips w = shares[static_cast<std::size_t>(i)];
        if (w == 0) continue;
        seat(s, i).stack += w;
        s.won[static_cast<std::size_t>(i)] += w;
        Event& e = emit(ev, EventType::win, i, w);
        e.pot = static_cast<std::int8_t>(pot);
        e.number = static_cast<std::int16_t>(half);
    }
}

// Emits a `show` of every live hand whose cards are known, from left of the button; `number` 1
// marks a show before the cards still to come.
void show_hands(const HandState& s, Events& ev, int number) {
    const HandConfig& c = *s.config;
    for (int i = 1; i <= c.seats; ++i) {
        const int k = wrap(c.button, i, c.seats);
        const SeatState& p = seat(s, k);
        if (!p.live() || (c.unknown_hands >> k & 1)) continue; // unknown: the weakest
        Event& e = emit(ev, EventType::show, k);
        e.number = static_cast<std::int16_t>(number);
        for (int j = 0; j < p.count && j < 9; ++j)
            e.cards[e.count++] = p.cards[static_cast<std::size_t>(j)];
    }
}

void award(HandState& s, Events& ev) {
    const HandConfig& c = *s.config;
    std::array<Chips, kMaxSeats> totals{};
    std::uint16_t folded = 0;
    for (int i = 0; i < c.seats; ++i) {
        totals[static_cast<std::size_t>(i)] = seat(s, i).total;
        if (!seat(s, i).live()) folded |= std::uint16_t(1u << i);
    }
    const Chips dead = take_dead_antes(c, totals);
    const Pots pots = build_pots(totals, folded, c.seats, dead);

    // Showdown: every live player's hand when two or more remain, and in a hi-lo game their low.
    std::array<Strength, kMaxSeats> strength{};
    std::array<LowValue, kMaxSeats> low{}; // 0: none that qualifies
    if (live_count(s) >= 2) {
        for (int k = 0; k < c.seats; ++k) {
            const SeatState& p = seat(s, k);
            if (!p.live() || (c.unknown_hands >> k & 1)) continue;
            judge_showdown(s, p, strength[static_cast<std::size_t>(k)],
                           low[static_cast<std::size_t>(k)]);
        }
        show_hands(s, ev, 0);
    }

    const bool no_rake = c.rake.percent == 0 || (c.rake.no_flop_no_drop && s.street == 0);
    for (std::size_t pi = 0; pi < pots.size(); ++pi) {
        Chips amount = pots[pi].amount;
        if (!no_rake) {
            Chips r = amount * c.rake.percent / 100;
            if (c.rake.cap > 0) r = std::min(r, c.rake.cap - s.raked);
            if (r > 0) {
                amount -= r;
                s.raked += r;
                emit(ev, EventType::rake, -1, r).pot = static_cast<std::int8_t>(pi);
            }
        }
        const std::uint16_t eligible = pots[pi].eligible;
        const std::uint16_t lows = best_of(low, eligible, c.seats);
        // A hi-lo pot with a qualifying low: the high half keeps the odd chip.
        const bool halves =
            c.variant->split_low && lows != 0 && low[std::countr_zero(lows)].raw() > 0;
        const Chips low_half = halves ? amount / 2 : Chips{};
        pay(s, ev, amount - low_half, best_of(strength, eligible, c.seats), pi, halves ? 1 : 0);
        if (halves) pay(s, ev, low_half, lows, pi, 2);
    }
    for (int i = 0; i < c.seats; ++i) {
        seat(s, i).total = 0;
        seat(s, i).bet = 0;
    }
    s.phase = Phase::done;
    s.actor = -1;
    emit(ev, EventType::hand_end, -1);
}

// ---- moving the hand on -------------------------------------------------------------------------

// The next live seat after `after` in this step's order, which starts left of the button; -1
// when every live seat has had its turn. after = -1: the first.
int next_in_step(const HandState& s, int after) {
    const int n = seat_count(s);
    const int button = s.config->button;
    const int from = after < 0 ? 0 : (after - button - 1 + 2 * n) % n + 1; // place in the order
    for (int place = from; place < n; ++place) {
        const int k = wrap(button + 1, place, n);
        if (seat(s, k).live()) return k;
    }
    return -1;
}

void compute_legal(HandState& s);

// Whether no more betting can happen while cards are still to come: at most one live player has
// chips behind, and no street left has players decide (a draw or a rollover), as card rooms show
// the hands at once at an all-in.
bool betting_over(const HandState& s) {
    int can = 0;
    for (int i = 0; i < seat_count(s); ++i) can += can_act(seat(s, i)) ? 1 : 0;
    if (can > 1) return false;
    const auto& streets = s.config->variant->streets;
    for (std::size_t k = static_cast<std::size_t>(s.street) + 1;
         k < streets.size() && static_cast<int>(k) <= final_street(*s.config); ++k)
        for (const Step& step : streets[k].steps)
            if (step.kind == Step::Kind::draw || step.kind == Step::Kind::rollover) return false;
    return true;
}

// Runs dealer steps until a player must decide or the hand is over.
void advance_dealer(HandState& s, Events& ev) {
    while (s.phase != Phase::done) {
        if (live_count(s) <= 1) {
            if (!s.betting_done && s.phase == Phase::betting) end_round(s, ev);
            return_uncalled(s, ev);
            award(s, ev);
            return;
        }
        if (s.actor >= 0) return; // a player decides
        const Street& st = street_of(s);
        if (s.step < static_cast<int>(st.steps.size())) {
            const Step& step = st.steps[static_cast<std::size_t>(s.step)];
            if (step.kind == Step::Kind::draw || step.kind == Step::Kind::rollover) {
                s.phase = step.kind == Step::Kind::draw ? Phase::drawing : Phase::rollover;
                s.actor = next_in_step(s, -1);
                if (s.actor >= 0) return;
                ++s.step;
                continue;
            }
            deal_step(s, step, ev);
            ++s.step;
            continue;
        }
        if (st.betting && !s.betting_done) {
            start_round(s);
            if (s.actor >= 0) return;
            end_round(s, ev);
        }
        // The street is over.
        if (s.street >= final_street(*s.config)) {
            award(s, ev);
            return;
        }
        if (!s.shown && betting_over(s)) {
            s.shown = true;
            show_hands(s, ev, 1);
        }
        ++s.street;
        s.step = 0;
        s.betting_done = false;
        emit(ev, EventType::street, -1).number = static_cast<std::int16_t>(s.street);
    }
}

// Moves the hand on, then works out what the next player may do (kept in the state, so that
// legal_actions costs nothing).
void advance(HandState& s, Events& ev) {
    advance_dealer(s, ev);
    compute_legal(s);
}

std::string seat_name(int i) {
    return "seat " + std::to_string(i);
}

// Removes the given cards from the seat's hand; false when one is not there (or is face up when
// `down_only`).
bool take_from_hand(SeatState& p, std::span<const Card> cards, bool down_only,
                    std::uint16_t& taken_positions) {
    taken_positions = 0;
    for (Card c : cards) {
        bool found = false;
        for (int j = 0; j < p.count; ++j) {
            if ((taken_positions >> j & 1) || p.cards[static_cast<std::size_t>(j)] != c) continue;
            if (down_only && (p.up >> j & 1)) continue;
            taken_positions |= std::uint16_t(1u << j);
            found = true;
            break;
        }
        if (!found) return false;
    }
    return true;
}

std::optional<Error> check_config(const HandConfig& c) {
    if (!c.variant) return fail(Errc::bad_config, "no variant");
    if (!c.ranking) return fail(Errc::bad_config, "no ranking");
    if (c.seats < 2 || c.seats > c.variant->max_seats)
        return fail(Errc::bad_config, c.variant->name + " seats 2 to " +
                                          std::to_string(c.variant->max_seats) + " players, not " +
                                          std::to_string(c.seats));
    if (c.button < 0 || c.button >= c.seats)
        return fail(Errc::bad_config, "the button must be one of the seats");
    int players = 0;
    for (int i = 0; i < c.seats; ++i) {
        if (c.stacks[static_cast<std::size_t>(i)] < 0)
            return fail(Errc::bad_config, seat_name(i) + " has a negative stack");
        players += c.stacks[static_cast<std::size_t>(i)] > 0;
    }
    if (players < 2) return fail(Errc::bad_config, "a hand needs two players with chips");
    const auto playing = [&](int k) {
        return k >= 0 && k < c.seats && c.stacks[static_cast<std::size_t>(k)] > 0;
    };
    if (c.big_blind_seat >= 0 || c.small_blind_seat >= 0) {
        if (!playing(c.big_blind_seat))
            return fail(Errc::bad_config, "the big blind's seat must hold a player");
        if (c.small_blind_seat >= 0 &&
            (!playing(c.small_blind_seat) || c.small_blind_seat == c.big_blind_seat))
            return fail(Errc::bad_config,
                        "the small blind's seat must hold a player other than the big blind");
    }
    if (c.small_blind_seat < -1 || c.big_blind_seat < -1)
        return fail(Errc::bad_config, "a blind's seat is -1 or a seat");
    const Stakes& k = c.stakes;
    if (k.ante < 0 || k.small_blind < 0 || k.big_blind < 0 || k.bring_in < 0 || k.small_bet < 0 ||
        k.big_bet < 0 || k.min_bet < 0)
        return fail(Errc::bad_config, "stakes cannot be negative");
    for (Chips a : k.seat_antes)
        if (a < 0) return fail(Errc::bad_config, "stakes cannot be negative");
    if (!k.seat_antes.empty() && static_cast<int>(k.seat_antes.size()) != c.seats)
        return fail(Errc::bad_config, "seat antes: one per seat");
    if (k.small_blind > k.big_blind)
        return fail(Errc::bad_config, "the small blind exceeds the big blind");
    for (Chips st : k.straddles)
        if (st <= 0) return fail(Errc::bad_config, "a straddle must be positive");
    if (!k.straddles.empty() &&
        (k.big_blind <= 0 || static_cast<int>(k.straddles.size()) > players - 2))
        return fail(Errc::bad_config, "straddles follow the big blind, one per player after it");
    if (c.structure == Structure::fixed_limit && (k.small_bet <= 0 || k.big_bet <= 0))
        return fail(Errc::bad_config, "fixed limit needs a small bet and a big bet");
    if (c.structure != Structure::fixed_limit && k.big_blind <= 0 && k.small_bet <= 0 &&
        k.min_bet <= 0)
        return fail(Errc::bad_config, "no limit and pot limit need a minimum bet or a big blind");
    if (c.variant->bring_in_opens() && k.big_blind > 0)
        return fail(Errc::bad_config, c.variant->name + " uses a bring-in, not blinds");
    if (c.max_discard < 0) return fail(Errc::bad_config, "the most cards to discard is negative");
    if (c.hole_cards != 0) {
        if (c.variant->hole_cards_used == 0)
            return fail(Errc::bad_config, c.variant->name + " deals no choice of hole cards");
        if (c.hole_cards < 4 || c.hole_cards > 6)
            return fail(Errc::bad_config,
                        "hole_cards: 4, 5 or 6, not " + std::to_string(c.hole_cards));
        if (c.hole_cards == 6 && c.seats > 6)
            return fail(Errc::bad_config, "six hole cards seat 6 players at most");
    }
    {
        int draws = 0;
        for (const Street& st : c.variant->streets)
            for (const Step& step : st.steps) draws += step.kind == Step::Kind::draw;
        if (c.draws < 0 || c.draws > draws)
            return fail(Errc::bad_config, "draws: 0 (all) to " + std::to_string(draws) + " for " +
                                              c.variant->name + ", not " + std::to_string(c.draws));
    }
    // The deck: cards of the ranking's deck, each at most as often as the deck holds it.
    std::array<std::uint8_t, 256> used{};
    for (Card card : c.deck) {
        const int known = c.ranking->copies_of(card);
        if (known == 0)
            return fail(Errc::bad_config,
                        "the deck holds a card the ranking's deck does not have (code " +
                            std::to_string(card.code()) + ")");
        if (++used[card.code()] > known)
            return fail(Errc::bad_config,
                        "the deck holds " + c.ranking->to_string(std::span<const Card>(&card, 1)) +
                            " more often than the ranking's deck");
    }
    return std::nullopt;
}

} // namespace

int final_street(const HandConfig& c) {
    const auto& streets = c.variant->streets;
    int drawn = 0;
    for (std::size_t k = 0; k < streets.size() && c.draws > 0; ++k)
        for (const Step& step : streets[k].steps)
            if (step.kind == Step::Kind::draw && ++drawn == c.draws) return static_cast<int>(k);
    return static_cast<int>(streets.size()) - 1;
}

Chips ante_of(const HandConfig& c, int seat) {
    return c.stakes.seat_antes.empty() ? c.stakes.ante
                                       : c.stakes.seat_antes[static_cast<std::size_t>(seat)];
}

Chips take_dead_antes(const HandConfig& c, std::array<Chips, kMaxSeats>& totals) {
    if (!c.stakes.dead_antes) return {};
    Chips dead{};
    for (int i = 0; i < c.seats; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const Chips paid = std::min(ante_of(c, i), c.stacks[k]); // all in on it, at most
        totals[k] -= paid;
        dead += paid;
    }
    return dead;
}

ShowdownCards showdown_cards(const HandConfig& c, std::span<const Card> hole,
                             std::span<const Card> board) {
    ShowdownCards out;
    const Variant& v = *c.variant;
    LowValue best_low;
    const auto keep_low = [&](std::span<const Card, 5> five, LowValue x) {
        if (!x.qualifies() || x <= best_low) return;
        best_low = x;
        out.low.assign(five.begin(), five.end());
    };
    if (v.hole_cards_used == 0) {
        out.high.assign(hole.begin(), hole.end());
        out.high.insert(out.high.end(), board.begin(), board.end());
        if (v.split_low && out.high.size() >= 5 && out.high.size() <= 7)
            for_each_five(out.high, [&](std::span<const Card, 5> five) {
                keep_low(five, ace_to_five_low(five));
            });
        return out;
    }
    Strength best;
    for_each_omaha_five(hole, board, [&](std::span<const Card, 5> five) {
        const Strength x = c.ranking->strength(five);
        if (out.high.empty() || x > best) {
            best = x;
            out.high.assign(five.begin(), five.end());
        }
        if (v.split_low) keep_low(five, ace_to_five_low(five));
    });
    return out;
}

Chips chips_in_play(const HandState& s) {
    Chips n = s.raked;
    for (int i = 0; i < seat_count(s); ++i) n += seat(s, i).stack + seat(s, i).total;
    return n;
}

Result<HandConfig> named_config(std::string_view variant, std::string_view structure,
                                std::string_view ranking, std::string_view wild, int seats,
                                const RankingOptions& options) {
    HandConfig c;
    c.variant = builtin_variant(variant);
    if (!c.variant) {
        std::string known;
        for (auto n : builtin_variant_names())
            known += (known.empty() ? "" : ", ") + std::string(n);
        return make_error(Errc::bad_option, "unknown variant \"" + std::string(variant) +
                                                "\" (known: " + known + ")");
    }
    if (structure == "no-limit")
        c.structure = Structure::no_limit;
    else if (structure == "pot-limit")
        c.structure = Structure::pot_limit;
    else if (structure == "fixed-limit")
        c.structure = Structure::fixed_limit;
    else
        return make_error(Errc::bad_option, "unknown structure \"" + std::string(structure) +
                                                "\" (known: no-limit, pot-limit, fixed-limit)");
    // A mixed game plays its own ranking: "standard", the default, names it too.
    const bool own = c.variant->ranking != "standard";
    if (own && ranking != "standard" && ranking != c.variant->ranking)
        return make_error(Errc::bad_option, c.variant->name + " plays the " + c.variant->ranking +
                                                " ranking, not \"" + std::string(ranking) + "\"");
    const bool plain = c.variant->hole_cards_used == 0 && !c.variant->split_low;
    if (!own && ranking != "standard" && !(ranking == "vertical" && plain))
        return make_error(Errc::bad_option, c.variant->name + " plays the standard" +
                                                (plain ? " or vertical" : "") + " ranking, not \"" +
                                                std::string(ranking) + "\"");
    if (own) ranking = c.variant->ranking;
    RankingOptions ro;
    ro.trips_beat_straight = options.trips_beat_straight;
    if (ranking == "standard") {
        auto w = parse_wild(wild);
        if (!w) return w.error();
        ro.wild = w.value();
    } else if (own && !wild.empty() && wild != "none") {
        return make_error(Errc::bad_option, c.variant->name + " has no wild cards");
    }
    auto r = make_ranking(ranking, ro);
    if (!r) return r.error();
    c.ranking = std::shared_ptr<const Ranking>(std::move(r).value());
    if (seats < 2 || seats > c.variant->max_seats)
        return make_error(Errc::bad_option, std::string(variant) + " seats 2 to " +
                                                std::to_string(c.variant->max_seats) +
                                                " players, not " + std::to_string(seats));
    c.seats = seats;
    c.deck = c.ranking->cards();
    return c;
}

Result<Applied> start_hand(std::shared_ptr<const HandConfig> config) {
    Applied out;
    if (auto e = start_hand_in_place(std::move(config), out.state, out.events)) return *e;
    return out;
}

std::optional<Error> start_hand_in_place(std::shared_ptr<const HandConfig> config, HandState& s,
                                         std::vector<Event>& ev) {
    if (auto e = check_config(*config)) return *e;
    s = HandState{};
    ev.clear();
    s.config = std::move(config);
    const HandConfig& c = *s.config;
    for (int i = 0; i < c.seats; ++i) {
        SeatState& p = seat(s, i);
        p.stack = c.stacks[static_cast<std::size_t>(i)];
        p.in_hand = p.stack > 0;
        s.live += p.in_hand;
    }
    // Antes.
    for (int i = 1; i <= c.seats; ++i) {
        const int k = wrap(c.button, i, c.seats);
        if (!seat(s, k).in_hand) continue;
        const Chips a = ante_of(c, k);
        if (a > 0) post(s, k, a, EventType::ante, false, ev);
    }
    // Blinds: heads-up the button posts the small blind.
    if (c.stakes.big_blind > 0) {
        const auto in = [](const SeatState& p) { return p.in_hand; };
        int players = 0;
        for (int i = 0; i < c.seats; ++i) players += seat(s, i).in_hand;
        int sb = c.small_blind_seat, bb = c.big_blind_seat; // placed by a dead button
        if (bb < 0) {
            sb = players == 2 && seat(s, c.button).in_hand ? c.button : next_seat(s, c.button, in);
            bb = next_seat(s, sb, in);
        }
        if (c.stakes.small_blind > 0 && sb >= 0)
            post(s, sb, c.stakes.small_blind, EventType::blind, true, ev);
        post(s, bb, c.stakes.big_blind, EventType::blind, true, ev);
        s.current_bet = std::max(sb >= 0 ? seat(s, sb).bet : Chips(), seat(s, bb).bet);
        s.last_raise = c.stakes.big_blind;
        s.bets = 1; // fixed limit: the big blind is the round's bet
        s.big_blind_seat = bb;
        // Straddles: each a blind raise, so the next raise is at least the largest of them, and
        // the last straddler acts last in the first round.
        for (Chips straddle : c.stakes.straddles) {
            const int k = next_seat(s, s.big_blind_seat, in);
            post(s, k, straddle, EventType::blind, true, ev);
            s.current_bet = std::max(s.current_bet, seat(s, k).bet);
            s.last_raise = std::max(s.last_raise, straddle);
            ++s.bets;
            s.big_blind_seat = k;
        }
    }
    advance(s, ev);
    return std::nullopt;
}

const Legal& legal_actions(const HandState& s) {
    return s.legal;
}

namespace {

// Written in place: a Legal built aside and copied in stalls on store forwarding (its byte-sized
// fields stored, then read back 16 bytes at a time), which cost a tenth of a simulated hand.
void compute_legal(HandState& s) {
    static constexpr Legal kNothing{}; // copied from memory, not built on the stack first
    Legal& l = s.legal;
    l = kNothing;
    l.phase = s.phase;
    if (s.phase == Phase::done || s.actor < 0) {
        l.phase = Phase::done;
        return;
    }
    l.seat = s.actor;
    const SeatState& p = seat(s, s.actor);
    const HandConfig& c = *s.config;
    if (s.phase == Phase::drawing) {
        const Step& step = street_of(s).steps[static_cast<std::size_t>(s.step)];
        l.max_discard =
            std::min<int>(step.max_discard < 0 ? c.max_discard : step.max_discard, p.count);
        l.min_discard = std::min<int>(step.min_discard, p.count);
        l.stand_pat = step.stand_pat;
        return;
    }
    if (s.phase == Phase::rollover) {
        int down = 0;
        for (int j = 0; j < p.count; ++j) down += !(p.up >> j & 1);
        l.rollover = std::min(street_of(s).steps[static_cast<std::size_t>(s.step)].count, down);
        return;
    }
    const Chips owed = s.current_bet - p.bet;
    const Chips most = p.bet + p.stack; // all in
    if (s.bring_in_pending) {
        l.bring_in = true;
        l.bring_in_amount = std::min(c.stakes.bring_in, p.stack);
    } else {
        l.fold = owed > 0;
        l.check = owed == 0;
        l.call = owed > 0;
        l.call_amount = std::min(owed, p.stack);
    }
    const bool reopened = !p.acted || s.full_raises > p.raises_seen;
    int live = live_count(s);
    const bool capped = c.structure == Structure::fixed_limit && (live > 2 || c.cap_heads_up) &&
                        s.bets >= 1 + c.stakes.max_raises;
    if (p.stack > owed && reopened && !capped) {
        const Chips unit = bet_unit(s);
        Chips min_to, max_to;
        if (c.structure == Structure::fixed_limit && s.bets == 0 && s.unit == 0) {
            min_to = c.stakes.small_bet; // the open pair's choice: the small or the big bet
            max_to = c.stakes.big_bet;
            l.two_sizes = true;
        } else if (c.structure == Structure::fixed_limit) {
            min_to = max_to = s.bets == 0 ? unit : s.current_bet + unit;
        } else {
            min_to = s.bets == 0 ? std::max(unit, s.current_bet + s.last_raise)
                                 : s.current_bet + std::max(s.last_raise, unit);
            if (c.structure == Structure::pot_limit) {
                Chips pot{};
                for (int i = 0; i < c.seats; ++i) pot += seat(s, i).total;
                max_to = s.current_bet + pot + owed;
            } else {
                max_to = most;
            }
        }
        // The least bet or raise is at most what another player still in can match (PokerKit's
        // rule): more would come back uncalled. In fixed limit that allows any amount from it to
        // the full raise.
        if (!l.two_sizes) {
            Chips cover{};
            for (int i = 0; i < c.seats; ++i)
                if (i != s.actor && seat(s, i).live())
                    cover = std::max(cover, seat(s, i).bet + seat(s, i).stack);
            if (cover > s.current_bet) min_to = std::min(min_to, cover);
        }
        max_to = std::min(max_to, most);
        min_to = std::min(min_to, max_to); // all in for less than a full bet or raise
        l.two_sizes = l.two_sizes && min_to < max_to;
        if (max_to > s.current_bet) {
            (s.current_bet == 0 ? l.bet : l.raise) = true;
            l.min_to = min_to;
            l.max_to = max_to;
        }
    }
}

// The draw or the rollover half of apply_in_place: `a` by the seat to act, checked against `l`.
std::optional<Error> apply_draw(HandState& s, const Action& a, const Legal& l, SeatState& p,
                                std::vector<Event>& ev) {
    const bool draw = s.phase == Phase::drawing;
    if (a.type != (draw ? ActionType::discard : ActionType::rollover))
        return fail(Errc::illegal_action, draw ? "this is the draw: discard (0 cards to stand pat)"
                                               : "this is a rollover: turn a face-down card up");
    const int n = static_cast<int>(a.cards.size());
    if (draw && !(n == 0 && l.stand_pat) && (n < l.min_discard || n > l.max_discard))
        return fail(Errc::bad_amount,
                    "discard " +
                        (l.min_discard == l.max_discard ? std::to_string(l.min_discard)
                                                        : std::to_string(l.min_discard) + " to " +
                                                              std::to_string(l.max_discard)) +
                        " cards" + (l.stand_pat ? ", or none to stand pat," : "") + " not " +
                        std::to_string(n));
    if (!draw && n != l.rollover)
        return fail(Errc::bad_amount,
                    "turn up " + std::to_string(l.rollover) + " card(s), not " + std::to_string(n));
    std::uint16_t positions = 0;
    if (!take_from_hand(p, a.cards, !draw, positions))
        return fail(Errc::illegal_action,
                    draw ? "discard only cards you hold" : "turn up only your face-down cards");
    Event& e = emit(ev, draw ? EventType::discard : EventType::rollover, a.seat);
    e.visibility = draw ? Visibility::owner : Visibility::everyone;
    for (Card c : a.cards)
        if (e.count < 9) e.cards[e.count++] = c;
    e.number = static_cast<std::int16_t>(n);
    if (draw) {
        // Keep the cards not thrown, in order; then receive.
        std::array<Card, 16> kept{};
        std::uint16_t kept_up = 0;
        int k = 0;
        for (int j = 0; j < p.count; ++j) {
            if (positions >> j & 1) continue;
            if (p.up >> j & 1) kept_up |= std::uint16_t(1u << k);
            kept[static_cast<std::size_t>(k++)] = p.cards[static_cast<std::size_t>(j)];
        }
        p.cards = kept;
        p.up = kept_up;
        p.count = static_cast<std::uint8_t>(k);
        const Step& step = street_of(s).steps[static_cast<std::size_t>(s.step)];
        const int receive = step.receive < 0 ? n : std::min(step.receive, n);
        Event r = event(EventType::receive, a.seat);
        r.visibility = Visibility::owner;
        for (int i = 0; i < receive; ++i) {
            Card c;
            if (!take_card(s, ev, c)) break;
            p.cards[p.count++] = c;
            r.cards[r.count++] = c;
        }
        r.number = r.count;
        ev.push_back(r);
        // This player's discards join the pile after the draw: only earlier players' discards
        // make a new stock.
        s.discards.insert(s.discards.end(), a.cards.begin(), a.cards.end());
    } else {
        p.up |= positions;
    }
    s.actor = next_in_step(s, a.seat);
    if (s.actor < 0) ++s.step;
    advance(s, ev);
    return std::nullopt;
}

// The betting half of apply_in_place: `a` by the seat to act, checked against `l`.
std::optional<Error> apply_bet(HandState& s, const Action& a, const Legal& l, SeatState& p,
                               std::vector<Event>& ev) {
    const Chips owed = s.current_bet - p.bet;
    switch (a.type) {
    case ActionType::fold:
        if (!l.fold) return fail(Errc::illegal_action, "nothing to call: check instead of folding");
        p.folded = true;
        --s.live;
        emit(ev, EventType::fold, a.seat);
        break;
    case ActionType::check:
        if (!l.check)
            return fail(Errc::cannot_check, to_string(owed) + " to call: call, raise or fold");
        emit(ev, EventType::check, a.seat);
        break;
    case ActionType::call: {
        if (!l.call) return fail(Errc::illegal_action, "nothing to call: check");
        const Chips add = l.call_amount;
        p.stack -= add;
        p.bet += add;
        p.total += add;
        emit(ev, EventType::call, a.seat, add);
        break;
    }
    case ActionType::bring_in: {
        if (!l.bring_in)
            return fail(Errc::illegal_action, "no bring-in is due from " + seat_name(a.seat));
        const Chips add = l.bring_in_amount;
        p.stack -= add;
        p.bet += add;
        p.total += add;
        s.current_bet = std::max(s.current_bet, p.bet);
        s.bring_in_pending = false;
        emit(ev, EventType::bring_in, a.seat, add);
        break;
    }
    case ActionType::bet:
    case ActionType::raise: {
        const bool allowed = a.type == ActionType::bet ? l.bet : l.raise;
        if (!allowed) {
            if (l.bet || l.raise)
                return fail(Errc::illegal_action,
                            std::string(l.bet ? "nothing to raise: bet" : "a bet stands: raise"));
            return fail(Errc::illegal_action, seat_name(a.seat) + " may not " +
                                                  (a.type == ActionType::bet ? "bet" : "raise") +
                                                  " now (only call or fold)");
        }
        if (a.amount < l.min_to || a.amount > l.max_to)
            return fail(Errc::bad_amount,
                        (l.min_to == l.max_to ? "the amount must be " + to_string(l.min_to)
                                              : "the amount must be " + to_string(l.min_to) +
                                                    " to " + to_string(l.max_to)) +
                            ", not " + to_string(a.amount));
        if (l.two_sizes && a.amount != l.min_to && a.amount != l.max_to)
            return fail(Errc::bad_amount,
                        "the amount must be " + to_string(l.min_to) + " or " + to_string(l.max_to) +
                            " (a pair is showing: the first bet is the small or the big bet), "
                            "not " +
                            to_string(a.amount));
        if (l.two_sizes) // the choice made: raises follow it
            s.unit = a.amount >= s.config->stakes.big_bet ? s.config->stakes.big_bet
                                                          : s.config->stakes.small_bet;
        const Chips add = a.amount - p.bet;
        const Chips increase = a.amount - s.current_bet;
        const Chips required = s.bets == 0 ? bet_unit(s) : std::max(s.last_raise, bet_unit(s));
        const bool full =
            s.config->structure == Structure::fixed_limit
                ? (s.bets == 0 ? a.amount >= bet_unit(s) : a.amount == s.current_bet + bet_unit(s))
                : (s.bets == 0 ? a.amount >= required : increase >= required);
        p.stack -= add;
        p.bet += add;
        p.total += add;
        if (full) {
            s.last_raise = std::max(s.last_raise, s.bets == 0 ? a.amount : increase);
            ++s.bets;
            ++s.full_raises;
        }
        s.current_bet = std::max(s.current_bet, a.amount);
        s.bring_in_pending = false;
        emit(ev, a.type == ActionType::bet ? EventType::bet : EventType::raise, a.seat, a.amount);
        break;
    }
    default:
        return fail(Errc::illegal_action,
                    "this is a betting round: fold, check, call, bet or raise");
    }
    p.acted = true;
    p.raises_seen = s.full_raises;
    if (p.stack == 0 && !p.folded) emit(ev, EventType::all_in, a.seat);
    const int next = live_count(s) <= 1 ? -1 : next_to_act(s, a.seat);
    s.actor = next;
    if (next < 0 && live_count(s) > 1) end_round(s, ev);
    advance(s, ev);
    return std::nullopt;
}

} // namespace

std::string_view open_pair_name(OpenPair rule) {
    switch (rule) {
    case OpenPair::off:
        return "off";
    case OpenPair::big_bet:
        return "big_bet";
    case OpenPair::choice:
        return "choice";
    }
    return "big_bet";
}

std::optional<OpenPair> parse_open_pair(std::string_view name) {
    for (OpenPair r : {OpenPair::off, OpenPair::big_bet, OpenPair::choice})
        if (open_pair_name(r) == name) return r;
    return std::nullopt;
}

std::string_view big_bet_from_name(BigBetFrom rule) {
    return rule == BigBetFrom::last ? "seventh" : "fifth";
}

std::optional<BigBetFrom> parse_big_bet_from(std::string_view name) {
    for (BigBetFrom r : {BigBetFrom::marked, BigBetFrom::last})
        if (big_bet_from_name(r) == name) return r;
    return std::nullopt;
}

std::optional<Error> apply_in_place(HandState& s, const Action& a, std::vector<Event>& ev) {
    if (s.phase == Phase::done) return fail(Errc::hand_over, "the hand is over");
    if (a.seat != s.actor)
        return fail(Errc::not_your_turn,
                    "it is " + seat_name(s.actor) + "'s turn, not " + seat_name(a.seat) + "'s");
    const Legal l = s.legal;
    SeatState& p = seat(s, a.seat);
    if (s.phase == Phase::drawing || s.phase == Phase::rollover) return apply_draw(s, a, l, p, ev);
    return apply_bet(s, a, l, p, ev);
}

Result<Applied> apply(const HandState& state, const Action& action) {
    Applied out{state, {}};
    if (auto e = apply_in_place(out.state, action, out.events)) return *e;
    return out;
}

} // namespace felt::poker
