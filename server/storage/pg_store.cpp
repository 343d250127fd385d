#include "storage/pg_store.h"

#include "storage/migrate.h"
#include "storage/stats_sql.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <thread>

namespace felt::server {

namespace {

// Hand ids come from the sequence hand_ids in blocks of this many (its INCREMENT, migration 6).
constexpr std::int64_t kHandIdBlock = 1000;

template <class T, class F>
std::string number_array(const std::vector<T>& items, F value) {
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(value(items[i]));
    }
    out += '}';
    return out;
}

Account read_account(const pg::Result& r, int row = 0) {
    Account a;
    a.id = r.integer(row, 0);
    a.name = r.text(row, 1);
    a.guest = r.integer(row, 2) != 0;
    a.balance = r.chips(row, 3);
    return a;
}

// The first six columns of a hands row: id, table_id, number, status, started_at, ended_at.
constexpr const char* kSummaryColumns =
    "h.id, h.table_id, h.number, h.status, "
    "felt_time(h.started_at), COALESCE(felt_time(h.ended_at), '')";

HandSummary summary(const pg::Result& r, int row) {
    return {r.integer(row, 0), r.integer(row, 1), static_cast<int>(r.integer(row, 2)),
            r.text(row, 3),    r.text(row, 4),    r.text(row, 5)};
}

pg::Connection& migrated(pg::Connection& db, PgStore::Role role) {
    if (role == PgStore::Role::writer)
        spdlog::info("database at schema version {}", migrate(db));
    else if (const int v = schema_version(db); v > static_cast<int>(builtin_pg_migrations().size()))
        throw MigrationError("the database is at schema version " + std::to_string(v) +
                             ", newer than this program knows");
    return db;
}

} // namespace

PgStore::PgStore(const std::string& conninfo, Chips grant, Role role, TokenLife life,
                 NodeIdentity node)
    : db_(conninfo), grant_(grant), life_(life), writer_(role == Role::writer),
      node_(std::move(node)), connected_since_(std::chrono::steady_clock::now()) {
    migrated(db_, role);
    if (!writer_) return;
    if (node_.incarnation.empty()) node_.incarnation = new_token().substr(0, 16);
    take_lease();
    pg::Transaction t(db_);
    const int recovered = recover_tables(node_.id, true);
    t.commit();
    if (recovered)
        spdlog::warn("node {}: recovered {} table(s) left open by its previous run, to open again",
                     node_.id, recovered);
}

pg::Connection& PgStore::db() {
    if (db_.broken()) {
        // Reconnecting inside a group would commit the rest of it without its start.
        if (in_group_) throw pg::Error("", "the connection to PostgreSQL was lost mid-group");
        db_.reconnect();
        spdlog::warn("connected to PostgreSQL again");
    }
    return db_;
}

