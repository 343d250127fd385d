#include "leap_bot.h"

#include <algorithm>
#include <map>

namespace felt::bots {

using namespace leap;

namespace {

constexpr int kRandomIdleTurns = 10; // the random player's patience (felt leap simulate's)
constexpr int kBotIdleTurns = 16;    // the bot's: measured best of 2 to 40 (docs/benchmarks.md)

struct Candidate {
    Action action;
    int gain = 0;  // points
    int cards = 0; // from the hand
};

// New melds: for each leap the seat may open and each suit class, every maximal run of its hand's
// cards along the leap (three or more), and its longest part that fits one cycle.
void new_melds(const State& s, int seat, std::vector<Candidate>& out) {
    const Table& t = *s.table;
    const auto& hand = s.players[static_cast<std::size_t>(seat)].hand;
    const LeapMask open = open_leaps(s, seat);
    std::map<std::pair<int, int>, Card> by_place; // (suit class, rank) -> a card of the hand
    for (Card c : hand)
        if (!c.is_joker()) by_place.emplace(std::pair{t.suit_class(c), c.rank().index()}, c);
    for (int k = 1; k <= t.leaps(); ++k) {
        if (!(open >> k & 1)) continue;
        for (const auto& [place, first] : by_place) {
            const auto [cls, rank] = place;
            if (by_place.contains({cls, t.step(rank, k, -1)})) continue; // not a run's start
            std::vector<Card> run{first};
            for (int r = t.step(rank, k, 1);
                 by_place.contains({cls, r}) && static_cast<int>(run.size()) < t.cycle_length(k);
                 r = t.step(r, k, 1))
                run.push_back(by_place.at({cls, r}));
            if (run.size() < 3) continue;
            Action a;
            a.type = ActionType::meld;
            a.seat = seat;
            a.cards = run;
            a.leap = k;
            out.push_back({std::move(a), 0, static_cast<int>(run.size())});
        }
    }
}

// Extensions: each own meld with every hand card that continues it at either end, and the join
// where that makes it run into another.
void extensions(const State& s, int seat, std::vector<Candidate>& out) {
    const Table& t = *s.table;
    const auto& hand = s.players[static_cast<std::size_t>(seat)].hand;
    for (const Meld& m : s.melds) {
        if (m.owner != seat) continue;
        std::vector<Card> left(hand.begin(), hand.end());
        Extension x;
        x.meld = m.id;
        auto take = [&](int rank) -> bool {
            for (auto it = left.begin(); it != left.end(); ++it)
                if (!it->is_joker() && it->rank().index() == rank && t.suit_class(*it) == m.suit) {
                    x.cards.push_back(*it);
                    left.erase(it);
                    return true;
                }
            return false;
        };
        for (int pos = m.length(); take(t.step(m.start, m.leap, pos)); ++pos) {
        }
        for (int pos = -1; take(t.step(m.start, m.leap, pos)); --pos) {
        }
        if (x.cards.empty()) continue;
        Action a;
        a.type = ActionType::extend;
        a.seat = seat;
        a.extensions.push_back(x);
        out.push_back({a, 0, static_cast<int>(x.cards.size())});
    }
}

// Every meld and extension open to the seat now, each with its gain by the engine's preview;
// those the engine would refuse are left out. A preview that could join another meld is tried
// with the join too.
std::vector<Candidate> candidates(const State& s, int seat) {
    std::vector<Candidate> raw, out;
    new_melds(s, seat, raw);
    extensions(s, seat, raw);
    for (Candidate& c : raw) {
        Preview p = preview(s, c.action);
        if (p.error || !p.now) continue;
        if (c.action.type == ActionType::extend && !p.could_join.empty()) {
            Candidate joined = c;
            joined.action.extensions[0].join = p.could_join.front();
            const Preview q = preview(s, joined.action);
            if (!q.error && q.now) {
                joined.gain = q.points_after - q.points_before;
                out.push_back(std::move(joined));
            }
        }
        c.gain = p.points_after - p.points_before;
        out.push_back(std::move(c));
    }
    return out;
}

// How likely a card is to meld: the cards of its suit class in hand one step away along the leaps
// the seat may use (3 each) or two steps (1 each), and the ends of its own melds it would continue
// (6) or come one short of (2). Higher is more useful.
int usefulness(const State& s, int seat, Card c) {
    if (c.is_joker()) return 100;
    const Table& t = *s.table;
    const PlayerState& p = s.players[static_cast<std::size_t>(seat)];
    const LeapMask leaps = p.leap ? LeapMask{1} << p.leap : open_leaps(s, seat);
    const int cls = t.suit_class(c), rank = c.rank().index();
    int score = 0;
    for (int k = 1; k <= t.leaps(); ++k) {
        if (!(leaps >> k & 1)) continue;
        for (int d : {-2, -1, 1, 2}) {
            const int r = t.step(rank, k, d);
            for (Card h : p.hand)
                if (!(h == c) && !h.is_joker() && t.suit_class(h) == cls && h.rank().index() == r)
                    score += d == -1 || d == 1 ? 3 : 1;
        }
    }
    for (const Meld& m : s.melds) {
        if (m.owner != seat || m.suit != cls) continue;
        const int after = t.step(m.start, m.leap, m.length()), before = t.step(m.start, m.leap, -1);
        if (rank == after || rank == before)
            score += 6;
        else if (rank == t.step(after, m.leap, 1) || rank == t.step(before, m.leap, -1))
            score += 2;
    }
    return score;
}

Action discard_least_useful(const State& s, int seat) {
    const Table& t = *s.table;
    const auto& hand = s.players[static_cast<std::size_t>(seat)].hand;
    Card worst = hand.front();
    std::pair<int, int> worst_key{1 << 20, 0};
    for (Card c : hand) {
        const std::pair<int, int> key{usefulness(s, seat, c), -t.face(c)};
        if (key < worst_key) {
            worst_key = key;
            worst = c;
        }
    }
    Action a;
    a.type = ActionType::discard;
    a.seat = seat;
    a.card = worst;
    return a;
}

} // namespace

Action leap_decide(const State& s, Kind kind, int idle_turns, Rng& rng) {
    const int seat = s.to_act;
    Action a;
    a.seat = seat;
    const bool random = kind == Kind::random;
    if (s.phase == Phase::turn) {
        a.type = idle_turns >= (random ? kRandomIdleTurns : kBotIdleTurns) ? ActionType::retire
                                                                           : ActionType::pursue;
        return a;
    }
    const auto& hand = s.players[static_cast<std::size_t>(seat)].hand;
    if (!s.melded) {
        std::vector<Candidate> cs = candidates(s, seat);
        if (!cs.empty()) {
            if (random) {
                if (rng.below(10) != 0) return cs[rng.below(static_cast<int>(cs.size()))].action;
            } else {
                const auto best =
                    std::max_element(cs.begin(), cs.end(), [](const auto& x, const auto& y) {
                        return std::pair{x.gain, x.cards} < std::pair{y.gain, y.cards};
                    });
                return best->action;
            }
        }
    }
    if (hand.empty()) { // nothing to discard: the turn ends by itself
        a.type = ActionType::discard;
        return a;
    }
    if (random) {
        a.type = ActionType::discard;
        a.card = hand[static_cast<std::size_t>(rng.below(static_cast<int>(hand.size())))];
        return a;
    }
    return discard_least_useful(s, seat);
}

LeapMatchReport leap_match(const std::vector<Kind>& kinds, long games, std::uint64_t seed,
                           const Rules& rules) {
    LeapMatchReport r;
    const int n = static_cast<int>(kinds.size());
    r.wins.assign(kinds.size(), 0);
    r.mean_score.assign(kinds.size(), 0);
    auto made = Table::make(rules, n);
    if (!made) {
        r.failure = made.error().message;
        return r;
    }
    const std::shared_ptr<const Table> table = made.value();
    Rng rng(seed);
    std::vector<Card> deck = table->deck().cards();
    std::vector<Event> events;
    for (long g = 0; g < games && r.failure.empty(); ++g) {
        sim::shuffle(std::span<Card>(deck), rng);
        auto started = start_game(table, static_cast<int>(g % n), deck);
        if (!started) {
            r.failure = started.error().message;
            return r;
        }
        State s = std::move(started).value().state;
        std::vector<int> idle(static_cast<std::size_t>(n), 0);
        auto kind_at = [&](int seat) { return static_cast<std::size_t>((seat + g) % n); };
        for (long steps = 0; s.phase != Phase::over; ++steps) {
            const int seat = s.to_act;
            const bool melded_before = s.melded;
            const Action a =
                leap_decide(s, kinds[kind_at(seat)], idle[static_cast<std::size_t>(seat)], rng);
            events.clear();
            if (auto err = apply_in_place(s, a, events)) {
                r.failure = "game " + std::to_string(g) + ": " +
                            std::string(kind_name(kinds[kind_at(seat)])) + ": " + err->message;
                break;
            }
            if (steps > 1'000'000) {
                r.failure = "game " + std::to_string(g) + " did not end";
                break;
            }
            // Idle: a turn without a meld, whether it ended with a discard or at once (nothing
            // to draw and nothing in hand).
            int& my_idle = idle[static_cast<std::size_t>(seat)];
            if (a.type == ActionType::meld || a.type == ActionType::extend)
                my_idle = 0;
            else if (a.type == ActionType::discard && !melded_before)
                ++my_idle;
            else if (a.type == ActionType::pursue &&
                     (s.to_act != seat || s.phase != Phase::melding))
                ++my_idle;
        }
        int best = -1 << 30, winners = 0;
        for (int i = 0; i < n; ++i) best = std::max(best, score(s, i));
        for (int i = 0; i < n; ++i) winners += score(s, i) == best;
        for (int i = 0; i < n; ++i) {
            r.mean_score[kind_at(i)] += score(s, i);
            if (score(s, i) == best) r.wins[kind_at(i)] += 1.0 / winners;
        }
        ++r.games;
    }
    for (double& m : r.mean_score) m /= std::max(1L, r.games);
    return r;
}

} // namespace felt::bots
