// A client's check of a deal's fairness reveal, written from docs/protocol.md ("Fairness") apart
// from protocol/fairness.cpp, as any client would write it: the leaves hash to the commitment,
// and every opened card and the seed hash to their leaves. And the attack a reader could try on
// what it was given: every salt it received against every card, on every leaf it was not opened.
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include <sodium.h>

namespace fairness_check {

using json = nlohmann::json;

inline std::string unhex(const std::string& hex) {
    std::string out(hex.size() / 2, '\0');
    std::size_t len = 0;
    if (sodium_hex2bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), hex.data(),
                       hex.size(), nullptr, &len, nullptr) != 0 ||
        len * 2 != hex.size())
        return "";
    return out;
}

inline std::string sha256(const std::string& bytes) {
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    char out[2 * sizeof h + 1];
    sodium_bin2hex(out, sizeof out, h, sizeof h);
    return out;
}

struct Checked {
    std::vector<std::string> problems; // empty: the reveal checks out
    std::multiset<std::string> shown;  // cards opened to everyone
    std::multiset<std::string> yours;  // cards opened to this reader alone (or with a few)
    std::set<std::size_t> opened;      // positions opened to this reader
    std::vector<std::string> salts;    // every salt received
};

// Checks `f` (a hand's `fairness`) against the commitment published before its deal.
inline Checked check(const std::string& commitment, const json& f) {
    Checked c;
    auto problem = [&](std::string p) { c.problems.push_back("fairness: " + p); };
    if (!f.is_object() || !f.contains("leaves") || !f.contains("shown")) {
        problem("no reveal: " + f.dump());
        return c;
    }
    const std::vector<std::string> leaves = f["leaves"];
    std::string bytes;
    for (const std::string& leaf : leaves) bytes += unhex(leaf);
    if (f.contains("seed_leaf")) bytes += unhex(f["seed_leaf"]);
    if (sha256(bytes) != commitment) problem("the leaves do not hash to the commitment");
    for (const char* key : {"shown", "yours"}) {
        if (!f.contains(key)) continue;
        for (const json& o : f[key]) {
            const std::size_t p = o["position"];
            const std::string card = o["card"], salt = o["salt"];
            if (p >= leaves.size() || !c.opened.insert(p).second) {
                problem("position " + std::to_string(p) + " is out of the deck or opened twice");
                continue;
            }
            if (sha256(unhex(salt) + card) != leaves[p])
                problem(card + " at " + std::to_string(p) + " does not hash to its leaf");
            (std::string(key) == "shown" ? c.shown : c.yours).insert(card);
            c.salts.push_back(salt);
        }
    }
    if (f.contains("seed")) {
        if (!f.contains("seed_leaf"))
            problem("a seed without its leaf");
        else if (sha256(unhex(f["seed"]["salt"]) + f["seed"]["value"].get<std::string>()) !=
                 f["seed_leaf"])
            problem("the seed does not hash to its leaf");
        c.salts.push_back(f["seed"]["salt"]);
    }
    return c;
}

// The 52 cards and a joker, as text.
inline std::vector<std::string> every_card() {
    std::vector<std::string> out{"Xx"};
    for (char r : std::string("23456789TJQKA"))
        for (char s : std::string("shdc")) out.push_back(std::string{r, s});
    return out;
}

// Leaves the reader was not opened that it can match to a card all the same, with any salt it
// received and any card: 0 unless a salt was reused or the reveal gave one away.
inline int derivable(const json& f, const Checked& c) {
    int found = 0;
    const std::vector<std::string> leaves = f["leaves"];
    const std::vector<std::string> cards = every_card();
    for (std::size_t p = 0; p < leaves.size(); ++p) {
        if (c.opened.count(p)) continue;
        for (const std::string& salt : c.salts) {
            const std::string raw = unhex(salt);
            for (const std::string& card : cards) found += sha256(raw + card) == leaves[p];
        }
    }
    return found;
}

} // namespace fairness_check
