#include "leap/leap.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace felt::leap {

namespace {

// Rank labels in circle order and the face value of each, for every supported rank count.
struct RankSet {
    std::vector<std::string> labels;
    std::vector<int> faces;
    int copies_per_pack = 1;
};

RankSet numbered(int first, int count) {
    RankSet s;
    for (int i = 0; i < count; ++i) {
        s.labels.push_back(std::to_string(first + i));
        s.faces.push_back(first + i);
    }
    return s;
}

std::optional<RankSet> rank_set(int ranks) {
    switch (ranks) {
    case 13:
        return RankSet{{"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"},
                       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13},
                       1};
    case 5: // a Pinochle pack without its nines: two of every card
        return RankSet{{"J", "Q", "K", "T", "A"}, {11, 12, 13, 10, 1}, 2};
    case 7:
    case 11: // a 12-rank pack without its 12s
    case 12: // the non-prime option: leaps split the ranks into shorter cycles
        return numbered(1, ranks);
    case 17: // custom cards 0..16
        return numbered(0, ranks);
    default:
        return std::nullopt;
    }
}

int rank_of(Card c) {
    return c.rank().index();
}

// One position of a sequence being filled: a card already in place (an existing meld's), or a
// free position of a given rank.
struct Slot {
    int rank = 0;
    bool fixed = false;
    Card card{};
};

// Fills the free slots of a sequence with natural cards of the slot's rank or with jokers, so
// that every card is used, no two jokers touch (unless allowed) and, if asked, two naturals do.
// Depth-first, naturals before jokers: the first filling found is the canonical one.
class Filler {
  public:
    Filler(std::span<const Card> cards, int ranks) {
        for (Card c : cards) {
            if (c.is_joker())
                ++jokers_;
            else
                ++avail_[static_cast<std::size_t>(rank_of(c))];
        }
        naturals_.assign(cards.begin(), cards.end());
        std::erase_if(naturals_, [](Card c) { return c.is_joker(); });
        std::sort(naturals_.begin(), naturals_.end(),
                  [](Card a, Card b) { return rank_of(a) < rank_of(b); });
        int at = 0;
        for (int r = 0; r < ranks; ++r) {
            first_[static_cast<std::size_t>(r)] = at;
            at += avail_[static_cast<std::size_t>(r)];
        }
    }

    // The filled sequence, or false when there is none.
    bool fill(std::span<const Slot> slots, bool allow_adjacent_wilds, bool need_pair,
              std::vector<Card>& out) {
        slots_ = slots;
        allow_adjacent_ = allow_adjacent_wilds;
        need_pair_ = need_pair;
        std::array<int, kMaxRanks> free{};
        for (const Slot& s : slots)
            if (!s.fixed) ++free[static_cast<std::size_t>(s.rank)];
        for (std::size_t r = 0; r < free.size(); ++r)
            if (avail_[r] > free[r]) return false; // more naturals of a rank than places for it
        remaining_ = free;
        choice_.assign(slots.size(), 0);
        std::array<int, kMaxRanks> avail = avail_;
        int jokers = jokers_;
        if (!search(0, avail, jokers, false, false, false)) return false;
        out.clear();
        std::array<int, kMaxRanks> used{};
        for (std::size_t i = 0; i < slots.size(); ++i) {
            const Slot& s = slots[i];
            if (s.fixed) {
                out.push_back(s.card);
            } else if (choice_[i]) {
                out.push_back(Card::joker(0));
            } else {
                auto r = static_cast<std::size_t>(s.rank);
                out.push_back(naturals_[static_cast<std::size_t>(first_[r] + used[r]++)]);
            }
        }
        return true;
    }

