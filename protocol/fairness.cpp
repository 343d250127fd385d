#include "protocol/fairness.h"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>

namespace felt::protocol {

namespace {

constexpr std::size_t kSaltBytes = 16;

std::string hex(const unsigned char* p, std::size_t n) {
    std::string out(n * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), p, n);
    out.pop_back();
    return out;
}

// The bytes of a hex string; nullopt unless it is exactly `n` bytes of hex.
std::optional<std::string> unhex(std::string_view text, std::size_t n) {
    std::string out(n, '\0');
    std::size_t len = 0;
    const char* end = nullptr;
    if (text.size() != 2 * n ||
        sodium_hex2bin(reinterpret_cast<unsigned char*>(out.data()), n, text.data(), text.size(),
                       nullptr, &len, &end) != 0 ||
        len != n || end != text.data() + text.size())
        return std::nullopt;
    return out;
}

// `n` salts from one call to the system's generator (one system call, not one a salt).
std::vector<std::string> random_salts(std::size_t n) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
    std::vector<unsigned char> bytes(n * kSaltBytes);
    randombytes_buf(bytes.data(), bytes.size());
    std::vector<std::string> salts;
    salts.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        salts.push_back(hex(bytes.data() + i * kSaltBytes, kSaltBytes));
    sodium_memzero(bytes.data(), bytes.size());
    return salts;
}

std::vector<std::string> split(std::string_view deck) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < deck.size();) {
        const std::size_t end = std::min(deck.find(' ', i), deck.size());
        if (end > i) out.emplace_back(deck.substr(i, end - i));
        i = end + 1;
    }
    return out;
}

json opening(std::size_t position, const std::string& card, const std::string& salt) {
    return {{"position", position}, {"card", card}, {"salt", salt}};
}

} // namespace

Sealed Sealed::seal(std::string_view deck, std::string seed) {
    Sealed s;
    s.cards = split(deck);
    s.salts = random_salts(s.cards.size() + (seed.empty() ? 0 : 1));
    if (!seed.empty()) {
        s.seed_salt = std::move(s.salts.back());
        s.salts.pop_back();
    }
    s.seed = std::move(seed);
    return s;
}

std::string sha256_hex(std::string_view bytes) {
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    return hex(h, sizeof h);
}

std::string leaf_hex(std::string_view salt_hex, std::string_view text) {
    const auto salt = unhex(salt_hex, kSaltBytes);
    if (!salt) throw std::invalid_argument("a salt is 32 hex digits");
    return sha256_hex(*salt + std::string(text));
}

std::vector<std::string> Sealed::leaves() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < cards.size(); ++i) out.push_back(leaf_hex(salts[i], cards[i]));
    return out;
}

std::string Sealed::seed_leaf() const {
    return seed.empty() ? std::string() : leaf_hex(seed_salt, seed);
}

std::string Sealed::commitment() const {
    std::string bytes;
    std::vector<std::string> all = leaves();
    if (!seed.empty()) all.push_back(seed_leaf());
    for (const std::string& leaf : all) bytes += *unhex(leaf, crypto_hash_sha256_BYTES);
    return sha256_hex(bytes);
}

json reveal_json(const Sealed& sealed, std::span<const Sight> seen, bool seed_used, int viewer) {
    return reveal_json(sealed, sealed.leaves(), seen, seed_used, viewer);
}

json reveal_json(const Sealed& sealed, const std::vector<std::string>& leaves,
                 std::span<const Sight> seen, bool seed_used, int viewer) {
    json out = {{"leaves", leaves}};
    if (!sealed.seed.empty()) out["seed_leaf"] = sealed.seed_leaf();
    json shown = json::array();
    for (std::size_t i = 0; i < sealed.cards.size() && i < seen.size(); ++i)
        if (seen[i].everyone) shown.push_back(opening(i, sealed.cards[i], sealed.salts[i]));
    out["shown"] = std::move(shown);
    if (seed_used && !sealed.seed.empty())
        out["seed"] = {{"value", sealed.seed}, {"salt", sealed.seed_salt}};
    if (viewer >= 0) out["yours"] = yours_json(sealed, seen, viewer);
    return out;
}

json yours_json(const Sealed& sealed, std::span<const Sight> seen, int viewer) {
    json yours = json::array();
    for (std::size_t i = 0; i < sealed.cards.size() && i < seen.size(); ++i)
        if (!seen[i].everyone && seen[i].seen_by(viewer))
            yours.push_back(opening(i, sealed.cards[i], sealed.salts[i]));
    return yours;
}

std::string opened_record(const Sealed& sealed, std::span<const Sight> seen, bool seed_used) {
    json by_position = json::array();
    for (const Sight& s : seen) by_position.push_back(s.everyone ? -1 : static_cast<int>(s.seats));
    return json{{"salts", sealed.salts},
                {"seed_salt", sealed.seed_salt},
                {"seen", std::move(by_position)},
                {"seed_used", seed_used}}
        .dump();
}

std::optional<Opened> read_opened(std::string_view deck, std::string seed,
                                  std::string_view record) {
    const json r = json::parse(record, nullptr, false);
    if (!r.is_object()) return std::nullopt;
    try {
        Opened o;
        o.sealed.cards = split(deck);
        o.sealed.salts = r.at("salts").get<std::vector<std::string>>();
        o.sealed.seed = std::move(seed);
        o.sealed.seed_salt = r.at("seed_salt").get<std::string>();
        o.seed_used = r.at("seed_used").get<bool>();
        for (int v : r.at("seen").get<std::vector<int>>()) {
            Sight s;
            s.everyone = v < 0;
            s.seats = static_cast<std::uint16_t>(v < 0 ? 0 : v);
            o.seen.push_back(s);
        }
        const auto salt_ok = [](const std::string& s) { return unhex(s, kSaltBytes).has_value(); };
        if (o.sealed.salts.size() != o.sealed.cards.size() ||
            o.seen.size() > o.sealed.cards.size() ||
            !std::all_of(o.sealed.salts.begin(), o.sealed.salts.end(), salt_ok) ||
            (!o.sealed.seed.empty() && !salt_ok(o.sealed.seed_salt)))
            return std::nullopt;
        return o;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

} // namespace felt::protocol
