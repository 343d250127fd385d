#include "tournaments/tournament.h"

#include "protocol/poker_config.h"
#include "protocol/tournament_state.h"
#include "storage/storage.h"
#include "tables/poker_game.h"
#include "tables/shuffle.h"
#include "tables/table.h"
#include "tournament/deal.h"

#include <spdlog/spdlog.h>

#include <unordered_set>

namespace felt::server {

using nlohmann::json;

namespace {

std::int64_t now_s() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// One change after another, as one.
void merge(tournament::Outcome& into, tournament::Outcome from) {
    auto append = [](auto& to, auto& more) { to.insert(to.end(), more.begin(), more.end()); };
    append(into.out, from.out);
    append(into.moves, from.moves);
    append(into.broken, from.broken);
    append(into.opened, from.opened);
    append(into.busted, from.busted);
    append(into.bought_back, from.bought_back);
    if (from.won) into.won = from.won;
}

} // namespace

Tournament::Tournament(std::int64_t id, protocol::TournamentConfig config, std::int64_t creator,
                       std::string creator_name, Services& services, TournamentOutlet outlet)
    : id_(id), config_(std::move(config)), creator_(creator),
      creator_name_(std::move(creator_name)), services_(services), outlet_(std::move(outlet)),
      strand_(net::make_strand(services.io)), level_timer_(strand_), start_timer_(strand_),
      deal_timer_(strand_), bust_timer_(strand_) {}

tournament::Rules Tournament::rules(std::uint64_t seed) const {
    tournament::Rules r;
    r.structure = config_.levels;
    r.payouts = config_.payouts;
    r.starting_stack = config_.starting_stack;
    r.pool = pool(static_cast<int>(entrants_.size()));
    r.late_levels = std::max(config_.late_registration_levels, config_.reentry_levels);
    r.rebuy_levels = config_.rebuy_levels;
    r.rebuy_stack = config_.rebuy_stack;
    r.rebuy_limit = config_.rebuy_stack_limit;
    r.add_on_stack = config_.add_on_stack;
    r.price = config_.buy_in;
    r.guarantee = config_.guarantee;
    r.seats = config_.seats;
    r.allowed = config_.balance_by;
    r.fixed_limit = config_.structure == "fixed-limit";
    const poker::Variant* v = poker::builtin_variant(config_.variant);
    r.bring_in_game = v && v->bring_in_opens();
    r.seed = seed;
    return r;
}

Chips Tournament::pool(int entries) const {
    return std::max(config_.guarantee, config_.buy_in * static_cast<std::int64_t>(entries));
}

tournament::Position Tournament::position() const {
    if (tournament::in_hands(config_.levels)) return tournament::position(config_.levels, hands_);
    if (status_ != Status::running) return tournament::position(config_.levels, 0);
    return tournament::position(config_.levels, clock_ms());
}

std::int64_t Tournament::clock_ms() const {
    const auto real = std::chrono::duration_cast<std::chrono::milliseconds>(
        paused_.value_or(std::chrono::steady_clock::now()) - started_);
    return real.count() * 60'000 / services_.tournament_minute_ms;
}

std::chrono::milliseconds Tournament::real_ms(std::int64_t clock_ms) const {
    return std::chrono::milliseconds(clock_ms * services_.tournament_minute_ms / 60'000);
}

json Tournament::level_json(int level) const {
    const tournament::Level l = tournament::level(config_.levels, level);
    const poker::Variant* v = poker::builtin_variant(config_.variant);
    tournament::Stakes k =
        tournament::stakes_of(l, config_.structure == "fixed-limit", v && v->bring_in_opens());
    if (!config_.games.empty()) {
        // A mixed tournament: the blinds, the bets and the stud games' bring-in and ante.
        k = tournament::stakes_of(l, true, false);
        const tournament::Stakes stud = tournament::stakes_of(l, true, true);
        k.bring_in = stud.bring_in;
        k.ante = stud.ante;
    }
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
    const char* status = "registering";
    switch (status_) {
    case Status::registering:
        break;
    case Status::starting:
        status = "registering";
        break;
    case Status::running:
        status = at.on_break ? "break" : "running";
        break;
    case Status::finished:
        status = "finished";
        break;
    case Status::cancelled:
        status = "cancelled";
        break;
    }
    json out = tournament_line(id_, config_, status, entrants_.size(), creator_name_);
    if (director_ && status_ == Status::running) out["remaining"] = director_->remaining();
    return out;
}

json tournament_line(std::int64_t id, const protocol::TournamentConfig& c,
                     const std::string& status, std::size_t entrants, const std::string& creator) {
    json out = {{"tournament", id},
                {"format", c.format},
                {"variant", c.variant},
                {"structure", c.structure},
                {"seats", c.seats},
                {"buy_in", c.buy_in},
                {"fee", c.fee},
                {"starting_stack", c.starting_stack},
                {"status", status},
                {"entrants", entrants},
                {"max_entrants", c.max_entrants},
                {"creator", creator}};
    if (c.guarantee > 0) out["guarantee"] = c.guarantee;
    if (c.late_registration_levels > 0)
        out["late_registration_levels"] = c.late_registration_levels;
    if (c.reentries > 0) out["reentries"] = c.reentries;
    if (c.rebuy_levels > 0) out["rebuy_levels"] = c.rebuy_levels;
    if (c.add_on_stack > 0) out["add_on_stack"] = c.add_on_stack;
    if (!c.games.empty()) { // a mixed tournament: its mix, or "mixed" for the host's list
        out["games"] = c.mix.empty() ? std::string("mixed") : c.mix;
        if (c.rotate_hands > 0) out["rotate_hands"] = c.rotate_hands;
    }
    if (c.format == "multi-table") {
        out["min_entrants"] = c.min_entrants;
        out["start_at"] = c.start_at;
    }
    return out;
}

json Tournament::view() const {
    std::lock_guard lock(mutex_);
    json out = line();
    out["config"] = config_.to_json();
    // The prizes for the field so far; a sit-and-go's, for its seats (it starts only full).
    const int field = config_.format == "sit-and-go"
                          ? config_.max_entrants
                          : std::max<int>(2, static_cast<int>(entrants_.size()));
    // Running: the entries so far, and the pool with every purchase.
    const bool counted = director_ && status_ != Status::registering;
    const int entries = counted ? static_cast<int>(entrants_.size()) : field;
    const Chips pool_now = counted ? director_->pool() : pool(field);
    json prizes = json::array();
    for (Chips p : tournament::prizes(config_.payouts, entries, pool_now)) prizes.push_back(p);
    out["prizes"] = prizes;
    out["pool"] = pool_now;
    std::map<int, std::int64_t> table_of; // players still in -> feltd's table
    if (director_ && status_ == Status::running)
        for (const auto& [table, director_table] : tables_)
            for (const tournament::TableSeats& t : director_->tables())
                if (t.id == director_table)
                    for (int p : t.players)
                        if (p >= 0) table_of[p] = table;
    json standings = json::array();
    std::unordered_map<std::int64_t, int> entry_count; // by account so far: which entry each is
    for (std::size_t i = 0; i < entrants_.size(); ++i) {
        const int entry = ++entry_count[entrants_[i].account];
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
            if (const auto t = table_of.find(static_cast<int>(i)); t != table_of.end())
                s["table"] = t->second;
            if (director_->bust(static_cast<int>(i))) s["busted"] = true;
            if (entry > 1) s["entry"] = entry;
        }
        standings.push_back(std::move(s));
    }
    out["standings"] = standings;
    if (offer_) out["deal"] = deal_json();
    if (director_ && director_->hand_for_hand() > 0)
        out["hand_for_hand"] = director_->hand_for_hand();
    if (director_) {
        out["hands"] = hands_;
        out["longest_wait_ms"] = longest_wait_ms_;
    }
    if (status_ == Status::running) {
        const tournament::Position at = position();
        out["level"] = level_json(at.level);
        out["on_break"] = at.on_break;
        if (director_->entry_open()) {
            out["entry_open"] = true;
            out["late_registration_open"] =
                director_->entries_open(at) && at.level <= config_.late_registration_levels &&
                !(at.on_break && at.level == config_.late_registration_levels);
            out["reentry_open"] = director_->entries_open(at) &&
                                  at.level <= config_.reentry_levels &&
                                  !(at.on_break && at.level == config_.reentry_levels);
            out["rebuys_open"] = director_->rebuys_open(at);
            out["add_on_open"] = director_->add_on_open(at);
        }
        if (tournament::in_hands(config_.levels))
            out["hands_left"] = at.left;
        else
            out["level_ms_left"] = real_ms(at.left).count();
        json tables = json::array(); // those not broken
        for (const auto& [table, director_table] : tables_)
            if (director_->has_table(director_table)) tables.push_back(table);
        out["tables"] = tables;
        if (director_->remaining() > 0)
            out["average_stack"] = director_->chips() / director_->remaining();
    }
    return out;
}

bool Tournament::registering() const {
    std::lock_guard lock(mutex_);
    return status_ == Status::registering;
}

void Tournament::tell_all(TournamentNews& news, const json& message) const {
    const auto text = std::make_shared<const std::string>(message.dump());
    std::unordered_set<std::int64_t> told; // an account re-entered is told once
    for (const Entrant& e : entrants_)
        if (told.insert(e.account).second) news.told[e.account].push_back(text);
}

void Tournament::send(TournamentNews news) const {
    if (!news.empty()) outlet_.send(std::make_shared<const TournamentNews>(std::move(news)));
}

void Tournament::registered(const Account& a) {
    bool full = false;
    {
        std::lock_guard lock(mutex_);
        // Once registration closes the entries are those storage holds (start()).
        if (status_ != Status::registering) return;
        entrants_.push_back({a.id, a.name});
        full = config_.format == "sit-and-go" &&
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

void Tournament::arm_start() {
    if (config_.format != "multi-table") return;
    start_after(std::chrono::seconds(std::max<std::int64_t>(0, config_.start_at - now_s())));
}

void Tournament::start_after(std::chrono::seconds wait) {
    start_timer_.expires_after(wait);
    start_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (ec) return;
        {
            std::lock_guard lock(self->mutex_);
            if (self->status_ != Status::registering) return;
            self->status_ = Status::starting;
        }
        self->start();
    });
}

std::string Tournament::state() const {
    json j = protocol::standing_json(director_->standing());
    json accounts = json::array(); // the director's players, by index
    for (const Entrant& e : entrants_) accounts.push_back(e.account);
    j["accounts"] = accounts;
    json tables = json::array(); // feltd's table, the director's: those not broken
    for (const auto& [table, director_table] : tables_)
        if (director_->has_table(director_table)) tables.push_back({table, director_table});
    j["table_ids"] = tables;
    j["seed"] = seed_;
    j["hands"] = hands_;
    j["seq"] = changes_;
    if (status_ == Status::running) j["clock_ms"] = clock_ms();
    return j.dump();
}

protocol::Outcome<std::pair<protocol::PokerConfig, poker::HandConfig>>
Tournament::table_game() const {
    // The table's game: the tournament's variant and clocks, the first level's stakes (each hand
    // is dealt at its own level's).
    const tournament::Level first = tournament::level(config_.levels, 1);
    const tournament::Stakes k =
        tournament::stakes_of(first, config_.structure == "fixed-limit",
                              poker::builtin_variant(config_.variant)->bring_in_opens());
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

std::string Tournament::table_config() const {
    json c = table_game().value->first.to_json(); // decoded before: it decodes
    c["tournament"] = id_;
    return c.dump();
}

std::shared_ptr<Table> Tournament::make_table(std::int64_t table_id, int director_table,
                                              int hands) {
    auto game = table_game(); // decoded before: it decodes
    auto table = std::make_shared<Table>(
        table_id, poker_game(std::move(game.value->first), std::move(game.value->second)),
        services_);
    table->set_host(weak_from_this(), id_);
    table->continue_from(hands);
    services_.lobby.add(table, 0);
    tables_[table_id] = director_table;
    running_[director_table] = table;
    return table;
}

Tournament::Opened Tournament::open_table(std::int64_t table_id, int director_table, int hands) {
    Opened o;
    std::vector<Chips> stacks;
    {
        std::lock_guard lock(mutex_);
        o.table = make_table(table_id, director_table, hands);
        for (const tournament::TableSeats& t : director_->tables()) {
            if (t.id != director_table) continue;
            for (int k = 0; k < t.seats; ++k)
                if (const int p = t.players[static_cast<std::size_t>(k)]; p >= 0) {
                    o.seated.emplace_back(entrants_[static_cast<std::size_t>(p)], k);
                    stacks.push_back(director_->stack(p));
                }
        }
    }
    for (std::size_t i = 0; i < o.seated.size(); ++i) {
        const auto& [e, k] = o.seated[i];
        o.table->seat_entrant(Account{e.account, e.name, false, Chips()}, Seat(k), stacks[i]);
    }
    return o;
}

void Tournament::start() {
    auto decoded = table_game();
    if (!decoded.ok()) {
        spdlog::error("tournament {}: its table cannot be made ({}); it stays registering", id_,
                      decoded.refusal.message);
        std::lock_guard lock(mutex_);
        status_ = Status::registering;
        return;
    }
    // Who plays is who storage holds registered when registration closes, in the order they
    // registered: an entry written before the start plays, one after it is refused. The tables'
    // rows are made with the start, so that the state written with it names them (a restart
    // takes the tournament up at them).
    services_.storage.write(
        [self = shared_from_this(), config = table_config()](Store& s) -> Started {
            Started out;
            const auto row = s.tournament(self->id_);
            if (!row || row->status != "registering") return out;
            std::vector<Entrant> entrants;
            for (const TournamentEntry& e : row->entries) entrants.push_back({e.account, e.name});
            if (static_cast<int>(entrants.size()) < self->config_.min_entrants) {
                // A sit-and-go whose last entry left meanwhile registers on; a multi-table
                // tournament is cancelled.
                out.cancelled = self->config_.format == "multi-table";
                if (out.cancelled) s.cancel_tournament(self->id_, {});
                std::lock_guard lock(self->mutex_);
                self->entrants_ = std::move(entrants);
                return out;
            }
            std::vector<int> players(entrants.size());
            for (std::size_t i = 0; i < players.size(); ++i) players[i] = static_cast<int>(i);
            const std::uint64_t seed = self->config_.seed ? *self->config_.seed : random_seed();
            std::vector<int> director_tables;
            {
                std::lock_guard lock(self->mutex_);
                self->entrants_ = std::move(entrants);
                self->seed_ = seed;
                self->director_.emplace(self->rules(seed), players);
                for (const tournament::TableSeats& t : self->director_->tables())
                    director_tables.push_back(t.id);
            }
            for (int t : director_tables)
                out.tables.emplace_back(s.create_table(config, self->creator_), t);
            std::string state;
            {
                std::lock_guard lock(self->mutex_);
                self->tables_.clear();
                for (const auto& [table, t] : out.tables) self->tables_[table] = t;
                state = self->state();
            }
            if (s.start_tournament(self->id_, state)) return out;
            for (const auto& [table, t] : out.tables) s.close_table(table);
            out.tables.clear();
            return out;
        },
        strand_,
        [self = shared_from_this()](std::optional<Started> done) {
            self->started(std::move(done));
        });
}

void Tournament::started(std::optional<Started> done) {
    if (done && done->cancelled) {
        std::vector<Entrant> entrants;
        TournamentNews news;
        {
            std::lock_guard lock(mutex_);
            status_ = Status::cancelled;
            entrants = entrants_;
            spdlog::info("tournament {}: cancelled, {} registered of the {} it needs; every entry "
                         "refunded",
                         id_, entrants.size(), config_.min_entrants);
            tell_all(news, {{"type", "tournament"},
                            {"kind", "cancelled"},
                            {"tournament", id_},
                            {"reason", std::to_string(entrants.size()) + " registered, below the " +
                                           std::to_string(config_.min_entrants) +
                                           " it needs: every entry is refunded"}});
        }
        send(std::move(news));
        for (const Entrant& e : entrants) push_balance(e.account);
        return;
    }
    if (done && done->tables.empty()) {
        std::lock_guard lock(mutex_);
        if (static_cast<int>(entrants_.size()) < config_.min_entrants) {
            status_ = Status::registering; // not full after all
            return;
        }
    }
    if (!done || done->tables.empty()) {
        spdlog::error("tournament {}: its start cannot be stored; it tries again in 5 s", id_);
        {
            std::lock_guard lock(mutex_);
            status_ = Status::registering;
            director_.reset();
            tables_.clear();
        }
        return start_after(std::chrono::seconds(5));
    }
    {
        std::lock_guard lock(mutex_);
        status_ = Status::running;
        started_ = std::chrono::steady_clock::now();
    }
    std::vector<Opened> opened;
    for (const auto& [table, director_table] : done->tables)
        opened.push_back(open_table(table, director_table, 0));
    spdlog::info("tournament {}: starts with {} players at {} table(s)", id_,
                 director_->remaining(), opened.size());
    TournamentNews news;
    for (const Opened& o : opened)
        for (const auto& [e, k] : o.seated) {
            news.seated[e.account] = o.table;
            news.tell(e.account, {{"type", "tournament"},
                                  {"kind", "started"},
                                  {"tournament", id_},
                                  {"table", o.table->id()},
                                  {"seat", k}});
        }
    send(std::move(news));
    for (const Opened& o : opened) o.table->poke();
    arm_level_timer();
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
        changes_ = state.value("seq", 0L);
        // The level clock stood still while the server was down.
        started_ =
            std::chrono::steady_clock::now() - real_ms(state.value("clock_ms", std::int64_t{0}));
        director_.emplace(rules(seed_), *standing);
        // A table a running hand kept from breaking breaks now: its players are seated where
        // the break sends them (the same draw as before the restart).
        director_->settle();
        std::erase_if(tables, [&](const std::pair<std::int64_t, int>& t) {
            return !director_->has_table(t.second);
        });
        status_ = Status::running;
    } catch (const json::exception&) {
        return false;
    }
    if (!table_game().ok()) return false;
    std::vector<std::shared_ptr<Table>> opened;
    for (const auto& [table, director_table] : tables) {
        const auto hands = table_hands.find(table);
        opened.push_back(
            open_table(table, director_table, hands == table_hands.end() ? 0 : hands->second)
                .table);
    }
    spdlog::info("tournament {}: taken up where it stopped, {} players in", id_,
                 director_->remaining());
    {
        // Players out of chips who kept their seats to rebuy: a minute from now to decide.
        std::lock_guard lock(mutex_);
        for (int p = 0; p < static_cast<int>(entrants_.size()); ++p)
            if (const tournament::Bust* b = director_->bust(p); b && b->seated)
                busted_[p] = std::chrono::steady_clock::now() + real_ms(60'000);
        arm_bust_timer();
    }
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
    level_timer_.expires_after(real_ms(at.left) + std::chrono::milliseconds(1));
    level_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (ec) return;
        std::vector<std::shared_ptr<Table>> tables;
        json told;
        TournamentNews news;
        {
            std::lock_guard lock(self->mutex_);
            if (self->status_ != Status::running || self->paused_) return;
            const tournament::Position now = self->position();
            told = now.on_break ? json{{"type", "tournament"},
                                       {"kind", "break"},
                                       {"tournament", self->id_},
                                       {"ms", self->real_ms(now.left).count()}}
                                : json{{"type", "tournament"},
                                       {"kind", "level"},
                                       {"tournament", self->id_},
                                       {"level", self->level_json(now.level)}};
            self->level_ = now.level;
            if (now.on_break && self->director_->add_on_open(now)) told["add_on"] = true;
            for (const auto& [id, t] : self->running_) tables.push_back(t);
            self->tell_all(news, told);
            // The entry period closes once the clock passes its windows.
            if (self->director_->entry_open()) {
                tournament::Outcome closed = self->advance();
                if (!self->director_->entry_open()) self->write_change(closed);
            }
        }
        self->send(std::move(news));
        for (const auto& t : tables) t->poke(); // a break's end: the tables deal again
        self->arm_level_timer();
    });
}