  private:
    bool search(std::size_t i, std::array<int, kMaxRanks>& avail, int& jokers, bool prev_joker,
                bool prev_natural, bool pair) {
        if (i == slots_.size()) return jokers == 0 && (pair || !need_pair_);
        const Slot& s = slots_[i];
        if (s.fixed) {
            bool joker = s.card.is_joker();
            if (joker && prev_joker && !allow_adjacent_) return false;
            return search(i + 1, avail, jokers, joker, !joker, pair || (!joker && prev_natural));
        }
        auto r = static_cast<std::size_t>(s.rank);
        --remaining_[r];
        bool found = false;
        if (avail[r] > 0) {
            --avail[r];
            choice_[i] = 0;
            found = search(i + 1, avail, jokers, false, true, pair || prev_natural);
            ++avail[r];
        }
        // A joker here only if the naturals of this rank still fit in the places left for it.
        if (!found && jokers > 0 && (allow_adjacent_ || !prev_joker) && remaining_[r] >= avail[r]) {
            --jokers;
            choice_[i] = 1;
            found = search(i + 1, avail, jokers, true, false, pair);
            ++jokers;
        }
        ++remaining_[r];
        return found;
    }

    std::array<int, kMaxRanks> avail_{};
    std::array<int, kMaxRanks> first_{};
    std::array<int, kMaxRanks> remaining_{};
    int jokers_ = 0;
    std::vector<Card> naturals_;
    std::span<const Slot> slots_;
    std::vector<std::uint8_t> choice_;
    bool allow_adjacent_ = false;
    bool need_pair_ = true;
};

// n free slots along leap k from rank `start`.
std::vector<Slot> free_run(const Table& t, int leap, int start, int n) {
    std::vector<Slot> slots(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) slots[static_cast<std::size_t>(i)].rank = t.step(start, leap, i);
    return slots;
}

// The suit class shared by the natural cards, or an error naming two that differ. -1: no naturals.
Result<int> common_class(const Table& t, std::span<const Card> cards, int required = -1) {
    int cls = required;
    Card first{};
    bool have_first = false;
    for (Card c : cards) {
        if (c.is_joker()) continue;
        int k = t.suit_class(c);
        if (cls < 0) {
            cls = k;
            first = c;
            have_first = true;
        } else if (k != cls) {
            const char* rule = t.rules().suits == SuitRule::same_colour ? "colour" : "suit";
            std::string msg = "a meld's cards must share a " + std::string(rule) + ": " +
                              t.deck().to_string(c) + " does not match ";
            msg += have_first ? t.deck().to_string(first) : std::string("the meld");
            return make_error(Errc::wrong_suit, msg);
        }
    }
    return cls;
}

// Jokers side by side anywhere in a finished sequence.
bool adjacent_jokers(std::span<const Card> cards) {
    for (std::size_t i = 1; i < cards.size(); ++i)
        if (cards[i].is_joker() && cards[i - 1].is_joker()) return true;
    return false;
}

Meld make_meld(const Table& t, int leap, int start, std::vector<Card> cards) {
    Meld m;
    m.leap = leap;
    m.start = start;
    m.cards = std::move(cards);
    for (Card c : m.cards)
        if (!c.is_joker()) {
            m.suit = t.suit_class(c);
            break;
        }
    return m;
}

// The first layout along leap k of these cards, trying starts from rank 0 up.
std::optional<Meld> first_layout(const Table& t, std::span<const Card> cards, int leap,
                                 bool allow_adjacent, bool need_pair) {
    const int n = static_cast<int>(cards.size());
    Filler filler(cards, t.ranks());
    std::vector<Card> out;
    for (int s = 0; s < t.ranks(); ++s) {
        std::vector<Slot> slots = free_run(t, leap, s, n);
        if (filler.fill(slots, allow_adjacent, need_pair, out)) return make_meld(t, leap, s, out);
    }
    return std::nullopt;
}

LeapMask fitting(const Table& t, std::span<const Card> cards, bool allow_adjacent, bool need_pair) {
    LeapMask mask = 0;
    for (int k = 1; k <= t.leaps(); ++k)
        if (first_layout(t, cards, k, allow_adjacent, need_pair)) mask |= LeapMask{1} << k;
    return mask;
}

