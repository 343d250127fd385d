#include "poker_bot.h"

#include "odds/equity.h"
#include "poker/draw_advice.h"
#include "rankings/ranking.h"
#include "rankings/strength.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace felt::bots {

using namespace poker;

namespace {

constexpr std::array kKinds{Kind::random, Kind::calling_station, Kind::maniac, Kind::nit,
                            Kind::shove,  Kind::baseline,        Kind::easy,   Kind::fair,
                            Kind::strong};
constexpr std::array<std::string_view, kKinds.size()> kKindNames{
    "random", "calling-station", "maniac", "nit", "shove", "baseline", "easy", "fair", "strong"};

constexpr std::array kPersonalities{
    Personality{"tight", 0.85, 1.1, 0.06},
    Personality{"loose", 1.4, 1.0, 0.10},
    Personality{"aggressive", 1.1, 1.5, 0.14},
    Personality{"passive", 1.0, 0.6, 0.03},
};

double prior_rate(int count, int of, double prior) {
    constexpr double kWeight = 10; // a prior worth ten observations
    return (count + kWeight * prior) / (of + kWeight);
}

Action make(int seat, ActionType t, Chips amount = {}) {
    Action a;
    a.type = t;
    a.seat = seat;
    a.amount = amount;
    return a;
}

Action check_or_call(const Legal& l) {
    if (l.check) return make(l.seat, ActionType::check);
    if (l.call) return make(l.seat, ActionType::call);
    if (l.bring_in) return make(l.seat, ActionType::bring_in);
    return make(l.seat, ActionType::fold);
}

Action check_or_fold(const Legal& l) {
    if (l.check) return make(l.seat, ActionType::check);
    if (l.bring_in) return make(l.seat, ActionType::bring_in);
    if (l.fold) return make(l.seat, ActionType::fold);
    return check_or_call(l);
}

// A bet or raise to `to` (this round's total), kept within what is legal; a call or check where
// neither may be made.
Action bet_to(const Legal& l, Chips to) {
    if (!l.bet && !l.raise) return check_or_call(l);
    to = std::clamp(to, l.min_to, l.max_to);
    if (l.two_sizes) to = to - l.min_to < l.max_to - to ? l.min_to : l.max_to;
    return make(l.seat, l.bet ? ActionType::bet : ActionType::raise, to);
}

Action all_in(const Legal& l) {
    if (l.bet || l.raise) return bet_to(l, l.max_to);
    return check_or_call(l);
}

// The draw and the rollover, for every kind alike: stand pat where one may, else throw the fewest
// cards allowed; turn up the face-down cards asked for, first ones first.
Action draw_or_roll(const View& v) {
    const Legal& l = v.legal;
    Action a = make(l.seat, l.phase == Phase::drawing ? ActionType::discard : ActionType::rollover);
    if (l.phase == Phase::drawing) {
        const int n = l.stand_pat || l.min_discard == 0 ? 0 : l.min_discard;
        for (int i = 0; i < n && i < static_cast<int>(v.cards.size()); ++i)
            a.cards.push_back(v.cards[static_cast<std::size_t>(i)]);
        return a;
    }
    const SeatView* me = nullptr;
    for (const SeatView& s : v.seats)
        if (s.seat == l.seat) me = &s;
    for (Card c : v.cards) {
        if (static_cast<int>(a.cards.size()) >= l.rollover) break;
        const bool up = me && std::find(me->up.begin(), me->up.end(), c) != me->up.end();
        if (!up) a.cards.push_back(c);
    }
    return a;
}

// The shape of the hand as the bot sees it.
struct Spot {
    const View& v;
    const Legal& l;
    const SeatView* me = nullptr;
    Chips pot{}, to_call{}, current{}; // all chips in; what calling adds; the bet to match
    Chips big{};                       // the big blind (or the small bet)
    int live = 0;                      // live players, the bot too
    double effective_bb = 0;           // the stack that can be lost, in big blinds
    bool holdem = false;               // two hole cards and a board, 52 cards

