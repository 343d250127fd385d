// The accounts, session tokens and the chip ledger in the SQLite database (the rules, hashing and
// tokens they use are accounts/account.h).
#pragma once

#include "accounts/account.h"
#include "storage/sqlite.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace felt::server {

class Accounts {
  public:
    // `grant`: chips a new account starts with (a ledger row of reason "grant").
    Accounts(db::Database& db, Chips grant, TokenLife life = {})
        : db_(db), grant_(grant), life_(life) {}

    // With a hash from hash_password(). Refusals: name_taken.
    Outcome<Account> create(std::string_view name, const std::string& password_hash);
    Outcome<Account> create_guest();
    // The server's bots (Store::bot_accounts, create_bot, fund_bot).
    std::vector<Account> bots();
    Account create_bot();
    std::optional<Refusal> fund_bot(std::int64_t account_id, Chips amount, Chips bank);
    // The account and its password hash, for verify_password. Empty when there is none.
    std::optional<std::pair<Account, std::string>> find_with_hash(std::string_view name);
    std::optional<Account> find(std::int64_t id);

    // A new session for the account: the token to give the client.
    std::string open_session(std::int64_t account_id);
    // The account of a live session token (not revoked, not expired); with `touch`, the token
    // counts as used now. Refusals: unauthorized.
    Outcome<Account> resume(std::string_view token, bool touch);
    void revoke(std::string_view token);
    // Revokes every token of the account but `keep` ("": every one).
    void revoke_all(std::int64_t account_id, std::string_view keep);
    void set_password(std::int64_t account_id, const std::string& password_hash);

    // Moves chips into (amount > 0) or out of an account, with a ledger row, in the caller's
    // transaction. Refusals: insufficient_chips (the balance would go below zero).
    std::optional<Refusal> move_chips(std::int64_t account_id, Chips amount,
                                      std::string_view reason);
    // The sum of every ledger row of the account: equal to its balance, always.
    Chips ledger_sum(std::int64_t account_id);

  private:
    Account insert(std::string_view name, const std::string* hash, bool guest);

    db::Database& db_;
    Chips grant_;
    TokenLife life_;
};

} // namespace felt::server
