#include "storage/sqlite_store.h"

#include "storage/migrate.h"
#include "storage/stats_sql.h"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <filesystem>

namespace felt::server {

namespace {

// Creates the database's folder, so that the defaults work on a fresh machine.
const std::string& with_folder(const std::string& path) {
    if (path != ":memory:") {
        const auto parent = std::filesystem::path(path).parent_path();
        if (!parent.empty()) std::filesystem::create_directories(parent);
    }
    return path;
}

db::Database& migrated(db::Database& db, SqliteStore::Role role) {
    if (role == SqliteStore::Role::writer)
        spdlog::info("database at schema version {}", migrate(db));
    return db;
}

} // namespace

SqliteStore::SqliteStore(const std::string& path, Chips grant, Role role, TokenLife life)
    : db_(with_folder(path)), accounts_(migrated(db_, role), grant, life),
      writer_(role == Role::writer) {
    if (role != Role::writer) return;
    try {
        recover();
    } catch (const db::Error& e) {
        // A full disk: feltd starts all the same, and recovers at the first write that fits (the
        // chips wait in table_seats meanwhile). Anything else stops it.
        if (e.code() != SQLITE_FULL) throw;
        unready_ = std::string(e.what()) + " (recovering from an unclean stop waits for space)";
        spdlog::error("storage: {}", *unready_);
    }
}

void SqliteStore::ready() {
    if (!unready_) return;
    recover();
    unready_.reset();
    spdlog::warn("storage: recovered from the unclean stop now that there is space");
}

void SqliteStore::recover() {
    db::Transaction t(db_);
    int seats = 0;
    {
        db::Statement q(db_, "SELECT account_id, stack FROM table_seats");
        while (q.step()) {
            if (q.column_int(1) > 0)
                accounts_.move_chips(q.column_int(0), q.column_chips(1), "recovered");
            ++seats;
        }
    }
    db_.exec("DELETE FROM table_seats");
    db_.exec("UPDATE hands SET status = 'void', ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
             "WHERE status = 'running'");
    const int voided = db_.changes();
    {
        db::Statement q(db_, "SELECT t.id, t.config, COALESCE(t.created_by, 0), "
                             "(SELECT COALESCE(MAX(number), 0) FROM hands h WHERE h.table_id = "
                             "t.id), COALESCE(a.name, '') FROM tables t LEFT JOIN accounts a ON "
                             "a.id = t.created_by WHERE t.closed_at IS NULL ORDER BY t.id");
        while (q.step())
            left_open_.push_back({q.column_int(0), q.column_text(1), q.column_int(2),
                                  static_cast<int>(q.column_int(3)), q.column_text(4)});
    }
    t.commit();
    if (seats || voided)
        spdlog::warn("recovered from an unclean stop: {} seat(s) of chips returned, {} hand(s) "
                     "void",
                     seats, voided);
}

// ---- accounts and sessions ----

Outcome<Account> SqliteStore::create_account(std::string_view name, const std::string& hash) {
    return accounts_.create(name, hash);
}

Outcome<Account> SqliteStore::create_guest() {
    return accounts_.create_guest();
}

std::vector<Account> SqliteStore::bot_accounts() {
    return accounts_.bots();
}

Account SqliteStore::create_bot() {
    return accounts_.create_bot();
}

std::optional<Refusal> SqliteStore::fund_bot(std::int64_t account, Chips amount, Chips bank) {
    return accounts_.fund_bot(account, amount, bank);
}

std::optional<std::pair<Account, std::string>> SqliteStore::find_with_hash(std::string_view name) {
    return accounts_.find_with_hash(name);
}

std::optional<Account> SqliteStore::find_account(std::int64_t id) {
    return accounts_.find(id);
}

std::string SqliteStore::open_session(std::int64_t account) {
    return accounts_.open_session(account);
}

Outcome<Account> SqliteStore::resume(std::string_view token) {
    return accounts_.resume(token, writer_);
}

void SqliteStore::revoke(std::string_view token) {
    accounts_.revoke(token);
}

void SqliteStore::revoke_all(std::int64_t account, std::string_view keep) {
    accounts_.revoke_all(account, keep);
}

void SqliteStore::change_password(std::int64_t account, const std::string& hash,
                                  std::string_view keep) {
    db::Transaction t(db_);
    accounts_.set_password(account, hash);
    accounts_.revoke_all(account, keep);
    t.commit();
}

// ---- tables ----

std::int64_t SqliteStore::create_table(const std::string& config, std::int64_t creator) {
    db::Statement q(db_, "INSERT INTO tables (config, created_by) VALUES (?, ?)");
    q.bind(1, config).bind(2, creator).run();
    return db_.last_insert_rowid();
}

void SqliteStore::close_table(std::int64_t table) {
    db::Statement q(db_, "UPDATE tables SET closed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                         "WHERE id = ? AND closed_at IS NULL");
    q.bind(1, table).run();
}

std::optional<Refusal> SqliteStore::buy_in(std::int64_t table, int seat, std::int64_t account,
                                           Chips amount) {
    db::Transaction t(db_);
    if (auto no = accounts_.move_chips(account, -amount, "buy_in")) return no;
    db::Statement q(db_, "INSERT INTO table_seats (table_id, seat, account_id, stack) "
                         "VALUES (?, ?, ?, ?)");
    q.bind(1, table).bind(2, seat).bind(3, account).bind(4, amount).run();
    t.commit();
    return std::nullopt;
}

std::optional<Refusal> SqliteStore::top_up(std::int64_t table, int seat, std::int64_t account,
                                           Chips amount) {
    db::Transaction t(db_);
    if (auto no = accounts_.move_chips(account, -amount, "top_up")) return no;
    db::Statement q(db_, "UPDATE table_seats SET stack = stack + ? "
                         "WHERE table_id = ? AND seat = ? AND account_id = ?");
    q.bind(1, amount).bind(2, table).bind(3, seat).bind(4, account).run();
    if (db_.changes() != 1)
        throw db::Error(0, "table " + std::to_string(table) + " has no seat " +
                               std::to_string(seat) + " of account " + std::to_string(account));
    t.commit();
    return std::nullopt;
}

void SqliteStore::cash_out(std::int64_t table, int seat, std::int64_t account, Chips stack,
                           std::string_view reason) {
    db::Transaction t(db_);
    db::Statement del(db_, "DELETE FROM table_seats WHERE table_id = ? AND seat = ?");
    del.bind(1, table).bind(2, seat).run();
    if (stack > 0) accounts_.move_chips(account, stack, reason);
    t.commit();
}

// ---- hands ----

std::int64_t SqliteStore::last_hand_id() {
    db::Statement q(db_, "SELECT COALESCE(MAX(id), 0) FROM hands");
    q.step();
    return q.column_int(0);
}

std::pair<std::int64_t, std::int64_t> SqliteStore::reserve_hand_ids() {
    // One node writes this file: the blocks follow each other from the highest id stored.
    constexpr std::int64_t kBlock = 1000;
    if (next_hand_id_ == 0) next_hand_id_ = last_hand_id() + 1;
    const std::int64_t first = next_hand_id_;
    next_hand_id_ += kBlock;
    return {first, kBlock};
}

void SqliteStore::start_hand(const HandStart& h) {
    db::Statement q(db_, "INSERT INTO hands (id, table_id, number, config, commitment, status) "
                         "VALUES (?, ?, ?, ?, ?, 'running')");
    q.bind(1, h.id).bind(2, h.table).bind(3, h.number).bind(4, h.config).bind(5, h.commitment);
    q.run();
}

namespace {

// Adds each row's line to the statistics (stats_sql::upsert), in the caller's transaction.
void add_stats(db::Database& db, std::int64_t hand_id, const std::vector<StatsRow>& rows,
               const std::string& day) {
    if (rows.empty()) return;
    db::Statement q(db, stats_sql::upsert(false));
    for (const StatsRow& r : rows) {
        q.reset();
        q.bind(1, r.account)
            .bind(2, r.game)
            .bind(3, r.variant)
            .bind(4, r.structure)
            .bind(5, r.stake)
            .bind(6, std::int64_t{r.position})
            .bind(7, std::int64_t{r.table_size})
            .bind(8, day)
            .bind(9, std::int64_t{r.tournament});
        int i = 10;
        for (std::int64_t v : stats_sql::integers(r)) q.bind(i++, v);
        for (double v : stats_sql::reals(r)) q.bind(i++, v);
        q.run();
    }
    db::Statement search(db, stats_sql::search_insert(false));
    for (const StatsRow& r : rows) {
        if (r.game != "poker") continue;
        search.reset();
        search.bind(1, r.account)
            .bind(2, hand_id)
            .bind(3, r.hole)
            .bind(4, std::int64_t{r.position})
            .bind(5, r.line.net)
            .bind(6, r.pot)
            .bind(7, std::int64_t{stats_sql::search_flags(r)})
            .run();
    }
    const std::vector<stats_sql::OpponentLine> pairs = stats_sql::opponent_lines(rows);
    if (pairs.empty()) return;
    db::Statement o(db, stats_sql::opponent_upsert(false));
    for (const stats_sql::OpponentLine& p : pairs) {
        o.reset();
        o.bind(1, p.account)
            .bind(2, p.opponent)
            .bind(3, p.vpip.times)
            .bind(4, p.vpip.opportunities)
            .bind(5, p.pfr.times)
            .bind(6, p.pfr.opportunities)
            .run();
    }
}

} // namespace

void SqliteStore::finish_hand(const HandEnd& h) {
    const std::string log = hand_log_text(h.log); // before anything is written
    db::Transaction t(db_);
    db::Statement hand(db_,
                       "UPDATE hands SET status = 'finished', deck = ?, seed = ?, fairness = ?, "
                       "stats_counted = 1, ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                       "WHERE id = ? AND status = 'running'");
    hand.bind(1, h.deck).bind(2, h.seed).bind(3, h.fairness).bind(4, h.id).run();
    if (db_.changes() != 1)
        throw db::Error(0, "hand " + std::to_string(h.id) + " has no running row to finish");
    // Each statement is prepared once and reset for every row.
    db::Statement seat(db_, "INSERT INTO hand_seats (hand_id, seat, account_id, stack_start, "
                            "stack_end) VALUES (?, ?, ?, ?, ?)");
    db::Statement stack(db_, "UPDATE table_seats SET stack = ? WHERE table_id = ? AND seat = ?");
    for (const HandSeat& s : h.seats) {
        seat.reset();
        seat.bind(1, h.id).bind(2, s.seat).bind(3, s.account).bind(4, s.start).bind(5, s.end);
        seat.run();
        stack.reset();
        stack.bind(1, s.end).bind(2, h.table).bind(3, s.seat).run();
    }
    db::Statement events(db_, "INSERT INTO hand_logs (hand_id, body) VALUES (?, ?)");
    events.bind(1, h.id).bind(2, log).run();
    if (h.tournament) apply(*h.tournament);
    add_stats(db_, h.id, h.stats,
              h.day.empty() ? stats_sql::day_of(std::chrono::system_clock::now()) : h.day);
    t.commit();
}

std::vector<std::int64_t> SqliteStore::hands_to_count(std::int64_t after, int limit) {
    db::Statement q(db_, "SELECT id FROM hands WHERE stats_counted = 0 AND status = 'finished' "
                         "AND id > ? ORDER BY id LIMIT ?");
    q.bind(1, after).bind(2, std::int64_t{limit});
    std::vector<std::int64_t> out;
    while (q.step()) out.push_back(q.column_int(0));
    return out;
}

bool SqliteStore::count_hand_stats(std::int64_t hand_id, const std::vector<StatsRow>& rows,
                                   const std::string& day) {
    db::Transaction t(db_);
    db::Statement mark(db_, "UPDATE hands SET stats_counted = 1 WHERE id = ? AND stats_counted = 0 "
                            "AND status = 'finished'");
    mark.bind(1, hand_id).run();
    if (db_.changes() != 1) return false;
    add_stats(db_, hand_id, rows, day);
    t.commit();
    return true;
}

namespace {

// A statistics selection's parameters (stats_sql::sum, stats_sql::days).
void bind_filter(db::Statement& q, std::int64_t account, const StatsFilter& f) {
    q.bind(1, account)
        .bind(2, f.game)
        .bind(3, f.variant)
        .bind(4, f.structure)
        .bind(5, f.stake ? f.stake->value() : std::int64_t{-1})
        .bind(6, std::int64_t{f.position.value_or(-99)})
        .bind(7, std::int64_t{f.table_size.value_or(0)})
        .bind(8, f.from)
        .bind(9, f.to)
        .bind(10, std::int64_t{f.tournament});
}

} // namespace

stats::Totals SqliteStore::stats_of(std::int64_t account, const StatsFilter& f) {
    db::Statement q(db_, stats_sql::sum(false));
    bind_filter(q, account, f);
    q.step();
    return stats_sql::totals([&](int c) { return q.column_int(c); },
                             [&](int c) { return q.column_double(c); });
}

std::vector<StatsDay> SqliteStore::stats_days(std::int64_t account, const StatsFilter& f) {
    db::Statement q(db_, stats_sql::days(false));
    bind_filter(q, account, f);
    std::vector<StatsDay> out;
    while (q.step())
        out.push_back({q.column_text(0), q.column_int(1), Chips(q.column_int(2)),
                       Chips(q.column_int(3)), q.column_double(4)});
    return out;
}

std::vector<OpponentStats> SqliteStore::opponent_stats(std::int64_t viewer,
                                                       const std::vector<std::string>& names) {
    db::Statement q(db_, stats_sql::opponent_select(false));
    std::vector<OpponentStats> out;
    for (const std::string& name : names) {
        q.reset();
        q.bind(1, viewer).bind(2, name);
        OpponentStats o{name};
        if (q.step()) {
            o.hands = q.column_int(0);
            o.vpip = {q.column_int(1), q.column_int(2)};
            o.pfr = {q.column_int(3), q.column_int(4)};
        }
        out.push_back(std::move(o));
    }
    return out;
}

std::vector<SearchHit> SqliteStore::search_hands(std::int64_t account, const HandSearch& f) {
    db::Statement q(db_, stats_sql::search(false));
    q.bind(1, account)
        .bind(2, f.hole)
        .bind(3, std::int64_t{f.pairs})
        .bind(4, std::int64_t{f.position.value_or(-99)})
        .bind(5, std::int64_t{f.result})
        .bind(6, f.min_pot ? f.min_pot->value() : std::int64_t{-1})
        .bind(7, std::int64_t{f.showdown ? int{*f.showdown} : -1})
        .bind(8, std::int64_t{f.all_in ? int{*f.all_in} : -1})
        .bind(9, f.from)
        .bind(10, f.to)
        .bind(11, f.table)
        .bind(12, f.before)
        .bind(13, std::int64_t{f.limit});
    std::vector<SearchHit> out;
    while (q.step())
        out.push_back({q.column_int(0), q.column_int(1), static_cast<int>(q.column_int(2)),
                       q.column_text(3), q.column_text(4), static_cast<int>(q.column_int(5)),
                       Chips(q.column_int(6)), Chips(q.column_int(7)), (q.column_int(8) & 1) != 0,
                       (q.column_int(8) & 2) != 0});
    return out;
}

void SqliteStore::void_hand(std::int64_t hand_id) {
    db::Statement q(db_, "UPDATE hands SET status = 'void', ended_at = "
                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
    q.bind(1, hand_id).run();
}

// ---- tournaments ----

namespace {
constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
} // namespace

std::string SqliteStore::status_of(std::int64_t tournament) {
    db::Statement q(db_, "SELECT status FROM tournaments WHERE id = ?");
    q.bind(1, tournament);
    return q.step() ? q.column_text(0) : std::string();
}

std::variant<std::int64_t, Refusal>
SqliteStore::create_tournament(const std::string& config, std::int64_t creator, Chips guarantee) {
    db::Transaction t(db_);
    if (guarantee > 0)
        if (auto no = accounts_.move_chips(creator, -guarantee, "tournament_guarantee")) return *no;
    db::Statement q(db_, "INSERT INTO tournaments (config, created_by, guarantee, guarantee_held) "
                         "VALUES (?, ?, ?, ?)");
    q.bind(1, config).bind(2, creator).bind(3, guarantee).bind(4, guarantee).run();
    const std::int64_t id = db_.last_insert_rowid();
    t.commit();
    return id;
}

std::optional<Refusal> SqliteStore::enter_tournament(std::int64_t tournament, std::int64_t account,
                                                     Chips buy_in, Chips fee, int max_entrants) {
    db::Transaction t(db_);
    if (status_of(tournament) != "registering") return tournament_rows::not_registering(tournament);
    db::Statement mine(db_, "SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND "
                            "account_id = ?");
    mine.bind(1, tournament).bind(2, account);
    if (mine.step()) return tournament_rows::already_registered(tournament);
    db::Statement count(db_, "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?");
    count.bind(1, tournament);
    count.step();
    if (count.column_int(0) >= max_entrants) return tournament_rows::full(tournament, max_entrants);
    if (auto no = accounts_.move_chips(account, -(buy_in + fee), "tournament_entry")) return no;
    db::Statement q(db_, "INSERT INTO tournament_entries (tournament_id, account_id, buy_in, fee) "
                         "VALUES (?, ?, ?, ?)");
    q.bind(1, tournament).bind(2, account).bind(3, buy_in).bind(4, fee).run();
    t.commit();
    return std::nullopt;
}

std::optional<Refusal> SqliteStore::leave_tournament(std::int64_t tournament,
                                                     std::int64_t account) {
    db::Transaction t(db_);
    if (status_of(tournament) != "registering") return tournament_rows::not_registering(tournament);
    db::Statement paid(db_, "SELECT buy_in + fee FROM tournament_entries WHERE tournament_id = ? "
                            "AND account_id = ?");
    paid.bind(1, tournament).bind(2, account);
    if (!paid.step()) return tournament_rows::not_registered(tournament);
    const Chips back = paid.column_chips(0);
    db::Statement del(db_, "DELETE FROM tournament_entries WHERE tournament_id = ? AND "
                           "account_id = ?");
    del.bind(1, tournament).bind(2, account).run();
    if (back > 0) accounts_.move_chips(account, back, "tournament_refund");
    t.commit();
    return std::nullopt;
}

bool SqliteStore::start_tournament(std::int64_t tournament, const std::string& state) {
    db::Transaction t(db_);
    db::Statement up(db_, std::string("UPDATE tournaments SET status = 'running', state = ?, "
                                      "started_at = ") +
                              kNow + " WHERE id = ? AND status = 'registering'");
    up.bind(1, state).bind(2, tournament).run();
    if (db_.changes() != 1) return false;
    db::Statement fees(db_, "SELECT t.created_by, COALESCE(SUM(e.fee), 0) FROM tournaments t "
                            "JOIN tournament_entries e ON e.tournament_id = t.id WHERE t.id = ?");
    fees.bind(1, tournament);
    if (fees.step() && fees.column_chips(1) > 0)
        accounts_.move_chips(fees.column_int(0), fees.column_chips(1), "tournament_fee");
    // What the buy-ins cover of the guarantee goes back to the creator; the overlay stays.
    db::Statement cover(db_, "SELECT t.created_by, MIN(t.guarantee_held, COALESCE((SELECT "
                             "SUM(buy_in) FROM tournament_entries WHERE tournament_id = t.id), "
                             "0)) FROM tournaments t WHERE t.id = ?");
    cover.bind(1, tournament);
    if (cover.step() && cover.column_chips(1) > 0) {
        accounts_.move_chips(cover.column_int(0), cover.column_chips(1),
                             "tournament_guarantee_back");
        db::Statement held(db_, "UPDATE tournaments SET guarantee_held = guarantee_held - ? "
                                "WHERE id = ?");
        held.bind(1, cover.column_chips(1)).bind(2, tournament).run();
    }
    db::Statement playing(db_, "UPDATE tournament_entries SET status = 'playing' WHERE "
                               "tournament_id = ?");
    playing.bind(1, tournament).run();
    t.commit();
    return true;
}

void SqliteStore::apply(const TournamentChange& c) {
    db::Statement out(db_, "UPDATE tournament_entries SET status = 'out', place = ?, prize = ?, "
                           "tied = ? WHERE tournament_id = ? AND account_id = ? AND entry = ? "
                           "AND status = 'playing'");
    for (const EntryFinish& f : c.finished) {
        out.reset();
        out.bind(1, f.place).bind(2, f.prize).bind(3, f.tied ? 1 : 0).bind(4, c.tournament);
        out.bind(5, f.account).bind(6, f.entry).run();
        // Paid once: an entry already out is not changed, nor paid again.
        if (db_.changes() == 1 && f.prize > 0)
            accounts_.move_chips(f.account, f.prize, "tournament_prize");
    }
    // A state is written unless a later change's was (the last change, the end, always is).
    db::Statement state(db_, c.over ? std::string("UPDATE tournaments SET state = ?1, state_seq = "
                                                  "?3, status = 'finished', ended_at = ") +
                                          kNow + " WHERE id = ?2 AND status = 'running'"
                                    : std::string("UPDATE tournaments SET state = ?1, state_seq = "
                                                  "?3 WHERE id = ?2 AND status = 'running' AND "
                                                  "state_seq <= ?3"));
    state.bind(1, c.state).bind(2, c.tournament).bind(3, static_cast<std::int64_t>(c.seq)).run();
}

std::optional<Refusal> SqliteStore::buy_in_tournament(std::int64_t tournament,
                                                      const TournamentPurchase& p) {
    db::Transaction t(db_);
    if (status_of(tournament) != "running") return tournament_rows::not_running(tournament);
    using Kind = TournamentPurchase::Kind;
    const Chips price = p.buy_in + (p.kind == Kind::entry ? p.fee : Chips());
    if (p.kind == Kind::entry) {
        db::Statement mine(db_, "SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND "
                                "account_id = ? AND entry >= ?");
        mine.bind(1, tournament).bind(2, p.account).bind(3, p.entry);
        if (mine.step()) return tournament_rows::already_registered(tournament);
    }
    if (auto no = accounts_.move_chips(p.account, -price, tournament_rows::purchase_reason(p.kind)))
        return no;
    if (p.kind == Kind::entry) {
        db::Statement q(db_, "INSERT INTO tournament_entries (tournament_id, account_id, entry, "
                             "buy_in, fee, status) VALUES (?, ?, ?, ?, ?, 'playing')");
        q.bind(1, tournament).bind(2, p.account).bind(3, p.entry).bind(4, p.buy_in);
        q.bind(5, p.fee).run();
    } else {
        db::Statement q(db_, p.kind == Kind::rebuy
                                 ? "UPDATE tournament_entries SET rebuys = rebuys + 1, bought = "
                                   "bought + ? WHERE tournament_id = ? AND account_id = ? AND "
                                   "entry = ?"
                                 : "UPDATE tournament_entries SET add_ons = add_ons + 1, bought = "
                                   "bought + ? WHERE tournament_id = ? AND account_id = ? AND "
                                   "entry = ?");
        q.bind(1, p.buy_in).bind(2, tournament).bind(3, p.account).bind(4, p.entry).run();
        if (db_.changes() != 1)
            throw db::Error(SQLITE_ERROR, "tournament " + std::to_string(tournament) +
                                              " has no entry " + std::to_string(p.entry) +
                                              " of account " + std::to_string(p.account));
    }
    db::Statement creator(db_, "SELECT created_by, MIN(guarantee_held, ?) FROM tournaments WHERE "
                               "id = ?");
    creator.bind(1, p.buy_in).bind(2, tournament);
    creator.step();
    if (p.kind == Kind::entry && p.fee > 0)
        accounts_.move_chips(creator.column_int(0), p.fee, "tournament_fee");
    if (const Chips back = creator.column_chips(1); back > 0) {
        accounts_.move_chips(creator.column_int(0), back, "tournament_guarantee_back");
        db::Statement held(db_, "UPDATE tournaments SET guarantee_held = guarantee_held - ? "
                                "WHERE id = ?");
        held.bind(1, back).bind(2, tournament).run();
    }
    apply(p.change);
    t.commit();
    return std::nullopt;
}

void SqliteStore::change_tournament(const TournamentChange& change) {
    db::Transaction t(db_);
    apply(change);
    t.commit();
}

void SqliteStore::cancel_tournament(std::int64_t tournament,
                                    const std::vector<std::pair<std::int64_t, Chips>>& stacks) {
    db::Transaction t(db_);
    const std::string status = status_of(tournament);
    if (status != "registering" && status != "running") return;
    if (status == "registering") {
        db::Statement q(db_, "SELECT account_id, buy_in + fee FROM tournament_entries WHERE "
                             "tournament_id = ?");
        q.bind(1, tournament);
        while (q.step())
            if (q.column_chips(1) > 0)
                accounts_.move_chips(q.column_int(0), q.column_chips(1), "tournament_refund");
        db::Statement held(db_, "SELECT created_by, guarantee_held FROM tournaments WHERE id = ?");
        held.bind(1, tournament);
        if (held.step() && held.column_chips(1) > 0)
            accounts_.move_chips(held.column_int(0), held.column_chips(1),
                                 "tournament_guarantee_back");
    } else {
        db::Statement pool(db_, "SELECT COALESCE(SUM(buy_in + bought), 0) - COALESCE(SUM(prize), "
                                "0) + (SELECT guarantee_held FROM tournaments WHERE id = ?1) FROM "
                                "tournament_entries WHERE tournament_id = ?1");
        pool.bind(1, tournament);
        pool.step();
        std::vector<std::int64_t> playing;
        db::Statement q(db_, "SELECT account_id FROM tournament_entries WHERE tournament_id = ? "
                             "AND status = 'playing' GROUP BY account_id ORDER BY "
                             "MIN(registered_at), account_id");
        q.bind(1, tournament);
        while (q.step()) playing.push_back(q.column_int(0));
        for (const auto& [account, share] :
             tournament_rows::shares(pool.column_chips(0), playing, stacks))
            if (share > 0) accounts_.move_chips(account, share, "tournament_share");
    }
    db::Statement up(db_, std::string("UPDATE tournaments SET status = 'cancelled', "
                                      "guarantee_held = 0, ended_at = ") +
                              kNow + " WHERE id = ?");
    up.bind(1, tournament).run();
    t.commit();
}

std::optional<TournamentRow> SqliteStore::tournament(std::int64_t tournament) {
    db::Statement q(db_, "SELECT t.id, t.config, t.created_by, a.name, t.status, "
                         "COALESCE(t.state, '') FROM tournaments t JOIN accounts a ON a.id = "
                         "t.created_by WHERE t.id = ?");
    q.bind(1, tournament);
    if (!q.step()) return std::nullopt;
    TournamentRow r{q.column_int(0),
                    q.column_text(1),
                    q.column_int(2),
                    q.column_text(3),
                    q.column_text(4),
                    q.column_text(5),
                    {}};
    db::Statement e(db_, "SELECT e.account_id, a.name, e.buy_in, e.fee, e.status, "
                         "COALESCE(e.place, 0), e.prize, e.tied, e.entry, e.rebuys, e.add_ons "
                         "FROM tournament_entries e JOIN accounts a ON a.id = e.account_id WHERE "
                         "e.tournament_id = ? ORDER BY e.registered_at, e.account_id, e.entry");
    e.bind(1, tournament);
    while (e.step())
        r.entries.push_back({e.column_int(0), e.column_text(1), e.column_chips(2),
                             e.column_chips(3), e.column_text(4), static_cast<int>(e.column_int(5)),
                             e.column_chips(6), e.column_int(7) != 0,
                             static_cast<int>(e.column_int(8)), static_cast<int>(e.column_int(9)),
                             static_cast<int>(e.column_int(10))});
    return r;
}

std::vector<TournamentRow> SqliteStore::open_tournaments() {
    std::vector<std::int64_t> ids;
    {
        db::Statement q(db_, "SELECT id FROM tournaments WHERE status IN ('registering', "
                             "'running') ORDER BY id");
        while (q.step()) ids.push_back(q.column_int(0));
    }
    std::vector<TournamentRow> out;
    for (std::int64_t id : ids)
        if (auto r = tournament(id)) out.push_back(std::move(*r));
    return out;
}

// ---- history ----

namespace {

// The first six columns of a hands row: id, table_id, number, status, started_at, ended_at.
HandSummary summary(const db::Statement& q) {
    return {q.column_int(0),  q.column_int(1),  static_cast<int>(q.column_int(2)),
            q.column_text(3), q.column_text(4), q.column_text(5)};
}

constexpr const char* kSummaryColumns =
    "h.id, h.table_id, h.number, h.status, h.started_at, COALESCE(h.ended_at, '')";

} // namespace

std::vector<PlayerHand> SqliteStore::hands_of(std::int64_t account, std::int64_t before,
                                              int limit) {
    db::Statement q(db_, std::string("SELECT ") + kSummaryColumns +
                             ", s.seat, s.stack_start, s.stack_end, h.config "
                             "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                             "WHERE s.account_id = ? AND (? = 0 OR h.id < ?) "
                             "ORDER BY h.id DESC LIMIT ?");
    q.bind(1, account).bind(2, before).bind(3, before).bind(4, limit);
    std::vector<PlayerHand> out;
    while (q.step())
        out.push_back({summary(q), static_cast<int>(q.column_int(6)), q.column_chips(7),
                       q.column_chips(8), q.column_text(9)});
    return out;
}

std::vector<PlayerTournament> SqliteStore::tournaments_of(std::int64_t account, int limit) {
    // One line a tournament: its last entry's place, and what every entry paid and won.
    db::Statement q(db_, "SELECT t.id, t.config, t.status, (SELECT COUNT(*) FROM "
                         "tournament_entries x WHERE x.tournament_id = t.id), "
                         "COALESCE((SELECT l.place FROM tournament_entries l WHERE "
                         "l.tournament_id = t.id AND l.account_id = e.account_id ORDER BY "
                         "l.entry DESC LIMIT 1), 0), SUM(e.prize), SUM(e.buy_in + e.bought), "
                         "SUM(e.fee), MAX(e.tied), COALESCE(t.ended_at, '') FROM "
                         "tournament_entries e JOIN tournaments t ON t.id = e.tournament_id WHERE "
                         "e.account_id = ? GROUP BY t.id ORDER BY t.id DESC LIMIT ?");
    q.bind(1, account).bind(2, limit);
    std::vector<PlayerTournament> out;
    while (q.step())
        out.push_back({q.column_int(0), q.column_text(1), q.column_text(2),
                       static_cast<int>(q.column_int(3)), static_cast<int>(q.column_int(4)),
                       q.column_chips(5), q.column_chips(6), q.column_chips(7),
                       q.column_int(8) != 0, q.column_text(9)});
    return out;
}

std::optional<HandRecord> SqliteStore::hand_record(std::int64_t hand_id) {
    db::Statement h(db_, std::string("SELECT ") + kSummaryColumns +
                             ", h.config, h.commitment, COALESCE(h.deck, ''), "
                             "COALESCE(h.seed, ''), COALESCE(h.fairness, '') FROM hands h "
                             "WHERE h.id = ?");
    h.bind(1, hand_id);
    if (!h.step()) return std::nullopt;
    HandRecord r{summary(h),
                 h.column_text(6),
                 h.column_text(7),
                 h.column_text(8),
                 h.column_text(9),
                 h.column_text(10),
                 {},
                 {}};
    db::Statement s(db_, "SELECT s.seat, a.name, s.account_id, s.stack_start, s.stack_end "
                         "FROM hand_seats s JOIN accounts a ON a.id = s.account_id "
                         "WHERE s.hand_id = ? ORDER BY s.seat");
    s.bind(1, hand_id);
    while (s.step())
        r.seats.push_back({static_cast<int>(s.column_int(0)), s.column_text(1), s.column_int(2),
                           s.column_chips(3), s.column_chips(4)});
    db::Statement log(db_, "SELECT body FROM hand_logs WHERE hand_id = ?");
    log.bind(1, hand_id);
    if (log.step()) r.events = hand_log_events(log.column_text(0));
    return r;
}

std::optional<std::vector<HandSummary>> SqliteStore::finished_hands(std::int64_t table, int limit) {
    db::Statement t(db_, "SELECT 1 FROM tables WHERE id = ?");
    t.bind(1, table);
    if (!t.step()) return std::nullopt;
    db::Statement q(db_, std::string("SELECT ") + kSummaryColumns +
                             " FROM hands h WHERE h.table_id = ? AND h.status = 'finished' "
                             "ORDER BY h.id DESC LIMIT ?");
    q.bind(1, table).bind(2, limit);
    std::vector<HandSummary> out;
    while (q.step()) out.push_back(summary(q));
    return out;
}

std::optional<PlayerTotals> SqliteStore::totals_of(const std::string& name) {
    db::Statement a(db_, "SELECT id, name FROM accounts WHERE name = ?");
    a.bind(1, name);
    if (!a.step()) return std::nullopt;
    db::Statement q(db_, "SELECT COUNT(*), COALESCE(SUM(s.stack_end - s.stack_start), 0), "
                         "COALESCE(SUM(s.stack_end > s.stack_start), 0), "
                         "COALESCE(MAX(s.stack_end - s.stack_start), 0), "
                         "COALESCE(MIN(s.stack_end - s.stack_start), 0) "
                         "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                         "WHERE s.account_id = ? AND h.status = 'finished' "
                         // tournament chips are not chips won or lost
                         "AND h.config NOT LIKE '%\"tournament\":%'");
    q.bind(1, a.column_int(0));
    q.step();
    PlayerTotals t;
    t.name = a.column_text(1);
    t.hands = q.column_int(0);
    t.net = q.column_chips(1);
    t.won = q.column_int(2);
    t.biggest_win = q.column_chips(3);
    t.biggest_loss = q.column_chips(4);
    return t;
}

// ---- health ----

void SqliteStore::probe() {
    db_.exec("INSERT INTO storage_probe (id, at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', "
             "'now')) ON CONFLICT (id) DO UPDATE SET at = excluded.at");
}

void SqliteStore::check() {
    db_.exec("SELECT 1");
}

// ---- group commit ----

void SqliteStore::begin_group() {
    db_.run("BEGIN IMMEDIATE");
}

void SqliteStore::commit_group() {
    db_.run("COMMIT");
}

void SqliteStore::abandon_group() noexcept {
    try {
        db_.exec("ROLLBACK");
    } catch (const db::Error&) {
        // Already rolled back by SQLite itself (a full disk does that).
    }
}

} // namespace felt::server