void Tournament::forget_befores() {
    for (auto& [table, p] : pending_) p.before.reset();
}

namespace {

// A hand's stakes, as the table deals them.
void set_stakes(TournamentDeal& t, const tournament::Stakes& k) {
    t.small_blind = k.small_blind;
    t.big_blind = k.big_blind;
    t.ante = k.ante;
    t.big_blind_ante = k.big_blind_ante;
    t.small_bet = k.small_bet;
    t.big_bet = k.big_bet;
    t.bring_in = k.bring_in;
}

} // namespace

std::optional<HostDeal> Tournament::next_deal(std::int64_t table, int number) {
    std::lock_guard lock(mutex_);
    if (status_ != Status::running || !director_) return std::nullopt;
    const auto at_table = tables_.find(table);
    if (at_table == tables_.end()) return std::nullopt;
    if (director_->hand_for_hand() > 0 && !pending_.empty()) {
        // Hand for hand, a round begins once every hand of the one before is written too (the
        // last written pokes the tables that wait).
        idle_.try_emplace(at_table->second);
        return std::nullopt;
    }
    if (offer_) { // a deal on the table: no new hand; poked once it is off
        idle_.try_emplace(at_table->second);
        TournamentNews news;
        offer_terms(news);
        send(std::move(news));
        return std::nullopt;
    }
    const tournament::Position at = position();
    auto dealt = director_->deal(at_table->second, at);
    const auto now = std::chrono::steady_clock::now();
    if (const auto* idle = std::get_if<tournament::Idle>(&dealt)) {
        // It waits to be poked; waiting for a decision (balancing, a break), since when.
        auto& since = idle_[at_table->second];
        if (!since && (*idle == tournament::Idle::halted || *idle == tournament::Idle::breaking))
            since = now;
        return std::nullopt;
    }
    if (const auto waited = idle_.find(at_table->second); waited != idle_.end()) {
        if (waited->second)
            longest_wait_ms_ = std::max<long>(
                longest_wait_ms_,
                std::chrono::duration_cast<std::chrono::milliseconds>(now - *waited->second)
                    .count());
        idle_.erase(waited);
    }
    forget_befores();
    const tournament::Deal& d = std::get<tournament::Deal>(dealt);
    ++hands_;
    if (at.level != level_ && tournament::in_hands(config_.levels)) {
        level_ = at.level;
        TournamentNews news;
        tell_all(news, {{"type", "tournament"},
                        {"kind", "level"},
                        {"tournament", id_},
                        {"level", level_json(at.level)}});
        send(std::move(news));
    }
    HostDeal h;
    if (config_.seed)
        h.deck_seed = mix_seed(*config_.seed, static_cast<std::uint64_t>(at_table->second));
    for (std::size_t k = 0; k < d.stacks.size() && k < h.stacks.size(); ++k) {
        h.stacks[k] = d.stacks[k];
        if (d.players[k] >= 0)
            h.accounts[k] = entrants_[static_cast<std::size_t>(d.players[k])].account;
    }
    h.button = d.blinds.button;
    TournamentDeal& t = h.tournament;
    t.tournament = id_;
    t.level = d.level;
    set_stakes(t, d.stakes);
    t.small_blind_seat = d.blinds.small_poster();
    t.big_blind_seat = d.blinds.big_blind;
    t.cap_heads_up = d.cap_heads_up;
    t.hand_for_hand = d.hand_for_hand;
    if (!config_.games.empty()) {
        // A mixed tournament: the game of the level, or of the table's hand number; the level's
        // stakes for that game.
        const int n = static_cast<int>(config_.games.size());
        const int turn = config_.rotate_hands > 0 ? (number - 1) / config_.rotate_hands
                                                  : std::max(0, d.level - 1);
        const protocol::TournamentGame& g = config_.games[static_cast<std::size_t>(turn % n)];
        t.variant = g.variant;
        t.structure = g.structure;
        set_stakes(t, tournament::stakes_of(tournament::level(config_.levels, d.level),
                                            g.structure == "fixed-limit",
                                            poker::builtin_variant(g.variant)->bring_in_opens()));
    }
    if (d.hand_for_hand > 0 && !told_hand_for_hand_) {
        told_hand_for_hand_ = true;
        spdlog::info("tournament {}: hand-for-hand on the bubble, {} players left", id_,
                     director_->remaining());
        TournamentNews news;
        tell_all(news, {{"type", "tournament"},
                        {"kind", "hand_for_hand"},
                        {"tournament", id_},
                        {"remaining", director_->remaining()}});
        send(std::move(news));
    }
    return h;
}