    explicit Spot(const View& view) : v(view), l(view.legal) {
        const HandConfig& c = *v.config;
        big = c.stakes.big_blind > 0 ? c.stakes.big_blind : c.stakes.small_bet;
        if (big <= 0) big = Chips(1);
        Chips others{};
        for (const SeatView& s : v.seats) {
            pot += s.total;
            current = std::max(current, s.bet);
            if (s.seat == l.seat)
                me = &s;
            else if (s.live)
                others = std::max(others, s.stack + s.bet);
            if (s.live) ++live;
        }
        to_call = l.call ? l.call_amount : Chips{};
        const Chips mine = me ? me->stack + me->bet : Chips{};
        effective_bb =
            static_cast<double>(std::min(mine, others).value()) / static_cast<double>(big.value());
        holdem = c.variant && c.variant->name == "holdem" && v.cards.size() == 2 &&
                 c.deck.size() == 52 && c.ranking && c.ranking->wild() == Wild::none;
    }
    double pot_odds() const {
        return to_call > 0 ? static_cast<double>(to_call.value()) /
                                 static_cast<double>((pot + to_call).value())
                           : 0.0;
    }
    // A bet or raise of `fraction` of the pot after calling, on top of the call; all in when that
    // leaves the bot less than half its stack.
    Action sized(double fraction) const {
        const Chips after_call = pot + to_call;
        Chips to = current + Chips(static_cast<std::int64_t>(
                                 std::llround(fraction * static_cast<double>(after_call.value()))));
        const Chips stack = me ? me->stack + me->bet : Chips{};
        if (to * 2 > stack) to = stack;
        return bet_to(l, to);
    }
    int raises(int round) const { // bets and raises in a betting round
        int n = 0;
        for (const Seen& s : v.seen)
            if (s.round == round && (s.type == EventType::bet || s.type == EventType::raise)) ++n;
        return n;
    }
    int calls(int round) const {
        int n = 0;
        for (const Seen& s : v.seen)
            if (s.round == round && s.type == EventType::call) ++n;
        return n;
    }
    // Live opponents yet to act voluntarily this round.
    int behind() const {
        int n = 0;
        for (const SeatView& s : v.seats) {
            if (!s.live || s.seat == l.seat || s.stack == 0) continue;
            const bool acted = std::any_of(v.seen.begin(), v.seen.end(), [&](const Seen& x) {
                return x.seat == s.seat && x.round == v.round;
            });
            if (!acted) ++n;
        }
        return n;
    }
    bool last_aggressor(int round) const {
        int who = -1;
        for (const Seen& s : v.seen)
            if (s.round == round && (s.type == EventType::bet || s.type == EventType::raise))
                who = s.seat;
        return who == l.seat;
    }
};

// The random legal action: each kind of action alike, a bet or raise of any size.
Action random_action(const Legal& l, Rng& rng) {
    std::vector<ActionType> kinds;
    if (l.fold && !l.check) kinds.push_back(ActionType::fold);
    if (l.check) kinds.push_back(ActionType::check);
    if (l.call) kinds.push_back(ActionType::call);
    if (l.bring_in) kinds.push_back(ActionType::bring_in);
    if (l.bet) kinds.push_back(ActionType::bet);
    if (l.raise) kinds.push_back(ActionType::raise);
    if (kinds.empty()) return make(l.seat, ActionType::fold);
    const ActionType t = kinds[rng.below(static_cast<int>(kinds.size()))];
    if (t != ActionType::bet && t != ActionType::raise) return make(l.seat, t);
    const std::int64_t span = (l.max_to - l.min_to).value();
    return bet_to(l, l.min_to + Chips(static_cast<std::int64_t>(
                                    rng.below(static_cast<std::uint64_t>(span + 1)))));
}

// `felt bot`'s play of old: mostly check or call, sometimes the smallest bet or raise, now and
// then a fold.
Action easy_action(const Legal& l, Rng& rng) {
    const int roll = rng.below(10);
    if (l.raise && roll == 0) return make(l.seat, ActionType::raise, l.min_to);
    if (l.bet && roll <= 1) return make(l.seat, ActionType::bet, l.min_to);
    if (l.check) return make(l.seat, ActionType::check);
    if (l.fold && roll == 9) return make(l.seat, ActionType::fold);
    return check_or_call(l);
}

// The hand's strength as the simple bots see it: before the board, 1 less the starting hand's
// rank; after, the share of hands it beats now. Other games: a middling 0.5.
double simple_strength(const Spot& s) {
    if (!s.holdem) return 0.5;
    return hand_strength(s.v.cards, s.v.board);
}

Action baseline_action(const Spot& s) {
    const Legal& l = s.l;
    if (s.holdem && s.v.board.empty()) {
        const double chen = chen_score(s.v.cards[0], s.v.cards[1]);
        if (chen >= 9) return s.raises(0) >= 2 ? check_or_call(l) : s.sized(0.75);
        if (chen >= 6 && s.to_call <= s.big * 3) return check_or_call(l);
        return check_or_fold(l);
    }
    const double hs = simple_strength(s);
    if (hs >= 0.85) return s.sized(0.5);
    if (hs >= 0.55) return check_or_call(l);
    return check_or_fold(l);
}

Action nit_action(const Spot& s) {
    const bool plays = s.holdem ? preflop_rank(s.v.cards[0], s.v.cards[1]) < 0.05 : false;
    if (!plays) return check_or_fold(s.l);
    if (s.v.board.empty() && s.raises(0) < 3) return s.sized(1.0);
    return s.v.board.empty() ? check_or_call(s.l) : s.sized(0.75);
}

// --- fair and strong ---------------------------------------------------------------------------

struct Judged {
    double equity = 0;
    int opponents = 0;
};

// The games other than hold'em the equity calculator knows (engine/odds/equity.h), without wild
// cards: their bots judge their cards against random hands, the opponents' up cards known.
std::optional<odds::Game> calculator_game(const HandConfig& c) {
    if (!c.variant || !c.ranking || c.ranking->wild() != Wild::none) return std::nullopt;
    const std::string& n = c.variant->name;
    if (n == "short-deck") return odds::Game::short_deck;
    if (n == "omaha") return odds::Game::omaha;
    if (n == "omaha-hilo") return odds::Game::omaha_hilo;
    if (n == "stud") return odds::Game::stud;
    if (n == "stud-hilo") return odds::Game::stud_hilo;
    if (n == "razz") return odds::Game::razz;
    return std::nullopt;
}

Judged judge_by_calculator(const Spot& s, odds::Game game, const Profile& p, Rng& rng) {
    const View& v = s.v;
    odds::Query q;
    q.game = game;
    q.monte_carlo = true;
    q.max_samples = p.kind == Kind::strong ? 1000 : 400;
    q.target_stderr = 0.5;
    q.seed = rng();
    q.hole = v.config->hole_cards;
    q.trips_beat_straight = v.config->ranking->trips_beat_straight();
    q.board = v.board;
    // The short deck takes ranges: the seat's own hand as one, each opponent any two cards.
    const bool ranges = odds::shape(game).ranges;
    if (ranges && v.cards.size() != 2) return {1.0 / static_cast<double>(s.live), s.live - 1};
    if (ranges) {
        Card a = v.cards[0], b = v.cards[1];
        if (a < b) std::swap(a, b); // by rank, then suit code, as a Combo holds them
        q.players.push_back({{odds::Combo{a, b, 1}}, {}});
    } else {
        q.players.push_back({{}, v.cards});
    }
    static const std::vector<odds::Combo> any = odds::parse_range("random").value();
    for (const SeatView& o : v.seats) {
        if (o.seat == s.l.seat) continue;
        if (o.live)
            q.players.push_back(ranges ? odds::Player{any, {}} : odds::Player{{}, o.up});
        else
            q.dead.insert(q.dead.end(), o.up.begin(), o.up.end()); // folded, seen
    }
    Judged j;
    j.opponents = static_cast<int>(q.players.size()) - 1;
    if (j.opponents == 0) {
        j.equity = 1;
        return j;
    }
    const auto e = odds::equity(q);
    j.equity = e ? e.value().equity[0] / 100 : 1.0 / (j.opponents + 1);
    return j;
}

// Each live opponent's range from what it did this hand and was seen to do before; strong also
// narrows it by each bet, raise and call after the first round.
Judged judge(const Spot& s, const Profile& p, Rng& rng) {
    const View& v = s.v;
    if (!s.holdem)
        if (const auto game = calculator_game(*v.config))
            return judge_by_calculator(s, *game, p, rng);
    std::vector<Range> ranges;
    std::vector<Card> known(v.cards.begin(), v.cards.end());
    known.insert(known.end(), v.board.begin(), v.board.end());
    for (const SeatView& o : v.seats) {
        if (!o.live || o.seat == s.l.seat) continue;
        const Stats& st = v.stats[static_cast<std::size_t>(o.seat)];
        int raised = 0;
        bool called = false;
        for (const Seen& x : v.seen) {
            if (x.seat != o.seat || x.round != 0) continue;
            raised += x.type == EventType::raise || x.type == EventType::bet;
            called = called || x.type == EventType::call;
        }
        double share = 1.0; // a blind that checked: any two cards
        if (raised >= 2)
            share = st.pfr_rate() * 0.3;
        else if (raised == 1)
            share = st.pfr_rate();
        else if (called)
            share = st.vpip_rate();
        share = std::clamp(share, 0.02, 1.0);
        Range r = Range::top(share);
        r.remove(known);
        if (p.kind == Kind::strong) {
            const double agg = std::clamp(st.aggression_rate() * 1.15, 0.2, 0.95);
            for (const Seen& x : v.seen) {
                if (x.seat != o.seat || x.round == 0 || x.board < 3) continue;
                const std::span<const Card> board(v.board.data(),
                                                  static_cast<std::size_t>(x.board));
                if (x.type == EventType::bet || x.type == EventType::raise)
                    r.keep_strongest(board, agg);
                else if (x.type == EventType::call)
                    r.keep_strongest(board, 0.75);
            }
        }
        ranges.push_back(std::move(r));
    }
    Judged j;
    j.opponents = static_cast<int>(ranges.size());
    const int samples = p.kind == Kind::strong ? 1200 : 500;
    j.equity = ranges.empty() ? 1.0 : holdem_equity(v.cards, v.board, ranges, samples, rng);
    return j;
}

// The share of starting hands a bot opens with, by the players still to act behind it.
double open_share(int behind) {
    constexpr std::array<double, 9> kShare{0.7, 0.55, 0.40, 0.30, 0.24, 0.19, 0.16, 0.14, 0.12};
    return kShare[static_cast<std::size_t>(std::clamp(behind, 0, 8))];
}

// The share it moves all in with when short, unopened.
double push_share(double effective_bb, int behind) {
    const double heads_up = std::clamp(1.0 - effective_bb * 0.045, 0.3, 0.9);
    return heads_up / (1 + 0.5 * std::max(0, behind - 1));
}

Action preflop(const Spot& s, const Profile& p, Rng& rng) {
    const Legal& l = s.l;
    const Personality& me = p.personality;
    const double q = preflop_rank(s.v.cards[0], s.v.cards[1]);
    const int raises = s.raises(0);
    const int behind = s.behind();
    const bool strong = p.kind == Kind::strong;
    if (s.effective_bb <= 12) { // push or fold
        if (raises == 0) {
            if (q < push_share(s.effective_bb, behind) * me.looseness) return all_in(l);
            return check_or_fold(l);
        }
        const Judged j = judge(s, p, rng);
        if (j.equity > 0.62) return all_in(l);
        if (j.equity > s.pot_odds()) return check_or_call(l);
        return check_or_fold(l);
    }
    if (raises == 0) {
        const int limpers = s.calls(0);
        if (l.check) return q < 0.12 * me.looseness ? s.sized(0.75) : check_or_fold(l);
        if (q < open_share(behind) * me.looseness) {
            const Chips to = s.big * 5 / 2 + s.big * limpers;
            return bet_to(l, to);
        }
        if (limpers > 0 && q < open_share(behind) * 1.5 * me.looseness && me.aggression < 1)
            return check_or_call(l);
        return check_or_fold(l);
    }
    const Judged j = judge(s, p, rng);
    const double margin = strong ? 0.0 : 0.02;
    const double implied = s.effective_bb > 40 && raises == 1 ? 0.05 : 0.0;
    if (raises == 1 && (q < 0.04 * me.looseness || j.equity > 0.58 + 0.04 * (j.opponents - 1)))
        return bet_to(l, s.current * 3 + s.big * s.calls(0));
    if (raises >= 2 && q < 0.02) return all_in(l);
    if (raises == 1 && j.opponents == 1 && q < 0.4 &&
        rng.below(1000) < static_cast<int>(me.bluff * 500))
        return bet_to(l, s.current * 3);
    if (j.equity > s.pot_odds() + margin - implied) return check_or_call(l);
    return check_or_fold(l);
}

Action postflop(const Spot& s, const Profile& p, Rng& rng, const Judged& j) {
    const Legal& l = s.l;
    const Personality& me = p.personality;
    const bool strong = p.kind == Kind::strong;
    const int n = j.opponents + 1;
    const double value = 0.6 * std::pow(2.0 / n, 0.6) - 0.04 * (me.aggression - 1);
    if (s.to_call == 0) {
        if (j.equity > value) {
            if (strong) return s.sized(j.equity > 0.85 ? 0.8 : 0.55);
            return s.sized(0.6);
        }
        const bool continuation = s.v.round == 1 && s.last_aggressor(0) && n == 2;
        const int roll = rng.below(1000);
        if (continuation && roll < static_cast<int>(400 * me.aggression)) return s.sized(0.5);
        if (n == 2 && j.equity < 0.35 && roll < static_cast<int>(me.bluff * 1000))
            return s.sized(0.6);
        return check_or_fold(l);
    }
    const double raise_at = std::min(0.9, value + 0.2);
    if (j.equity > raise_at) return s.sized(strong ? 0.9 : 0.8);
    const double margin = strong ? 0.0 : 0.03;
    const double implied = strong && s.v.round == 1 && s.effective_bb > 30 ? 0.03 : 0.0;
    if (j.equity > s.pot_odds() + margin - implied) return check_or_call(l);
    return check_or_fold(l);
}

Action postflop(const Spot& s, const Profile& p, Rng& rng) {
    return postflop(s, p, rng, judge(s, p, rng));
}

// Five-card draw with the standard ranking and no wild cards: the draw hint's exchange (the best
// expected share of hands beaten), and bets by that share against each live opponent.
bool plays_draw(const View& v) {
    const HandConfig& c = *v.config;
    return c.variant && c.variant->name == "draw" && c.ranking && c.ranking->wild() == Wild::none &&
           c.ranking->name() == "standard" && v.cards.size() == 5;
}

Action draw_game(const Spot& s, const Profile& p, Rng& rng) {
    const View& v = s.v;
    const Legal& l = s.l;
    // The hint is exact and takes about 10 ms: kept for the hand's cards, which the betting
    // before the draw and the draw itself ask about alike.
    const int most = l.phase == Phase::drawing ? l.max_discard : v.config->max_discard;
    thread_local std::vector<Card> hinted;
    thread_local int hinted_most = -1;
    thread_local Result<std::vector<DrawOption>> hint = std::vector<DrawOption>{};
    if (hinted != v.cards || hinted_most != most) {
        hint = draw_hint(*v.config->ranking, v.cards, most);
        hinted = v.cards;
        hinted_most = most;
    }
    if (!hint || hint.value().empty()) return draw_or_roll(v);
    if (l.phase == Phase::drawing) {
        for (const DrawOption& o : hint.value()) {
            const bool allowed = (o.count == 0 && l.stand_pat) ||
                                 (o.count >= l.min_discard && o.count <= l.max_discard);
            if (!allowed) continue;
            Action a = make(l.seat, ActionType::discard);
            for (int i = 0; i < 5; ++i)
                if (o.thrown >> i & 1) a.cards.push_back(v.cards[static_cast<std::size_t>(i)]);
            return a;
        }
        return draw_or_roll(v);
    }
    // Before the draw, the best exchange's expected share; after it, the hand's own.
    const bool drawn =
        std::any_of(v.seen.begin(), v.seen.end(), [](const Seen& x) { return x.round > 0; }) ||
        v.round > 0;
    const double share = drawn ? hand_share(*v.config->ranking, v.cards) : hint.value()[0].expected;
    Judged j;
    for (const SeatView& o : v.seats) j.opponents += o.live && o.seat != l.seat;
    j.equity = std::pow(share, std::max(1, j.opponents));
    return postflop(s, p, rng, j);
}

// --- every other game: sampled by the ranking itself
// ----------------------------------------------

// The cards a player ends with and the board's: what the variant's streets deal (draws replace).
std::pair<int, int> final_counts(const Variant& variant) {
    int hand = 0, board = 0;
    for (const Street& street : variant.streets)
        for (const Step& step : street.steps) {
            if (step.kind == Step::Kind::deal_down || step.kind == Step::Kind::deal_up)
                hand += step.count;
            if (step.kind == Step::Kind::deal_board) board += step.count;
        }
    return {hand, board};
}

// The deck less every card the seat sees: its own, the board, the others' up cards.
std::vector<Card> unseen(const View& v) {
    std::vector<Card> deck = v.config->deck;
    auto take = [&](Card c) {
        if (const auto it = std::find(deck.begin(), deck.end(), c); it != deck.end())
            deck.erase(it);
    };
    for (Card c : v.cards) take(c);
    for (Card c : v.board) take(c);
    for (const SeatView& o : v.seats)
        if (o.seat != v.legal.seat)
            for (Card c : o.up) take(c);
    return deck;
}

// Draws n cards from the front part of `deck` not yet drawn (a partial shuffle from `from`).
void draw(std::vector<Card>& deck, std::size_t& from, int n, std::vector<Card>& into, Rng& rng) {
    for (int i = 0; i < n && from < deck.size(); ++i, ++from) {
        const std::size_t k = from + static_cast<std::size_t>(rng.below(deck.size() - from));
        std::swap(deck[from], deck[k]);
        into.push_back(deck[from]);
    }
}

Strength strength_of(const View& v, std::span<const Card> hand, std::span<const Card> board) {
    const Ranking& r = *v.config->ranking;
    if (v.config->variant->hole_cards_used > 0) return r.omaha_strength(hand, board);
    std::vector<Card> all(hand.begin(), hand.end());
    all.insert(all.end(), board.begin(), board.end());
    return r.strength(all);
}

// Equity against random hands, the rest of the board and of each hand dealt at random, judged by
// the table's ranking (its wild cards too): the draw games' current hands as they stand.
Judged judge_generic(const Spot& s, const Profile& p, Rng& rng) {
    const View& v = s.v;
    const auto [final_hand, final_board] = final_counts(*v.config->variant);
    std::vector<Card> deck = unseen(v);
    const int samples = p.kind == Kind::strong ? 600 : 250;
    Judged j;
    for (const SeatView& o : v.seats) j.opponents += o.live && o.seat != s.l.seat;
    if (j.opponents == 0) {
        j.equity = 1;
        return j;
    }
    double won = 0;
    std::vector<Card> board, mine, theirs;
    for (int k = 0; k < samples; ++k) {
        std::size_t from = 0;
        board = v.board;
        draw(deck, from, final_board - static_cast<int>(board.size()), board, rng);
        mine = v.cards;
        draw(deck, from, final_hand - static_cast<int>(mine.size()), mine, rng);
        const Strength me = strength_of(v, mine, board);
        int ties = 1;
        bool lost = false;
        for (const SeatView& o : v.seats) {
            if (!o.live || o.seat == s.l.seat) continue;
            theirs = o.up;
            draw(deck, from, final_hand - static_cast<int>(theirs.size()), theirs, rng);
            const Strength them = strength_of(v, theirs, board);
            if (me < them) {
                lost = true;
                break;
            }
            ties += !(them < me);
        }
        if (!lost) won += 1.0 / ties;
    }
    j.equity = won / samples;
    return j;
}

// The draw step of the street being played (its receive count), if it draws.
const Step* current_draw(const HandConfig& c, int round) {
    int rounds = 0;
    for (const Street& street : c.variant->streets) {
        for (const Step& step : street.steps)
            if (step.kind == Step::Kind::draw && rounds == round) return &step;
        rounds += street.betting;
    }
    return nullptr;
}

// A draw in any game: each exchange allowed, its expected share of random hands beaten sampled
// (the same random hands for every exchange), the best taken, fewer cards thrown on a tie.
Action generic_draw(const View& v, const Profile& p, Rng& rng) {
    const Legal& l = v.legal;
    const Step* step = current_draw(*v.config, v.round);
    const int n = static_cast<int>(v.cards.size());
    if (n > 8) return draw_or_roll(v);
    std::vector<Card> deck = unseen(v);
    // Random opponents' hands of the size the seat holds, their strengths in order.
    std::vector<Strength> pool;
    std::vector<Card> hand;
    for (int k = 0; k < 200; ++k) {
        std::size_t from = 0;
        hand.clear();
        draw(deck, from, n, hand, rng);
        pool.push_back(strength_of(v, hand, {}));
    }
    std::sort(pool.begin(), pool.end());
    const int samples = p.kind == Kind::strong ? 60 : 25;
    double best = -1;
    unsigned best_mask = 0;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        const int k = std::popcount(mask);
        if (!((k == 0 && l.stand_pat) || (k >= l.min_discard && k <= l.max_discard))) continue;
        const int receive = step && step->receive >= 0 ? step->receive : k;
        double share = 0;
        for (int t = 0; t < samples; ++t) {
            hand.clear();
            for (int i = 0; i < n; ++i)
                if (!(mask >> i & 1)) hand.push_back(v.cards[static_cast<std::size_t>(i)]);
            std::size_t from = 0;
            draw(deck, from, receive, hand, rng);
            const Strength s = strength_of(v, hand, {});
            const auto below = std::lower_bound(pool.begin(), pool.end(), s) - pool.begin();
            const auto upto = std::upper_bound(pool.begin(), pool.end(), s) - pool.begin();
            share += (static_cast<double>(below) + static_cast<double>(upto - below) / 2) /
                     static_cast<double>(pool.size());
        }
        share /= samples;
        if (share > best + 1e-9 ||
            (std::abs(share - best) <= 1e-9 && k < std::popcount(best_mask))) {
            best = share;
            best_mask = mask;
        }
    }
    if (best < 0) return draw_or_roll(v);
    Action a = make(l.seat, ActionType::discard);
    for (int i = 0; i < n; ++i)
        if (best_mask >> i & 1) a.cards.push_back(v.cards[static_cast<std::size_t>(i)]);
    return a;
}

} // namespace

