#include "rankings/pokem.h"

#include <algorithm>
#include <cctype>

namespace felt {

namespace {

constexpr std::string_view kColours = "rygbp";
constexpr std::string_view kShapes = "ctsdh";

// Patterns of one attribute, in the order they are written in a category: perfect ones first
// (five of a kind before one of each), then the others from best to worst.
enum Pattern : int { five = 0, one_of_each, four, full_house, three, two_pair, one_pair };
constexpr std::string_view kPatternCode[] = {"5k", "oe", "4k", "fh", "3k", "2p", "1p"};
constexpr std::string_view kTierName[] = {"imperfect", "single_perfect", "double_perfect",
                                          "triple_perfect"};

int attribute(Card c, int a) {
    const int code = c.code();
    return a == 0 ? code / 25 : a == 1 ? code / 5 % 5 : code % 5;
}

// One attribute of a hand: its pattern and its values (0..4) grouped largest group first,
// higher value first among equal groups.
struct AttributeShape {
    Pattern pattern;
    std::array<int, 5> values{};
    int groups = 0;
};

AttributeShape shape_of(const std::array<Card, 5>& hand, int a) {
    std::array<int, kPokemValues> counts{};
    for (Card c : hand) ++counts[static_cast<std::size_t>(attribute(c, a))];
    AttributeShape s;
    std::array<int, 5> sizes{};
    for (int size = 5; size >= 1; --size)
        for (int v = kPokemValues - 1; v >= 0; --v)
            if (counts[static_cast<std::size_t>(v)] == size) {
                sizes[static_cast<std::size_t>(s.groups)] = size;
                s.values[static_cast<std::size_t>(s.groups++)] = v;
            }
    switch (sizes[0]) {
    case 5:
        s.pattern = five;
        break;
    case 4:
        s.pattern = four;
        break;
    case 3:
        s.pattern = sizes[1] == 2 ? full_house : three;
        break;
    case 2:
        s.pattern = sizes[1] == 2 ? two_pair : one_pair;
        break;
    default:
        s.pattern = one_of_each;
    }
    return s;
}

// The ranking's first byte: perfect attributes, moved by quads_over_one_of_each.
int tier_byte(int perfect, int fives, bool has_four, bool quads_over_one_of_each) {
    if (!quads_over_one_of_each) return perfect;
    // imperfect < only a one of each < holds four of a kind < single five of a kind < double ...
    if (perfect >= 2) return perfect + 2;
    if (perfect == 1) return fives == 1 ? 3 : 1;
    return has_four ? 2 : 0;
}

class PokemRanking final : public Ranking {
  public:
    explicit PokemRanking(bool quads_over_one_of_each) : quads_(quads_over_one_of_each) {
        for (int code = 0; code < kPokemCards; ++code) copies_[static_cast<std::size_t>(code)] = 1;
    }

    std::string_view name() const override { return "pokem"; }
    int min_cards() const override { return 5; }
    int max_cards() const override { return 5; }

    std::vector<Card> cards() const override {
        std::vector<Card> out;
        for (int code = 0; code < kPokemCards; ++code) out.push_back(Card::from_code(code));
        return out;
    }

