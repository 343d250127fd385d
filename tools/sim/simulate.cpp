#include "simulate.h"

#include "random.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>

namespace felt::sim {

using namespace poker;

namespace {

// One to three words an event: its fields, then its cards (up to nine codes, packed).
void hash_event(Hash& f, const Event& e) {
    f.add(static_cast<std::uint64_t>(e.type) | static_cast<std::uint64_t>(e.seat + 1) << 8 |
          static_cast<std::uint64_t>(e.visibility) << 16 |
          static_cast<std::uint64_t>(e.count) << 20 | static_cast<std::uint64_t>(e.pot + 1) << 24 |
          static_cast<std::uint64_t>(e.amount.value() + e.number) << 32);
    if (e.count == 0) return;
    static_assert(sizeof(Card) == 1);
    std::uint64_t cards;
    std::memcpy(&cards, e.cards.data(), 8); // the first eight codes, one a byte, first lowest
    if constexpr (std::endian::native == std::endian::big) cards = __builtin_bswap64(cards);
    f.add(cards);
    if (e.count > 8) f.add(e.cards[8].code());
}

// A random action among those legal_actions offers.
Action choose(const HandState& s, const Legal& l, Rng& rng) {
    Action a;
    a.seat = l.seat;
    const SeatState& p = s.seats[static_cast<std::size_t>(l.seat)];
    if (l.phase == Phase::drawing || l.phase == Phase::rollover) {
        a.type = l.phase == Phase::drawing ? ActionType::discard : ActionType::rollover;
        int n = l.phase == Phase::drawing
                    ? l.min_discard + rng.below(l.max_discard - l.min_discard + 1)
                    : l.rollover;
        if (l.phase == Phase::drawing && l.stand_pat && rng.below(4) == 0) n = 0; // stands pat
        std::array<int, 16> order{};
        int m = 0;
        for (int j = 0; j < p.count; ++j)
            if (l.phase == Phase::drawing || !(p.up >> j & 1))
                order[static_cast<std::size_t>(m++)] = j;
        for (int i = 0; i < n && i < m; ++i) {
            const int k = i + rng.below(m - i);
            std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(k)]);
            a.cards.push_back(
                p.cards[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])]);
        }
        return a;
    }
    if (l.bring_in) {
        if ((l.bet || l.raise) && rng.below(4) == 0) {
            a.type = l.bet ? ActionType::bet : ActionType::raise;
            a.amount = l.min_to;
        } else {
            a.type = ActionType::bring_in;
        }
        return a;
    }
    const int r = rng.below(100);
    if (l.fold && r < 15) {
        a.type = ActionType::fold;
    } else if ((l.bet || l.raise) && r >= 70) {
        a.type = l.bet ? ActionType::bet : ActionType::raise;
        // Mostly the minimum, sometimes anything up to all in (of two sizes, either).
        a.amount = rng.below(3) != 0 ? l.min_to
                   : l.two_sizes
                       ? l.max_to
                       : l.min_to + static_cast<Chips>(rng.below(static_cast<std::uint64_t>(
                                        (l.max_to - l.min_to).value() + 1)));
    } else {
        a.type = l.check ? ActionType::check : ActionType::call;
    }
    return a;
}

} // namespace

Result<Played> play_random_hand(std::shared_ptr<const HandConfig> config, std::uint64_t seed) {
    auto started = start_hand(std::move(config));
    if (!started) return started.error();
    Played out{std::move(started).value().state, {}};
    out.events = started.value().events;
    Rng rng(seed);
    while (out.state.phase != Phase::done) {
        const Legal l = legal_actions(out.state);
        if (auto err = apply_in_place(out.state, choose(out.state, l, rng), out.events))
            return *err;
    }
    return out;
}

std::string hex(std::uint64_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kDigits[v & 15];
    return out;
}

Result<HandConfig> table_config(const Options& o) {
    auto named = named_config(o.variant, o.structure, o.ranking, o.wild, o.players);
    if (!named) return named.error();
    HandConfig c = std::move(named).value();
    if (c.variant->bring_in_opens()) {
        c.stakes.ante = Chips(1);
        c.stakes.bring_in = Chips(2);
        c.stakes.small_bet = Chips(4);
        c.stakes.big_bet = Chips(8);
    } else {
        c.stakes.small_blind = Chips(1);
        c.stakes.big_blind = Chips(2);
        c.stakes.small_bet = Chips(2);
        c.stakes.big_bet = Chips(4);
    }
    c.rake.percent = o.rake_percent;
    c.rake.cap = Chips(10);
    const auto open_pair = parse_open_pair(o.open_pair);
    if (!open_pair)
        return make_error(Errc::bad_option,
                          "--open-pair is off, big_bet or choice, not \"" + o.open_pair + "\"");
    c.open_pair = *open_pair;
    return c;
}