TournamentChange Tournament::hand_ended(std::int64_t table, std::span<const Chips> stacks) {
    std::lock_guard lock(mutex_);
    const auto at_table = tables_.find(table);
    if (!director_ || at_table == tables_.end()) {
        TournamentChange none;
        none.tournament = id_;
        return none;
    }
    forget_befores();
    Pending& p = pending_[++sequence_];
    p.table = table;
    p.before = *director_;
    p.outcome = director_->hand_ended(at_table->second, stacks);
    // A player who lost every chip of the hand but bought more during it (a rebuy, the add-on)
    // plays on: the table lets their seat go with the hand, and they sit in it again.
    for (int player : p.outcome.bought_back)
        for (const tournament::TableSeats& t : director_->tables())
            for (std::size_t k = 0; k < t.players.size(); ++k)
                if (t.players[k] == player)
                    p.outcome.moves.insert(p.outcome.moves.begin(),
                                           {player, -1, -1, t.id, static_cast<int>(k)});
    if (director_->entry_open()) merge(p.outcome, advance());
    return change_of(p.outcome);
}

void Tournament::push_balance(std::int64_t account) {
    services_.storage.read([account](Store& s) { return s.find_account(account); }, strand_,
                           [self = shared_from_this(), account](auto found) {
                               if (found && *found && self->services_.balance_changed)
                                   self->services_.balance_changed(account, (*found)->balance);
                           });
}

