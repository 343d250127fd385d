#include "storage/accounts.h"

namespace felt::server {

namespace {

Account read_account(const db::Statement& q) {
    Account a;
    a.id = q.column_int(0);
    a.name = q.column_text(1);
    a.guest = q.column_int(2) != 0;
    a.balance = Chips(q.column_int(3));
    return a;
}

} // namespace

Account Accounts::insert(std::string_view name, const std::string* hash, bool guest) {
    db::Statement q(db_, "INSERT INTO accounts (name, password_hash, guest) VALUES (?, ?, ?)");
    q.bind(1, name);
    if (hash)
        q.bind(2, *hash);
    else
        q.bind_null(2);
    q.bind(3, guest ? 1 : 0).run();
    return granted(db_.last_insert_rowid(), name, guest, grant_,
                   [this](std::int64_t id, Chips amount, std::string_view reason) {
                       move_chips(id, amount, reason);
                   });
}

Outcome<Account> Accounts::create(std::string_view name, const std::string& password_hash) {
    db::Transaction t(db_);
    db::Statement exists(db_, "SELECT 1 FROM accounts WHERE name = ?");
    exists.bind(1, name);
    if (exists.step()) return {std::nullopt, name_taken(name)};
    Account a = insert(name, &password_hash, false);
    t.commit();
    return {a, {}};
}

Outcome<Account> Accounts::create_guest() {
    db::Transaction t(db_);
    // A guest is named after random bytes; a clash is retried with new ones.
    for (;;) {
        std::string name = guest_name();
        db::Statement exists(db_, "SELECT 1 FROM accounts WHERE name = ?");
        exists.bind(1, name);
        if (exists.step()) continue;
        Account a = insert(name, nullptr, true);
        t.commit();
        return {a, {}};
    }
}

std::vector<Account> Accounts::bots() {
    std::vector<Account> all;
    db::Statement q(db_, "SELECT id, name, guest, balance FROM accounts WHERE bot = 1 ORDER BY id");
    while (q.step()) {
        all.push_back(read_account(q));
        all.back().bot = true;
    }
    return all;
}

Account Accounts::create_bot() {
    db::Transaction t(db_);
    for (;;) {
        const std::string name = bot_name();
        db::Statement exists(db_, "SELECT 1 FROM accounts WHERE name = ?");
        exists.bind(1, name);
        if (exists.step()) continue;
        db::Statement q(db_, "INSERT INTO accounts (name, guest, bot) VALUES (?, 0, 1)");
        q.bind(1, name).run();
        Account a{db_.last_insert_rowid(), name, false, Chips{}, true};
        t.commit();
        return a;
    }
}

std::optional<Refusal> Accounts::fund_bot(std::int64_t account_id, Chips amount, Chips bank) {
    db::Transaction t(db_);
    db::Statement q(db_, "SELECT coalesce(sum(balance), 0) FROM accounts WHERE bot = 1");
    q.step();
    const Chips held(q.column_int(0));
    if (held + amount > bank) return bot_bank_spent(held, amount, bank);
    if (auto refused = move_chips(account_id, amount, "grant")) return refused;
    t.commit();
    return std::nullopt;
}

std::optional<std::pair<Account, std::string>> Accounts::find_with_hash(std::string_view name) {
    db::Statement q(db_, "SELECT id, name, guest, balance, password_hash FROM accounts "
                         "WHERE name = ? AND guest = 0 AND bot = 0");
    q.bind(1, name);
    if (!q.step()) return std::nullopt;
    return std::pair{read_account(q), q.column_text(4)};
}

std::optional<Account> Accounts::find(std::int64_t id) {
    db::Statement q(db_, "SELECT id, name, guest, balance FROM accounts WHERE id = ?");
    q.bind(1, id);
    if (!q.step()) return std::nullopt;
    return read_account(q);
}

std::string Accounts::open_session(std::int64_t account_id) {
    std::string token = new_token();
    db::Statement q(db_, "INSERT INTO sessions (token_hash, account_id) VALUES (?, ?)");
    q.bind(1, token_hash(token)).bind(2, account_id).run();
    return token;
}

Outcome<Account> Accounts::resume(std::string_view token, bool touch) {
    // Times are ISO 8601 text in one format, so they compare as strings.
    db::Statement q(db_, "SELECT a.id, a.name, a.guest, a.balance FROM sessions s "
                         "JOIN accounts a ON a.id = s.account_id "
                         "WHERE s.token_hash = ? AND s.revoked = 0 "
                         "AND s.created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) "
                         "AND COALESCE(s.used_at, s.created_at) > "
                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)");
    const std::string hash = token_hash(token);
    q.bind(1, hash)
        .bind(2, std::to_string(-life_.max.count()) + " seconds")
        .bind(3, std::to_string(-life_.idle.count()) + " seconds");
    if (!q.step()) return {std::nullopt, unknown_token()};
    Account a = read_account(q);
    if (touch) {
        db::Statement used(db_, "UPDATE sessions SET used_at = "
                                "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE token_hash = ?");
        used.bind(1, hash).run();
    }
    return {a, {}};
}

void Accounts::revoke(std::string_view token) {
    db::Statement q(db_, "UPDATE sessions SET revoked = 1 WHERE token_hash = ?");
    q.bind(1, token_hash(token)).run();
}

void Accounts::revoke_all(std::int64_t account_id, std::string_view keep) {
    db::Statement q(db_,
                    "UPDATE sessions SET revoked = 1 WHERE account_id = ? AND token_hash != ?");
    q.bind(1, account_id).bind(2, keep.empty() ? std::string() : token_hash(keep)).run();
}

void Accounts::set_password(std::int64_t account_id, const std::string& password_hash) {
    db::Statement q(db_, "UPDATE accounts SET password_hash = ? WHERE id = ?");
    q.bind(1, password_hash).bind(2, account_id).run();
}

std::optional<Refusal> Accounts::move_chips(std::int64_t account_id, Chips amount,
                                            std::string_view reason) {
    db::Statement bal(db_, "SELECT balance FROM accounts WHERE id = ?");
    bal.bind(1, account_id);
    if (!bal.step()) return no_such_account();
    const Chips after = bal.column_chips(0) + amount;
    if (after < 0) return insufficient_chips(after - amount, amount);
    db::Statement up(db_, "UPDATE accounts SET balance = ? WHERE id = ?");
    up.bind(1, after).bind(2, account_id).run();
    db::Statement row(db_, "INSERT INTO ledger (account_id, amount, balance_after, reason) "
                           "VALUES (?, ?, ?, ?)");
    row.bind(1, account_id).bind(2, amount).bind(3, after).bind(4, reason).run();
    return std::nullopt;
}

Chips Accounts::ledger_sum(std::int64_t account_id) {
    db::Statement q(db_, "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE account_id = ?");
    q.bind(1, account_id);
    q.step();
    return q.column_chips(0);
}

} // namespace felt::server