bool abuts(const Table& t, const Meld& a, const Meld& b) {
    return a.leap == b.leap && a.suit == b.suit && t.step(a.start, a.leap, a.length()) == b.start;
}

} // namespace

Result<std::shared_ptr<const Table>> Table::make(const Rules& rules, int players) {
    std::optional<RankSet> set = rank_set(rules.ranks);
    if (!set)
        return make_error(Errc::bad_option, "leap rummy is played with 5, 7, 11, 12, 13 or 17 "
                                            "ranks, not " +
                                                std::to_string(rules.ranks));
    if (players < 2 || players > 6)
        return make_error(Errc::bad_config,
                          "leap rummy needs 2 to 6 players, not " + std::to_string(players));
    if (!rules.distinct_leaps && rules.edition >= 2 && players > rules.ranks / 2)
        return make_error(Errc::bad_config,
                          "under leaptokens each player holds a leap of their own: " +
                              std::to_string(rules.ranks) + " ranks have " +
                              std::to_string(rules.ranks / 2) + " leaps, so at most " +
                              std::to_string(rules.ranks / 2) + " players, not " +
                              std::to_string(players) + " (the distinct rule allows more)");
    int packs = rules.packs == 0 ? (players <= 4 ? 1 : 2) : rules.packs;
    if (packs < 1 || packs > 4)
        return make_error(Errc::bad_config, "packs must be 1 to 4, not " + std::to_string(packs));
    if (rules.jokers < 0 || rules.jokers * packs > 8)
        return make_error(Errc::bad_config,
                          "at most 8 jokers in all: " + std::to_string(rules.jokers) + " a pack, " +
                              std::to_string(packs) + " packs");
    if (rules.hand_size < 1 || rules.hand_size > 20)
        return make_error(Errc::bad_config,
                          "hands of 1 to 20 cards, not " + std::to_string(rules.hand_size));
    Result<Deck> deck =
        Deck::make(set->labels, "shdc", set->copies_per_pack * packs, rules.jokers * packs);
    if (!deck) return deck.error();
    if (rules.hand_size * players > deck->size())
        return make_error(Errc::bad_config, "a deal of " + std::to_string(players) + " x " +
                                                std::to_string(rules.hand_size) +
                                                " cards needs more than the deck's " +
                                                std::to_string(deck->size()));
    auto t = std::make_shared<Table>();
    t->rules_ = rules;
    t->rules_.packs = packs;
    t->players_ = players;
    t->packs_ = packs;
    t->deck_ = std::move(deck).value();
    t->faces_ = set->faces;
    for (int k = 1; k <= t->leaps(); ++k) {
        const int len = rules.ranks / std::gcd(rules.ranks, k);
        t->cycle_[static_cast<std::size_t>(k)] = len;
        for (int c = 0; c < rules.ranks / len; ++c)
            for (int j = 0; j < len; ++j)
                t->walk_[static_cast<std::size_t>(k)][static_cast<std::size_t>(c * len + j)] =
                    static_cast<std::uint8_t>(t->step(c, k, j));
    }
    return std::shared_ptr<const Table>(std::move(t));
}

int Table::suit_class(Card c) const {
    switch (rules_.suits) {
    case SuitRule::same_suit:
        return c.suit().index();
    case SuitRule::same_colour: // suits "shdc": hearts and diamonds are red
        return c.suit().index() == 1 || c.suit().index() == 2 ? 1 : 0;
    case SuitRule::any:
        return 0;
    }
    return 0;
}