void Tournament::settled(std::int64_t table, bool ok) {
    std::lock_guard lock(mutex_);
    const auto p = std::find_if(pending_.begin(), pending_.end(), [&](const auto& x) {
        return x.second.table == table && !x.second.written;
    });
    const auto at_table = tables_.find(table);
    if (!director_ || at_table == tables_.end() || p == pending_.end()) return;
    if (!ok && p->second.before) { // the hand is void: as if it never was
        director_ = std::move(p->second.before);
        director_->not_dealt(at_table->second);
        pending_.erase(p);
        --hands_;
        return;
    }
    if (!ok) {
        // Changes written since hold this hand's result: it stands, though its record is lost.
        spdlog::warn("tournament {}: the hand at table {} could not be written, but what was "
                     "written after it holds its result: it stands",
                     id_, table);
        if (const auto t = running_.find(at_table->second); t != running_.end())
            for (const tournament::Finish& f : p->second.outcome.out)
                t->second->let_go(entrants_[static_cast<std::size_t>(f.player)].account, "out");
    }
    p->second.written = true;
    // What the hands changed, in the order they ended (a later hand may move a player an
    // earlier one moved, or break the table it sent them to), each once every hand before it
    // is written. Under the lock, so that the tables and the connections hear of them in that
    // order too.
    TournamentNews news;
    apply_written(news);
    send(std::move(news));
}

