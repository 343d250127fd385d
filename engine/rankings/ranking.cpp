#include "rankings/ranking.h"

#include "rankings/best_five.h"
#include "rankings/evaluator.h"
#include "rankings/lowball.h"
#include "rankings/melds.h"
#include "rankings/pokem.h"
#include "rankings/short_deck.h"

#include <array>

namespace felt {

namespace {

constexpr std::array<std::string_view, 9> kNames = {"standard",       "vertical", "horizontal",
                                                    "flush",          "pokem",    "ace-to-five",
                                                    "deuce-to-seven", "badugi",   "short-deck"};

// A ranking whose cards are those of a Deck.
class DeckRanking : public Ranking {
  public:
    explicit DeckRanking(Deck deck) : deck_(std::move(deck)) {
        for (Card c : deck_.cards()) ++copies_[c.code()];
    }

    std::vector<Card> cards() const override { return deck_.cards(); }
    Result<std::vector<Card>> parse_cards(std::string_view text) const override {
        return deck_.parse_cards(text);
    }
    std::string to_string(std::span<const Card> cards) const override {
        return deck_.to_string(cards);
    }

  protected:
    Deck deck_;
};

class StandardRanking final : public DeckRanking {
  public:
    explicit StandardRanking(Wild wild) : DeckRanking(deck_for(wild)), wild_(wild) {}

    std::string_view name() const override { return kNames[0]; }
    Wild wild() const override { return wild_; }
    int min_cards() const override { return 3; }
    int max_cards() const override { return kMaxHand; }

    Result<Judgement> judge(std::span<const Card> cards) const override {
        auto v = cards.size() > 7 ? best_five(cards) : evaluate_hand(cards, wild_);
        if (!v) return v.error();
        Judgement j;
        j.strength.push(v->raw() >> 8);
        j.strength.push(v->raw() & 0xFF);
        j.category = std::string(category_name(v->category()));
        return j;
    }

    std::vector<std::string>
    showdown_words(std::span<const std::vector<Card>> hands) const override {
        std::vector<std::uint32_t> keys;
        std::vector<bool> judged;
        for (const std::vector<Card>& cards : hands) {
            auto v = cards.size() > 7 ? best_five(cards) : evaluate_hand(cards, wild_);
            judged.push_back(static_cast<bool>(v));
            if (v) keys.push_back(v->hand_class());
        }
        std::vector<std::string> out;
        for (std::size_t i = 0, k = 0; i < hands.size(); ++i)
            out.push_back(judged[i] ? hand_class::showdown_words(keys[k++], keys) : std::string());
        return out;
    }

    // Without wild cards: each two of the hole cards and each three of the board added up once,
    // and the sixty-odd fives evaluated from their sums.
    Strength omaha_strength(std::span<const Card> hole,
                            std::span<const Card> board) const override {
        if (wild_ != Wild::none || hole.size() > 6 || board.size() > 5)
            return Ranking::omaha_strength(hole, board);
        std::array<HandKey, 15> pairs{};
        std::array<HandKey, 10> triples{};
        std::size_t np = 0, nt = 0;
        for (std::size_t a = 0; a < hole.size(); ++a)
            for (std::size_t b = a + 1; b < hole.size(); ++b)
                pairs[np++] = HandKey() + hole[a] + hole[b];
        for (std::size_t x = 0; x < board.size(); ++x)
            for (std::size_t y = x + 1; y < board.size(); ++y)
                for (std::size_t z = y + 1; z < board.size(); ++z)
                    triples[nt++] = HandKey() + board[x] + board[y] + board[z];
        HandValue best;
        for (std::size_t i = 0; i < np; ++i)
            for (std::size_t j = 0; j < nt; ++j) {
                HandKey k;
                k.key = pairs[i].key + triples[j].key - detail::kSuitCounterStart;
                k.mask = pairs[i].mask | triples[j].mask;
                best = std::max(best, evaluate(k));
            }
        Strength out;
        if (best.raw() == 0) return out;
        out.push(best.raw() >> 8);
        out.push(best.raw() & 0xFF);
        return out;
    }

