#include "tournament/director.h"

#include "tournament/deal.h"

#include <algorithm>
#include <cassert>

namespace felt::tournament {

Director::Director(Rules rules, std::span<const int> players) : rules_(std::move(rules)) {
    tables_ = seat_entrants(players, rules_.seats, rules_.seed);
    state_.resize(tables_.size());
    for (int id : players) players_[id] = Player{id, rules_.starting_stack, false};
    remaining_ = static_cast<int>(players.size());
    entrants_ = remaining_;
    entry_open_ = rules_.late_levels > 0 || rules_.rebuy_levels > 0 || rules_.add_on_stack > 0;
    pool_ = rules_.pool;
    prizes_ = prizes(rules_.payouts, remaining_, pool_);
}

Director::Director(Rules rules, const Standing& standing)
    : rules_(std::move(rules)), tables_(standing.tables), finishes_(standing.finishes),
      draws_(standing.draws), round_(standing.round), round_outs_(standing.round_outs),
      entry_open_(standing.entry_open), pool_(std::max(standing.pool, rules_.pool)),
      busts_(standing.busts), add_ons_(standing.add_ons), hands_ended_(standing.hands_ended) {
    state_.resize(tables_.size());
    for (const Standing::Player& p : standing.players)
        players_[p.id] = Player{p.id, p.stack, p.waiting};
    remaining_ = static_cast<int>(standing.players.size());
    entrants_ = standing.entrants;
    prizes_ = prizes(rules_.payouts, standing.entrants, pool_);
}

Standing Director::standing() const {
    Standing s;
    s.tables = tables_;
    // Chips bought during a hand count now: a restart voids the hand.
    for (const auto& [id, p] : players_) s.players.push_back({id, p.stack + p.pending, p.waiting});
    std::sort(s.players.begin(), s.players.end(),
              [](const Standing::Player& a, const Standing::Player& b) { return a.id < b.id; });
    s.finishes = finishes_;
    s.entrants = entrants_;
    s.draws = draws_;
    s.round = round_;
    s.round_outs = round_outs_;
    s.entry_open = entry_open_;
    s.pool = pool_;
    s.busts = busts_;
    s.add_ons = add_ons_;
    s.hands_ended = hands_ended_;
    return s;
}

void Director::not_dealt(int table) {
    if (const std::size_t i = index_of(table); i < tables_.size()) state_[i].in_hand = false;
}

Outcome Director::settle() {
    Outcome out;
    if (round_ > 0 && !in_hand() && !finished()) end_round(out); // its other hands were void
    if (!finished()) settle_breaks(out);
    return out;
}

bool Director::at_bubble() const {
    if (finished() || entry_open_ || tables_.size() < 2) return false;
    const auto paid = std::count_if(prizes_.begin(), prizes_.end(), [](Chips p) { return p > 0; });
    return remaining_ == static_cast<int>(paid) + 1;
}

bool Director::round_over() const {
    for (std::size_t i = 0; i < tables_.size(); ++i) {
        if (state_[i].in_hand) return false;
        if (state_[i].round == round_) continue;
        int live = 0; // players who can be dealt in (those out this round have no chips)
        for (int id : tables_[i].players)
            if (id >= 0 && players_.at(id).stack > 0) ++live;
        if (live >= 2 && !halted(tables_, i)) return false; // it has yet to play its hand
    }
    return true;
}

void Director::end_round(Outcome& out) {
    place_out(std::move(round_outs_), out);
    round_outs_.clear();
    if (finished()) {
        round_ = 0;
        return;
    }
    settle_breaks(out);
    if (!breaking())
        for (std::size_t i = 0; i < tables_.size(); ++i)
            for (const Move& m : balance(tables_, i, rules_.allowed)) {
                arrive(m);
                out.moves.push_back(m);
            }
    round_ = at_bubble() ? round_ + 1 : 0;
}

void Director::place_out(std::vector<Out> outs, Outcome& out) {
    if (outs.empty()) return;
    const auto placed = knocked_out(std::move(outs), remaining_, prizes_);
    remaining_ -= static_cast<int>(placed.size());
    for (const Finish& f : placed) {
        for (TableSeats& t : tables_)
            std::replace(t.players.begin(), t.players.end(), f.player, -1);
        players_.erase(f.player);
        finishes_.push_back(f);
        out.out.push_back(f);
    }
    if (remaining_ == 1) {
        const int winner = players_.begin()->first;
        out.won = Finish{winner, 1, prizes_.empty() ? Chips() : prizes_[0], false};
        finishes_.push_back(*out.won);
    }
}

std::size_t Director::index_of(int table) const {
    return static_cast<std::size_t>(
        std::find_if(tables_.begin(), tables_.end(),
                     [&](const TableSeats& t) { return t.id == table; }) -
        tables_.begin());
}

Chips Director::stack(int player) const {
    auto p = players_.find(player);
    return p == players_.end() ? Chips() : p->second.stack;
}

bool Director::breaking() const {
    return std::any_of(state_.begin(), state_.end(), [](const Table& x) { return x.breaking; });
}

Chips Director::chips() const {
    Chips sum{};
    for (const auto& [id, p] : players_) sum += p.stack + p.pending;
    return sum;
}

Blinds Director::next_blinds_at(std::size_t i) const {
    TableSeats active = tables_[i];
    for (int& id : active.players)
        if (id >= 0 && sits_out(id)) id = -1;
    // During a hand, the hand after it; between hands, the next.
    if (state_[i].in_hand) active.last = state_[i].dealt;
    return coming_blinds(active);
}

std::variant<Deal, Idle> Director::deal(int table, const Position& at) {
    if (finished()) return Idle::finished;
    const std::size_t i = index_of(table);
    if (i == tables_.size()) return Idle::no_table;
    TableSeats& t = tables_[i];
    Table& st = state_[i];
    if (st.in_hand) return Idle::in_hand;
    if (at.on_break) return Idle::on_break;
    if (st.breaking) return Idle::breaking;
    if (halted(tables_, i)) return Idle::halted;
    if (t.count() < 2) return Idle::short_of;
    // Hand-for-hand begins once no hand is being played; then each table deals once a round.
    if (round_ == 0 && at_bubble()) {
        if (in_hand()) return Idle::hand_for_hand;
        round_ = 1;
    }
    if (round_ > 0 && st.round == round_) return Idle::hand_for_hand;
    Blinds b = next_blinds_at(i);
    // Players who waited are dealt in once the button has passed them; with fewer than two
    // others nobody waits.
    int active = 0;
    for (int id : t.players)
        if (id >= 0 && !sits_out(id)) ++active;
    int with_chips = 0;
    for (int id : t.players)
        if (id >= 0 && players_.at(id).stack > 0) ++with_chips;
    if (with_chips < 2) return Idle::short_of; // the others are out of chips, deciding
    for (int k = 0; k < t.seats; ++k) {
        const int id = t.players[static_cast<std::size_t>(k)];
        if (id < 0 || players_.at(id).stack == 0) continue;
        Player& p = players_.at(id);
        if (p.waiting && (active < 2 || !waits(b, k, t.seats))) p.waiting = false;
    }
    if (active < 2) b = next_blinds_at(i);
    Deal d;
    d.table = table;
    d.level = at.level;
    d.blinds = b;
    d.stakes =
        stakes_of(level(rules_.structure, at.level), rules_.fixed_limit, rules_.bring_in_game);
    d.cap_heads_up = remaining_ > 2;
    d.stacks.assign(static_cast<std::size_t>(t.seats), Chips());
    d.players.assign(static_cast<std::size_t>(t.seats), -1);
    for (int k = 0; k < t.seats; ++k) {
        const int id = t.players[static_cast<std::size_t>(k)];
        if (id >= 0 && !sits_out(id)) {
            d.stacks[static_cast<std::size_t>(k)] = players_.at(id).stack;
            d.players[static_cast<std::size_t>(k)] = id;
        }
    }
    st.in_hand = true;
    st.dealt = b;
    st.started = d.stacks;
    st.round = round_;
    d.hand_for_hand = round_;
    return d;
}

void Director::arrive(const Move& m) {
    const std::size_t i = index_of(m.to_table);
    Player& p = players_.at(m.player);
    p.waiting = false;
    const TableSeats& t = tables_[i];
    int others = 0;
    for (int id : t.players)
        if (id >= 0 && id != m.player && !sits_out(id)) ++others;
    if (others < 2) return;
    // Where the next hand's blinds fall without the newcomer: between its button and its big
    // blind, they wait for the button to pass.
    TableSeats without = t;
    without.players[static_cast<std::size_t>(m.to_seat)] = -1;
    for (int& id : without.players)
        if (id >= 0 && sits_out(id)) id = -1;
    if (state_[i].in_hand) without.last = state_[i].dealt;
    p.waiting = waits(coming_blinds(without), m.to_seat, t.seats);
}

void Director::settle_breaks(Outcome& out) {
    for (Table& st : state_) st.breaking = false;
    while (auto b = table_to_break(tables_)) {
        if (state_[*b].in_hand) {
            state_[*b].breaking = true; // broken once its hand ends
            return;
        }
        const int id = tables_[*b].id;
        // Each break its own draw from the seed.
        const auto moves = break_table(tables_, *b, rules_.seed + 0x9e3779b97f4a7c15ULL * ++draws_);
        state_.erase(state_.begin() + static_cast<std::ptrdiff_t>(*b));
        out.broken.push_back(id);
        for (const Move& m : moves) {
            arrive(m);
            out.moves.push_back(m);
        }
    }
}

Outcome Director::hand_ended(int table, std::span<const Chips> stacks) {
    Outcome out;
    std::size_t i = index_of(table);
    assert(i < tables_.size() && state_[i].in_hand);
    Table& st = state_[i];
    TableSeats& t = tables_[i];
    st.in_hand = false;
    t.last = st.dealt;
    ++hands_ended_;
    Chips before{}, after{};
    std::vector<Out> outs;
    for (int k = 0; k < t.seats; ++k) {
        const auto seat = static_cast<std::size_t>(k);
        const Chips dealt = seat < st.started.size() ? st.started[seat] : Chips();
        if (!dealt) continue;
        const Chips now = seat < stacks.size() ? stacks[seat] : Chips();
        before += dealt;
        after += now;
        Player& p = players_.at(t.players[seat]);
        if (!now && p.pending > 0) out.bought_back.push_back(p.id);
        p.stack = now + p.pending; // what they bought during the hand
        p.pending = Chips();
        if (!p.stack) {
            if (entry_open_) { // not out yet: placed when the entries close
                busts_.push_back({p.id, hands_ended_, dealt, true});
                out.busted.push_back(p.id);
            } else {
                outs.push_back({p.id, dealt});
            }
        }
    }
    assert(before == after);
    (void)before;
    (void)after;
    if (round_ > 0 && st.round == round_) {
        // A hand of the round: its players out wait, chipless, for the round to end.
        round_outs_.insert(round_outs_.end(), outs.begin(), outs.end());
        if (round_over()) end_round(out);
        return out;
    }
    place_out(std::move(outs), out);
    if (finished()) return out;
    settle_breaks(out);
    // Balancing waits while a table is being broken: its players are about to move anyway.
    i = index_of(table);
    if (i < tables_.size() && !breaking())
        for (const Move& m : balance(tables_, i, rules_.allowed)) {
            arrive(m);
            out.moves.push_back(m);
        }
    return out;
}

} // namespace felt::tournament