void Tournament::apply_written(TournamentNews& news) {
    while (!pending_.empty() && pending_.begin()->second.written) {
        apply(pending_.begin()->second.outcome, news);
        pending_.erase(pending_.begin());
    }
    if (offer_ && status_ == Status::running) offer_terms(news);
}

void Tournament::apply(const tournament::Outcome& o, TournamentNews& news) {
    std::vector<tournament::Finish> finishes = o.out;
    if (o.won) finishes.push_back(*o.won);
    for (const tournament::Finish& f : finishes) {
        const Entrant& e = entrants_[static_cast<std::size_t>(f.player)];
        spdlog::info("tournament {}: {} finishes {}{}, prize {}", id_, e.name, f.place,
                     f.tied ? " (tied)" : "", f.prize);
        json told = {{"type", "tournament"}, {"kind", o.won && f.place == 1 ? "won" : "out"},
                     {"tournament", id_},    {"place", f.place},
                     {"prize", f.prize},     {"tied", f.tied}};
        if (const int entry = entry_of(f.player); entry > 1 || last_entry(e.account) != f.player)
            told["entry"] = entry; // which of the account's entries
        news.tell(e.account, told);
        if (f.prize > 0) push_balance(e.account);
    }
    if (o.won) {
        status_ = Status::finished;
        level_timer_.cancel();
        deal_timer_.cancel();
        offer_.reset();
        json standings = json::array();
        for (const tournament::Finish& f : director_->finishes())
            standings.push_back({{"name", entrants_[static_cast<std::size_t>(f.player)].name},
                                 {"place", f.place},
                                 {"prize", f.prize},
                                 {"tied", f.tied}});
        tell_all(news, {{"type", "tournament"},
                        {"kind", "finished"},
                        {"tournament", id_},
                        {"standings", standings}});
        spdlog::info("tournament {}: over after {} hands; the longest wait for balancing {} ms",
                     id_, hands_, longest_wait_ms_);
        for (const auto& [id, t] : running_) t->end_hosting("tournament over");
        return;
    }
    // Tables opened for newcomers (every table was full), empty: the moves seat them.
    for (int opened : o.opened)
        for (const auto& [table, director_table] : tables_)
            if (director_table == opened && !running_.count(opened)) {
                spdlog::info("tournament {}: table {} opens for a newcomer", id_, table);
                make_table(table, opened, 0);
            }
    for (const tournament::Move& m : o.moves) {
        const auto to = running_.find(m.to_table);
        if (m.from_table < 0 && to != running_.end()) { // a newcomer, or a rebuy seated again
            const Entrant& e = entrants_[static_cast<std::size_t>(m.player)];
            spdlog::info("tournament {}: {} sits at table {}, seat {}", id_, e.name,
                         to->second->id(), m.to_seat + 1);
            to->second->seat_entrant(Account{e.account, e.name, false, Chips()}, Seat(m.to_seat),
                                     director_->stack(m.player));
            news.tell(e.account, {{"type", "tournament"},
                                  {"kind", "seated"},
                                  {"tournament", id_},
                                  {"table", to->second->id()},
                                  {"seat", m.to_seat}});
            news.seated[e.account] = to->second;
            continue;
        }
        const auto from = running_.find(m.from_table);
        if (from == running_.end() || to == running_.end()) continue;
        const Entrant& e = entrants_[static_cast<std::size_t>(m.player)];
        spdlog::info("tournament {}: {} moves from table {} to table {}, seat {}", id_, e.name,
                     from->second->id(), to->second->id(), m.to_seat + 1);
        from->second->let_go(e.account, "moved");
        to->second->seat_entrant(Account{e.account, e.name, false, Chips()}, Seat(m.to_seat),
                                 director_->stack(m.player));
        news.tell(e.account, {{"type", "tournament"},
                              {"kind", "moved"},
                              {"tournament", id_},
                              {"from_table", from->second->id()},
                              {"table", to->second->id()},
                              {"seat", m.to_seat}});
        news.seated[e.account] = to->second;
    }
    // A broken table stays in running_: a hand of its being written may still move its players.
    for (int id : o.broken)
        if (const auto t = running_.find(id); t != running_.end()) {
            t->second->end_hosting("table broken");
            idle_.erase(id);
        }
    // Out of chips in the entry period: a minute to rebuy (their seat kept), or their seat given
    // up at once when they may not; a re-entry stays open to them while its window is.
    const tournament::Position at = position();
    tournament::Outcome given_up;
    bool gave_up = false;
    for (int p : o.busted) {
        if (!director_->bust(p)) continue; // bought back in meanwhile
        const Entrant& e = entrants_[static_cast<std::size_t>(p)];
        const bool rebuy = director_->rebuys_open(at);
        const bool reenter =
            std::holds_alternative<int>(check_purchase(e.account, Purchase::reenter, at));
        json told = {{"type", "tournament"},
                     {"kind", "busted"},
                     {"tournament", id_},
                     {"rebuy", rebuy},
                     {"reenter", reenter}};
        if (rebuy) {
            told["ms"] = real_ms(60'000).count();
            busted_[p] = std::chrono::steady_clock::now() + real_ms(60'000);
        } else {
            merge(given_up, director_->give_up_seat(p));
            gave_up = true;
        }
        news.tell(e.account, told);
    }
    if (gave_up) {
        // Nobody left to rebuy and fewer than two with chips: the entry period closes now.
        if (director_->entry_open()) merge(given_up, advance());
        write_change(given_up);
    }
    if (!o.busted.empty()) arm_bust_timer();
    // The tables that waited may deal now.
    for (const auto& [id, since] : idle_)
        if (const auto t = running_.find(id); t != running_.end()) t->second->poke();
}

void Tournament::not_dealt(std::int64_t table) {
    std::lock_guard lock(mutex_);
    if (const auto at_table = tables_.find(table); director_ && at_table != tables_.end()) {
        forget_befores();
        director_->not_dealt(at_table->second);
        --hands_;
        if (offer_) {
            TournamentNews news;
            offer_terms(news);
            send(std::move(news));
        }
    }
}

int Tournament::player_of(std::int64_t account) const {
    if (!director_) return -1;
    for (std::size_t i = 0; i < entrants_.size(); ++i)
        if (entrants_[i].account == account && director_->stack(static_cast<int>(i)) > 0)
            return static_cast<int>(i);
    return -1;
}

json Tournament::deal_json() const {
    json accepted = json::array();
    for (int p : offer_->accepted) accepted.push_back(entrants_[static_cast<std::size_t>(p)].name);
    json out = {{"method", tournament::deal_method_name(offer_->method)},
                {"proposed_by", offer_->proposer},
                {"accepted", accepted}};
    if (offer_->terms) {
        json terms = json::array();
        for (std::size_t i = 0; i < offer_->terms->players.size(); ++i)
            terms.push_back(
                {{"name", entrants_[static_cast<std::size_t>(offer_->terms->players[i])].name},
                 {"stack", offer_->terms->stacks[i]},
                 {"prize", offer_->terms->prizes[i]}});
        out["terms"] = terms;
        out["ms_left"] =
            std::max<std::int64_t>(0, std::chrono::duration_cast<std::chrono::milliseconds>(
                                          deal_timer_.expiry() - std::chrono::steady_clock::now())
                                          .count());
    }
    return out;
}

protocol::Outcome<json> Tournament::deal(std::int64_t account, DealAnswer answer,
                                         tournament::DealMethod method) {
    auto no = [&](std::string code, std::string message) {
        return protocol::Outcome<json>{std::nullopt, {std::move(code), std::move(message)}};
    };
    const std::string which = "tournament " + std::to_string(id_);
    TournamentNews news;
    json now;
    {
        std::lock_guard lock(mutex_);
        if (status_ != Status::running || !director_ || director_->finished())
            return no("not_running", which + " is not being played");
        const int player = player_of(account);
        if (player < 0) return no("not_in_tournament", "you are not a player still in " + which);
        const std::string& name = entrants_[static_cast<std::size_t>(player)].name;
        switch (answer) {
        case DealAnswer::propose:
            if (offer_)
                return no("deal_pending", "a deal is on the table already: accept or decline it");
            if (director_->remaining() > tournament::kMostDealPlayers)
                return no("too_many_players",
                          "a deal is made among at most " +
                              std::to_string(tournament::kMostDealPlayers) + " players; " +
                              std::to_string(director_->remaining()) + " are still in");
            offer_ = Offer{method, name, std::nullopt, {player}, false};
            paused_ = std::chrono::steady_clock::now();
            spdlog::info("tournament {}: {} proposes a deal by {}", id_, name,
                         tournament::deal_method_name(method));
            tell_deal(news);
            offer_terms(news);
            break;
        case DealAnswer::accept:
        case DealAnswer::decline:
            if (!offer_) return no("no_deal", "no deal is on the table in " + which);
            if (offer_->closing)
                return no("deal_closing", "every player agreed: the deal is being written");
            if (answer == DealAnswer::decline) { // no need to see the terms to say no
                deal_off(name + " declined the deal", news);
                break;
            }
            if (!offer_->terms)
                return no("deal_not_ready",
                          "the deal's terms are set once the hand being played ends");
            if (std::find(offer_->accepted.begin(), offer_->accepted.end(), player) ==
                offer_->accepted.end())
                offer_->accepted.push_back(player);
            tell_deal(news);
            break;
        }
        now = offer_ ? deal_json() : json(nullptr);
        send(std::move(news)); // under the lock: the deal's news in the order it happened
    }
    if (answer == DealAnswer::decline) resume_play();
    if (answer == DealAnswer::accept) close_deal();
    return {now, {}};
}

void Tournament::offer_terms(TournamentNews& news) {
    if (!offer_ || offer_->terms || !pending_.empty() || director_->in_hand()) return;
    auto terms = director_->deal_terms(offer_->method);
    if (!terms) {
        deal_off(terms.error().message, news);
        net::post(strand_, [self = shared_from_this()] { self->resume_play(); });
        return;
    }
    offer_->terms = std::move(*terms);
    // Those who accepted and are out since count no more.
    std::erase_if(offer_->accepted, [&](int p) { return director_->stack(p) <= 0; });
    deal_timer_.expires_after(real_ms(60'000));
    deal_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (ec) return;
        TournamentNews news;
        {
            std::lock_guard lock(self->mutex_);
            if (!self->offer_ || self->offer_->closing) return;
            self->deal_off("not every player agreed within a minute", news);
            self->send(std::move(news));
        }
        self->resume_play();
    });
    tell_deal(news);
}

void Tournament::tell_deal(TournamentNews& news) const {
    tell_all(
        news,
        {{"type", "tournament"}, {"kind", "deal"}, {"tournament", id_}, {"deal", deal_json()}});
}

void Tournament::deal_off(const std::string& reason, TournamentNews& news) {
    spdlog::info("tournament {}: the deal is off: {}", id_, reason);
    offer_.reset();
    deal_timer_.cancel();
    if (paused_) {
        started_ += std::chrono::steady_clock::now() - *paused_;
        paused_.reset();
    }
    tell_all(
        news,
        {{"type", "tournament"}, {"kind", "deal_off"}, {"tournament", id_}, {"reason", reason}});
}

void Tournament::resume_play() {
    std::vector<std::shared_ptr<Table>> waiting;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, since] : idle_)
            if (const auto t = running_.find(id); t != running_.end()) waiting.push_back(t->second);
    }
    for (const auto& t : waiting) t->poke();
    arm_level_timer();
}