Result<LeapMask> meld_leaps(const Table& t, std::span<const Card> cards) {
    if (cards.size() < 3)
        return make_error(Errc::too_short,
                          "a meld needs at least 3 cards, not " + std::to_string(cards.size()));
    if (cards.size() > static_cast<std::size_t>(kMaxCardsPerMeld))
        return make_error(Errc::wrong_count, "a meld of more than 64 cards");
    Result<int> cls = common_class(t, cards);
    if (!cls) return cls.error();
    auto naturals = std::count_if(cards.begin(), cards.end(), [](Card c) { return !c.is_joker(); });
    if (naturals < 2)
        return make_error(Errc::no_adjacent_naturals,
                          "a meld needs two natural cards side by side; this has " +
                              std::to_string(naturals) + " natural card(s)");
    if (LeapMask mask = fitting(t, cards, false, true)) return mask;
    const std::string text = t.deck().to_string(cards);
    if (fitting(t, cards, true, true))
        return make_error(Errc::adjacent_wilds,
                          text + ": every way of laying these out puts two jokers side by side");
    if (fitting(t, cards, false, false))
        return make_error(Errc::no_adjacent_naturals,
                          text +
                              ": no way of laying these out puts two natural cards side by side");
    return make_error(Errc::not_a_sequence, text + " do not run along any leap sequence");
}

std::optional<Meld> as_given(const Table& t, std::span<const Card> cards) {
    const int n = static_cast<int>(cards.size());
    if (n < 3 || n > kMaxCardsPerMeld || adjacent_jokers(cards)) return std::nullopt;
    if (!common_class(t, cards)) return std::nullopt;
    int i = 0;
    while (i + 1 < n && (cards[static_cast<std::size_t>(i)].is_joker() ||
                         cards[static_cast<std::size_t>(i + 1)].is_joker()))
        ++i;
    if (i + 1 >= n) return std::nullopt;
    const int a = rank_of(cards[static_cast<std::size_t>(i)]);
    const int d = t.step(rank_of(cards[static_cast<std::size_t>(i + 1)]), 1, -a); // b - a mod R
    if (d == 0) return std::nullopt;
    const bool up = d <= t.ranks() / 2;
    const int leap = up ? d : t.ranks() - d;
    const int dir = up ? 1 : -1;
    for (int j = 0; j < n; ++j) {
        Card c = cards[static_cast<std::size_t>(j)];
        if (!c.is_joker() && rank_of(c) != t.step(a, leap, dir * (j - i))) return std::nullopt;
    }
    std::vector<Card> seq(cards.begin(), cards.end());
    if (!up) std::reverse(seq.begin(), seq.end());
    int start = t.step(a, leap, up ? -i : -(n - 1 - i));
    return make_meld(t, leap, start, std::move(seq));
}

Meld lay_out(const Table& t, std::span<const Card> cards, LeapMask leaps) {
    if (std::optional<Meld> m = as_given(t, cards); m && (leaps >> m->leap & 1)) return *m;
    for (int k = 1; k <= t.leaps(); ++k)
        if (leaps >> k & 1)
            if (std::optional<Meld> m = first_layout(t, cards, k, false, true)) return *m;
    assert(false && "lay_out: no layout in the given leaps");
    return Meld{};
}

std::optional<Error> extend_exact(const Table& t, Meld& meld, std::span<const Card> low,
                                  std::span<const Card> high) {
    if (Result<int> cls = common_class(t, low, meld.suit); !cls) return cls.error();
    if (Result<int> cls = common_class(t, high, meld.suit); !cls) return cls.error();
    const int a = static_cast<int>(low.size());
    std::vector<Card> seq(low.begin(), low.end());
    seq.insert(seq.end(), meld.cards.begin(), meld.cards.end());
    seq.insert(seq.end(), high.begin(), high.end());
    if (seq.size() > static_cast<std::size_t>(kMaxCardsPerMeld))
        return make_error(Errc::wrong_count, "a meld of more than 64 cards");
    const int start = t.step(meld.start, meld.leap, -a);
    for (std::size_t i = 0; i < seq.size(); ++i) {
        Card c = seq[i];
        int want = t.step(start, meld.leap, static_cast<int>(i));
        if (!c.is_joker() && rank_of(c) != want)
            return make_error(Errc::not_a_sequence,
                              t.deck().to_string(c) + " is not next along leap " +
                                  std::to_string(meld.leap) + " at that end of " +
                                  to_string(t, meld) + " (a " + t.deck().rank_labels()[want] +
                                  " goes there)");
    }
    if (adjacent_jokers(seq)) return make_error(Errc::adjacent_wilds, "two jokers side by side");
    meld.start = start;
    meld.cards = std::move(seq);
    return std::nullopt;
}