    Strength strength(std::span<const Card> cards) const override {
        Strength out;
        const std::size_t n = cards.size();
        if (wild_ == Wild::none && n >= 5 && n <= 7) {
            const HandValue v = evaluate(cards); // dealt cards: the checks are the deck's
            out.push(v.raw() >> 8);
            out.push(v.raw() & 0xFF);
            return out;
        }
        return Ranking::strength(cards);
    }

  private:
    // More than seven cards (shrinking draw): the best five, subset by subset.
    static constexpr int kMaxHand = 16;
    Result<HandValue> best_five(std::span<const Card> cards) const {
        if (cards.size() > static_cast<std::size_t>(kMaxHand))
            return make_error(Errc::wrong_count, "a hand has 3 to " + std::to_string(kMaxHand) +
                                                     " cards, not " + std::to_string(cards.size()));
        if (auto e = deck_.check(cards)) return *e;
        HandValue best;
        const int n = static_cast<int>(cards.size());
        std::array<Card, 5> five{};
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b)
                for (int c = b + 1; c < n; ++c)
                    for (int d = c + 1; d < n; ++d)
                        for (int e = d + 1; e < n; ++e) {
                            const int pick[5] = {a, b, c, d, e};
                            for (int i = 0; i < 5; ++i)
                                five[static_cast<std::size_t>(i)] =
                                    cards[static_cast<std::size_t>(pick[i])];
                            best = std::max(best, evaluate_hand(five, wild_).value());
                        }
        return best;
    }

    Wild wild_;
};

// Vertical, horizontal and flush melds (melds.h): any hand of 1 to melds::kMaxCards cards.
class MeldRanking final : public DeckRanking {
  public:
    MeldRanking(std::string_view name, Deck deck) : DeckRanking(std::move(deck)), name_(name) {}

    std::string_view name() const override { return name_; }
    int min_cards() const override { return 1; }
    int max_cards() const override { return melds::kMaxCards; }

    Result<Judgement> judge(std::span<const Card> cards) const override {
        if (cards.empty() || cards.size() > static_cast<std::size_t>(melds::kMaxCards))
            return make_error(Errc::wrong_count, "a " + std::string(name_) + " hand has 1 to " +
                                                     std::to_string(melds::kMaxCards) +
                                                     " cards, not " + std::to_string(cards.size()));
        if (auto e = deck_.check(cards)) return *e;
        Judgement j;
        if (name_ == "flush") {
            std::array<std::basic_string<std::uint8_t>, kMaxSuits> suits;
            for (Card c : cards)
                suits[static_cast<std::size_t>(c.suit().index())].push_back(
                    static_cast<std::uint8_t>(c.rank().index()));
            j.strength = melds::flush_strength(suits);
            j.category = melds::category_name('f', j.strength);
            return j;
        }
        std::array<std::uint8_t, kMaxRanks> counts{};
        for (Card c : cards) ++counts[static_cast<std::size_t>(c.rank().index())];
        const melds::RankCounts rc(counts.data(), static_cast<std::size_t>(deck_.ranks()));
        const bool vertical = name_ == "vertical";
        j.strength =
            melds::encode(vertical ? melds::vertical_melds(rc) : melds::horizontal_melds(rc));
        j.category = melds::category_name(vertical ? 'v' : 'h', j.strength);
        return j;
    }

  private:
    std::string_view name_;
};

// The mixed games' rankings (lowball.h, short_deck.h): hands of the standard pack, or of its 36
// cards from the six up, judged by a value that fits three bytes.
class PackRanking : public Ranking {
  public:
    PackRanking(std::string_view name, int min_cards, int max_cards, Rank lowest)
        : name_(name), min_(min_cards), max_(max_cards) {
        for (Card c : Deck::standard().cards())
            if (c.rank() >= lowest) ++copies_[c.code()];
    }

    std::string_view name() const override { return name_; }
    int min_cards() const override { return min_; }
    int max_cards() const override { return max_; }