void Tournament::close_deal() {
    TournamentChange c;
    tournament::Outcome o;
    {
        std::lock_guard lock(mutex_);
        if (!offer_ || offer_->closing || !offer_->terms ||
            offer_->accepted.size() < offer_->terms->players.size())
            return;
        tournament::Director after = *director_;
        auto ended = after.end_by_deal(*offer_->terms);
        if (!ended) {
            TournamentNews news;
            deal_off(ended.error().message, news);
            send(std::move(news));
            net::post(strand_, [self = shared_from_this()] { self->resume_play(); });
            return;
        }
        offer_->closing = true;
        deal_timer_.cancel();
        o = std::move(*ended);
        before_deal_ = std::move(director_);
        director_ = std::move(after);
        c = change_of(o);
        spdlog::info("tournament {}: every player agreed to the deal", id_);
    }
    services_.storage.write(
        [c](Store& s) {
            s.change_tournament(c);
            return true;
        },
        strand_,
        [self = shared_from_this(), o](std::optional<bool> ok) {
            TournamentNews news;
            {
                std::lock_guard lock(self->mutex_);
                if (ok) {
                    self->before_deal_.reset();
                    self->apply(o, news);
                } else {
                    self->director_ = std::move(self->before_deal_);
                    self->before_deal_.reset();
                    self->deal_off("the deal could not be written", news);
                }
                self->send(std::move(news));
            }
            if (!ok) self->resume_play();
        });
}

