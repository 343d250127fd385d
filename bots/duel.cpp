#include "duel.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace felt::bots {

using namespace poker;

namespace {

constexpr long kChunk = 500;         // deals a watcher sees before its statistics start again
constexpr std::int64_t kStack = 200; // 100 big blinds

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    Rng r(a * 0x9E3779B97F4A7C15ull ^ b);
    return r();
}

std::uint64_t key(const Profile& p) {
    return std::hash<std::string_view>{}(kind_name(p.kind)) ^
           std::hash<std::string_view>{}(p.personality.name) * 31;
}

struct Play {
    Chips a_won{};
    std::string failure;
};

// One hand: `a_seat` is bot A's seat; the deck and the button as given.
Play play(const DuelOptions& o, const std::shared_ptr<const HandConfig>& config, int a_seat,
          Watcher& watcher, std::uint64_t seed) {
    Play out;
    auto started = start_hand(config);
    if (!started) {
        out.failure = started.error().message;
        return out;
    }
    HandState state = std::move(started).value().state;
    watcher.start(state, started.value().events);
    std::array<Rng, 2> rngs{Rng(mix(seed, 1)), Rng(mix(seed, 2))};
    std::vector<Event> events;
    for (int guard = 0; state.phase != Phase::done; ++guard) {
        if (guard > 1000) {
            out.failure = "a hand with no end";
            return out;
        }
        const View v = watcher.view(state);
        const int seat = v.legal.seat;
        const Profile& who = seat == a_seat ? o.a : o.b;
        const Action a = decide(v, who, rngs[static_cast<std::size_t>(seat)]);
        events.clear();
        if (auto err = apply_in_place(state, a, events)) {
            out.failure = std::string(kind_name(who.kind)) + ": " + err->message;
            return out;
        }
        watcher.observe(state, events);
    }
    watcher.finish();
    out.a_won = state.seats[static_cast<std::size_t>(a_seat)].stack - Chips(kStack);
    return out;
}

void add(Style& to, const Stats& s) {
    to.hands += s.hands;
    to.vpip += s.vpip;
    to.pfr += s.pfr;
    to.aggressive += s.aggressive;
    to.calls += s.calls;
}

} // namespace

double Style::vpip_percent() const {
    return hands ? 100.0 * vpip / hands : 0;
}
double Style::pfr_percent() const {
    return hands ? 100.0 * pfr / hands : 0;
}
double Style::aggression_factor() const {
    return calls ? static_cast<double>(aggressive) / calls : 0;
}

DuelReport duel(const DuelOptions& o) {
    DuelReport r;
    const auto start = std::chrono::steady_clock::now();
    auto named = named_config("holdem", "no-limit", "standard", "none", 2);
    if (!named) {
        r.failure = named.error().message;
        return r;
    }
    HandConfig base = std::move(named).value();
    base.stakes.small_blind = Chips(1);
    base.stakes.big_blind = Chips(2);
    base.stacks[0] = base.stacks[1] = Chips(kStack);
    const std::vector<Card> pack = base.deck;

    std::vector<double> sums(static_cast<std::size_t>(std::max(0L, o.deals)));
    std::atomic<long> next{0};
    std::mutex mutex;
    auto work = [&] {
        for (;;) {
            const long first = next.fetch_add(kChunk);
            if (first >= o.deals) return;
            const long last = std::min(o.deals, first + kChunk);
            // A watcher a seating, so that each seat's statistics are one bot's.
            Watcher a_first, a_second;
            std::string failure;
            for (long d = first; d < last && failure.empty(); ++d) {
                HandConfig c = base;
                c.deck = pack;
                Rng shuffler(mix(o.seed, static_cast<std::uint64_t>(d)));
                sim::shuffle(std::span<Card>(c.deck), shuffler);
                c.button = static_cast<int>(d % 2);
                const auto config = std::make_shared<const HandConfig>(std::move(c));
                const std::uint64_t seed = mix(o.seed ^ 0xD0E1ull, static_cast<std::uint64_t>(d));
                // The bots' draws follow who sits where, not which play it is: a bot against
                // itself scores exactly nothing, and A against B is B against A negated.
                const std::uint64_t ka = key(o.a), kb = key(o.b);
                const Play p1 = play(o, config, 0, a_first, mix(seed, ka * 3 + kb));
                const Play p2 = play(o, config, 1, a_second, mix(seed, kb * 3 + ka));
                failure = !p1.failure.empty() ? p1.failure : p2.failure;
                if (!failure.empty()) failure = "deal " + std::to_string(d) + ": " + failure;
                sums[static_cast<std::size_t>(d)] =
                    static_cast<double>((p1.a_won + p2.a_won).value()) / 2.0; // big blinds
            }
            std::lock_guard lock(mutex);
            if (!failure.empty() && r.failure.empty()) r.failure = failure;
            add(r.a, a_first.stats(0));
            add(r.a, a_second.stats(1));
            add(r.b, a_first.stats(1));
            add(r.b, a_second.stats(0));
            if (!failure.empty()) next = o.deals;
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::max(1, o.threads); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();

    r.deals = o.deals;
    r.hands = 2 * o.deals;
    if (o.deals > 0) {
        double mean = 0;
        for (double s : sums) mean += s;
        mean /= static_cast<double>(o.deals);
        double var = 0;
        for (double s : sums) var += (s - mean) * (s - mean);
        var /= static_cast<double>(std::max(1L, o.deals - 1));
        // A deal is two hands: per hand, half its sum.
        const double half_width = 1.96 * std::sqrt(var / static_cast<double>(o.deals));
        r.bb_per_100 = mean / 2 * 100;
        r.ci_low = (mean - half_width) / 2 * 100;
        r.ci_high = (mean + half_width) / 2 * 100;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

} // namespace felt::bots
