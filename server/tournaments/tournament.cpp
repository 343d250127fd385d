#include "tournaments/tournament.h"

#include "protocol/poker_config.h"
#include "protocol/tournament_state.h"
#include "storage/storage.h"
#include "tables/poker_game.h"
#include "tables/shuffle.h"
#include "tables/table.h"

#include <spdlog/spdlog.h>

namespace felt::server {

using nlohmann::json;

namespace {

const char* status_name(bool registering, bool running, bool on_break, bool finished) {
    return finished      ? "finished"
           : on_break    ? "break"
           : running     ? "running"
           : registering ? "registering"
                         : "running";
}

} // namespace

Tournament::Tournament(std::int64_t id, protocol::TournamentConfig config, std::int64_t creator,
                       std::string creator_name, Services& services, TournamentOutlet outlet)
    : id_(id), config_(std::move(config)), creator_(creator),
      creator_name_(std::move(creator_name)), services_(services), outlet_(std::move(outlet)),
      strand_(net::make_strand(services.io)), level_timer_(strand_) {}

tournament::Rules Tournament::rules(std::uint64_t seed) const {
    tournament::Rules r;
    r.structure = config_.levels;
    r.payouts = config_.payouts;
    r.starting_stack = config_.starting_stack;
    r.pool = config_.buy_in * static_cast<std::int64_t>(entrants_.size());
    r.seats = config_.seats;
    r.allowed = config_.balance_by;
    r.fixed_limit = config_.structure == "fixed-limit";
    const poker::Variant* v = poker::builtin_variant(config_.variant);
    r.bring_in_game = v && v->opener == poker::Opener::showing;
    r.seed = seed;
    return r;
}

tournament::Position Tournament::position() const {
    if (tournament::in_hands(config_.levels)) return tournament::position(config_.levels, hands_);
    if (status_ != Status::running) return tournament::position(config_.levels, 0);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started_);
    return tournament::position(config_.levels, ms.count());
}

json Tournament::level_json(int level) const {
    const tournament::Level l = tournament::level(config_.levels, level);
    const poker::Variant* v = poker::builtin_variant(config_.variant);
    const tournament::Stakes k = tournament::stakes_of(l, config_.structure == "fixed-limit",
                                                       v && v->opener == poker::Opener::showing);
    json j = {{"level", level}};
    for (const auto& [name, amount] :
         std::initializer_list<std::pair<const char*, Chips>>{{"small_blind", k.small_blind},
                                                              {"big_blind", k.big_blind},
                                                              {"ante", k.ante},
                                                              {"big_blind_ante", k.big_blind_ante},
                                                              {"small_bet", k.small_bet},
                                                              {"big_bet", k.big_bet},
                                                              {"bring_in", k.bring_in}})
        if (amount > 0) j[name] = amount;
    if (l.minutes > 0) j["minutes"] = l.minutes;
    if (l.hands > 0) j["hands"] = l.hands;
    return j;
}

json Tournament::summary() const {
    std::lock_guard lock(mutex_);
    return line();
}

json Tournament::line() const {
    const tournament::Position at = position();
    return {{"tournament", id_},
            {"format", config_.format},
            {"variant", config_.variant},
            {"structure", config_.structure},
            {"seats", config_.seats},
            {"buy_in", config_.buy_in},
            {"fee", config_.fee},
            {"starting_stack", config_.starting_stack},
            {"status",
             status_name(status_ == Status::registering, status_ == Status::running,
                         status_ == Status::running && at.on_break, status_ == Status::finished)},
            {"entrants", entrants_.size()},
            {"max_entrants", config_.max_entrants},
            {"creator", creator_name_}};
}