// ---- the entry period ----

int Tournament::last_entry(std::int64_t account) const {
    for (std::size_t i = entrants_.size(); i-- > 0;)
        if (entrants_[i].account == account) return static_cast<int>(i);
    return -1;
}

int Tournament::entry_of(int player) const {
    const std::int64_t account = entrants_[static_cast<std::size_t>(player)].account;
    return 1 +
           static_cast<int>(std::count_if(entrants_.begin(), entrants_.begin() + player,
                                          [&](const Entrant& e) { return e.account == account; }));
}

EntryFinish Tournament::entry_finish(const tournament::Finish& f) const {
    return {entrants_[static_cast<std::size_t>(f.player)].account, f.place, f.prize, f.tied,
            entry_of(f.player)};
}

TournamentChange Tournament::change_of(const tournament::Outcome& o) {
    TournamentChange c;
    c.tournament = id_;
    for (const tournament::Finish& f : o.out) c.finished.push_back(entry_finish(f));
    if (o.won) c.finished.push_back(entry_finish(*o.won));
    c.over = o.won.has_value();
    c.seq = ++changes_;
    c.state = state();
    return c;
}

tournament::Outcome Tournament::advance() {
    const bool was_open = director_->entry_open();
    tournament::Outcome o = director_->advance(position());
    if (was_open && !director_->entry_open()) {
        spdlog::info("tournament {}: the entry period closes with {} entries, pool {}", id_,
                     entrants_.size(), director_->pool());
        busted_.clear();
    }
    return o;
}

void Tournament::write_change(const tournament::Outcome& o) {
    forget_befores();
    const long sequence = ++sequence_;
    pending_[sequence] = Pending{0, std::nullopt, o, false};
    write_pending(sequence, change_of(o));
}

void Tournament::write_pending(long sequence, TournamentChange c) {
    services_.storage.write(
        [c](Store& s) {
            s.change_tournament(c);
            return true;
        },
        strand_,
        [self = shared_from_this(), sequence, c](std::optional<bool> ok) mutable {
            if (!ok) { // the director has it: written again until it is (paid once)
                spdlog::error("tournament {}: a change could not be written; again in a second",
                              self->id_);
                auto retry = std::make_shared<net::steady_timer>(self->strand_);
                retry->expires_after(std::chrono::seconds(1));
                retry->async_wait([self, sequence, c = std::move(c), retry](error_code) mutable {
                    self->write_pending(sequence, std::move(c));
                });
                return;
            }
            TournamentNews news;
            std::lock_guard lock(self->mutex_);
            if (const auto p = self->pending_.find(sequence); p != self->pending_.end())
                p->second.written = true;
            self->apply_written(news);
            self->send(std::move(news));
        });
}

void Tournament::arm_bust_timer() {
    if (busted_.empty()) return;
    auto first = busted_.begin()->second;
    for (const auto& [p, until] : busted_) first = std::min(first, until);
    bust_timer_.expires_at(first);
    bust_timer_.async_wait([self = shared_from_this()](error_code ec) {
        if (ec) return;
        std::lock_guard lock(self->mutex_);
        if (self->status_ != Status::running || !self->director_) return;
        const auto now = std::chrono::steady_clock::now();
        tournament::Outcome given_up;
        bool gave_up = false;
        for (auto it = self->busted_.begin(); it != self->busted_.end();) {
            if (it->second > now) {
                ++it;
                continue;
            }
            if (const tournament::Bust* b = self->director_->bust(it->first); b && b->seated) {
                spdlog::info("tournament {}: {} did not rebuy and gives up their seat", self->id_,
                             self->entrants_[static_cast<std::size_t>(it->first)].name);
                merge(given_up, self->director_->give_up_seat(it->first));
                gave_up = true;
            }
            it = self->busted_.erase(it);
        }
        if (gave_up) {
            if (self->director_->entry_open()) merge(given_up, self->advance());
            self->write_change(given_up);
        }
        self->arm_bust_timer();
    });
}

