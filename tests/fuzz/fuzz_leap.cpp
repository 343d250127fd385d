// libFuzzer: leap rummy's reducer driven by fuzzed games. The bytes choose the rules (ranks, suit
// rule, packs, jokers, distinct leaps, hand size), the players, the dealer and the deck's order,
// then actions: pursue, retire, melds and extensions of cards the player holds or not, joins, and
// discards. An action the engine refuses changes nothing; no card is made or lost; the player to
// act is always one who has not retired; at the end the chips settle without loss.
#include "fuzz_bytes.h"
#include "leap/leap_game.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

namespace {

using namespace felt;
using namespace felt::leap;

// Up to eight of `hand`'s cards chosen by a byte's bits, and now and then any card of the deck.
std::vector<Card> pick(fuzz::Bytes& in, const std::vector<Card>& hand,
                       const std::vector<Card>& deck) {
    std::vector<Card> out;
    const unsigned mask = in.next();
    for (std::size_t i = 0; i < hand.size() && i < 8; ++i)
        if (mask >> i & 1) out.push_back(hand[i]);
    if (in.next() % 8 == 0) out.push_back(deck[in.next() % deck.size()]);
    return out;
}

// What a refused action must leave as it was.
bool same(const State& a, const State& b) {
    if (a.phase != b.phase || a.to_act != b.to_act || a.melded != b.melded || a.turn != b.turn ||
        a.stock.size() != b.stock.size() || a.melds.size() != b.melds.size() ||
        a.holder != b.holder || card_census(a) != card_census(b))
        return false;
    for (std::size_t i = 0; i < a.players.size(); ++i)
        if (a.players[i].hand != b.players[i].hand || a.players[i].leap != b.players[i].leap ||
            a.players[i].retired != b.players[i].retired)
            return false;
    for (std::size_t i = 0; i < a.melds.size(); ++i)
        if (a.melds[i].id != b.melds[i].id || a.melds[i].cards != b.melds[i].cards) return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using fuzz::check;
    fuzz::Bytes in(data, size);
    Rules rules;
    const int ranks[] = {5, 7, 11, 12, 13, 17, 9};
    rules.ranks = ranks[in.next() % 7]; // 9 is no leap rummy deck: refused
    rules.suits = static_cast<SuitRule>(in.next() % 3);
    rules.packs = static_cast<int>(in.next() % 4);
    rules.jokers = static_cast<int>(in.next() % 4);
    rules.distinct_leaps = in.next() % 2 == 1;
    rules.hand_size = 1 + static_cast<int>(in.next() % 12);
    const int players = 1 + static_cast<int>(in.next() % 7);
    auto made = Table::make(rules, players);
    if (!made) return 0; // out of range: a refusal, as it should be
    const std::shared_ptr<const Table> table = made.value();
    std::vector<Card> deck = table->deck().cards();
    for (std::size_t i = deck.size(); i > 1; --i) std::swap(deck[i - 1], deck[in.next() % i]);
    auto started = start_game(table, static_cast<int>(in.next()) % players, deck);
    if (!started) return 0; // a deal larger than the deck
    State state = std::move(started.value().state);
    const auto census = card_census(state);
    std::vector<Event> events;
    for (int step = 0; step < 600 && state.phase != Phase::over && !in.done(); ++step) {
        check(!state.players[static_cast<std::size_t>(state.to_act)].retired);
        Action a;
        a.type = static_cast<ActionType>(in.next() % 5);
        a.seat = in.next() % 16 == 0 ? static_cast<int>(in.next() % 8) - 1 : state.to_act;
        const std::vector<Card>& hand =
            state
                .players[static_cast<std::size_t>(a.seat >= 0 && a.seat < players ? a.seat
                                                                                  : state.to_act)]
                .hand;
        switch (a.type) {
        case ActionType::meld:
            a.cards = pick(in, hand, deck);
            a.leap = static_cast<int>(in.next() % 10);
            break;
        case ActionType::extend:
            for (unsigned n = in.next() % 3; n > 0; --n) {
                Extension e;
                const unsigned which = in.next();
                e.meld = state.melds.empty() || which % 8 == 0
                             ? static_cast<int>(which)
                             : state.melds[which % state.melds.size()].id;
                const unsigned how = in.next() % 3;
                (how == 0 ? e.low : how == 1 ? e.high : e.cards) = pick(in, hand, deck);
                if (in.next() % 4 == 0 && !state.melds.empty())
                    e.join = state.melds[in.next() % state.melds.size()].id;
                a.extensions.push_back(std::move(e));
            }
            break;
        case ActionType::discard:
            a.card = !hand.empty() && in.next() % 8 != 0 ? hand[in.next() % hand.size()]
                                                         : deck[in.next() % deck.size()];
            break;
        default:
            break;
        }
        const State before = state;
        if (auto err = apply_in_place(state, a, events)) {
            check(!err->message.empty());
            check(same(state, before));
        }
        check(card_census(state) == census);
        check(state.stock.size() >= 0);
    }
    if (state.phase == Phase::over) {
        std::vector<int> scores;
        std::vector<Chips> stacks;
        for (int s = 0; s < players; ++s) {
            scores.push_back(score(state, s));
            stacks.push_back(Chips(in.next() * 3));
        }
        const std::vector<Chips> after = settle_chips(scores, stacks, Chips(1 + in.next() % 5));
        check(std::accumulate(after.begin(), after.end(), Chips()) ==
              std::accumulate(stacks.begin(), stacks.end(), Chips()));
        for (Chips c : after) check(c >= Chips());
    }
    return 0;
}