    Result<std::vector<Card>> parse_cards(std::string_view text) const override {
        std::vector<Card> out;
        std::size_t i = 0;
        auto bad = [&](std::size_t from) {
            return make_error(Errc::bad_card,
                              "not a Poke'm card: \"" + std::string(text.substr(from, 8)) +
                                  "\" (write n<number 1-5><colour rygbp><shape ctsdh>, e.g. n3rc)");
        };
        while (i < text.size()) {
            if (text[i] == ' ' || text[i] == ',' || text[i] == '\t' || text[i] == '\n') {
                ++i;
                continue;
            }
            const std::size_t from = i;
            if (std::tolower(static_cast<unsigned char>(text[i])) == 'n') ++i;
            if (i + 3 > text.size()) return bad(from);
            const int number = text[i] - '1';
            const auto colour = kColours.find(
                static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + 1]))));
            const auto shape = kShapes.find(
                static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + 2]))));
            if (number < 0 || number >= kPokemValues || colour == std::string_view::npos ||
                shape == std::string_view::npos)
                return bad(from);
            out.push_back(Card::from_code(number * 25 + static_cast<int>(colour) * 5 +
                                          static_cast<int>(shape)));
            i += 3;
        }
        if (auto e = check(out)) return *e;
        return out;
    }

    std::string to_string(std::span<const Card> cards) const override {
        std::string out;
        for (Card c : cards) {
            if (!out.empty()) out += ' ';
            out += card_text(c);
        }
        return out;
    }

    Result<Judgement> judge(std::span<const Card> cards) const override {
        if (cards.size() != 5)
            return make_error(Errc::wrong_count,
                              "a Poke'm hand has 5 cards, not " + std::to_string(cards.size()));
        if (auto e = check(cards)) return *e;
        std::array<Card, 5> hand;
        std::copy(cards.begin(), cards.end(), hand.begin());
        return judge_pokem(hand, quads_);
    }

  private:
    static std::string card_text(Card c) {
        if (c.code() >= kPokemCards) return "code " + std::to_string(c.code());
        return std::string{'n', static_cast<char>('1' + attribute(c, 0)),
                           kColours[static_cast<std::size_t>(attribute(c, 1))],
                           kShapes[static_cast<std::size_t>(attribute(c, 2))]};
    }

    static std::optional<Error> check(std::span<const Card> cards) {
        std::array<bool, kPokemCards> seen{};
        for (Card c : cards) {
            if (c.code() >= kPokemCards)
                return make_error(Errc::bad_card, "not a Poke'm card: " + card_text(c));
            if (seen[c.code()])
                return make_error(Errc::duplicate_card, "duplicate card: " + card_text(c));
            seen[c.code()] = true;
        }
        return std::nullopt;
    }

    bool quads_;
};

// The three attributes in category order; the perfect count, fives and four of a kind.
struct HandShape {
    std::array<AttributeShape, 3> attributes;
    int perfect = 0, fives = 0;
    bool has_four = false;
};

HandShape hand_shape(const std::array<Card, 5>& hand) {
    HandShape h;
    for (int a = 0; a < 3; ++a) {
        AttributeShape s = shape_of(hand, a);
        h.perfect += s.pattern == five || s.pattern == one_of_each;
        h.fives += s.pattern == five;
        h.has_four = h.has_four || s.pattern == four;
        h.attributes[static_cast<std::size_t>(a)] = s;
    }
    // Category order, which is also comparison order: by pattern, then by the values.
    std::sort(h.attributes.begin(), h.attributes.end(), [](const auto& x, const auto& y) {
        if (x.pattern != y.pattern) return x.pattern < y.pattern;
        return x.values > y.values;
    });
    return h;
}

std::string category_of(const HandShape& h) {
    std::string out(kTierName[h.perfect]);
    for (std::size_t i = 0; i < 3; ++i) {
        out += i == 0 ? ':' : '+';
        out += kPatternCode[h.attributes[i].pattern];
    }
    return out;
}

} // namespace

Result<std::unique_ptr<const Ranking>> make_pokem_ranking(bool quads_over_one_of_each) {
    return std::unique_ptr<const Ranking>(new PokemRanking(quads_over_one_of_each));
}

Judgement judge_pokem(const std::array<Card, 5>& hand, bool quads_over_one_of_each) {
    const HandShape h = hand_shape(hand);
    Judgement j;
    // 1. Perfect attributes (the tier).
    j.strength.push(tier_byte(h.perfect, h.fives, h.has_four, quads_over_one_of_each));
    // 2. Five-of-a-kind attributes, then their values, highest first (attributes are sorted so).
    j.strength.push(h.fives);
    for (const auto& a : h.attributes)
        if (a.pattern == five) j.strength.push(a.values[0] + 1);
    // 3. The imperfect attributes, best first: pattern, then group values and kickers.
    for (const auto& a : h.attributes) {
        if (a.pattern == five || a.pattern == one_of_each) continue;
        j.strength.push(one_pair - a.pattern + 1); // 4k = 5 ... 1p = 1
        for (int g = 0; g < a.groups; ++g)
            j.strength.push(a.values[static_cast<std::size_t>(g)] + 1);
    }
    j.category = category_of(h);
    return j;
}

