#include "tournament_sim.h"

#include "poker/hand.h"
#include "random.h"
#include "rankings/ranking.h"
#include "simulate.h"
#include "tournament/director.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace felt::sim {

namespace {

using namespace felt::tournament;

poker::HandConfig config_of(const Deal& d, const poker::HandConfig& base, Rng& rng) {
    poker::HandConfig c = base;
    c.seats = static_cast<int>(d.stacks.size());
    for (std::size_t k = 0; k < d.stacks.size(); ++k) c.stacks[k] = d.stacks[k];
    c.button = d.blinds.button;
    c.small_blind_seat = d.blinds.small_poster();
    c.big_blind_seat = d.blinds.big_blind;
    c.stakes = {};
    c.stakes.small_blind = d.stakes.small_blind;
    c.stakes.big_blind = d.stakes.big_blind;
    c.stakes.ante = d.stakes.ante;
    c.stakes.bring_in = d.stakes.bring_in;
    c.stakes.small_bet = d.stakes.small_bet;
    c.stakes.big_bet = d.stakes.big_bet;
    if (d.stakes.big_blind_ante > 0) {
        c.stakes.seat_antes.assign(d.stacks.size(), Chips());
        c.stakes.seat_antes[static_cast<std::size_t>(d.blinds.big_blind)] = d.stakes.big_blind_ante;
        c.stakes.dead_antes = true;
    }
    c.cap_heads_up = d.cap_heads_up;
    shuffle(std::span(c.deck), rng);
    c.reshuffle_seed = rng();
    return c;
}

} // namespace