std::optional<Error> extend_any(const Table& t, Meld& meld, std::span<const Card> cards,
                                const Meld* abut) {
    if (Result<int> cls = common_class(t, cards, meld.suit); !cls) return cls.error();
    const int c = static_cast<int>(cards.size());
    if (meld.length() + c > kMaxCardsPerMeld)
        return make_error(Errc::wrong_count, "a meld of more than 64 cards");
    Filler filler(cards, t.ranks());
    std::vector<Card> out;
    bool placed = false;      // some split fits, though it may not abut
    bool wilds_touch = false; // some split fits only with jokers side by side
    for (int a = 0; a <= c; ++a) {
        const int start = t.step(meld.start, meld.leap, -a);
        std::vector<Slot> slots = free_run(t, meld.leap, start, meld.length() + c);
        for (int i = 0; i < meld.length(); ++i) {
            Slot& s = slots[static_cast<std::size_t>(a + i)];
            s.fixed = true;
            s.card = meld.cards[static_cast<std::size_t>(i)];
        }
        if (!filler.fill(slots, false, false, out)) {
            if (filler.fill(slots, true, false, out)) wilds_touch = true;
            continue;
        }
        placed = true;
        Meld next = meld;
        next.start = start;
        next.cards = out;
        if (abut && !abuts(t, next, *abut) && !abuts(t, *abut, next)) continue;
        meld = std::move(next);
        return std::nullopt;
    }
    if (placed)
        return make_error(Errc::not_abutting, "meld #" + std::to_string(meld.id) + " (" +
                                                  to_string(t, meld) + ") with " +
                                                  t.deck().to_string(cards) + " does not reach #" +
                                                  std::to_string(abut->id));
    if (wilds_touch) return make_error(Errc::adjacent_wilds, "two jokers side by side");
    return make_error(Errc::not_a_sequence, t.deck().to_string(cards) + " do not continue meld #" +
                                                std::to_string(meld.id) + " (" +
                                                to_string(t, meld) + ") along leap " +
                                                std::to_string(meld.leap));
}

std::optional<Error> join(const Table& t, Meld& a, const Meld& b) {
    // Either may run into the other (a full cycle can do both): the first way that keeps jokers
    // apart.
    bool met = false;
    using Pair = std::pair<const Meld*, const Meld*>;
    for (const auto& [first, second] : {Pair{&a, &b}, Pair{&b, &a}}) {
        if (!abuts(t, *first, *second)) continue;
        met = true;
        if (first->cards.back().is_joker() && second->cards.front().is_joker()) continue;
        if (a.length() + b.length() > kMaxCardsPerMeld)
            return make_error(Errc::wrong_count, "a meld of more than 64 cards");
        std::vector<Card> seq = first->cards;
        seq.insert(seq.end(), second->cards.begin(), second->cards.end());
        a.start = first->start;
        a.cards = std::move(seq);
        return std::nullopt;
    }
    if (met) return make_error(Errc::adjacent_wilds, "joining would put two jokers side by side");
    return make_error(Errc::not_abutting, "melds #" + std::to_string(a.id) + " (" +
                                              to_string(t, a) + ") and #" + std::to_string(b.id) +
                                              " (" + to_string(t, b) + ") do not meet");
}

std::string to_string(const Table& t, const Meld& m) {
    return t.deck().to_string(m.cards);
}

} // namespace felt::leap
