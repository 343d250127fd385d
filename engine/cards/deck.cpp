#include "cards/deck.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace felt {

namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool iequals_prefix(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (lower(text[i]) != lower(prefix[i])) return false;
    return true;
}

} // namespace

Result<Deck> Deck::make(std::vector<std::string> rank_labels, std::string suit_letters, int copies,
                        int jokers) {
    if (rank_labels.empty() || static_cast<int>(rank_labels.size()) > kMaxRanks - 1)
        return make_error(Errc::bad_deck,
                          "a deck needs 1 to 30 ranks, not " + std::to_string(rank_labels.size()));
    if (suit_letters.empty() || static_cast<int>(suit_letters.size()) > kMaxSuits)
        return make_error(Errc::bad_deck,
                          "a deck needs 1 to 8 suits, not " + std::to_string(suit_letters.size()));
    if (copies < 1 || copies > 8)
        return make_error(Errc::bad_deck, "copies must be 1 to 8, not " + std::to_string(copies));
    if (jokers < 0 || jokers > 8)
        return make_error(Errc::bad_deck, "jokers must be 0 to 8, not " + std::to_string(jokers));
    for (std::size_t i = 0; i < rank_labels.size(); ++i) {
        const std::string& label = rank_labels[i];
        if (label.empty()) return make_error(Errc::bad_deck, "a rank label is empty");
        for (std::size_t j = 0; j < i; ++j)
            if (iequals_prefix(label, rank_labels[j]) && label.size() == rank_labels[j].size())
                return make_error(Errc::bad_deck, "rank label \"" + label + "\" appears twice");
    }
    for (std::size_t i = 0; i < suit_letters.size(); ++i) {
        char c = lower(suit_letters[i]);
        if (!std::isalpha(static_cast<unsigned char>(c)) || c == 'x')
            return make_error(Errc::bad_deck, std::string("suit letter '") + suit_letters[i] +
                                                  "' must be a letter other than x");
        suit_letters[i] = c;
        for (std::size_t j = 0; j < i; ++j)
            if (suit_letters[j] == c)
                return make_error(Errc::bad_deck,
                                  std::string("suit letter '") + c + "' appears twice");
    }
    Deck d;
    d.rank_labels_ = std::move(rank_labels);
    d.suit_letters_ = std::move(suit_letters);
    d.copies_ = copies;
    d.jokers_ = jokers;
    return d;
}

Deck Deck::standard(int jokers) {
    auto d =
        make({"2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"}, "shdc", 1, jokers);
    return std::move(d).value();
}

bool Deck::contains(Card c) const {
    if (c.is_joker()) return (c.code() & 7) < jokers_;
    return c.rank().index() < ranks() && c.suit().index() < suits();
}

std::optional<Error> Deck::check(std::span<const Card> cards) const {
    std::array<std::uint8_t, 256> seen{};
    for (Card c : cards) {
        if (!contains(c))
            return make_error(Errc::bad_card, c.is_joker() ? "no such joker in this deck"
                                                           : "not a card of this deck: code " +
                                                                 std::to_string(c.code()));
        if (++seen[c.code()] > (c.is_joker() ? 1 : copies_))
            return make_error(Errc::duplicate_card, copies_ == 1 || c.is_joker()
                                                        ? "duplicate card: " + to_string(c)
                                                        : "more copies of " + to_string(c) +
                                                              " than the deck holds (" +
                                                              std::to_string(copies_) + ")");
    }
    return std::nullopt;
}

std::vector<Card> Deck::cards() const {
    std::vector<Card> out;
    out.reserve(static_cast<std::size_t>(size()));
    for (int copy = 0; copy < copies_; ++copy)
        for (int r = 0; r < ranks(); ++r)
            for (int s = 0; s < suits(); ++s) out.push_back(Card(Rank(r), Suit(s)));
    for (int j = 0; j < jokers_; ++j) out.push_back(Card::joker(j));
    return out;
}

std::string Deck::to_string(Card c) const {
    if (c.is_joker()) return "Xx";
    return rank_labels_.at(c.rank().index()) + suit_letters_.at(c.suit().index());
}

std::string Deck::to_string(std::span<const Card> cards) const {
    std::string out;
    for (Card c : cards) {
        if (!out.empty()) out += ' ';
        out += to_string(c);
    }
    return out;
}

std::size_t Deck::match_card(std::string_view text, Card& out) const {
    if (jokers_ > 0 && iequals_prefix(text, "xx")) {
        out = Card::joker(0);
        return 2;
    }
    // Longest rank label first, so that "10" in a deck labelled 0..16 is ten, not one-then-zero.
    std::size_t best_len = 0;
    int best_rank = -1;
    auto try_label = [&](std::string_view label, int r) {
        if (label.size() > best_len && iequals_prefix(text, label)) {
            best_len = label.size();
            best_rank = r;
        }
    };
    for (int r = 0; r < ranks(); ++r) try_label(rank_labels_[r], r);
    // "10" stands for "T" where the deck has a T and no label of its own for 10.
    auto t = std::find(rank_labels_.begin(), rank_labels_.end(), "T");
    auto ten = std::find(rank_labels_.begin(), rank_labels_.end(), "10");
    if (t != rank_labels_.end() && ten == rank_labels_.end())
        try_label("10", static_cast<int>(t - rank_labels_.begin()));
    if (best_rank < 0 || best_len >= text.size()) return 0;
    auto s = suit_letters_.find(lower(text[best_len]));
    if (s == std::string::npos) return 0;
    out = Card(Rank(best_rank), Suit(static_cast<int>(s)));
    return best_len + 1;
}

Result<Card> Deck::parse_card(std::string_view token) const {
    Card c = Card::joker(0);
    std::size_t n = match_card(token, c);
    if (n == 0 || n != token.size())
        return make_error(Errc::bad_card, "not a card: \"" + std::string(token) + "\"");
    return c;
}

Result<std::vector<Card>> Deck::parse_cards(std::string_view text) const {
    std::vector<Card> out;
    int jokers_seen = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        char ch = text[i];
        if (ch == ' ' || ch == ',' || ch == '\t' || ch == '\n' || ch == '\r') {
            ++i;
            continue;
        }
        std::size_t end = text.find_first_of(" ,\t\n\r", i);
        if (end == std::string_view::npos) end = text.size();
        std::string_view token = text.substr(i, end - i);
        // A token may hold several cards written together: "AsKd".
        while (!token.empty()) {
            Card c = Card::joker(0);
            std::size_t n = match_card(token, c);
            if (n == 0) {
                std::string bad(token.substr(0, std::min<std::size_t>(token.size(), 8)));
                return make_error(Errc::bad_card, "not a card: \"" + bad + "\"");
            }
            if (c.is_joker()) {
                if (jokers_seen >= jokers_)
                    return make_error(Errc::duplicate_card, "more jokers than the deck holds (" +
                                                                std::to_string(jokers_) + ")");
                c = Card::joker(jokers_seen++);
            }
            out.push_back(c);
            token.remove_prefix(n);
        }
        i = end;
    }
    if (auto e = check(out)) return *e;
    return out;
}

} // namespace felt
