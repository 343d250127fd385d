#include "tables/shuffle.h"

#include "tables/game.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <sodium.h>

namespace felt::server {

namespace {

void init_sodium() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
}

// Fisher and Yates, each index drawn as randombytes_uniform draws it (words below 2^32 mod the
// bound are thrown away, so that none is likelier), but from a ChaCha20 stream
// (randombytes_buf_deterministic) keyed by `make_key`: one key a deck rather than a call to the
// system's generator a card.
template <class MakeKey>
void shuffle_keyed(std::span<Card> deck, MakeKey make_key) {
    init_sodium();
    std::vector<std::uint32_t> words;
    std::size_t next = 0;
    auto word = [&] {
        if (next == words.size()) { // at first, and in the rare case that rejections used it up
            unsigned char key[randombytes_SEEDBYTES];
            make_key(key);
            words.assign(deck.size() + 8, 0);
            randombytes_buf_deterministic(words.data(), words.size() * sizeof words[0], key);
            sodium_memzero(key, sizeof key);
            next = 0;
        }
        return words[next++];
    };
    for (std::size_t i = deck.size(); i > 1; --i) {
        const auto bound = static_cast<std::uint32_t>(i);
        const std::uint32_t below = (1U + ~bound) % bound; // 2^32 mod bound
        std::uint32_t r;
        do r = word();
        while (r < below);
        std::swap(deck[i - 1], deck[r % bound]);
    }
    sodium_memzero(words.data(), words.size() * sizeof words[0]);
}

} // namespace

// Each key fresh random bytes.
void secure_shuffle(std::span<Card> deck) {
    shuffle_keyed(
        deck, [](unsigned char(&key)[randombytes_SEEDBYTES]) { randombytes_buf(key, sizeof key); });
}

// Each key the seed's stream, drawn on.
void seeded_shuffle(std::span<Card> deck, std::uint64_t seed) {
    shuffle_keyed(deck, [&seed](unsigned char(&key)[randombytes_SEEDBYTES]) {
        for (std::size_t k = 0; k < sizeof key; k += 8) {
            seed = mix_seed(seed, k);
            std::memcpy(key + k, &seed, 8);
        }
    });
}

std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t random_seed() {
    init_sodium();
    std::uint64_t seed = 0;
    randombytes_buf(&seed, sizeof seed);
    return seed;
}

std::optional<protocol::Refusal> ChosenCards::choose(const Game& game, int seats,
                                                     const std::string& text) {
    Deal full;
    full.seats = seats_of(seats);
    std::vector<std::string> pack;
    for (Card c : game.deck(full)) pack.push_back(game.card_text(c));
    std::vector<std::string> chosen;
    std::istringstream words(text);
    for (std::string w; words >> w;) {
        auto at = std::find(pack.begin(), pack.end(), w);
        if (at == pack.end())
            return protocol::Refusal{"bad_card",
                                     w + " is not in this table's pack, or is there fewer times"};
        pack.erase(at);
        chosen.push_back(std::move(w));
    }
    cards_ = std::move(chosen);
    return std::nullopt;
}

void ChosenCards::stack(const Game& game, std::int64_t table, std::vector<Card>& deck) {
    if (cards_.empty()) return;
    spdlog::warn("table {}: dealing {} chosen card(s) (--chosen-decks)", table, cards_.size());
    for (std::size_t k = 0; k < cards_.size() && k < deck.size(); ++k) {
        auto it = std::find_if(deck.begin() + static_cast<std::ptrdiff_t>(k), deck.end(),
                               [&](Card c) { return game.card_text(c) == cards_[k]; });
        if (it == deck.end()) {
            spdlog::warn("table {}: {} is not in this deal's pack; the rest is shuffled", table,
                         cards_[k]);
            break;
        }
        std::iter_swap(deck.begin() + static_cast<std::ptrdiff_t>(k), it);
    }
    cards_.clear();
}

} // namespace felt::server