json Tournament::view() const {
    std::lock_guard lock(mutex_);
    json out = line();
    out["config"] = config_.to_json();
    const int field = std::max<int>(2, static_cast<int>(entrants_.size()));
    json prizes = json::array();
    for (Chips p : tournament::prizes(config_.payouts, field,
                                      config_.buy_in * static_cast<std::int64_t>(field)))
        prizes.push_back(p);
    out["prizes"] = prizes;
    json standings = json::array();
    for (std::size_t i = 0; i < entrants_.size(); ++i) {
        json s = {{"name", entrants_[i].name}, {"place", nullptr}, {"prize", 0}, {"tied", false}};
        if (director_) {
            for (const tournament::Finish& f : director_->finishes())
                if (f.player == static_cast<int>(i))
                    s = {{"name", entrants_[i].name},
                         {"place", f.place},
                         {"prize", f.prize},
                         {"tied", f.tied}};
            if (s["place"].is_null() || director_->finished())
                s["stack"] = director_->stack(static_cast<int>(i));
        }
        standings.push_back(std::move(s));
    }
    out["standings"] = standings;
    if (status_ == Status::running) {
        const tournament::Position at = position();
        out["level"] = level_json(at.level);
        out["on_break"] = at.on_break;
        out[tournament::in_hands(config_.levels) ? "hands_left" : "level_ms_left"] = at.left;
        json tables = json::array();
        for (const auto& [table, director_id] : tables_) tables.push_back(table);
        out["tables"] = tables;
    }
    return out;
}

bool Tournament::registering() const {
    std::lock_guard lock(mutex_);
    return status_ == Status::registering;
}

void Tournament::tell_all(const json& message) const {
    for (const Entrant& e : entrants_) outlet_.tell(e.account, message);
}

void Tournament::registered(const Account& a) {
    bool full = false;
    {
        std::lock_guard lock(mutex_);
        entrants_.push_back({a.id, a.name});
        full = status_ == Status::registering &&
               static_cast<int>(entrants_.size()) >= config_.max_entrants;
        if (full) status_ = Status::starting;
    }
    spdlog::info("tournament {}: {} registered", id_, a.name);
    if (full) net::post(strand_, [self = shared_from_this()] { self->start(); });
}

void Tournament::unregistered(std::int64_t account) {
    std::lock_guard lock(mutex_);
    std::erase_if(entrants_, [&](const Entrant& e) { return e.account == account; });
}

void Tournament::restore(std::vector<Entrant> entrants) {
    std::lock_guard lock(mutex_);
    entrants_ = std::move(entrants);
}

