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
    prizes_ = prizes(rules_.payouts, remaining_, rules_.pool);
}

Director::Director(Rules rules, const Standing& standing)
    : rules_(std::move(rules)), tables_(standing.tables), finishes_(standing.finishes),
      draws_(standing.draws), round_(standing.round), round_outs_(standing.round_outs) {
    state_.resize(tables_.size());
    for (const Standing::Player& p : standing.players)
        players_[p.id] = Player{p.id, p.stack, p.waiting};
    remaining_ = static_cast<int>(standing.players.size());
    entrants_ = standing.entrants;
    prizes_ = prizes(rules_.payouts, standing.entrants, rules_.pool);
}

Standing Director::standing() const {
    Standing s;
    s.tables = tables_;
    for (const auto& [id, p] : players_) s.players.push_back({id, p.stack, p.waiting});
    std::sort(s.players.begin(), s.players.end(),
              [](const Standing::Player& a, const Standing::Player& b) { return a.id < b.id; });
    s.finishes = finishes_;
    s.entrants = entrants_;
    s.draws = draws_;
    s.round = round_;
    s.round_outs = round_outs_;
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
    if (finished() || tables_.size() < 2) return false;
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
    for (const auto& [id, p] : players_) sum += p.stack;
    return sum;
}

Blinds Director::next_blinds_at(std::size_t i) const {
    TableSeats active = tables_[i];
    for (int& id : active.players)
        if (id >= 0 && players_.at(id).waiting) id = -1;
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
        if (id >= 0 && !players_.at(id).waiting) ++active;
    for (int k = 0; k < t.seats; ++k) {
        const int id = t.players[static_cast<std::size_t>(k)];
        if (id < 0) continue;
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
        if (id >= 0 && !players_.at(id).waiting) {
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
        if (id >= 0 && id != m.player && !players_.at(id).waiting) ++others;
    if (others < 2) return;
    // Where the next hand's blinds fall without the newcomer: between its button and its big
    // blind, they wait for the button to pass.
    TableSeats without = t;
    without.players[static_cast<std::size_t>(m.to_seat)] = -1;
    for (int& id : without.players)
        if (id >= 0 && players_.at(id).waiting) id = -1;
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
    Chips before{}, after{};
    std::vector<Out> outs;
    for (int k = 0; k < t.seats; ++k) {
        const auto seat = static_cast<std::size_t>(k);
        const Chips dealt = seat < st.started.size() ? st.started[seat] : Chips();
        if (!dealt) continue;
        const Chips now = seat < stacks.size() ? stacks[seat] : Chips();
        before += dealt;
        after += now;
        players_.at(t.players[seat]).stack = now;
        if (!now) outs.push_back({t.players[seat], dealt});
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