    std::vector<Card> cards() const override {
        std::vector<Card> out;
        for (Card c : Deck::standard().cards())
            if (copies_of(c)) out.push_back(c);
        return out;
    }
    Result<std::vector<Card>> parse_cards(std::string_view text) const override {
        auto cards = Deck::standard().parse_cards(text);
        if (!cards) return cards;
        for (Card c : cards.value())
            if (!copies_of(c)) return not_in_deck(c);
        return cards;
    }
    std::string to_string(std::span<const Card> cards) const override {
        return Deck::standard().to_string(cards);
    }

    Result<Judgement> judge(std::span<const Card> cards) const override {
        if (cards.size() < static_cast<std::size_t>(min_) ||
            cards.size() > static_cast<std::size_t>(max_))
            return make_error(Errc::wrong_count,
                              "a " + std::string(name_) + " hand has " + std::to_string(min_) +
                                  (min_ == max_ ? "" : " to " + std::to_string(max_)) +
                                  " cards, not " + std::to_string(cards.size()));
        if (auto e = Deck::standard().check(cards)) return *e;
        for (Card c : cards)
            if (!copies_of(c)) return not_in_deck(c);
        Judgement j;
        j.category = std::string(value(cards, j.strength));
        return j;
    }

    Strength strength(std::span<const Card> cards) const override {
        Strength out;
        if (cards.size() >= static_cast<std::size_t>(min_) &&
            cards.size() <= static_cast<std::size_t>(max_))
            value(cards, out);
        return out;
    }

  protected:
    // low_words() of each hand's value, or no words for a hand judge() refuses.
    template <class F>
    std::vector<std::string> words_of(std::span<const std::vector<Card>> hands, F value) const {
        std::vector<decltype(value(std::span<const Card>()))> values;
        for (const std::vector<Card>& h : hands) {
            values.emplace_back();
            if (judge(h)) values.back() = value(h);
        }
        return low_words(std::span<const typename decltype(values)::value_type>(values));
    }

    // Writes the cards' value to `out` (three bytes, the highest first) and returns the category.
    virtual std::string_view value(std::span<const Card> cards, Strength& out) const = 0;

    static void push3(Strength& out, std::uint32_t v) {
        out.push(static_cast<int>(v >> 16 & 0xFF));
        out.push(static_cast<int>(v >> 8 & 0xFF));
        out.push(static_cast<int>(v & 0xFF));
    }

  private:
    Error not_in_deck(Card c) const {
        return make_error(Errc::bad_card, "the " + std::string(name_) + " deck has no " +
                                              Deck::standard().rank_label(c.rank()) + "s (" +
                                              Deck::standard().to_string(c) + ")");
    }

    std::string_view name_;
    int min_, max_;
};

// Razz: the best ace-to-five low of five to seven cards.
class AceToFiveRanking final : public PackRanking {
  public:
    AceToFiveRanking() : PackRanking(kNames[5], 5, 7, rank::two) {}

    std::vector<std::string>
    showdown_words(std::span<const std::vector<Card>> hands) const override {
        return words_of(hands, [](std::span<const Card> c) { return best_ace_to_five_low(c); });
    }

  protected:
    std::string_view value(std::span<const Card> cards, Strength& out) const override {
        const LowValue v = best_ace_to_five_low(cards);
        push3(out, v.raw());
        return category_name(v);
    }
};

// The deuce-to-seven draws: five cards.
class DeuceToSevenRanking final : public PackRanking {
  public:
    DeuceToSevenRanking() : PackRanking(kNames[6], 5, 5, rank::two) {}

    std::vector<std::string>
    showdown_words(std::span<const std::vector<Card>> hands) const override {
        return words_of(hands,
                        [](std::span<const Card> c) { return deuce_to_seven_low(c.first<5>()); });
    }

  protected:
    std::string_view value(std::span<const Card> cards, Strength& out) const override {
        const DeuceSevenValue v = deuce_to_seven_low(cards.first<5>());
        push3(out, v.raw());
        return category_name(v);
    }
};

// Badugi: one to four cards.
class BadugiRanking final : public PackRanking {
  public:
    BadugiRanking() : PackRanking(kNames[7], 1, 4, rank::two) {}