std::string Tournament::state() const {
    json j = protocol::standing_json(director_->standing());
    json accounts = json::array(); // the director's players, by index
    for (const Entrant& e : entrants_) accounts.push_back(e.account);
    j["accounts"] = accounts;
    json tables = json::array(); // feltd's table, the director's
    for (const auto& [table, director_table] : tables_) tables.push_back({table, director_table});
    j["table_ids"] = tables;
    j["seed"] = seed_;
    j["hands"] = hands_;
    if (status_ == Status::running)
        j["clock_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - started_)
                            .count();
    return j.dump();
}

protocol::Outcome<std::pair<protocol::PokerConfig, poker::HandConfig>>
Tournament::table_game() const {
    // The table's game: the tournament's variant and clocks, the first level's stakes (each hand
    // is dealt at its own level's).
    const tournament::Level first = tournament::level(config_.levels, 1);
    const tournament::Stakes k = tournament::stakes_of(
        first, config_.structure == "fixed-limit",
        poker::builtin_variant(config_.variant)->opener == poker::Opener::showing);
    json c = {{"variant", config_.variant},
              {"structure", config_.structure},
              {"seats", config_.seats},
              {"decision_ms", config_.decision_ms},
              {"time_bank_ms", config_.time_bank_ms},
              {"hand_delay_ms", config_.hand_delay_ms},
              {"min_buy_in", 1},
              {"max_buy_in", 1}};
    if (k.big_blind > 0) {
        c["small_blind"] = k.small_blind;
        c["big_blind"] = k.big_blind;
    } else {
        c["ante"] = k.ante;
        c["bring_in"] = std::min(k.bring_in, k.small_bet);
    }
    if (k.small_bet > 0) {
        c["small_bet"] = k.small_bet;
        c["big_bet"] = k.big_bet;
    }
    return protocol::decode_poker_config(c);
}

std::shared_ptr<Table> Tournament::open_table(std::int64_t table_id, int director_table,
                                              int hands) {
    auto game = table_game(); // decoded before: it decodes
    auto table = std::make_shared<Table>(
        table_id, poker_game(std::move(game.value->first), std::move(game.value->second)),
        services_);
    table->set_host(weak_from_this(), id_);
    table->continue_from(hands);
    services_.lobby.add(table, 0);
    std::vector<std::tuple<Entrant, int, Chips>> seated;
    {
        std::lock_guard lock(mutex_);
        for (const tournament::TableSeats& t : director_->tables()) {
            if (t.id != director_table) continue;
            for (int k = 0; k < t.seats; ++k)
                if (const int p = t.players[static_cast<std::size_t>(k)]; p >= 0)
                    seated.emplace_back(entrants_[static_cast<std::size_t>(p)], k,
                                        director_->stack(p));
        }
        tables_[table_id] = director_table;
        running_[director_table] = table;
    }
    for (const auto& [e, k, stack] : seated)
        table->seat_entrant(Account{e.account, e.name, false, Chips()}, Seat(k), stack);
    return table;
}

void Tournament::start() {
    {
        std::lock_guard lock(mutex_);
        std::vector<int> players(entrants_.size());
        for (std::size_t i = 0; i < players.size(); ++i) players[i] = static_cast<int>(i);
        seed_ = random_seed();
        director_.emplace(rules(seed_), players);
    }
    auto decoded = table_game();
    if (!decoded.ok()) {
        spdlog::error("tournament {}: its table cannot be made ({}); it stays registering", id_,
                      decoded.refusal.message);
        std::lock_guard lock(mutex_);
        status_ = Status::registering;
        return;
    }
    json stored_config = decoded.value->first.to_json();
    stored_config["tournament"] = id_;
    const int director_table = director_->tables().front().id;
    // The table's row first, so that the state written with the start names it (a restart
    // takes the tournament up at that table).
    services_.storage.write(
        [self = shared_from_this(), config = stored_config.dump(),
         director_table](Store& s) -> std::int64_t {
            const std::int64_t table = s.create_table(config, self->creator_);
            std::string state;
            {
                std::lock_guard lock(self->mutex_);
                self->tables_[table] = director_table;
                state = self->state();
            }
            if (s.start_tournament(self->id_, state)) return table;
            s.close_table(table);
            return 0;
        },
        strand_,
        [self = shared_from_this(), director_table](std::optional<std::int64_t> table_id) {
            if (!table_id || *table_id == 0) {
                spdlog::error("tournament {}: its start cannot be stored; it stays registering",
                              self->id_);
                std::lock_guard lock(self->mutex_);
                self->status_ = Status::registering;
                self->director_.reset();
                self->tables_.clear();
                return;
            }
            {
                std::lock_guard lock(self->mutex_);
                self->status_ = Status::running;
                self->started_ = std::chrono::steady_clock::now();
            }
            auto table = self->open_table(*table_id, director_table, 0);
            std::vector<std::pair<Entrant, int>> seated;
            {
                std::lock_guard lock(self->mutex_);
                const tournament::TableSeats& t = self->director_->tables().front();
                for (int k = 0; k < t.seats; ++k)
                    if (const int p = t.players[static_cast<std::size_t>(k)]; p >= 0)
                        seated.push_back({self->entrants_[static_cast<std::size_t>(p)], k});
            }
            spdlog::info("tournament {}: starts with {} players at table {}", self->id_,
                         seated.size(), *table_id);
            for (const auto& [e, k] : seated) {
                self->outlet_.attach(e.account, table);
                self->outlet_.tell(e.account, {{"type", "tournament"},
                                               {"kind", "started"},
                                               {"tournament", self->id_},
                                               {"table", *table_id},
                                               {"seat", k}});
            }
            table->poke();
            self->arm_level_timer();
        });
}

bool Tournament::resume(const TournamentRow& row, const std::map<std::int64_t, int>& table_hands) {
    const json state = json::parse(row.state, nullptr, false);
    auto standing = protocol::read_standing(state);
    if (!standing || !state.contains("accounts") || !state.contains("table_ids") ||
        !state["table_ids"].is_array() || state["table_ids"].empty())
        return false;
    std::vector<std::pair<std::int64_t, int>> tables; // feltd's id, the director's
    try {
        for (const json& t : state["table_ids"])
            tables.emplace_back(t.at(0).get<std::int64_t>(), t.at(1).get<int>());
        std::lock_guard lock(mutex_);
        entrants_.clear();
        for (const json& a : state["accounts"]) {
            const auto account = a.get<std::int64_t>();
            auto e = std::find_if(row.entries.begin(), row.entries.end(),
                                  [&](const TournamentEntry& x) { return x.account == account; });
            if (e == row.entries.end()) return false;
            entrants_.push_back({account, e->name});
        }
        seed_ = state.value("seed", std::uint64_t{0});
        hands_ = state.value("hands", 0L);
        // The level clock stood still while the server was down.
        started_ = std::chrono::steady_clock::now() -
                   std::chrono::milliseconds(state.value("clock_ms", std::int64_t{0}));
        director_.emplace(rules(seed_), *standing);
        status_ = Status::running;
    } catch (const json::exception&) {
        return false;
    }
    if (!table_game().ok()) return false;
    std::vector<std::shared_ptr<Table>> opened;
    for (const auto& [table, director_table] : tables) {
        const auto hands = table_hands.find(table);
        opened.push_back(
            open_table(table, director_table, hands == table_hands.end() ? 0 : hands->second));
    }
    spdlog::info("tournament {}: taken up where it stopped, {} players in", id_,
                 director_->remaining());
    for (const auto& t : opened) t->poke();
    arm_level_timer();
    return true;
}

std::vector<std::int64_t> Tournament::table_ids() const {
    std::lock_guard lock(mutex_);
    std::vector<std::int64_t> out;
    for (const auto& [table, director_table] : tables_) out.push_back(table);
    return out;
}

void Tournament::arm_level_timer() {
    if (tournament::in_hands(config_.levels)) return; // told as the hands reach each level
    const tournament::Position at = [&] {
        std::lock_guard lock(mutex_);
        return position();
    }();
    level_timer_.expires_after(std::chrono::milliseconds(at.left + 1));
    level_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (ec) return;
        std::vector<std::shared_ptr<Table>> tables;
        json told;
        {
            std::lock_guard lock(self->mutex_);
            if (self->status_ != Status::running) return;
            const tournament::Position now = self->position();
            told = now.on_break ? json{{"type", "tournament"},
                                       {"kind", "break"},
                                       {"tournament", self->id_},
                                       {"ms", now.left}}
                                : json{{"type", "tournament"},
                                       {"kind", "level"},
                                       {"tournament", self->id_},
                                       {"level", self->level_json(now.level)}};
            self->level_ = now.level;
            for (const auto& [id, t] : self->running_) tables.push_back(t);
            self->tell_all(told);
        }
        for (const auto& t : tables) t->poke(); // a break's end: the tables deal again
        self->arm_level_timer();
    });
}

