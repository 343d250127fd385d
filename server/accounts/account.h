// Accounts as every part of the server sees them, whatever stores them: the account, the rules
// for names and passwords, password hashing and session tokens, and the refusals both storage
// engines give (storage/accounts.h is the SQLite accounts, storage/pg_store.h PostgreSQL's).
//
// Passwords are stored as Argon2id hashes (libsodium's crypto_pwhash_str). Hashing is slow on
// purpose, so it is done apart (hash_password, verify_password) and off the network threads.
// A session token is 32 random bytes in hex, shown once; the database keeps its BLAKE2b hash.
#pragma once

#include "protocol/refusal.h"

#include "chips.h"

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
    bool bot = false; // one of the server's bots (accounts.bot)
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
// A bot's name (bots/bot_host.h): "bot-" and 8 random hex digits. No person may take one.
std::string bot_name();

// The refusals both storage engines give, worded once.
Refusal name_taken(std::string_view name);
Refusal unknown_token();
Refusal insufficient_chips(Chips balance, Chips amount);
Refusal no_such_account();
// The bots' balances together would pass feltd --bot-bank.
Refusal bot_bank_spent(Chips held, Chips amount, Chips bank);

// How long a session token lives: `idle` after it was last used to sign in, and `max` after it was
// issued, whichever comes first.
struct TokenLife {
    std::chrono::seconds idle = std::chrono::days(14);
    std::chrono::seconds max = std::chrono::days(90);
};

// A new account, its row just inserted as `id`: the chips it starts with are granted (a ledger
// row of reason "grant") through move_chips(id, amount, reason), in the caller's transaction.
template <class MoveChips>
Account granted(std::int64_t id, std::string_view name, bool guest, Chips grant,
                MoveChips&& move_chips) {
    Account a;
    a.id = id;
    a.name = std::string(name);
    a.guest = guest;
    if (grant > 0) {
        move_chips(a.id, grant, "grant");
        a.balance = grant;
    }
    return a;
}

} // namespace felt::server

// Chips in the log: the number.
template <>
struct fmt::formatter<felt::Chips> : fmt::formatter<std::int64_t> {
    template <class Context>
    auto format(felt::Chips c, Context& ctx) const {
        return fmt::formatter<std::int64_t>::format(c.value(), ctx);
    }
};
