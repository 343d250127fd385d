// libFuzzer: the betting engine driven by fuzzed hands. The bytes choose a variant, a structure,
// seats, stacks, the deck's order and the reshuffle seed, then actions: legal ones, and amounts
// and cards that may not be. An action the engine refuses changes nothing; every chip of the
// hand is where it was; nothing crashes.
#include "fuzz_bytes.h"
#include "poker/hand.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace felt;
    using namespace felt::poker;
    using fuzz::Bytes;
    using fuzz::check;
    Bytes in(data, size);
    const auto variants = builtin_variant_names();
    const std::string variant(variants[in.next() % variants.size()]);
    const char* structures[] = {"no-limit", "pot-limit", "fixed-limit"};
    const char* structure = structures[in.next() % 3];
    const int seats = 2 + static_cast<int>(in.next() % 8);
    auto named = named_config(variant, structure, "standard", "none", seats);
    if (!named) return 0; // too many seats for stud: a refusal, as it should be
    HandConfig c = std::move(named).value();
    const bool stud = c.variant->bring_in_opens();
    c.stakes.ante = stud ? Chips(1) : Chips(0);
    c.stakes.small_blind = stud ? Chips(0) : Chips(1);
    c.stakes.big_blind = stud ? Chips(0) : Chips(2);
    c.stakes.bring_in = stud ? Chips(1) : Chips(0);
    c.stakes.small_bet = Chips(2);
    c.stakes.big_bet = Chips(4);
    for (int i = 0; i < seats; ++i)
        c.stacks[static_cast<std::size_t>(i)] = Chips(in.next() % 4 == 0 ? 0 : 1 + in.next() * 2);
    c.button = static_cast<int>(in.next()) % seats;
    for (std::size_t i = c.deck.size(); i > 1; --i) std::swap(c.deck[i - 1], c.deck[in.next() % i]);
    c.reshuffle_seed = in.next() | in.next() << 8;
    auto started = start_hand(std::make_shared<const HandConfig>(c));
    if (!started) return 0; // fewer than two stacks, say
    HandState state = std::move(started.value().state);
    const Chips total = chips_in_play(state);
    std::vector<Event> events;
    for (int step = 0; step < 400 && state.phase != Phase::done && !in.done(); ++step) {
        const Legal& l = legal_actions(state);
        Action a;
        a.seat = in.next() % 16 == 0 ? static_cast<int>(in.next() % 10) : l.seat;
        a.type = static_cast<ActionType>(in.next() % 8);
        const unsigned pick = in.next();
        a.amount = pick < 128   ? l.min_to
                   : pick < 200 ? l.max_to
                                : Chips(static_cast<std::int64_t>(in.next() * 7) - 100);
        if (a.seat >= 0 && a.seat < seats) {
            const SeatState& p = state.seats[static_cast<std::size_t>(a.seat)];
            const unsigned mask = in.next();
            for (int i = 0; i < p.count && i < 8; ++i)
                if (mask >> i & 1) a.cards.push_back(p.cards[static_cast<std::size_t>(i)]);
        }
        const HandState before = state;
        if (auto err = apply_in_place(state, a, events)) {
            check(!err->message.empty());
            check(chips_in_play(state) == chips_in_play(before) && state.actor == before.actor &&
                  state.phase == before.phase && state.next_card == before.next_card);
        }
        check(chips_in_play(state) == total);
        for (int i = 0; i < seats; ++i) check(state.seats[static_cast<std::size_t>(i)].stack >= 0);
    }
    return 0;
}