std::optional<HostDeal> Tournament::next_deal(std::int64_t table) {
    std::lock_guard lock(mutex_);
    if (status_ != Status::running || !director_) return std::nullopt;
    const auto at_table = tables_.find(table);
    if (at_table == tables_.end()) return std::nullopt;
    const tournament::Position at = position();
    auto dealt = director_->deal(at_table->second, at);
    if (!std::holds_alternative<tournament::Deal>(dealt)) return std::nullopt;
    const tournament::Deal& d = std::get<tournament::Deal>(dealt);
    ++hands_;
    if (at.level != level_ && tournament::in_hands(config_.levels)) {
        level_ = at.level;
        tell_all({{"type", "tournament"},
                  {"kind", "level"},
                  {"tournament", id_},
                  {"level", level_json(at.level)}});
    }
    HostDeal h;
    for (std::size_t k = 0; k < d.stacks.size() && k < h.stacks.size(); ++k)
        h.stacks[k] = d.stacks[k];
    h.button = d.blinds.button;
    TournamentDeal& t = h.tournament;
    t.tournament = id_;
    t.level = d.level;
    t.small_blind = d.stakes.small_blind;
    t.big_blind = d.stakes.big_blind;
    t.ante = d.stakes.ante;
    t.big_blind_ante = d.stakes.big_blind_ante;
    t.small_bet = d.stakes.small_bet;
    t.big_bet = d.stakes.big_bet;
    t.bring_in = d.stakes.bring_in;
    t.small_blind_seat = d.blinds.small_poster();
    t.big_blind_seat = d.blinds.big_blind;
    t.cap_heads_up = d.cap_heads_up;
    return h;
}

