#include "leap_sim.h"

#include <algorithm>
#include <bit>
#include <chrono>

namespace felt::sim {

using namespace leap;

namespace {

constexpr int kIdleTurnsBeforeRetiring = 10;
constexpr long kMaxActionsPerGame = 1'000'000; // a game still running after this never ends

// The hand of the player to act, by suit class and rank, with cards marked as they are planned
// into a meld.
class HandIndex {
  public:
    HandIndex(const Table& t, const std::vector<Card>& hand) : t_(t), hand_(hand) {
        for (Card c : hand) {
            if (c.is_joker()) {
                ++jokers_;
                continue;
            }
            const auto cls = static_cast<std::size_t>(t.suit_class(c));
            ++count_[cls][static_cast<std::size_t>(c.rank().index())];
            present_[cls] |= std::uint32_t{1} << c.rank().index();
        }
    }
    int count(int cls, int rank) const {
        return count_[static_cast<std::size_t>(cls)][static_cast<std::size_t>(rank)];
    }
    // Bit r: the class has a card of rank r left.
    std::uint32_t present(int cls) const { return present_[static_cast<std::size_t>(cls)]; }
    int jokers() const { return jokers_; }
    // Takes a card of that class and rank out of the index.
    Card take(int cls, int rank) {
        for (std::size_t i = 0; i < hand_.size(); ++i) {
            Card c = hand_[i];
            if (!(used_ >> i & 1) && !c.is_joker() && c.rank().index() == rank &&
                t_.suit_class(c) == cls) {
                used_ |= std::uint64_t{1} << i;
                auto& n = count_[static_cast<std::size_t>(cls)][static_cast<std::size_t>(rank)];
                if (--n == 0)
                    present_[static_cast<std::size_t>(cls)] &= ~(std::uint32_t{1} << rank);
                return c;
            }
        }
        assert(false);
        return Card{};
    }
    Card take_joker() {
        --jokers_;
        return Card::joker(0);
    }