std::string_view kind_name(Kind k) {
    return kKindNames[static_cast<std::size_t>(k)];
}

std::optional<Kind> parse_kind(std::string_view name) {
    for (std::size_t i = 0; i < kKinds.size(); ++i)
        if (kKindNames[i] == name) return kKinds[i];
    return std::nullopt;
}

std::span<const Kind> all_kinds() {
    return kKinds;
}

std::span<const Personality> personalities() {
    return kPersonalities;
}
const Personality& default_personality() {
    return kPersonalities[0];
}
std::optional<Personality> parse_personality(std::string_view name) {
    for (const Personality& p : kPersonalities)
        if (p.name == name) return p;
    return std::nullopt;
}

double Stats::vpip_rate() const {
    return prior_rate(vpip, hands, 0.3);
}
double Stats::pfr_rate() const {
    return prior_rate(pfr, hands, 0.15);
}
double Stats::aggression_rate() const {
    return prior_rate(aggressive, aggressive + passive, 0.35);
}

Action decide(const View& v, const Profile& p, Rng& rng) {
    const Legal& l = v.legal;
    const bool thinking = p.kind == Kind::fair || p.kind == Kind::strong;
    if (thinking && plays_draw(v)) return draw_game(Spot(v), p, rng);
    if (thinking && l.phase == Phase::drawing) return generic_draw(v, p, rng);
    if (l.phase == Phase::drawing || l.phase == Phase::rollover) return draw_or_roll(v);
    const Spot s(v);
    switch (p.kind) {
    case Kind::random:
        return random_action(l, rng);
    case Kind::easy:
        return easy_action(l, rng);
    case Kind::calling_station:
        return check_or_call(l);
    case Kind::maniac:
        return s.sized(1.0);
    case Kind::shove:
        return all_in(l);
    case Kind::nit:
        return nit_action(s);
    case Kind::baseline:
        return baseline_action(s);
    case Kind::fair:
    case Kind::strong:
        break;
    }
    if (l.bring_in && !l.bet && !l.raise) return make(l.seat, ActionType::bring_in);
    if (s.holdem) return v.round == 0 ? preflop(s, p, rng) : postflop(s, p, rng);
    // The other games the calculator knows: every round by equity against random hands; every
    // other game the same, its hands sampled and judged by the table's ranking.
    if (calculator_game(*v.config)) return postflop(s, p, rng);
    return postflop(s, p, rng, judge_generic(s, p, rng));
}