TournamentChange Tournament::hand_ended(std::int64_t table, std::span<const Chips> stacks) {
    std::lock_guard lock(mutex_);
    TournamentChange c;
    c.tournament = id_;
    const auto at_table = tables_.find(table);
    if (!director_ || at_table == tables_.end()) return c;
    before_hand_ = *director_;
    pending_ = director_->hand_ended(at_table->second, stacks);
    auto entry = [&](const tournament::Finish& f) {
        return EntryFinish{entrants_[static_cast<std::size_t>(f.player)].account, f.place, f.prize,
                           f.tied};
    };
    for (const tournament::Finish& f : pending_.out) c.finished.push_back(entry(f));
    if (pending_.won) c.finished.push_back(entry(*pending_.won));
    c.over = pending_.won.has_value();
    c.state = state();
    return c;
}

void Tournament::push_balance(std::int64_t account) {
    services_.storage.read([account](Store& s) { return s.find_account(account); }, strand_,
                           [self = shared_from_this(), account](auto found) {
                               if (found && *found && self->services_.balance_changed)
                                   self->services_.balance_changed(account, (*found)->balance);
                           });
}

void Tournament::settled(std::int64_t table, bool ok) {
    std::vector<std::shared_ptr<Table>> done;
    std::vector<std::int64_t> paid;
    {
        std::lock_guard lock(mutex_);
        const auto at_table = tables_.find(table);
        if (!director_ || at_table == tables_.end()) return;
        if (!ok) { // the hand is void: as if it never was
            director_ = before_hand_;
            director_->not_dealt(at_table->second);
            return;
        }
        const tournament::Outcome o = std::move(pending_);
        pending_ = {};
        std::vector<tournament::Finish> finishes = o.out;
        if (o.won) finishes.push_back(*o.won);
        for (const tournament::Finish& f : finishes) {
            const Entrant& e = entrants_[static_cast<std::size_t>(f.player)];
            spdlog::info("tournament {}: {} finishes {}{}, prize {}", id_, e.name, f.place,
                         f.tied ? " (tied)" : "", f.prize);
            outlet_.tell(e.account, {{"type", "tournament"},
                                     {"kind", o.won && f.place == 1 ? "won" : "out"},
                                     {"tournament", id_},
                                     {"place", f.place},
                                     {"prize", f.prize},
                                     {"tied", f.tied}});
            if (f.prize > 0) paid.push_back(e.account);
        }
        if (o.won) {
            status_ = Status::finished;
            level_timer_.cancel();
            json standings = json::array();
            for (const tournament::Finish& f : director_->finishes())
                standings.push_back({{"name", entrants_[static_cast<std::size_t>(f.player)].name},
                                     {"place", f.place},
                                     {"prize", f.prize},
                                     {"tied", f.tied}});
            tell_all({{"type", "tournament"},
                      {"kind", "finished"},
                      {"tournament", id_},
                      {"standings", standings}});
            for (const auto& [id, t] : running_) done.push_back(t);
            spdlog::info("tournament {}: over", id_);
        }
    }
    for (std::int64_t account : paid) push_balance(account);
    for (const auto& t : done) t->end_hosting("tournament over");
}