  private:
    const Table& t_;
    const std::vector<Card>& hand_;
    std::array<std::array<std::uint8_t, 32>, 4> count_{};
    std::array<std::uint32_t, 4> present_{};
    int jokers_ = 0;
    std::uint64_t used_ = 0; // hands stay far below 64 cards: 5 dealt, one more a turn at most
};

// A new meld the player could lay: `length` cards from `start` along `leap` in class `cls`,
// the last one a joker when `joker_end`.
struct NewMeld {
    int leap, cls, start, length;
    bool joker_end;
};

// Maximal runs of the hand along each allowed leap, in every class and cycle; with a joker in
// hand, also each run of two or more with the joker after it.
void find_new_melds(const Table& t, const HandIndex& h, LeapMask allowed,
                    std::vector<NewMeld>& out) {
    const SuitRule rule = t.rules().suits;
    const int classes = rule == SuitRule::same_suit ? 4 : rule == SuitRule::same_colour ? 2 : 1;
    const int need = h.jokers() > 0 ? 2 : 3;
    for (int cls = 0; cls < classes; ++cls) {
        const std::uint32_t present = h.present(cls);
        if (std::popcount(present) < need) continue;
        for (int k = 1; k <= t.leaps(); ++k) {
            if (!(allowed >> k & 1)) continue;
            const int len = t.cycle_length(k);
            for (const std::uint8_t* cycle = t.walk(k); cycle < t.walk(k) + t.ranks();
                 cycle += len) {
                // Start the walk at a missing rank, so that no run is cut in two.
                int gap = -1;
                for (int j = 0; j < len && gap < 0; ++j)
                    if (!(present >> cycle[j] & 1)) gap = j;
                if (gap < 0) { // the whole cycle
                    if (len >= 3) out.push_back({k, cls, cycle[0], len, false});
                    continue;
                }
                int run = 0;
                for (int j = gap + 1; j <= gap + len; ++j) {
                    const int at = j < len ? j : j - len;
                    if (j < gap + len && (present >> cycle[at] & 1)) {
                        ++run;
                        continue;
                    }
                    if (run >= need) {
                        const int first = j - run < len ? j - run : j - run - len;
                        if (run >= 3) out.push_back({k, cls, cycle[first], run, false});
                        if (h.jokers() > 0) out.push_back({k, cls, cycle[first], run + 1, true});
                    }
                    run = 0;
                }
            }
        }
    }
}

// The cards that extend meld `m` at both ends: naturals along its leap, and a joker where the
// next natural is missing and the end is natural.
Extension plan_extension(const Table& t, const Meld& m, HandIndex& h, Rng& rng) {
    Extension x;
    x.meld = m.id;
    int room = kMaxCardsPerMeld - m.length();
    bool high_joker = m.cards.back().is_joker();
    for (int pos = m.length(); room > 0; ++pos) {
        int r = t.step(m.start, m.leap, pos);
        if (h.count(m.suit, r) > 0) {
            x.high.push_back(h.take(m.suit, r));
            high_joker = false;
        } else if (h.jokers() > 0 && !high_joker && rng.below(2) == 0) {
            x.high.push_back(h.take_joker());
            high_joker = true;
        } else {
            break;
        }
        --room;
    }
    bool low_joker = m.cards.front().is_joker();
    for (int pos = -1; room > 0; --pos) {
        int r = t.step(m.start, m.leap, pos);
        if (h.count(m.suit, r) > 0) {
            x.low.insert(x.low.begin(), h.take(m.suit, r));
            low_joker = false;
        } else if (h.jokers() > 0 && !low_joker && rng.below(2) == 0) {
            x.low.insert(x.low.begin(), h.take_joker());
            low_joker = true;
        } else {
            break;
        }
        --room;
    }
    return x;
}

// After an extension: another of the player's melds it now runs into, to join (0: none).
int joinable(const Table& t, const State& s, const Meld& m, const Extension& x,
             std::span<const int> changed) {
    const int start = t.step(m.start, m.leap, -static_cast<int>(x.low.size()));
    const int length = m.length() + static_cast<int>(x.low.size() + x.high.size());
    const bool low_joker = (x.low.empty() ? m.cards.front() : x.low.front()).is_joker();
    const bool high_joker = (x.high.empty() ? m.cards.back() : x.high.back()).is_joker();
    for (const Meld& o : s.melds) {
        if (o.id == m.id || o.owner != m.owner || o.leap != m.leap || o.suit != m.suit) continue;
        if (std::find(changed.begin(), changed.end(), o.id) != changed.end()) continue;
        if (length + o.length() > kMaxCardsPerMeld) continue;
        if (t.step(start, m.leap, length) == o.start && !(high_joker && o.cards.front().is_joker()))
            return o.id;
        if (t.step(o.start, o.leap, o.length()) == start &&
            !(low_joker && o.cards.back().is_joker()))
            return o.id;
    }
    return 0;
}

// The player's melding action this turn, if they have one and take it.
std::optional<Action> choose_meld(const State& s, Rng& rng, std::vector<NewMeld>& news) {
    const Table& t = *s.table;
    const int seat = s.to_act;
    const PlayerState& p = s.players[static_cast<std::size_t>(seat)];
    const LeapMask allowed = open_leaps(s, seat);
    HandIndex index(t, p.hand);
    news.clear();
    find_new_melds(t, index, allowed, news);
    bool extendable = false;
    for (const Meld& m : s.melds)
        if (m.owner == seat) extendable = true;
    const int options = static_cast<int>(news.size()) + (extendable ? 1 : 0);
    if (options == 0 || rng.below(8) == 0) return std::nullopt;
    const int pick = rng.below(options);
    Action a;
    a.seat = seat;
    if (pick < static_cast<int>(news.size())) {
        const NewMeld& n = news[static_cast<std::size_t>(pick)];
        a.type = ActionType::meld;
        const int naturals = n.length - (n.joker_end ? 1 : 0);
        for (int i = 0; i < naturals; ++i)
            a.cards.push_back(index.take(n.cls, t.step(n.start, n.leap, i)));
        if (n.joker_end) a.cards.push_back(index.take_joker());
        // Now and then in reverse, or shuffled, for the engine to find the order.
        int order = rng.below(4);
        if (order == 1) std::reverse(a.cards.begin(), a.cards.end());
        if (order == 2 && !n.joker_end) shuffle(std::span<Card>(a.cards), rng);
        return a;
    }
    a.type = ActionType::extend;
    std::vector<int> changed; // melds extended earlier in this action
    for (const Meld& m : s.melds) {
        if (m.owner != seat) continue;
        Extension x = plan_extension(t, m, index, rng);
        if (x.low.empty() && x.high.empty()) continue;
        if (!t.rules().distinct_leaps) x.join = joinable(t, s, m, x, changed);
        changed.push_back(m.id);
        if (x.join) {
            // Joined melds are one from here on: the other is not extended on its own.
            a.extensions.push_back(std::move(x));
            break;
        }
        // Half the time the engine places the cards itself.
        if (rng.below(2) == 0 && x.low.empty() == false && x.high.empty()) {
            x.cards = std::move(x.low);
            x.low.clear();
        }
        a.extensions.push_back(std::move(x));
    }
    if (a.extensions.empty()) return std::nullopt;
    return a;
}

void hash_event(Hash& f, const Event& e) {
    f.add(static_cast<std::uint64_t>(e.type) | static_cast<std::uint64_t>(e.seat + 1) << 8 |
          static_cast<std::uint64_t>(e.count) << 16 | static_cast<std::uint64_t>(e.leap) << 24 |
          static_cast<std::uint64_t>(e.meld) << 32 | static_cast<std::uint64_t>(e.other) << 48);
    if (e.type == EventType::retired) f.add(static_cast<std::uint64_t>(e.score + (1 << 20)));
    std::uint64_t w = 0;
    int n = 0;
    for (Card c : e.cards) {
        w = w << 8 | c.code();
        if (++n == 8) {
            f.add(w);
            w = 0;
            n = 0;
        }
    }
    if (n) f.add(w);
}

// The properties that hold after every action; the first broken one, or empty.
std::string check_state(const State& s, const std::array<int, 256>& deck,
                        std::span<const Event> events, int actor) {
    if (card_census(s) != deck) return "a card is missing or in two places";
    const Table& t = *s.table;
    for (int k = 1; k <= t.leaps(); ++k) {
        int h = s.holder[static_cast<std::size_t>(k)];
        if (h >= 0 && s.players[static_cast<std::size_t>(h)].leap != k)
            return "leaptoken " + std::to_string(k) + " and its holder disagree";
    }
    for (std::size_t i = 0; i < s.players.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (s.players[i].leap != 0 && s.players[i].leap == s.players[j].leap)
                return "two players hold leap " + std::to_string(s.players[i].leap);
    std::array<LeapMask, 8> seen{};
    for (const Meld& m : s.melds) {
        const PlayerState& p = s.players[static_cast<std::size_t>(m.owner)];
        if (t.rules().distinct_leaps) {
            if (seen[static_cast<std::size_t>(m.owner)] >> m.leap & 1)
                return "a player has two melds in leap " + std::to_string(m.leap);
            seen[static_cast<std::size_t>(m.owner)] |= LeapMask{1} << m.leap;
        } else if (m.leap != p.leap) {
            return "meld #" + std::to_string(m.id) + " is outside its owner's leap";
        }
        if (m.length() < 3) return "a meld of fewer than 3 cards";
    }
    for (const Event& e : events)
        if (e.private_cards && e.seat != actor) return "private cards sent to another seat";
    return {};
}

} // namespace

Result<LeapReport> simulate_leap(const LeapOptions& o) {
    auto made = Table::make(o.rules, o.players);
    if (!made) return made.error();
    const std::shared_ptr<const Table> table = made.value();
    LeapReport rep;
    Rng rng(o.seed);
    Hash sig;
    std::vector<Card> deck = table->deck().cards();
    std::array<int, 256> composition{};
    for (Card c : deck) ++composition[(c.is_joker() ? Card::joker(0) : c).code()];
    std::vector<Event> events;
    events.reserve(64);
    std::vector<int> idle(static_cast<std::size_t>(o.players));
    std::vector<NewMeld> news; // the random player's scratch
    news.reserve(64);
    const auto begin = std::chrono::steady_clock::now();
    for (long g = 0; g < o.games && rep.failure.empty(); ++g) {
        shuffle(std::span<Card>(deck), rng);
        auto started = start_game(table, static_cast<int>(g % o.players), deck);
        if (!started) return started.error();
        State s = std::move(started).value().state;
        std::fill(idle.begin(), idle.end(), 0);
        long actions = 0;
        auto act = [&](const Action& a) {
            events.clear();
            if (auto err = apply_in_place(s, a, events)) {
                rep.failure = "game " + std::to_string(g) + ": the engine refused a legal " +
                              "action: " + err->message;
                return false;
            }
            for (const Event& e : events) hash_event(sig, e);
            if (o.check) {
                if (std::string why = check_state(s, composition, events, a.seat); !why.empty()) {
                    rep.failure = "game " + std::to_string(g) + ": " + why;
                    return false;
                }
            }
            return ++actions < kMaxActionsPerGame ||
                   (rep.failure = "game " + std::to_string(g) + " did not end", false);
        };
        while (s.phase != Phase::over) {
            const int seat = s.to_act;
            int& my_idle = idle[static_cast<std::size_t>(seat)];
            ++rep.turns;
            Action a;
            a.seat = seat;
            a.type = my_idle >= kIdleTurnsBeforeRetiring ? ActionType::retire : ActionType::pursue;
            if (!act(a)) break;
            if (a.type == ActionType::retire) continue;
            if (s.to_act != seat || s.phase != Phase::melding) { // nothing to draw or hold
                ++my_idle;
                continue;
            }
            if (std::optional<Action> m = choose_meld(s, rng, news)) {
                for (const Extension& x : m->extensions) rep.joins += x.join != 0;
                if (!act(*m)) break;
                ++rep.melds;
                my_idle = 0;
            } else {
                ++my_idle;
            }
            if (s.phase == Phase::melding && s.to_act == seat) {
                const auto& hand = s.players[static_cast<std::size_t>(seat)].hand;
                Action d;
                d.seat = seat;
                d.type = ActionType::discard;
                d.card = hand[static_cast<std::size_t>(rng.below(static_cast<int>(hand.size())))];
                if (!act(d)) break;
            }
        }
        if (!rep.failure.empty()) break;
        for (int i = 0; i < o.players; ++i) rep.scores += score(s, i);
        rep.players += o.players;
        ++rep.games;
    }
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    rep.signature = sig.h;
    return rep;
}

} // namespace felt::sim