namespace felt::tournament {

std::string_view deal_method_name(DealMethod m) {
    return m == DealMethod::icm ? "icm" : "chips";
}

std::optional<DealMethod> parse_deal_method(std::string_view name) {
    if (name == "icm") return DealMethod::icm;
    if (name == "chips") return DealMethod::chips;
    return std::nullopt;
}

bool Director::in_hand() const {
    return std::any_of(state_.begin(), state_.end(), [](const Table& x) { return x.in_hand; });
}

Result<DealTerms> Director::deal_terms(DealMethod method) const {
    if (finished()) return make_error(Errc::illegal_action, "the tournament is over");
    if (entry_open_)
        return make_error(Errc::illegal_action,
                          "a deal waits for the entries, rebuys and add-on to close");
    if (in_hand())
        return make_error(Errc::illegal_action,
                          "a deal is made between hands: one is being played");
    if (remaining_ > kMostDealPlayers)
        return make_error(Errc::bad_config, "a deal is made among at most " +
                                                std::to_string(kMostDealPlayers) + " players; " +
                                                std::to_string(remaining_) + " are still in");
    DealTerms t;
    t.method = method;
    for (const auto& [id, p] : players_) t.players.push_back(id);
    std::sort(t.players.begin(), t.players.end(), [&](int a, int b) {
        const Chips x = players_.at(a).stack, y = players_.at(b).stack;
        return x != y ? x > y : a < b;
    });
    for (int id : t.players) t.stacks.push_back(players_.at(id).stack);
    // The prizes of places 1 .. remaining_ (places below those paid pay nothing).
    const std::span<const Chips> left(prizes_.data(), std::min(prizes_.size(), t.players.size()));
    auto split = method == DealMethod::icm ? icm_deal(t.stacks, left) : chip_deal(t.stacks, left);
    if (!split) return split.error();
    t.prizes = std::move(*split);
    return t;
}

Result<Outcome> Director::end_by_deal(const DealTerms& terms) {
    auto now = deal_terms(terms.method);
    if (!now) return now.error();
    if (*now != terms)
        return make_error(Errc::illegal_action, "the stacks changed since the deal was offered");
    Outcome out;
    for (std::size_t i = 0; i < terms.players.size(); ++i) {
        const Finish f{terms.players[i], static_cast<int>(i) + 1, terms.prizes[i], false};
        if (i == 0)
            out.won = f;
        else
            out.out.push_back(f);
    }
    // Finishes in the order they came: the lowest place first, the winner last.
    for (auto f = out.out.rbegin(); f != out.out.rend(); ++f) finishes_.push_back(*f);
    finishes_.push_back(*out.won);
    for (TableSeats& t : tables_) std::fill(t.players.begin(), t.players.end(), -1);
    players_.clear();
    remaining_ = 0;
    return out;
}

} // namespace felt::tournament