void Tournament::not_dealt(std::int64_t table) {
    std::lock_guard lock(mutex_);
    if (const auto at_table = tables_.find(table); director_ && at_table != tables_.end())
        director_->not_dealt(at_table->second);
}

void Tournaments::add(std::shared_ptr<Tournament> t) {
    std::lock_guard lock(mutex_);
    all_[t->id()] = std::move(t);
}

std::shared_ptr<Tournament> Tournaments::find(std::int64_t id) {
    std::lock_guard lock(mutex_);
    auto it = all_.find(id);
    return it == all_.end() ? nullptr : it->second;
}

json Tournaments::lines() {
    std::vector<std::shared_ptr<Tournament>> all;
    {
        std::lock_guard lock(mutex_);
        for (auto it = all_.rbegin(); it != all_.rend(); ++it) all.push_back(it->second);
    }
    json out = json::array();
    for (const auto& t : all) out.push_back(t->summary());
    return out;
}

std::vector<std::pair<std::int64_t, Chips>> stacks_in(const std::string& state) {
    std::vector<std::pair<std::int64_t, Chips>> out;
    const json j = json::parse(state, nullptr, false);
    if (!j.is_object() || !j.contains("accounts") || !j["accounts"].is_array()) return out;
    const auto standing = protocol::read_standing(j);
    if (!standing) return out;
    const json& accounts = j["accounts"];
    for (const tournament::Standing::Player& p : standing->players)
        if (p.id >= 0 && static_cast<std::size_t>(p.id) < accounts.size() &&
            accounts[static_cast<std::size_t>(p.id)].is_number_integer())
            out.push_back({accounts[static_cast<std::size_t>(p.id)].get<std::int64_t>(), p.stack});
    return out;
}

void open_tournaments(std::vector<TournamentRow> rows, std::map<std::int64_t, int> tables,
                      Storage& storage, Tournaments& registry, Services& services,
                      const TournamentOutlet& outlet, const net::any_io_executor& ex) {
    for (TournamentRow& row : rows) {
        auto config =
            protocol::decode_tournament_config(json::parse(row.config, nullptr, false), 0);
        if (row.status == "running" && config.ok()) {
            auto t = std::make_shared<Tournament>(row.id, *config.value, row.creator,
                                                  row.creator_name, services, outlet);
            if (t->resume(row, tables)) {
                for (std::int64_t id : t->table_ids()) tables.erase(id);
                registry.add(std::move(t));
                continue;
            }
        }
        if (row.status == "registering" && config.ok()) {
            auto t = std::make_shared<Tournament>(row.id, std::move(*config.value), row.creator,
                                                  row.creator_name, services, outlet);
            std::vector<Tournament::Entrant> entrants;
            for (const TournamentEntry& e : row.entries) entrants.push_back({e.account, e.name});
            t->restore(std::move(entrants));
            registry.add(std::move(t));
            spdlog::info("tournament {} registering again, with {} entries", row.id,
                         row.entries.size());
            continue;
        }
        // A running one that cannot be taken up: cancelled, the pool left shared by the stacks
        // after its last hand written.
        if (config.ok())
            spdlog::warn("tournament {} cannot be taken up where it stopped: cancelled, its pool "
                         "shared by the stacks of its last hand",
                         row.id);
        else
            spdlog::error("tournament {}: its configuration does not decode ({}): cancelled",
                          row.id, config.refusal.message);
        storage.write(
            [id = row.id, stacks = stacks_in(row.state)](Store& s) {
                s.cancel_tournament(id, stacks);
                return true;
            },
            ex, [](std::optional<bool>) {});
    }
    // The tables of tournaments not taken up close.
    for (const auto& [id, hands] : tables)
        storage.write(
            [id](Store& s) {
                s.close_table(id);
                return true;
            },
            ex, [](std::optional<bool>) {});
}

} // namespace felt::server