// --- Watcher -----------------------------------------------------------------------------------

void Watcher::start(const HandState& s, std::span<const Event> events) {
    seen_.clear();
    round_ = s.rounds_played;
    board_ = 0;
    for (std::size_t i = 0; i < dealt_.size(); ++i) dealt_[i] = s.seats[i].in_hand;
    observe(s, events);
}

void Watcher::observe(const HandState& s, std::span<const Event> events) {
    for (const Event& e : events) {
        switch (e.type) {
        case EventType::fold:
        case EventType::check:
        case EventType::call:
        case EventType::bet:
        case EventType::raise:
        case EventType::bring_in:
            seen_.push_back({e.seat, e.type, e.amount, round_, board_});
            break;
        default:
            break;
        }
    }
    round_ = s.rounds_played;
    board_ = s.board_count;
}

View Watcher::view(const HandState& s) const {
    View v;
    v.config = s.config.get();
    v.legal = legal_actions(s);
    const auto& mine = s.seats[static_cast<std::size_t>(v.legal.seat)];
    v.cards.assign(mine.cards.begin(), mine.cards.begin() + mine.count);
    v.board.assign(s.board.begin(), s.board.begin() + s.board_count);
    for (int i = 0; i < s.config->seats; ++i) {
        const SeatState& p = s.seats[static_cast<std::size_t>(i)];
        if (!p.in_hand) continue;
        SeatView sv;
        sv.seat = i;
        sv.live = p.live();
        sv.stack = p.stack;
        sv.bet = p.bet;
        sv.total = p.total;
        for (int k = 0; k < p.count; ++k)
            if (p.up >> k & 1) sv.up.push_back(p.cards[static_cast<std::size_t>(k)]);
        v.seats.push_back(std::move(sv));
    }
    v.seen = seen_;
    v.round = s.rounds_played;
    v.stats = stats_;
    return v;
}

void Watcher::finish() {
    tally(seen_, dealt_, stats_);
}

void Watcher::tally(std::span<const Seen> seen, const std::array<bool, kMaxSeats>& dealt,
                    std::array<Stats, kMaxSeats>& stats) {
    for (std::size_t i = 0; i < dealt.size(); ++i) {
        if (!dealt[i]) continue;
        Stats& st = stats[i];
        ++st.hands;
        bool vpip = false, pfr = false;
        for (const Seen& x : seen) {
            if (x.seat != static_cast<int>(i)) continue;
            const bool aggressive = x.type == EventType::bet || x.type == EventType::raise;
            if (x.round == 0) {
                vpip = vpip || aggressive || x.type == EventType::call;
                pfr = pfr || aggressive;
            } else if (aggressive) {
                ++st.aggressive;
            } else if (x.type == EventType::call || x.type == EventType::check) {
                ++st.passive;
                st.calls += x.type == EventType::call;
            }
        }
        st.vpip += vpip;
        st.pfr += pfr;
    }
}

} // namespace felt::bots