    std::vector<std::string>
    showdown_words(std::span<const std::vector<Card>> hands) const override {
        return words_of(hands, [](std::span<const Card> c) { return badugi(c); });
    }

  protected:
    std::string_view value(std::span<const Card> cards, Strength& out) const override {
        const BadugiValue v = badugi(cards);
        push3(out, v.raw());
        return category_name(v);
    }
};

// Short-deck hold'em: the best five of five to seven cards, six to ace.
class ShortDeckRanking final : public PackRanking {
  public:
    explicit ShortDeckRanking(bool trips_beat_straight)
        : PackRanking(kNames[8], 5, 7, rank::six), trips_beat_straight_(trips_beat_straight) {}

    std::vector<std::string>
    showdown_words(std::span<const std::vector<Card>> hands) const override {
        std::vector<std::string> out;
        for (const std::vector<Card>& h : hands)
            out.push_back(judge(h)
                              ? short_deck_words(best_short_deck_value(h, trips_beat_straight_))
                              : std::string());
        return out;
    }

    bool trips_beat_straight() const override { return trips_beat_straight_; }

  protected:
    std::string_view value(std::span<const Card> cards, Strength& out) const override {
        const ShortDeckValue v = best_short_deck_value(cards, trips_beat_straight_);
        push3(out, v.raw());
        return category_name(v.category());
    }

  private:
    bool trips_beat_straight_;
};

} // namespace

Strength Ranking::omaha_strength(std::span<const Card> hole, std::span<const Card> board) const {
    Strength best;
    for_each_omaha_five(
        hole, board, [&](std::span<const Card, 5> five) { best = std::max(best, strength(five)); });
    return best;
}

std::span<const std::string_view> ranking_names() {
    return kNames;
}

Result<Deck> meld_deck(int ranks, int copies) {
    if (ranks < 1 || ranks > kMaxRanks - 1)
        return make_error(Errc::bad_deck, "a deck has 1 to " + std::to_string(kMaxRanks - 1) +
                                              " ranks, not " + std::to_string(ranks));
    if (copies < 1 || copies > kMaxSuits)
        return make_error(Errc::bad_deck, "a deck has 1 to " + std::to_string(kMaxSuits) +
                                              " cards per rank, not " + std::to_string(copies));
    static constexpr std::string_view kStandardLabels[] = {"2", "3", "4", "5", "6", "7", "8",
                                                           "9", "T", "J", "Q", "K", "A"};
    std::vector<std::string> labels;
    for (int r = 0; r < ranks; ++r)
        labels.push_back(ranks <= 13 ? std::string(kStandardLabels[13 - ranks + r])
                                     : std::to_string(r + 1));
    return Deck::make(std::move(labels), std::string("shdcrgby").substr(0, copies));
}

Result<std::unique_ptr<const Ranking>> make_ranking(std::string_view name,
                                                    const RankingOptions& options) {
    if (name == "standard")
        return std::unique_ptr<const Ranking>(new StandardRanking(options.wild));
    if (name == "pokem") return make_pokem_ranking(options.quads_over_one_of_each);
    if (name == kNames[5]) return std::unique_ptr<const Ranking>(new AceToFiveRanking());
    if (name == kNames[6]) return std::unique_ptr<const Ranking>(new DeuceToSevenRanking());
    if (name == kNames[7]) return std::unique_ptr<const Ranking>(new BadugiRanking());
    if (name == kNames[8])
        return std::unique_ptr<const Ranking>(new ShortDeckRanking(options.trips_beat_straight));
    for (std::string_view meld : {kNames[1], kNames[2], kNames[3]}) {
        if (name != meld) continue;
        auto deck = meld_deck(options.ranks, options.copies);
        if (!deck) return deck.error();
        return std::unique_ptr<const Ranking>(new MeldRanking(meld, std::move(deck).value()));
    }
    std::string known;
    for (auto n : kNames) known += (known.empty() ? "" : ", ") + std::string(n);
    return make_error(Errc::bad_option,
                      "unknown ranking \"" + std::string(name) + "\" (known: " + known + ")");
}

} // namespace felt
