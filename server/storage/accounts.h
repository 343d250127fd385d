// Accounts, session tokens and the chip ledger, over the server's database.
//
// Passwords are stored as Argon2id hashes (libsodium's crypto_pwhash_str). Hashing is slow on
// purpose, so it is done apart (hash_password, verify_password) and off the network threads.
// A session token is 32 random bytes in hex, shown once; the database keeps its BLAKE2b hash.
#pragma once

#include "protocol/refusal.h"
#include "storage/sqlite.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace felt::server {

// An amount of chips: a balance, a stack, a bet (engine/chips.h).
using felt::Chips;

struct Account {
    std::int64_t id = 0;
    std::string name;
    bool guest = false;
    Chips balance;
};

using protocol::Outcome;
using protocol::Refusal;

// Names: 3 to 24 letters, digits, '_' or '-'; not starting with "guest-". Empty when fine.
std::optional<Refusal> check_name(std::string_view name);
// Passwords: 8 to 128 bytes.
std::optional<Refusal> check_password(std::string_view password);

std::string hash_password(std::string_view password);
bool verify_password(const std::string& hash, std::string_view password);
// The hash of a random password, made once: checked against when a name has no account, so that
// signing in takes as long whether or not the name exists.
const std::string& no_account_hash();

// 32 random bytes, hex.
std::string new_token();
// What the database keeps of a token: its BLAKE2b hash, hex.
std::string token_hash(std::string_view token);
// A new guest's name: "guest-" and 8 random hex digits.
std::string guest_name();

// The refusals both storage engines give, worded once.
Refusal name_taken(std::string_view name);
Refusal unknown_token();
Refusal insufficient_chips(Chips balance, Chips amount);
Refusal no_such_account();

// How long a session token lives: `idle` after it was last used to sign in, and `max` after it was
// issued, whichever comes first.
struct TokenLife {
    std::chrono::seconds idle = std::chrono::days(14);
    std::chrono::seconds max = std::chrono::days(90);
};

class Accounts {
  public:
    // `grant`: chips a new account starts with (a ledger row of reason "grant").
    Accounts(db::Database& db, Chips grant, TokenLife life = {})
        : db_(db), grant_(grant), life_(life) {}

    // With a hash from hash_password(). Refusals: name_taken.
    Outcome<Account> create(std::string_view name, const std::string& password_hash);
    Outcome<Account> create_guest();
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

// Chips in the log: the number.
template <>
struct fmt::formatter<felt::Chips> : fmt::formatter<std::int64_t> {
    template <class Context>
    auto format(felt::Chips c, Context& ctx) const {
        return fmt::formatter<std::int64_t>::format(c.value(), ctx);
    }
};
