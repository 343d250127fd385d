#include "accounts/account.h"

#include <sodium.h>

#include <array>
#include <cctype>
#include <stdexcept>

namespace felt::server {

namespace {

std::string to_hex(const unsigned char* bytes, std::size_t n) {
    std::string out(n * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), bytes, n);
    out.pop_back();
    return out;
}

void need_sodium() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
}

} // namespace

std::optional<Refusal> check_name(std::string_view name) {
    if (name.size() < 3 || name.size() > 24)
        return Refusal{"bad_name",
                       "a name has 3 to 24 characters, not " + std::to_string(name.size())};
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
            return Refusal{"bad_name", "a name holds letters, digits, '_' and '-' only"};
    std::string head(name.substr(0, 6));
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (head == "guest-")
        return Refusal{"bad_name",
                       "names starting with \"guest-\" (in any case) are kept for guests"};
    if (head.starts_with("bot-"))
        return Refusal{"bad_name",
                       "names starting with \"bot-\" (in any case) are kept for the server's bots"};
    return std::nullopt;
}

std::optional<Refusal> check_password(std::string_view password) {
    if (password.size() < 8 || password.size() > 128)
        return Refusal{"bad_password", "a password has 8 to 128 characters"};
    return std::nullopt;
}

std::string hash_password(std::string_view password) {
    need_sodium();
    std::array<char, crypto_pwhash_STRBYTES> out{};
    if (crypto_pwhash_str(out.data(), password.data(), password.size(),
                          crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
        throw std::runtime_error("out of memory hashing a password");
    return out.data();
}

bool verify_password(const std::string& hash, std::string_view password) {
    need_sodium();
    return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

std::string new_token() {
    need_sodium();
    std::array<unsigned char, 32> bytes{};
    randombytes_buf(bytes.data(), bytes.size());
    return to_hex(bytes.data(), bytes.size());
}

std::string token_hash(std::string_view token) {
    std::array<unsigned char, crypto_generichash_BYTES> h{};
    crypto_generichash(h.data(), h.size(), reinterpret_cast<const unsigned char*>(token.data()),
                       token.size(), nullptr, 0);
    return to_hex(h.data(), h.size());
}

std::string guest_name() {
    return "guest-" + new_token().substr(0, 8);
}

std::string bot_name() {
    return "bot-" + new_token().substr(0, 8);
}

Refusal name_taken(std::string_view name) {
    return {"name_taken", "the name \"" + std::string(name) + "\" is taken"};
}

Refusal unknown_token() {
    return {"unauthorized", "that session token is unknown, revoked or expired"};
}

Refusal insufficient_chips(Chips balance, Chips amount) {
    return {"insufficient_chips",
            "the balance is " + to_string(balance) + ", short of " + to_string(-amount)};
}

Refusal no_such_account() {
    return {"no_such_account", "no such account"};
}

Refusal bot_bank_spent(Chips held, Chips amount, Chips bank) {
    return {"bot_bank_spent", "the bots hold " + to_string(held) + "; " + to_string(amount) +
                                  " more would pass the bot bank of " + to_string(bank)};
}

const std::string& no_account_hash() {
    static const std::string hash = hash_password(new_token());
    return hash;
}

} // namespace felt::server