namespace felt::tournament {

bool Director::sits_out(int id) const {
    const Player& p = players_.at(id);
    return p.waiting || p.stack == 0;
}

const Director::Player* Director::in_play(int id) const {
    const auto p = players_.find(id);
    return p == players_.end() ? nullptr : &p->second;
}

bool Director::player_in_hand(int id) const {
    for (std::size_t i = 0; i < tables_.size(); ++i)
        for (std::size_t k = 0; k < tables_[i].players.size(); ++k)
            if (tables_[i].players[k] == id)
                return state_[i].in_hand && k < state_[i].started.size() &&
                       state_[i].started[k] > 0;
    return false;
}

void Director::recompute_prizes() {
    prizes_ = prizes(rules_.payouts, entrants_, pool_);
}

void Director::bought() {
    pool_ = std::max(pool_ + rules_.price, rules_.guarantee);
    recompute_prizes();
}

void Director::free_seat(int id) {
    for (TableSeats& t : tables_) std::replace(t.players.begin(), t.players.end(), id, -1);
}

bool Director::entries_open(const Position& at) const {
    return entry_open_ && at.level <= rules_.late_levels &&
           !(at.on_break && at.level == rules_.late_levels);
}

bool Director::rebuys_open(const Position& at) const {
    return entry_open_ && at.level <= rules_.rebuy_levels &&
           !(at.on_break && at.level == rules_.rebuy_levels);
}

int Director::add_on_level() const {
    if (rules_.add_on_stack <= 0 || rules_.rebuy_levels <= 0) return 0;
    // The first break after the rebuy period's last level.
    int played = 0;
    for (const Level& l : rules_.structure.levels) {
        if (l.is_break()) {
            if (played >= rules_.rebuy_levels) return played;
            continue;
        }
        ++played;
    }
    return 0;
}

bool Director::add_on_open(const Position& at) const {
    const int level = add_on_level();
    return entry_open_ && level > 0 && at.on_break && at.level == level;
}

Result<Outcome> Director::enter(int player, const Position& at) {
    if (!entries_open(at))
        return make_error(Errc::illegal_action, "entries close at the end of level " +
                                                    std::to_string(rules_.late_levels));
    if (players_.count(player))
        return make_error(Errc::illegal_action, "that player is in already");
    Outcome out;
    players_[player] = Player{player, rules_.starting_stack, false, Chips()};
    ++entrants_;
    ++remaining_;
    bought();
    auto seated = seat_newcomer(tables_, player, rules_.seed + 0x632be59bd9b4e019ULL * ++draws_);
    if (!seated) { // every table is full: a new one, balanced from the others as they play
        TableSeats t;
        for (const TableSeats& x : tables_) t.id = std::max(t.id, x.id);
        ++t.id;
        t.seats = rules_.seats;
        t.players.assign(static_cast<std::size_t>(t.seats), -1);
        t.players[0] = player;
        t.last.button = 0;
        tables_.push_back(t);
        state_.emplace_back();
        out.opened.push_back(t.id);
        seated = Move{player, -1, -1, t.id, 0};
    }
    arrive(*seated);
    out.moves.push_back(*seated);
    return out;
}

Result<Outcome> Director::rebuy(int player, const Position& at) {
    if (!rebuys_open(at))
        return make_error(Errc::illegal_action, "rebuys are taken during the first " +
                                                    std::to_string(rules_.rebuy_levels) +
                                                    " levels only");
    const Player* p = in_play(player);
    const auto bust = std::find_if(busts_.begin(), busts_.end(),
                                   [&](const Bust& b) { return b.player == player; });
    if (!p || (bust != busts_.end() && !bust->seated))
        return make_error(Errc::illegal_action, "only a player still in may rebuy");
    if (p->stack + p->pending > rules_.rebuy_limit)
        return make_error(Errc::illegal_action,
                          "a rebuy is taken with at most " + to_string(rules_.rebuy_limit) +
                              " chips; this stack has " + to_string(p->stack + p->pending));
    Player& q = players_.at(player);
    if (player_in_hand(player))
        q.pending += rules_.rebuy_stack;
    else
        q.stack += rules_.rebuy_stack;
    if (bust != busts_.end()) busts_.erase(bust); // back in
    bought();
    return Outcome{};
}

Result<Outcome> Director::add_on(int player, const Position& at) {
    if (!add_on_open(at))
        return make_error(Errc::illegal_action,
                          add_on_level() > 0 ? "the add-on is taken at the break after level " +
                                                   std::to_string(add_on_level())
                                             : "this tournament has no add-on");
    const Player* p = in_play(player);
    if (!p || p->stack + p->pending == 0)
        return make_error(Errc::illegal_action, "only a player with chips may take the add-on");
    if (std::find(add_ons_.begin(), add_ons_.end(), player) != add_ons_.end())
        return make_error(Errc::illegal_action, "the add-on is taken once");
    Player& q = players_.at(player);
    if (player_in_hand(player))
        q.pending += rules_.add_on_stack;
    else
        q.stack += rules_.add_on_stack;
    add_ons_.push_back(player);
    bought();
    return Outcome{};
}

const Bust* Director::bust(int player) const {
    const auto b = std::find_if(busts_.begin(), busts_.end(),
                                [&](const Bust& x) { return x.player == player; });
    return b == busts_.end() ? nullptr : &*b;
}

Outcome Director::give_up_seat(int player) {
    Outcome out;
    const auto bust = std::find_if(busts_.begin(), busts_.end(),
                                   [&](const Bust& b) { return b.player == player; });
    if (bust == busts_.end() || !bust->seated) return out;
    bust->seated = false;
    free_seat(player);
    settle_breaks(out);
    return out;
}

Outcome Director::advance(const Position& at) {
    Outcome out;
    if (!entry_open_ || finished()) return out;
    const bool add_on_to_come = add_on_level() > 0 && at.level <= add_on_level();
    bool open = entries_open(at) || rebuys_open(at) || add_on_to_come;
    if (open) { // fewer than two with chips and nobody who may rebuy: it cannot go on
        int with_chips = 0;
        for (const auto& [id, p] : players_)
            if (p.stack + p.pending > 0) ++with_chips;
        const bool may_rebuy =
            rebuys_open(at) &&
            std::any_of(busts_.begin(), busts_.end(), [](const Bust& b) { return b.seated; });
        // With levels in minutes a late entry or a re-entry may still come, the clock running
        // on; with levels in hands no hand is dealt to end their window.
        const bool may_enter = entries_open(at) && !in_hands(rules_.structure);
        open = with_chips >= 2 || may_rebuy || may_enter;
    }
    if (!open) close_entries(out);
    return out;
}

void Director::close_entries(Outcome& out) {
    entry_open_ = false;
    recompute_prizes(); // final: no chip is bought from now on
    // The players out of chips in it, placed: the earliest lowest, those of one hand together.
    std::vector<Bust> busts = std::move(busts_);
    busts_.clear();
    std::stable_sort(busts.begin(), busts.end(),
                     [](const Bust& a, const Bust& b) { return a.hand < b.hand; });
    std::vector<Finish> placed;
    for (std::size_t i = 0; i < busts.size();) {
        std::vector<Out> group;
        const long hand = busts[i].hand;
        for (; i < busts.size() && busts[i].hand == hand; ++i)
            group.push_back({busts[i].player, busts[i].stack_at_start});
        for (const Finish& f : knocked_out(group, remaining_, prizes_)) placed.push_back(f);
        remaining_ -= static_cast<int>(group.size());
    }
    // Told best place first; kept as if they came one after another, the lowest first.
    std::sort(placed.begin(), placed.end(),
              [](const Finish& a, const Finish& b) { return a.place < b.place; });
    for (auto f = placed.rbegin(); f != placed.rend(); ++f) {
        free_seat(f->player);
        players_.erase(f->player);
        finishes_.push_back(*f);
    }
    out.out.insert(out.out.end(), placed.begin(), placed.end());
    if (remaining_ == 1 && !placed.empty()) {
        const int winner = players_.begin()->first;
        out.won = Finish{winner, 1, prizes_.empty() ? Chips() : prizes_[0], false};
        finishes_.push_back(*out.won);
        return;
    }
    if (finished()) return;
    settle_breaks(out);
    if (!breaking())
        for (std::size_t i = 0; i < tables_.size(); ++i)
            if (!state_[i].in_hand) // a table in a hand balances once it ends
                for (const Move& m : balance(tables_, i, rules_.allowed)) {
                    arrive(m);
                    out.moves.push_back(m);
                }
}

} // namespace felt::tournament