PokemDistribution pokem_distribution(bool quads_over_one_of_each) {
    // The category depends only on the attributes' patterns, which permuting the values of any
    // attribute preserves; those permutations carry any card to any other. So every card lies in
    // the same number n_X of category-X hands, and 5 N_X = 125 n_X: count the hands holding card
    // 0 (C(124, 4) = 9,691,375 of them) and multiply by 25.
    //
    // Per attribute, a key adds 1 << 3 * value for each card (five 3-bit counters); a table
    // turns the key into the pattern. The three patterns, sorted, name the category.
    std::vector<std::uint8_t> pattern_of(1 << 15, 0);
    std::array<Card, 5> probe{};
    auto key_of = [](int value) { return 1u << (3 * value); };
    {
        // Every way five cards can spread over five values, through a hand that shows it.
        std::array<int, 5> v{};
        for (v[0] = 0; v[0] < 5; ++v[0])
            for (v[1] = v[0]; v[1] < 5; ++v[1])
                for (v[2] = v[1]; v[2] < 5; ++v[2])
                    for (v[3] = v[2]; v[3] < 5; ++v[3])
                        for (v[4] = v[3]; v[4] < 5; ++v[4]) {
                            unsigned key = 0;
                            for (int i = 0; i < 5; ++i) {
                                key += key_of(v[static_cast<std::size_t>(i)]);
                                probe[static_cast<std::size_t>(i)] =
                                    Card::from_code(v[static_cast<std::size_t>(i)] * 25);
                            }
                            pattern_of[key] = static_cast<std::uint8_t>(shape_of(probe, 0).pattern);
                        }
    }
    std::array<std::uint64_t, 7 * 7 * 7> counts{};
    std::array<std::array<unsigned, 3>, kPokemCards> card_keys{};
    for (int code = 0; code < kPokemCards; ++code)
        for (int a = 0; a < 3; ++a)
            card_keys[static_cast<std::size_t>(code)][static_cast<std::size_t>(a)] =
                key_of(attribute(Card::from_code(code), a));
    const auto& k0 = card_keys[0];
    for (int b = 1; b < kPokemCards; ++b) {
        const auto& kb = card_keys[static_cast<std::size_t>(b)];
        const unsigned b0 = k0[0] + kb[0], b1 = k0[1] + kb[1], b2 = k0[2] + kb[2];
        for (int c = b + 1; c < kPokemCards; ++c) {
            const auto& kc = card_keys[static_cast<std::size_t>(c)];
            const unsigned c0 = b0 + kc[0], c1 = b1 + kc[1], c2 = b2 + kc[2];
            for (int d = c + 1; d < kPokemCards; ++d) {
                const auto& kd = card_keys[static_cast<std::size_t>(d)];
                const unsigned d0 = c0 + kd[0], d1 = c1 + kd[1], d2 = c2 + kd[2];
                for (int e = d + 1; e < kPokemCards; ++e) {
                    const auto& ke = card_keys[static_cast<std::size_t>(e)];
                    int p[3] = {pattern_of[d0 + ke[0]], pattern_of[d1 + ke[1]],
                                pattern_of[d2 + ke[2]]};
                    if (p[0] > p[1]) std::swap(p[0], p[1]);
                    if (p[1] > p[2]) std::swap(p[1], p[2]);
                    if (p[0] > p[1]) std::swap(p[0], p[1]);
                    ++counts[static_cast<std::size_t>(p[0] * 49 + p[1] * 7 + p[2])];
                }
            }
        }
    }

    // Categories in order: tier, then five-of-a-kind count, then the other patterns, best first.
    struct Row {
        Strength order;
        std::string name;
        std::uint64_t count;
    };
    std::vector<Row> rows;
    PokemDistribution d;
    for (int id = 0; id < 7 * 7 * 7; ++id) {
        if (counts[static_cast<std::size_t>(id)] == 0) continue;
        HandShape h;
        const int p[3] = {id / 49, id / 7 % 7, id % 7};
        for (int a = 0; a < 3; ++a) {
            const auto pattern = static_cast<Pattern>(p[a]);
            h.attributes[static_cast<std::size_t>(a)].pattern = pattern;
            h.perfect += pattern == five || pattern == one_of_each;
            h.fives += pattern == five;
            h.has_four = h.has_four || pattern == four;
        }
        Row r{{}, category_of(h), counts[static_cast<std::size_t>(id)] * 25};
        r.order.push(tier_byte(h.perfect, h.fives, h.has_four, quads_over_one_of_each));
        r.order.push(h.fives);
        for (int a = 0; a < 3; ++a) r.order.push(one_pair - p[a] + 1);
        d.total += r.count;
        rows.push_back(std::move(r));
    }
    std::sort(rows.begin(), rows.end(),
              [](const Row& x, const Row& y) { return x.order > y.order; });
    for (auto& r : rows) d.categories.emplace_back(std::move(r.name), r.count);
    return d;
}

} // namespace felt