Result<Report> simulate(const Options& o) {
    auto base = table_config(o);
    if (!base) return base.error();
    Report rep;
    Rng rng(o.seed);
    Hash sig;
    std::vector<Event> events;
    events.reserve(256);
    const auto start = std::chrono::steady_clock::now();
    const Chips unit = base->stakes.big_blind > 0 ? base->stakes.big_blind : base->stakes.small_bet;
    auto config = std::make_shared<HandConfig>(base.value());
    HandState state;
    for (long h = 0; h < o.hands; ++h) {
        // Once the last hand's state lets go of it, the configuration can be reused in place.
        state.config.reset();
        if (config.use_count() != 1) config = std::make_shared<HandConfig>(base.value());
        config->button = static_cast<int>(h % o.players);
        for (int i = 0; i < o.players; ++i)
            config->stacks[static_cast<std::size_t>(i)] =
                unit * (1 + static_cast<std::int64_t>(rng.below(200)));
        // Our own Fisher-Yates: std::shuffle's index choice is the library's to change.
        shuffle(std::span<Card>(config->deck), rng);
        config->reshuffle_seed = rng();
        Chips before{};
        for (Chips st : config->stacks) before += st;

        if (auto err = start_hand_in_place(config, state, events)) {
            rep.failure = "hand " + std::to_string(h) + ": " + err->message;
            break;
        }
        if (o.check)
            for (const Event& e : events) hash_event(sig, e);
        int guard = 0;
        // Hi-lo: chips won from each pot's high half and low half.
        std::array<std::array<Chips, 3>, kMaxSeats + 1> halves{};
        while (state.phase != Phase::done) {
            const Legal l = legal_actions(state);
            const Action a = choose(state, l, rng);
            events.clear();
            if (auto err = apply_in_place(state, a, events)) {
                rep.failure = "hand " + std::to_string(h) +
                              ": the engine refused an action it offered: " + err->message;
                break;
            }
            ++rep.actions;
            if (!o.check) continue;
            for (const Event& e : events) {
                hash_event(sig, e);
                if (e.type == EventType::win &&
                    state.seats[static_cast<std::size_t>(e.seat)].folded)
                    rep.failure = "hand " + std::to_string(h) + ": a pot went to a folded seat";
                if (e.type == EventType::show && e.number == 0) ++rep.showdowns;
                if (e.type == EventType::win && e.pot >= 0 && e.pot <= kMaxSeats)
                    halves[static_cast<std::size_t>(e.pot)]
                          [static_cast<std::size_t>(std::clamp<int>(e.number, 0, 2))] += e.amount;
            }
            if (!rep.failure.empty() || ++guard > 10000) break;
        }
        if (guard > 10000) rep.failure = "hand " + std::to_string(h) + ": no end in sight";
        if (!rep.failure.empty()) break;
        if (!o.check) {
            ++rep.hands;
            continue;
        }
        // A split pot: the low half is half the pot, rounded down; the odd chip is the high's.
        for (const auto& pot : halves) {
            const bool split = pot[1] > 0 || pot[2] > 0;
            if (split && (!config->variant->split_low || pot[0] > 0 || pot[1] < pot[2] ||
                          pot[1] - pot[2] > Chips(1)))
                rep.failure = "hand " + std::to_string(h) + ": a pot split " +
                              std::to_string(pot[1].value()) + " high, " +
                              std::to_string(pot[2].value()) + " low";
        }
        if (!rep.failure.empty()) break;
        Chips after = state.raked;
        for (const SeatState& p : state.seats) {
            after += p.stack;
            if (p.stack < 0) rep.failure = "hand " + std::to_string(h) + ": a stack went negative";
        }
        if (!rep.failure.empty()) break;
        if (after != before || chips_in_play(state) != before) {
            rep.chips_conserved = false;
            rep.failure = "hand " + std::to_string(h) + ": chips not conserved at the end";
            break;
        }
        for (const SeatState& p : state.seats) sig.add(static_cast<std::uint64_t>(p.stack.value()));
        ++rep.hands;
    }
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rep.signature = sig.h;
    return rep;
}

} // namespace felt::sim