Result<TournamentReport> simulate_tournament(const TournamentOptions& o) {
    auto bad = [](std::string why) { return Error{Errc::bad_option, std::move(why)}; };
    Options game;
    game.variant = o.variant;
    game.structure = o.structure;
    game.players = 2;
    auto base = table_config(game);
    if (!base) return base.error();
    if (o.entrants < 2 || o.entrants > 100'000) return bad("entrants: 2 to 100000");
    if (o.seats < 2 || o.seats > base.value().variant->max_seats)
        return bad("seats: 2 to " + std::to_string(base.value().variant->max_seats));
    Rules r;
    auto turbo = preset("turbo");
    for (Level l : turbo->structure.levels) {
        l.minutes = 0;
        l.hands = std::max(1, o.hands_per_level);
        r.structure.levels.push_back(l);
    }
    r.starting_stack = o.starting_stack;
    r.pool = o.buy_in * o.entrants;
    r.late_levels = o.late_levels;
    r.rebuy_levels = o.rebuy_levels;
    r.rebuy_stack = o.starting_stack;
    r.rebuy_limit = o.starting_stack;
    r.price = o.buy_in;
    r.seats = o.seats;
    r.allowed = o.allowed;
    r.fixed_limit = base.value().structure == poker::Structure::fixed_limit;
    r.bring_in_game = base.value().variant->bring_in_opens();
    r.seed = o.seed;
    std::vector<int> players(static_cast<std::size_t>(o.entrants));
    for (int i = 0; i < o.entrants; ++i) players[static_cast<std::size_t>(i)] = i;

    TournamentReport rep;
    const auto t0 = std::chrono::steady_clock::now();
    Director dir(r, players);
    rep.tables = static_cast<int>(dir.tables().size());
    Rng rng(o.seed ^ 0x746f75726e616d65ull);
    Chips total = o.starting_stack * o.entrants;
    int entrants = o.entrants;
    std::map<int, std::shared_ptr<const poker::HandConfig>> running; // by table
    std::map<int, int> round_of;   // by table: the hand-for-hand round of its hand being played
    std::map<int, int> last_round; // by table: the last round it dealt in
    auto fail = [&](std::string why) {
        if (rep.failure.empty())
            rep.failure = "hand " + std::to_string(rep.hands) + ": " + std::move(why);
    };
    long next_restart = o.restart_every;
    while (!dir.finished() && rep.failure.empty()) {
        if (o.restart_every > 0 && rep.hands >= next_restart) {
            next_restart = rep.hands + o.restart_every;
            const Standing left = dir.standing();
            dir = Director(r, left);
            running.clear(); // void: the stacks are those from before them
            round_of.clear();
            last_round.clear();
            if (o.check && !(dir.standing() == left)) fail("the standing taken up differs");
            const Outcome settled = dir.settle();
            rep.moves += static_cast<long>(settled.moves.size());
            rep.broken += static_cast<int>(settled.broken.size());
            ++rep.restarts;
        }
        const auto tables =
            static_cast<std::int64_t>(std::max<std::size_t>(1, dir.tables().size()));
        const Position at = position(r.structure, rep.hands / tables);
        // The entry period: now and then a late entry; its close places those out of chips.
        if (rep.entered < o.late_entries && dir.entries_open(at) && rng.below(4) == 0) {
            auto in = dir.enter(entrants, at);
            if (!in) {
                fail(in.error().message);
                break;
            }
            ++entrants;
            ++rep.entered;
            total += o.starting_stack;
            rep.moves += static_cast<long>(in.value().moves.size());
        }
        if (o.check && dir.chips() != total)
            fail("chips in play after an entry " + to_string(dir.chips()));
        const Outcome closed = dir.advance(at);
        if (o.check && dir.chips() != total)
            fail("chips in play after the close " + to_string(dir.chips()));
        rep.moves += static_cast<long>(closed.moves.size());
        rep.broken += static_cast<int>(closed.broken.size());
        if (dir.finished()) break;
        for (const TableSeats& t : std::vector<TableSeats>(dir.tables())) {
            auto d = dir.deal(t.id, at);
            if (!std::holds_alternative<Deal>(d)) continue;
            if (const int round = std::get<Deal>(d).hand_for_hand; round > 0) {
                // Hand-for-hand: one hand a table in each round, and no round begins before
                // every hand of the one before has ended.
                ++rep.hand_for_hand;
                if (o.check && last_round[t.id] == round)
                    fail("table " + std::to_string(t.id) + " dealt twice in round " +
                         std::to_string(round));
                for (const auto& [other, r2] : round_of)
                    if (o.check && r2 != round)
                        fail("round " + std::to_string(round) + " began at table " +
                             std::to_string(t.id) + " while table " + std::to_string(other) +
                             " played a hand of round " + std::to_string(r2));
                last_round[t.id] = round;
            }
            round_of[t.id] = std::get<Deal>(d).hand_for_hand;
            running[t.id] = std::make_shared<const poker::HandConfig>(
                config_of(std::get<Deal>(d), base.value(), rng));
            ++rep.hands;
        }
        if (running.empty()) {
            // Players out of chips who kept their seats to rebuy let their time run out.
            bool gave_up = false;
            for (const tournament::Bust& b : dir.standing().busts)
                if (b.seated) {
                    dir.give_up_seat(b.player);
                    gave_up = true;
                }
            if (gave_up) continue;
            fail("no table can deal and the tournament is not over");
            break;
        }
        auto it = std::next(running.begin(), static_cast<long>(rng.below(running.size())));
        auto played = play_random_hand(it->second, rng());
        if (!played) {
            fail(played.error().message);
            break;
        }
        const int table = it->first;
        running.erase(it);
        const int round = round_of[table]; // balancing waits for the round's end
        round_of.erase(table);
        std::vector<Chips> stacks;
        for (int k = 0; k < played.value().state.config->seats; ++k)
            stacks.push_back(played.value().state.seats[static_cast<std::size_t>(k)].stack);
        const Outcome out = dir.hand_ended(table, stacks);
        rep.moves += static_cast<long>(out.moves.size());
        rep.broken += static_cast<int>(out.broken.size());
        for (int busted : out.busted) {
            const int choice = rng.below(3);
            if (choice == 0 && dir.rebuy(busted, at)) {
                ++rep.rebuys;
                total += o.starting_stack;
            } else if (choice == 1) {
                dir.give_up_seat(busted);
            }
            if (o.check && dir.chips() != total)
                fail("chips in play after a rebuy " + to_string(dir.chips()) + " of " +
                     to_string(total));
        }
        if (!o.check) continue;
        if (dir.chips() != total)
            fail("chips in play " + to_string(dir.chips()) + " of " + to_string(total));
        int fewest = o.seats;
        for (const TableSeats& t : dir.tables()) fewest = std::min(fewest, t.count());
        for (const TableSeats& t : dir.tables())
            if ((round == 0 ? t.id == table : dir.hand_for_hand() != round) && !dir.breaking() &&
                t.count() - fewest > o.allowed)
                fail("table " + std::to_string(table) + " has " + std::to_string(t.count()) +
                     " players, the shortest " + std::to_string(fewest));
        for (const Move& m : out.moves)
            if (m.from_table == m.to_table) fail("a move to the same table");
    }
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rep.finishes = dir.finishes();
    Hash h;
    for (const Finish& f : rep.finishes) {
        h.add(static_cast<std::uint64_t>(f.player));
        h.add(static_cast<std::uint64_t>(f.place));
        h.add(static_cast<std::uint64_t>(f.prize.value()));
    }
    rep.signature = h.h;
    if (o.check && rep.failure.empty()) {
        std::set<int> who, places;
        Chips paid{};
        for (const Finish& f : rep.finishes) {
            who.insert(f.player);
            places.insert(f.place);
            paid += f.prize;
        }
        const Chips pool = r.pool + o.buy_in * (rep.entered + rep.rebuys);
        if (static_cast<int>(who.size()) != entrants ||
            static_cast<int>(rep.finishes.size()) != entrants)
            fail("entrants finished: " + std::to_string(who.size()));
        else if (places.size() != who.size() || *places.begin() != 1 ||
                 *places.rbegin() != entrants)
            fail("places taken are not 1 to " + std::to_string(entrants));
        else if (paid != pool || dir.pool() != pool)
            fail("prizes paid " + to_string(paid) + " of a pool of " + to_string(pool));
        else if (rep.finishes.back().place != 1)
            fail("the last to finish is not the winner");
    }
    return rep;
}

} // namespace felt::sim