void PgStore::take_lease() {
    const auto until = std::chrono::steady_clock::now() + node_.lease + std::chrono::seconds(1);
    for (bool waited = false;; waited = true) {
        // A new row, or the row of a run whose lease lapsed (a stop without release).
        const pg::Result taken = db_.query(
            "INSERT INTO nodes (id, incarnation, lease_until) "
            "VALUES ($1, $2, now() + make_interval(secs => $3)) "
            "ON CONFLICT (id) DO UPDATE SET url = '', incarnation = excluded.incarnation, "
            "lease_until = excluded.lease_until WHERE nodes.lease_until < now() RETURNING id",
            {node_.id, node_.incarnation, static_cast<std::int64_t>(node_.lease.count())});
        if (taken.rows() == 1) return;
        if (std::chrono::steady_clock::now() >= until)
            throw std::runtime_error("node \"" + node_.id +
                                     "\" is held by a running feltd on this database (its lease "
                                     "does not lapse): give each node its own --node-id");
        if (!waited)
            spdlog::warn("node {}: waiting for the lease of its previous run to lapse", node_.id);
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
}

int PgStore::recover_tables(const std::string& node, bool keep) {
    // The node's tables: every chip seated at them and every hand running, closed or not (a
    // table closes only once empty, but nothing is left behind if one did not); then the open
    // ones are closed.
    const std::string of_node = "(t.node_id = $1 OR t.node_id IS NULL)";
    const pg::Result seats =
        db_.query(("DELETE FROM table_seats s USING tables t WHERE s.table_id = t.id AND " +
                   of_node + " RETURNING s.account_id, s.stack")
                      .c_str(),
                  {node});
    for (int i = 0; i < seats.rows(); ++i)
        if (seats.integer(i, 1) > 0)
            move_chips(seats.integer(i, 0), seats.chips(i, 1), "recovered");
    const int voided = db_.query(("UPDATE hands h SET status = 'void', ended_at = now() FROM "
                                  "tables t WHERE h.table_id = t.id AND h.status = 'running' "
                                  "AND " +
                                  of_node)
                                     .c_str(),
                                 {node})
                           .affected();
    if (keep) {
        const pg::Result open =
            db_.query(("UPDATE tables t SET node_id = $1 WHERE t.closed_at IS NULL AND " + of_node +
                       " RETURNING t.id, t.config, COALESCE(t.created_by, 0), (SELECT "
                       "COALESCE(MAX(h.number), 0) FROM hands h WHERE h.table_id = t.id), "
                       "COALESCE((SELECT a.name FROM accounts a WHERE a.id = t.created_by), "
                       "'')")
                          .c_str(),
                      {node});
        for (int i = 0; i < open.rows(); ++i)
            left_open_.push_back({open.integer(i, 0), open.text(i, 1), open.integer(i, 2),
                                  static_cast<int>(open.integer(i, 3)), open.text(i, 4)});
        std::ranges::sort(left_open_, {}, &OpenTable::id);
        if (seats.rows() || voided)
            spdlog::warn("recovered the tables of node {}: {} seat(s) of chips returned, {} "
                         "hand(s) void, {} table(s) to open again",
                         node, seats.rows(), voided, open.rows());
        return open.rows();
    }
    // Each table closed is told to every node's lobby, once the recovery commits.
    const int tables =
        db_.query(("WITH closed AS (UPDATE tables t SET closed_at = now() WHERE t.closed_at IS "
                   "NULL AND " +
                   of_node +
                   " RETURNING t.id) SELECT pg_notify($2, json_build_object('node', $1::text, "
                   "'kind', 'closed', 'id', id)::text) FROM closed")
                      .c_str(),
                  {node, kBulletinChannel})
            .rows();
    if (seats.rows() || voided)
        spdlog::warn("recovered the tables of node {}: {} seat(s) of chips returned, {} hand(s) "
                     "void, {} table(s) closed",
                     node, seats.rows(), voided, tables);
    return tables;
}

void PgStore::check_table(std::int64_t table) {
    if (db_.query("SELECT 1 FROM tables WHERE id = $1 AND closed_at IS NULL AND node_id = $2",
                  {table, node_.id})
            .rows() == 0)
        throw pg::Error("", "table " + std::to_string(table) + " is not open on node " + node_.id +
                                " (its lease was taken over?)");
}

Tending PgStore::tend() {
    const auto now = std::chrono::steady_clock::now();
    Tending out;
    try {
        out.lease_held =
            db().query(
                    "UPDATE nodes SET lease_until = now() + make_interval(secs => $3) "
                    "WHERE id = $1 AND incarnation = $2",
                    {node_.id, node_.incarnation, static_cast<std::int64_t>(node_.lease.count())})
                .affected() == 1;
    } catch (const pg::Error&) {
        connected_since_ = now;
        throw;
    }
    if (!out.lease_held || now - connected_since_ < node_.lease) return out;
    const pg::Result lapsed = db_.query("SELECT id FROM nodes WHERE lease_until < now()");
    for (int i = 0; i < lapsed.rows(); ++i) {
        // The row goes with the recovery, in one transaction: a node racing to do the same waits
        // for the row's lock and then finds it gone.
        pg::Transaction t(db_);
        const std::string node = lapsed.text(i, 0);
        if (db_.query("DELETE FROM nodes WHERE id = $1 AND lease_until < now() RETURNING id",
                      {node})
                .rows() == 0)
            continue;
        take_tournaments(node, out);
        out.tables_recovered += recover_tables(node);
        ++out.nodes_recovered;
        t.commit();
    }
    return out;
}

void PgStore::take_tournaments(const std::string& node, Tending& out) {
    // Their tables' running hands are void, and the tables become this node's, open; then the
    // tournaments themselves (so that recovering the node's tables leaves them be).
    db_.query("UPDATE hands h SET status = 'void', ended_at = now() FROM tables t WHERE "
              "h.table_id = t.id AND h.status = 'running' AND t.node_id = $1 AND t.closed_at IS "
              "NULL AND t.config::jsonb ? 'tournament'",
              {node});
    const pg::Result tables = db_.query(
        "UPDATE tables t SET node_id = $2 WHERE t.node_id = $1 AND t.closed_at IS NULL AND "
        "t.config::jsonb ? 'tournament' RETURNING t.id, (SELECT COALESCE(MAX(h.number), 0) FROM "
        "hands h WHERE h.table_id = t.id)",
        {node, node_.id});
    for (int i = 0; i < tables.rows(); ++i)
        out.tournament_tables[tables.integer(i, 0)] = static_cast<int>(tables.integer(i, 1));
    const pg::Result ids = db_.query(
        "UPDATE tournaments SET node_id = $2 WHERE node_id = $1 AND status IN ('registering', "
        "'running') RETURNING id",
        {node, node_.id});
    std::vector<std::int64_t> taken;
    for (int i = 0; i < ids.rows(); ++i) taken.push_back(ids.integer(i, 0));
    std::sort(taken.begin(), taken.end());
    for (std::int64_t id : taken)
        if (auto row = tournament(id)) out.tournaments.push_back(std::move(*row));
    if (!taken.empty())
        spdlog::warn("took over {} tournament(s) of node {}, with {} table(s)", taken.size(), node,
                     tables.rows());
}

void PgStore::announce(const std::string& url) {
    db().query("UPDATE nodes SET url = $3 WHERE id = $1 AND incarnation = $2",
               {node_.id, node_.incarnation, url});
}

std::optional<std::string> PgStore::node_url_of(std::int64_t table) {
    const pg::Result r =
        db().query("SELECT n.url FROM tables t JOIN nodes n ON n.id = t.node_id "
                   "WHERE t.id = $1 AND t.closed_at IS NULL AND n.id != $2 AND n.url != ''",
                   {table, node_.id});
    if (r.rows() == 0) return std::nullopt;
    return r.text(0, 0);
}

std::optional<std::string> PgStore::node_url_of_tournament(std::int64_t tournament) {
    const pg::Result r = db().query(
        "SELECT n.url FROM tournaments t JOIN nodes n ON n.id = t.node_id WHERE t.id = $1 AND "
        "t.status IN ('registering', 'running') AND n.id != $2 AND n.url != ''",
        {tournament, node_.id});
    if (r.rows() == 0) return std::nullopt;
    return r.text(0, 0);
}

std::vector<TournamentElsewhere> PgStore::tournaments_elsewhere() {
    const pg::Result r = db().query(
        "SELECT t.id, t.config, t.status, a.name, n.url, (SELECT COUNT(*) FROM "
        "tournament_entries e WHERE e.tournament_id = t.id) FROM tournaments t JOIN accounts a ON "
        "a.id = t.created_by JOIN nodes n ON n.id = t.node_id WHERE t.status IN ('registering', "
        "'running') AND n.id != $1 AND n.url != '' ORDER BY t.id",
        {node_.id});
    std::vector<TournamentElsewhere> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back({r.integer(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4),
                       static_cast<int>(r.integer(i, 5))});
    return out;
}

std::vector<SeatElsewhere> PgStore::seats_elsewhere(std::int64_t account) {
    const pg::Result r = db().query(
        "SELECT s.table_id, n.url FROM table_seats s JOIN tables t ON t.id = s.table_id "
        "JOIN nodes n ON n.id = t.node_id WHERE s.account_id = $1 AND t.closed_at IS NULL "
        "AND n.id != $2 AND n.url != '' ORDER BY s.table_id",
        {account, node_.id});
    std::vector<SeatElsewhere> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back({r.integer(i, 0), r.text(i, 1)});
    return out;
}

void PgStore::notify(const std::string& message) {
    db().query("SELECT pg_notify($1, $2)", {kBulletinChannel, message});
}

void PgStore::release() {
    db().query("UPDATE nodes SET lease_until = now() WHERE id = $1 AND incarnation = $2",
               {node_.id, node_.incarnation});
}

// ---- accounts and sessions ----

std::optional<Refusal> PgStore::move_chips(std::int64_t account, Chips amount,
                                           std::string_view reason) {
    // The row lock that UPDATE takes orders concurrent moves on one account: each sees the
    // balance the one before it left, and none goes below zero.
    const pg::Result up = db().query("UPDATE accounts SET balance = balance + $2 "
                                     "WHERE id = $1 AND balance + $2 >= 0 RETURNING balance",
                                     {account, amount});
    if (up.rows() == 0) {
        const pg::Result bal = db_.query("SELECT balance FROM accounts WHERE id = $1", {account});
        if (bal.rows() == 0) return no_such_account();
        return insufficient_chips(bal.chips(0, 0), amount);
    }
    db_.query("INSERT INTO ledger (account_id, amount, balance_after, reason) "
              "VALUES ($1, $2, $3, $4)",
              {account, amount, up.chips(0, 0), reason});
    return std::nullopt;
}

Account PgStore::insert_account(std::string_view name, const std::string* hash, bool guest) {
    const pg::Result r =
        db_.query("INSERT INTO accounts (name, password_hash, guest) VALUES ($1, $2, $3) "
                  "RETURNING id",
                  {name, hash ? pg::Param(*hash) : pg::Param(std::nullopt), guest ? 1 : 0});
    return granted(r.integer(0, 0), name, guest, grant_,
                   [this](std::int64_t id, Chips amount, std::string_view reason) {
                       move_chips(id, amount, reason);
                   });
}

Outcome<Account> PgStore::create_account(std::string_view name, const std::string& hash) {
    pg::Transaction t(db());
    if (db_.query("SELECT 1 FROM accounts WHERE lower(name) = lower($1)", {name}).rows() > 0)
        return {std::nullopt, name_taken(name)};
    try {
        Account a = insert_account(name, &hash, false);
        t.commit();
        return {a, {}};
    } catch (const pg::Error& e) {
        // Another node took the name between the look and the insert.
        if (e.sqlstate() == "23505") return {std::nullopt, name_taken(name)};
        throw;
    }
}

Outcome<Account> PgStore::create_guest() {
    for (;;) {
        pg::Transaction t(db());
        const std::string name = guest_name();
        if (db_.query("SELECT 1 FROM accounts WHERE lower(name) = lower($1)", {name}).rows() > 0)
            continue;
        try {
            Account a = insert_account(name, nullptr, true);
            t.commit();
            return {a, {}};
        } catch (const pg::Error& e) {
            if (e.sqlstate() != "23505") throw; // a clash: new random bytes
        }
    }
}

std::vector<Account> PgStore::bot_accounts() {
    const pg::Result r =
        db().query("SELECT id, name, guest, balance FROM accounts WHERE bot = 1 ORDER BY id");
    std::vector<Account> all;
    for (int i = 0; i < r.rows(); ++i) {
        all.push_back(read_account(r, i));
        all.back().bot = true;
    }
    return all;
}

Account PgStore::create_bot() {
    for (;;) {
        pg::Transaction t(db());
        const std::string name = bot_name();
        if (db_.query("SELECT 1 FROM accounts WHERE lower(name) = lower($1)", {name}).rows() > 0)
            continue;
        try {
            const pg::Result r = db_.query(
                "INSERT INTO accounts (name, guest, bot) VALUES ($1, 0, 1) RETURNING id", {name});
            Account a{r.integer(0, 0), name, false, Chips{}, true};
            t.commit();
            return a;
        } catch (const pg::Error& e) {
            if (e.sqlstate() != "23505") throw; // a clash: new random bytes
        }
    }
}

std::optional<Refusal> PgStore::fund_bot(std::int64_t account, Chips amount, Chips bank) {
    pg::Transaction t(db());
    // The bots' rows locked, so that two nodes funding bots at once stay within the bank.
    const pg::Result held = db_.query("SELECT balance FROM accounts WHERE bot = 1 FOR UPDATE");
    Chips sum{};
    for (int i = 0; i < held.rows(); ++i) sum += held.chips(i, 0);
    if (sum + amount > bank) return bot_bank_spent(sum, amount, bank);
    if (auto refused = move_chips(account, amount, "grant")) return refused;
    t.commit();
    return std::nullopt;
}

std::optional<std::pair<Account, std::string>> PgStore::find_with_hash(std::string_view name) {
    const pg::Result r = db().query("SELECT id, name, guest, balance, password_hash FROM accounts "
                                    "WHERE lower(name) = lower($1) AND guest = 0 AND bot = 0",
                                    {name});
    if (r.rows() == 0) return std::nullopt;
    return std::pair{read_account(r), r.text(0, 4)};
}

std::optional<Account> PgStore::find_account(std::int64_t id) {
    const pg::Result r =
        db().query("SELECT id, name, guest, balance FROM accounts WHERE id = $1", {id});
    if (r.rows() == 0) return std::nullopt;
    return read_account(r);
}

std::string PgStore::open_session(std::int64_t account) {
    std::string token = new_token();
    db().query("INSERT INTO sessions (token_hash, account_id) VALUES ($1, $2)",
               {token_hash(token), account});
    return token;
}

Outcome<Account> PgStore::resume(std::string_view token) {
    const std::string hash = token_hash(token);
    const pg::Result r =
        db().query("SELECT a.id, a.name, a.guest, a.balance FROM sessions s "
                   "JOIN accounts a ON a.id = s.account_id "
                   "WHERE s.token_hash = $1 AND s.revoked = 0 "
                   "AND s.created_at > now() - make_interval(secs => $2) "
                   "AND COALESCE(s.used_at, s.created_at) > now() - make_interval(secs => $3)",
                   {hash, static_cast<std::int64_t>(life_.max.count()),
                    static_cast<std::int64_t>(life_.idle.count())});
    if (r.rows() == 0) return {std::nullopt, unknown_token()};
    if (writer_) db_.query("UPDATE sessions SET used_at = now() WHERE token_hash = $1", {hash});
    return {read_account(r), {}};
}

void PgStore::revoke(std::string_view token) {
    db().query("UPDATE sessions SET revoked = 1 WHERE token_hash = $1", {token_hash(token)});
}

void PgStore::revoke_all(std::int64_t account, std::string_view keep) {
    db().query("UPDATE sessions SET revoked = 1 WHERE account_id = $1 AND token_hash != $2",
               {account, keep.empty() ? std::string() : token_hash(keep)});
}

void PgStore::change_password(std::int64_t account, const std::string& hash,
                              std::string_view keep) {
    pg::Transaction t(db());
    db_.query("UPDATE accounts SET password_hash = $2 WHERE id = $1", {account, hash});
    revoke_all(account, keep);
    t.commit();
}

// ---- tables ----

std::int64_t PgStore::create_table(const std::string& config, std::int64_t creator) {
    return db()
        .query("INSERT INTO tables (config, created_by, node_id) VALUES ($1, $2, $3) RETURNING id",
               {config, creator, node_.id})
        .integer(0, 0);
}

void PgStore::close_table(std::int64_t table) {
    db().query("UPDATE tables SET closed_at = now() WHERE id = $1 AND closed_at IS NULL", {table});
}

std::optional<Refusal> PgStore::buy_in(std::int64_t table, int seat, std::int64_t account,
                                       Chips amount) {
    pg::Transaction t(db());
    check_table(table);
    if (auto no = move_chips(account, -amount, "buy_in")) return no;
    db_.query("INSERT INTO table_seats (table_id, seat, account_id, stack) VALUES ($1, $2, $3, $4)",
              {table, seat, account, amount});
    t.commit();
    return std::nullopt;
}

std::optional<Refusal> PgStore::top_up(std::int64_t table, int seat, std::int64_t account,
                                       Chips amount) {
    pg::Transaction t(db());
    if (auto no = move_chips(account, -amount, "top_up")) return no;
    if (db_.query("UPDATE table_seats SET stack = stack + $1 "
                  "WHERE table_id = $2 AND seat = $3 AND account_id = $4",
                  {amount, table, seat, account})
            .affected() != 1)
        throw pg::Error("", "table " + std::to_string(table) + " has no seat " +
                                std::to_string(seat) + " of account " + std::to_string(account));
    t.commit();
    return std::nullopt;
}

void PgStore::cash_out(std::int64_t table, int seat, std::int64_t account, Chips stack,
                       std::string_view reason) {
    pg::Transaction t(db());
    // Only a seat still held pays out: a node whose tables were recovered pays nothing twice.
    if (db_.query("DELETE FROM table_seats WHERE table_id = $1 AND seat = $2", {table, seat})
                .affected() == 1 &&
        stack > 0)
        move_chips(account, stack, reason);
    t.commit();
}

// ---- hands ----

std::int64_t PgStore::last_hand_id() {
    return db().query("SELECT COALESCE(MAX(id), 0) FROM hands").integer(0, 0);
}

std::pair<std::int64_t, std::int64_t> PgStore::reserve_hand_ids() {
    return {db().query("SELECT nextval('hand_ids')").integer(0, 0), kHandIdBlock};
}

void PgStore::start_hand(const HandStart& h) {
    if (db().query("INSERT INTO hands (id, table_id, number, config, commitment, status) "
                   "SELECT $1, $2, $3, $4, $5, 'running' WHERE EXISTS (SELECT 1 FROM tables "
                   "WHERE id = $2 AND closed_at IS NULL AND node_id = $6)",
                   {h.id, h.table, h.number, h.config, h.commitment, node_.id})
            .affected() != 1)
        throw pg::Error("", "table " + std::to_string(h.table) + " is not open on node " +
                                node_.id + " (its lease was taken over?)");
}

void PgStore::finish_hand(const HandEnd& h) {
    const std::string log = hand_log_text(h.log); // before anything is written
    pg::Transaction t(db());
    if (db_.query("UPDATE hands SET status = 'finished', deck = $2, seed = $3, fairness = $4, "
                  "stats_counted = 1, ended_at = now() WHERE id = $1 AND status = 'running'",
                  {h.id, h.deck, h.seed, h.fairness})
            .affected() != 1)
        throw pg::Error("", "hand " + std::to_string(h.id) + " has no running row to finish");
    // Every seat in one statement: arrays unnested into rows.
    const std::string seats = number_array(h.seats, [](const HandSeat& s) { return s.seat; });
    const std::string accounts = number_array(h.seats, [](const HandSeat& s) { return s.account; });
    const std::string starts =
        number_array(h.seats, [](const HandSeat& s) { return s.start.value(); });
    const std::string ends = number_array(h.seats, [](const HandSeat& s) { return s.end.value(); });
    db_.query("INSERT INTO hand_seats (hand_id, seat, account_id, stack_start, stack_end) "
              "SELECT $1, * FROM unnest($2::int[], $3::bigint[], $4::bigint[], $5::bigint[])",
              {h.id, seats, accounts, starts, ends});
    db_.query("UPDATE table_seats t SET stack = v.stack "
              "FROM unnest($2::int[], $3::bigint[]) AS v(seat, stack) "
              "WHERE t.table_id = $1 AND t.seat = v.seat",
              {h.table, seats, ends});
    db_.query("INSERT INTO hand_logs (hand_id, body) VALUES ($1, $2)", {h.id, log});
    if (h.tournament) apply(*h.tournament);
    add_stats(h.id, h.stats,
              h.day.empty() ? stats_sql::day_of(std::chrono::system_clock::now()) : h.day);
    t.commit();
}

void PgStore::add_stats(std::int64_t hand_id, const std::vector<StatsRow>& rows,
                        const std::string& day) {
    if (rows.empty()) return;
    static const std::string sql = stats_sql::upsert(true);
    for (const StatsRow& r : rows)
        db_.query(sql.c_str(),
                  {r.account, r.game, r.variant, r.structure, r.stake, r.position, r.table_size,
                   day, static_cast<int>(r.tournament), stats_sql::array(stats_sql::integers(r)),
                   stats_sql::array(stats_sql::reals(r))});
    // The search rows in one statement: each column an array.
    std::vector<std::int64_t> accounts, positions, nets, pots, flags;
    std::vector<std::string> holes;
    for (const StatsRow& r : rows) {
        if (r.game != "poker") continue;
        accounts.push_back(r.account);
        holes.push_back(r.hole);
        positions.push_back(r.position);
        nets.push_back(r.line.net.value());
        pots.push_back(r.pot.value());
        flags.push_back(stats_sql::search_flags(r));
    }
    if (!accounts.empty())
        db_.query("INSERT INTO hand_search (account_id, hand_id, hole, position, net, pot, flags) "
                  "SELECT a, $1, h, p, n, t, f FROM unnest($2::bigint[], $3::text[], $4::int[], "
                  "$5::bigint[], $6::bigint[], $7::int[]) AS x(a, h, p, n, t, f) "
                  "ON CONFLICT DO NOTHING",
                  {hand_id, stats_sql::array(accounts), stats_sql::array(holes),
                   stats_sql::array(positions), stats_sql::array(nets), stats_sql::array(pots),
                   stats_sql::array(flags)});
    const std::vector<stats_sql::OpponentLine> pairs = stats_sql::opponent_lines(rows);
    if (pairs.empty()) return;
    static const std::string pairs_sql = stats_sql::opponent_upsert(true);
    std::array<std::vector<std::int64_t>, 6> columns;
    for (const stats_sql::OpponentLine& p : pairs) {
        std::size_t k = 0;
        for (std::int64_t v : {p.account, p.opponent, p.vpip.times, p.vpip.opportunities,
                               p.pfr.times, p.pfr.opportunities})
            columns[k++].push_back(v);
    }
    db_.query(pairs_sql.c_str(), {stats_sql::array(columns[0]), stats_sql::array(columns[1]),
                                  stats_sql::array(columns[2]), stats_sql::array(columns[3]),
                                  stats_sql::array(columns[4]), stats_sql::array(columns[5])});
}

std::vector<std::int64_t> PgStore::hands_to_count(std::int64_t after, int limit) {
    const pg::Result r = db().query("SELECT id FROM hands WHERE stats_counted = 0 AND status = "
                                    "'finished' AND id > $1 ORDER BY id LIMIT $2",
                                    {after, limit});
    std::vector<std::int64_t> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(r.integer(i, 0));
    return out;
}

bool PgStore::count_hand_stats(std::int64_t hand_id, const std::vector<StatsRow>& rows,
                               const std::string& day) {
    pg::Transaction t(db());
    // The row's lock makes a second node's count of the same hand wait, then find it counted.
    if (db_.query("UPDATE hands SET stats_counted = 1 WHERE id = $1 AND stats_counted = 0 AND "
                  "status = 'finished'",
                  {hand_id})
            .affected() != 1)
        return false;
    add_stats(hand_id, rows, day);
    t.commit();
    return true;
}

namespace {

// A statistics selection (stats_sql::sum, stats_sql::days) run with its parameters.
pg::Result select_stats(pg::Connection& db, const std::string& sql, std::int64_t account,
                        const StatsFilter& f) {
    return db.query(sql.c_str(),
                    {account, f.game, f.variant, f.structure,
                     f.stake ? f.stake->value() : std::int64_t{-1}, f.position.value_or(-99),
                     f.table_size.value_or(0), f.from, f.to, static_cast<int>(f.tournament)});
}

} // namespace

stats::Totals PgStore::stats_of(std::int64_t account, const StatsFilter& f) {
    static const std::string sql = stats_sql::sum(true);
    const pg::Result r = select_stats(db(), sql, account, f);
    return stats_sql::totals([&](int c) { return r.integer(0, c); },
                             [&](int c) { return r.real(0, c); });
}

std::vector<OpponentStats> PgStore::opponent_stats(std::int64_t viewer,
                                                   const std::vector<std::string>& names) {
    static const std::string sql = stats_sql::opponent_select(true);
    std::vector<OpponentStats> out;
    for (const std::string& name : names) {
        const pg::Result r = db().query(sql.c_str(), {viewer, name});
        OpponentStats o{name};
        if (r.rows()) {
            o.hands = r.integer(0, 0);
            o.vpip = {r.integer(0, 1), r.integer(0, 2)};
            o.pfr = {r.integer(0, 3), r.integer(0, 4)};
        }
        out.push_back(std::move(o));
    }
    return out;
}

std::vector<SearchHit> PgStore::search_hands(std::int64_t account, const HandSearch& f) {
    static const std::string sql = stats_sql::search(true);
    const pg::Result r =
        db().query(sql.c_str(), {account, f.hole, int{f.pairs}, f.position.value_or(-99), f.result,
                                 f.min_pot ? f.min_pot->value() : std::int64_t{-1},
                                 f.showdown ? int{*f.showdown} : -1, f.all_in ? int{*f.all_in} : -1,
                                 f.from, f.to, f.table, f.before, f.limit});
    std::vector<SearchHit> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back({r.integer(i, 0), r.integer(i, 1), static_cast<int>(r.integer(i, 2)),
                       r.text(i, 3), r.text(i, 4), static_cast<int>(r.integer(i, 5)),
                       Chips(r.integer(i, 6)), Chips(r.integer(i, 7)), (r.integer(i, 8) & 1) != 0,
                       (r.integer(i, 8) & 2) != 0});
    return out;
}

std::vector<StatsDay> PgStore::stats_days(std::int64_t account, const StatsFilter& f) {
    static const std::string sql = stats_sql::days(true);
    const pg::Result r = select_stats(db(), sql, account, f);
    std::vector<StatsDay> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back({r.text(i, 0), r.integer(i, 1), Chips(r.integer(i, 2)),
                       Chips(r.integer(i, 3)), r.real(i, 4)});
    return out;
}

void PgStore::void_hand(std::int64_t hand_id) {
    db().query("UPDATE hands SET status = 'void', ended_at = now() WHERE id = $1", {hand_id});
}

// ---- tournaments ----

std::string PgStore::lock_tournament(std::int64_t tournament) {
    const pg::Result r =
        db_.query("SELECT status FROM tournaments WHERE id = $1 FOR UPDATE", {tournament});
    return r.rows() ? r.text(0, 0) : std::string();
}

std::variant<std::int64_t, Refusal>
PgStore::create_tournament(const std::string& config, std::int64_t creator, Chips guarantee) {
    pg::Transaction t(db());
    if (guarantee > 0)
        if (auto no = move_chips(creator, -guarantee, "tournament_guarantee")) return *no;
    const std::int64_t id =
        db_.query("INSERT INTO tournaments (config, created_by, node_id, guarantee, "
                  "guarantee_held) VALUES ($1, $2, $3, $4, $4) RETURNING id",
                  {config, creator, node_.id, guarantee})
            .integer(0, 0);
    t.commit();
    return id;
}

std::optional<Refusal> PgStore::enter_tournament(std::int64_t tournament, std::int64_t account,
                                                 Chips buy_in, Chips fee, int max_entrants) {
    pg::Transaction t(db());
    if (lock_tournament(tournament) != "registering")
        return tournament_rows::not_registering(tournament);
    if (db_.query("SELECT 1 FROM tournament_entries WHERE tournament_id = $1 AND account_id = $2",
                  {tournament, account})
            .rows())
        return tournament_rows::already_registered(tournament);
    if (db_.query("SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = $1", {tournament})
            .integer(0, 0) >= max_entrants)
        return tournament_rows::full(tournament, max_entrants);
    if (auto no = move_chips(account, -(buy_in + fee), "tournament_entry")) return no;
    db_.query("INSERT INTO tournament_entries (tournament_id, account_id, buy_in, fee) VALUES "
              "($1, $2, $3, $4)",
              {tournament, account, buy_in, fee});
    t.commit();
    return std::nullopt;
}

std::optional<Refusal> PgStore::leave_tournament(std::int64_t tournament, std::int64_t account) {
    pg::Transaction t(db());
    if (lock_tournament(tournament) != "registering")
        return tournament_rows::not_registering(tournament);
    const pg::Result paid = db_.query("DELETE FROM tournament_entries WHERE tournament_id = $1 AND "
                                      "account_id = $2 RETURNING buy_in + fee",
                                      {tournament, account});
    if (!paid.rows()) return tournament_rows::not_registered(tournament);
    if (paid.chips(0, 0) > 0) move_chips(account, paid.chips(0, 0), "tournament_refund");
    t.commit();
    return std::nullopt;
}

bool PgStore::start_tournament(std::int64_t tournament, const std::string& state) {
    pg::Transaction t(db());
    if (db_.query("UPDATE tournaments SET status = 'running', state = $2, started_at = now() "
                  "WHERE id = $1 AND status = 'registering'",
                  {tournament, state})
            .affected() != 1)
        return false;
    const pg::Result fees = db_.query(
        "SELECT t.created_by, COALESCE(SUM(e.fee), 0) FROM tournaments t JOIN "
        "tournament_entries e ON e.tournament_id = t.id WHERE t.id = $1 GROUP BY t.created_by",
        {tournament});
    if (fees.rows() && fees.chips(0, 1) > 0)
        move_chips(fees.integer(0, 0), fees.chips(0, 1), "tournament_fee");
    // What the buy-ins cover of the guarantee goes back to the creator; the overlay stays.
    const pg::Result cover = db_.query(
        "UPDATE tournaments t SET guarantee_held = t.guarantee_held - c.back FROM (SELECT "
        "LEAST(guarantee_held, COALESCE((SELECT SUM(buy_in) FROM tournament_entries WHERE "
        "tournament_id = $1), 0)) AS back FROM tournaments WHERE id = $1) c WHERE t.id = $1 "
        "RETURNING t.created_by, c.back",
        {tournament});
    if (cover.rows() && cover.chips(0, 1) > 0)
        move_chips(cover.integer(0, 0), cover.chips(0, 1), "tournament_guarantee_back");
    db_.query("UPDATE tournament_entries SET status = 'playing' WHERE tournament_id = $1",
              {tournament});
    t.commit();
    return true;
}

void PgStore::apply(const TournamentChange& c) {
    // Fencing: a node whose tournament another node took over (its lease lapsed) writes nothing
    // of it, so that nothing is paid twice. (A hand's change is fenced by its hand already; a
    // change between hands, such as a deal, by this.)
    const pg::Result owner =
        db_.query("SELECT COALESCE(node_id, $2) FROM tournaments WHERE id = $1 FOR UPDATE",
                  {c.tournament, node_.id});
    if (owner.rows() == 1 && owner.text(0, 0) != node_.id)
        throw pg::Error("", "tournament " + std::to_string(c.tournament) +
                                " was taken over by node " + owner.text(0, 0));
    for (const EntryFinish& f : c.finished)
        // Paid once: an entry already out is not changed, nor paid again.
        if (db_.query("UPDATE tournament_entries SET status = 'out', place = $3, prize = $4, "
                      "tied = $5 WHERE tournament_id = $1 AND account_id = $2 AND entry = $6 "
                      "AND status = 'playing'",
                      {c.tournament, f.account, f.place, f.prize, f.tied ? 1 : 0, f.entry})
                    .affected() == 1 &&
            f.prize > 0)
            move_chips(f.account, f.prize, "tournament_prize");
    // A state is written unless a later change's was (the last change, the end, always is).
    db_.query(c.over ? "UPDATE tournaments SET state = $2, state_seq = $3, status = 'finished', "
                       "ended_at = now() WHERE id = $1 AND status = 'running'"
                     : "UPDATE tournaments SET state = $2, state_seq = $3 WHERE id = $1 AND "
                       "status = 'running' AND state_seq <= $3",
              {c.tournament, c.state, static_cast<std::int64_t>(c.seq)});
}

std::optional<Refusal> PgStore::buy_in_tournament(std::int64_t tournament,
                                                  const TournamentPurchase& p) {
    pg::Transaction t(db());
    if (lock_tournament(tournament) != "running") return tournament_rows::not_running(tournament);
    using Kind = TournamentPurchase::Kind;
    const Chips price = p.buy_in + (p.kind == Kind::entry ? p.fee : Chips());
    if (p.kind == Kind::entry &&
        db_.query("SELECT 1 FROM tournament_entries WHERE tournament_id = $1 AND account_id = $2 "
                  "AND entry >= $3",
                  {tournament, p.account, p.entry})
            .rows())
        return tournament_rows::already_registered(tournament);
    if (auto no = move_chips(p.account, -price, tournament_rows::purchase_reason(p.kind)))
        return no;
    if (p.kind == Kind::entry)
        db_.query("INSERT INTO tournament_entries (tournament_id, account_id, entry, buy_in, fee, "
                  "status) VALUES ($1, $2, $3, $4, $5, 'playing')",
                  {tournament, p.account, p.entry, p.buy_in, p.fee});
    else if (db_.query(p.kind == Kind::rebuy
                           ? "UPDATE tournament_entries SET rebuys = rebuys + 1, bought = bought "
                             "+ $4 WHERE tournament_id = $1 AND account_id = $2 AND entry = $3"
                           : "UPDATE tournament_entries SET add_ons = add_ons + 1, bought = "
                             "bought + $4 WHERE tournament_id = $1 AND account_id = $2 AND entry "
                             "= $3",
                       {tournament, p.account, p.entry, p.buy_in})
                 .affected() != 1)
        throw pg::Error("", "tournament " + std::to_string(tournament) + " has no entry " +
                                std::to_string(p.entry) + " of account " +
                                std::to_string(p.account));
    // What the guarantee still held covers of the buy-in goes back to the creator.
    const pg::Result back = db_.query(
        "UPDATE tournaments t SET guarantee_held = t.guarantee_held - c.back FROM (SELECT "
        "LEAST(guarantee_held, $2) AS back FROM tournaments WHERE id = $1) c WHERE t.id = $1 "
        "RETURNING t.created_by, c.back",
        {tournament, p.buy_in});
    if (p.kind == Kind::entry && p.fee > 0) move_chips(back.integer(0, 0), p.fee, "tournament_fee");
    if (back.chips(0, 1) > 0)
        move_chips(back.integer(0, 0), back.chips(0, 1), "tournament_guarantee_back");
    apply(p.change);
    t.commit();
    return std::nullopt;
}

void PgStore::change_tournament(const TournamentChange& change) {
    pg::Transaction t(db());
    apply(change);
    t.commit();
}

void PgStore::cancel_tournament(std::int64_t tournament,
                                const std::vector<std::pair<std::int64_t, Chips>>& stacks) {
    pg::Transaction t(db());
    const std::string status = lock_tournament(tournament);
    if (status != "registering" && status != "running") return;
    if (status == "registering") {
        const pg::Result r = db_.query("SELECT account_id, buy_in + fee FROM tournament_entries "
                                       "WHERE tournament_id = $1 ORDER BY account_id",
                                       {tournament});
        for (int i = 0; i < r.rows(); ++i)
            if (r.chips(i, 1) > 0) move_chips(r.integer(i, 0), r.chips(i, 1), "tournament_refund");
        const pg::Result held = db_.query(
            "SELECT created_by, guarantee_held FROM tournaments WHERE id = $1", {tournament});
        if (held.rows() && held.chips(0, 1) > 0)
            move_chips(held.integer(0, 0), held.chips(0, 1), "tournament_guarantee_back");
    } else {
        const Chips pool =
            db_.query("SELECT COALESCE(SUM(buy_in + bought), 0) - COALESCE(SUM(prize), 0) + "
                      "(SELECT guarantee_held FROM tournaments WHERE id = $1) FROM "
                      "tournament_entries WHERE tournament_id = $1",
                      {tournament})
                .chips(0, 0);
        const pg::Result r = db_.query("SELECT account_id FROM tournament_entries WHERE "
                                       "tournament_id = $1 AND status = 'playing' GROUP BY "
                                       "account_id ORDER BY MIN(registered_at), account_id",
                                       {tournament});
        std::vector<std::int64_t> playing;
        for (int i = 0; i < r.rows(); ++i) playing.push_back(r.integer(i, 0));
        for (const auto& [account, share] : tournament_rows::shares(pool, playing, stacks))
            if (share > 0) move_chips(account, share, "tournament_share");
    }
    db_.query("UPDATE tournaments SET status = 'cancelled', guarantee_held = 0, ended_at = now() "
              "WHERE id = $1",
              {tournament});
    t.commit();
}

std::optional<TournamentRow> PgStore::tournament(std::int64_t tournament) {
    const pg::Result q = db().query(
        "SELECT t.id, t.config, t.created_by, a.name, t.status, COALESCE(t.state, '') FROM "
        "tournaments t JOIN accounts a ON a.id = t.created_by WHERE t.id = $1",
        {tournament});
    if (!q.rows()) return std::nullopt;
    TournamentRow r{q.integer(0, 0),
                    q.text(0, 1),
                    q.integer(0, 2),
                    q.text(0, 3),
                    q.text(0, 4),
                    q.text(0, 5),
                    {}};
    const pg::Result e = db_.query(
        "SELECT e.account_id, a.name, e.buy_in, e.fee, e.status, COALESCE(e.place, 0), e.prize, "
        "e.tied, e.entry, e.rebuys, e.add_ons FROM tournament_entries e JOIN accounts a ON a.id "
        "= e.account_id WHERE e.tournament_id = $1 ORDER BY e.registered_at, e.account_id, "
        "e.entry",
        {tournament});
    for (int i = 0; i < e.rows(); ++i)
        r.entries.push_back({e.integer(i, 0), e.text(i, 1), e.chips(i, 2), e.chips(i, 3),
                             e.text(i, 4), static_cast<int>(e.integer(i, 5)), e.chips(i, 6),
                             e.integer(i, 7) != 0, static_cast<int>(e.integer(i, 8)),
                             static_cast<int>(e.integer(i, 9)),
                             static_cast<int>(e.integer(i, 10))});
    return r;
}

std::vector<TournamentRow> PgStore::open_tournaments() {
    const pg::Result ids = db().query("SELECT id FROM tournaments WHERE status IN ('registering', "
                                      "'running') AND (node_id = $1 OR node_id IS NULL) ORDER BY "
                                      "id",
                                      {node_.id});
    std::vector<TournamentRow> out;
    for (int i = 0; i < ids.rows(); ++i)
        if (auto r = tournament(ids.integer(i, 0))) out.push_back(std::move(*r));
    return out;
}

// ---- history ----

std::vector<PlayerHand> PgStore::hands_of(std::int64_t account, std::int64_t before, int limit) {
    const pg::Result r =
        db().query((std::string("SELECT ") + kSummaryColumns +
                    ", s.seat, s.stack_start, s.stack_end, h.config "
                    "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                    "WHERE s.account_id = $1 AND ($2::bigint = 0 OR h.id < $2::bigint) "
                    "ORDER BY h.id DESC LIMIT $3")
                       .c_str(),
                   {account, before, limit});
    std::vector<PlayerHand> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back({summary(r, i), static_cast<int>(r.integer(i, 6)), r.chips(i, 7),
                       r.chips(i, 8), r.text(i, 9)});
    return out;
}

std::vector<PlayerTournament> PgStore::tournaments_of(std::int64_t account, int limit) {
    const pg::Result r = db().query(
        // One line a tournament: its last entry's place, and what every entry paid and won.
        "SELECT t.id, t.config, t.status, (SELECT COUNT(*) FROM tournament_entries x WHERE "
        "x.tournament_id = t.id), COALESCE((SELECT l.place FROM tournament_entries l WHERE "
        "l.tournament_id = t.id AND l.account_id = $1 ORDER BY l.entry DESC LIMIT 1), 0), "
        "SUM(e.prize), SUM(e.buy_in + e.bought), SUM(e.fee), MAX(e.tied), "
        "COALESCE(felt_time(t.ended_at), '') FROM tournament_entries e JOIN tournaments t ON t.id "
        "= e.tournament_id WHERE e.account_id = $1 GROUP BY t.id ORDER BY t.id DESC LIMIT $2",
        {account, limit});
    std::vector<PlayerTournament> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back({r.integer(i, 0), r.text(i, 1), r.text(i, 2),
                       static_cast<int>(r.integer(i, 3)), static_cast<int>(r.integer(i, 4)),
                       r.chips(i, 5), r.chips(i, 6), r.chips(i, 7), r.integer(i, 8) != 0,
                       r.text(i, 9)});
    return out;
}

std::optional<HandRecord> PgStore::hand_record(std::int64_t hand_id) {
    const pg::Result h = db().query((std::string("SELECT ") + kSummaryColumns +
                                     ", h.config, h.commitment, COALESCE(h.deck, ''), "
                                     "COALESCE(h.seed, ''), COALESCE(h.fairness, '') FROM hands h "
                                     "WHERE h.id = $1")
                                        .c_str(),
                                    {hand_id});
    if (h.rows() == 0) return std::nullopt;
    HandRecord r{summary(h, 0), h.text(0, 6),  h.text(0, 7), h.text(0, 8),
                 h.text(0, 9),  h.text(0, 10), {},           {}};
    const pg::Result s =
        db_.query("SELECT s.seat, a.name, s.account_id, s.stack_start, s.stack_end "
                  "FROM hand_seats s JOIN accounts a ON a.id = s.account_id "
                  "WHERE s.hand_id = $1 ORDER BY s.seat",
                  {hand_id});
    for (int i = 0; i < s.rows(); ++i)
        r.seats.push_back({static_cast<int>(s.integer(i, 0)), s.text(i, 1), s.integer(i, 2),
                           s.chips(i, 3), s.chips(i, 4)});
    const pg::Result log = db_.query("SELECT body FROM hand_logs WHERE hand_id = $1", {hand_id});
    if (log.rows() > 0) r.events = hand_log_events(log.text(0, 0));
    return r;
}

std::optional<std::vector<HandSummary>> PgStore::finished_hands(std::int64_t table, int limit) {
    if (db().query("SELECT 1 FROM tables WHERE id = $1", {table}).rows() == 0) return std::nullopt;
    const pg::Result r = db_.query((std::string("SELECT ") + kSummaryColumns +
                                    " FROM hands h WHERE h.table_id = $1 AND h.status = 'finished' "
                                    "ORDER BY h.id DESC LIMIT $2")
                                       .c_str(),
                                   {table, limit});
    std::vector<HandSummary> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(summary(r, i));
    return out;
}

std::optional<PlayerTotals> PgStore::totals_of(const std::string& name) {
    const pg::Result a =
        db().query("SELECT id, name FROM accounts WHERE lower(name) = lower($1)", {name});
    if (a.rows() == 0) return std::nullopt;
    const pg::Result q =
        db_.query("SELECT COUNT(*), COALESCE(SUM(s.stack_end - s.stack_start), 0), "
                  "COUNT(*) FILTER (WHERE s.stack_end > s.stack_start), "
                  "COALESCE(MAX(s.stack_end - s.stack_start), 0), "
                  "COALESCE(MIN(s.stack_end - s.stack_start), 0) "
                  "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                  "WHERE s.account_id = $1 AND h.status = 'finished' "
                  // tournament chips are not chips won or lost
                  "AND h.config NOT LIKE '%\"tournament\":%'",
                  {a.integer(0, 0)});
    PlayerTotals t;
    t.name = a.text(0, 1);
    t.hands = q.integer(0, 0);
    t.net = q.chips(0, 1);
    t.won = q.integer(0, 2);
    t.biggest_win = q.chips(0, 3);
    t.biggest_loss = q.chips(0, 4);
    return t;
}

// ---- health ----

void PgStore::probe() {
    db().exec("INSERT INTO storage_probe (id, at) VALUES (1, now()) "
              "ON CONFLICT (id) DO UPDATE SET at = excluded.at");
}

void PgStore::check() {
    db().exec("SELECT 1");
}

// ---- group commit ----

void PgStore::begin_group() {
    db().exec("BEGIN");
    in_group_ = true;
}

void PgStore::commit_group() {
    // COMMIT of a transaction that failed midway answers ROLLBACK, without an error.
    if (!db_.in_transaction() || db_.transaction_failed())
        throw pg::Error("", "the group's transaction was lost or failed before its commit");
    db_.exec("COMMIT");
    in_group_ = false;
}

void PgStore::abandon_group() noexcept {
    in_group_ = false;
    try {
        db_.exec("ROLLBACK");
    } catch (const pg::Error&) {
        // The connection is gone, and the transaction with it.
    }
}

} // namespace felt::server