std::variant<int, protocol::Refusal>
Tournament::check_purchase(std::int64_t account, Purchase what,
                           const tournament::Position& at) const {
    using R = protocol::Refusal;
    const std::string which = "tournament " + std::to_string(id_);
    if (status_ != Status::running || !director_ || director_->finished())
        return what == Purchase::enter
                   ? R{"not_registering", which + " is not taking registrations (it ended)"}
                   : R{"not_running", which + " is not being played"};
    const int last = last_entry(account);
    // Whether the clock is within the window of `levels` (through the end of that level).
    const auto within = [&](int levels) {
        return director_->entries_open(at) && at.level <= levels &&
               !(at.on_break && at.level == levels);
    };
    const auto full = [&]() -> std::optional<R> {
        if (static_cast<int>(entrants_.size()) < config_.max_entrants) return std::nullopt;
        return R{"tournament_full",
                 which + " has its " + std::to_string(config_.max_entrants) + " entries already"};
    };
    switch (what) {
    case Purchase::enter:
        if (last >= 0)
            return R{"already_registered",
                     "you have an entry in " + which + ": once out of chips, re-enter"};
        if (config_.late_registration_levels == 0)
            return R{"not_registering", which + " started, and takes no late registration"};
        if (!within(config_.late_registration_levels))
            return R{"not_registering", "late registration for " + which +
                                            " closed at the end of level " +
                                            std::to_string(config_.late_registration_levels)};
        if (auto no = full()) return *no;
        return -1;
    case Purchase::reenter: {
        if (config_.reentries == 0) return R{"reentry_refused", which + " takes no re-entries"};
        if (last < 0) return R{"not_in_tournament", "you have no entry in " + which};
        if (!director_->is_in(last) || !director_->bust(last)) {
            if (director_->is_in(last))
                return R{"reentry_refused", "you still have chips: a re-entry is for a player "
                                            "out of chips"};
            return R{"reentry_refused", "your entry in " + which +
                                            " is out, and re-entries "
                                            "closed with the entry period"};
        }
        if (entry_of(last) > config_.reentries)
            return R{"reentry_refused", "you have re-entered " +
                                            std::to_string(entry_of(last) - 1) +
                                            " times, the most " + which + " allows"};
        if (!within(config_.reentry_levels))
            return R{"reentry_refused", "re-entries to " + which + " closed at the end of level " +
                                            std::to_string(config_.reentry_levels)};
        if (auto no = full()) return *no;
        return last;
    }
    case Purchase::rebuy:
    case Purchase::add_on: {
        if (last < 0 || !director_->is_in(last))
            return R{"not_in_tournament", "you are not a player still in " + which};
        tournament::Director trial = *director_; // the director's own check, on a copy
        auto tried = what == Purchase::rebuy ? trial.rebuy(last, at) : trial.add_on(last, at);
        if (!tried)
            return R{what == Purchase::rebuy ? "rebuy_refused" : "add_on_refused",
                     tried.error().message};
        return last;
    }
    }
    return R{"bad_request", "no such purchase"};
}

std::variant<Tournament::Bought, protocol::Refusal> Tournament::purchase(Store& s, const Account& a,
                                                                         Purchase what) {
    const tournament::Position at = position();
    auto checked = check_purchase(a.id, what, at);
    if (const auto* no = std::get_if<protocol::Refusal>(&checked)) return *no;
    const int player = std::get<int>(checked);
    // Taken back if the write is refused or fails: nothing else changes them meanwhile.
    tournament::Director before = *director_;
    const std::size_t entrants = entrants_.size();
    const auto tables = tables_;
    const auto restore = [&] {
        director_ = std::move(before);
        entrants_.resize(entrants);
        tables_ = tables;
    };
    TournamentPurchase p;
    p.account = a.id;
    p.buy_in = config_.buy_in;
    tournament::Outcome o;
    Bought out;
    s.begin_group();
    try {
        if (what == Purchase::enter || what == Purchase::reenter) {
            if (what == Purchase::reenter) merge(o, director_->give_up_seat(player));
            const int id = static_cast<int>(entrants_.size());
            entrants_.push_back({a.id, a.name});
            auto entered = director_->enter(id, at);
            if (!entered) throw std::logic_error(entered.error().message); // checked above
            merge(o, std::move(*entered));
            p.kind = TournamentPurchase::Kind::entry;
            p.fee = config_.fee;
            p.entry = entry_of(id);
            for (int t : o.opened) tables_[s.create_table(table_config(), creator_)] = t;
        } else {
            const bool seated_again = director_->stack(player) == 0; // out of chips: sits again
            auto bought = what == Purchase::rebuy ? director_->rebuy(player, at)
                                                  : director_->add_on(player, at);
            if (!bought) throw std::logic_error(bought.error().message); // checked above
            if (seated_again)
                for (const tournament::TableSeats& t : director_->tables())
                    for (std::size_t k = 0; k < t.players.size(); ++k)
                        if (t.players[k] == player)
                            o.moves.push_back({player, -1, -1, t.id, static_cast<int>(k)});
            p.kind = what == Purchase::rebuy ? TournamentPurchase::Kind::rebuy
                                             : TournamentPurchase::Kind::add_on;
            p.entry = entry_of(player);
        }
        p.change = change_of(o);
        if (auto no = s.buy_in_tournament(id_, p)) {
            s.abandon_group();
            restore();
            return *no;
        }
        const auto found = s.find_account(a.id);
        out.balance = found ? found->balance : Chips();
        s.commit_group();
    } catch (...) {
        s.abandon_group();
        restore();
        throw;
    }
    forget_befores();
    busted_.erase(player);
    out.sequence = ++sequence_;
    pending_[out.sequence] = Pending{0, std::nullopt, std::move(o), false};
    return out;
}

void Tournament::buy(const Account& a, Purchase what,
                     std::function<void(protocol::Outcome<Chips>)> answer) {
    using Answer = protocol::Outcome<Chips>;
    {
        std::lock_guard lock(mutex_);
        auto checked = check_purchase(a.id, what, position());
        if (auto* no = std::get_if<protocol::Refusal>(&checked))
            return net::post(strand_, [answer, no = *no] { answer(Answer{std::nullopt, no}); });
    }
    services_.storage.write_alone(
        [self = shared_from_this(), a, what](Store& s) {
            std::lock_guard lock(self->mutex_);
            return self->purchase(s, a, what);
        },
        strand_,
        [self = shared_from_this(), a, what,
         answer](std::optional<std::variant<Bought, protocol::Refusal>> done) {
            if (!done)
                return answer(Answer{std::nullopt,
                                     {"internal", "the purchase could not be written: nothing "
                                                  "was bought"}});
            if (const auto* no = std::get_if<protocol::Refusal>(&*done))
                return answer(Answer{std::nullopt, *no});
            const Bought& b = std::get<Bought>(*done);
            static constexpr const char* kNames[] = {"enters", "re-enters", "rebuys",
                                                     "takes the add-on"};
            spdlog::info("tournament {}: {} {}", self->id_, a.name, kNames[static_cast<int>(what)]);
            {
                TournamentNews news;
                std::lock_guard lock(self->mutex_);
                if (const auto p = self->pending_.find(b.sequence); p != self->pending_.end())
                    p->second.written = true;
                self->apply_written(news);
                self->send(std::move(news));
            }
            answer(Answer{b.balance, {}});
        });
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
            accounts[static_cast<std::size_t>(p.id)].is_number_integer()) {
            // An account's entries together (one, out of chips, may wait for the period's close).
            const auto account = accounts[static_cast<std::size_t>(p.id)].get<std::int64_t>();
            auto it = std::find_if(out.begin(), out.end(),
                                   [&](const auto& x) { return x.first == account; });
            if (it == out.end())
                out.push_back({account, p.stack});
            else
                it->second += p.stack;
        }
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
            t->arm_start(); // a start time passed while the server was down: it starts now
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
