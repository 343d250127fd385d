#include "openface/openface.h"

#include "cards/deck.h"
#include "rankings/evaluator.h"
#include "rankings/wild.h"

#include <algorithm>

namespace felt::openface {

namespace {

constexpr std::array<Row, 3> kRows = {Row::front, Row::middle, Row::back};

std::string count_words(int n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string cards_text(std::span<const Card> cards) {
    std::string out;
    for (Card c : cards) {
        if (!out.empty()) out += ' ';
        out += Deck::standard().to_string(c);
    }
    return out;
}

bool is_royal(HandValue v) {
    return v.category() == Category::straight_flush && hand_class::rank_at(v.hand_class(), 0) == 12;
}

std::array<HandValue, 3> values(const Split& s) {
    return chinese::row_values(s);
}

bool fouled_values(const std::array<HandValue, 3>& v) {
    return v[2] < v[1] || chinese::compare_middle_front(v[1], v[0], false) < 0;
}

} // namespace

std::string_view variant_name(Variant v) {
    return v == Variant::classic ? "classic" : "pineapple";
}

std::optional<Variant> parse_variant(std::string_view name) {
    if (name == "pineapple") return Variant::pineapple;
    if (name == "classic") return Variant::classic;
    return std::nullopt;
}

std::string_view stay_name(Stay s) {
    return s == Stay::strict ? "strict" : "standard";
}

std::optional<Stay> parse_stay(std::string_view name) {
    if (name == "standard") return Stay::standard;
    if (name == "strict") return Stay::strict;
    return std::nullopt;
}

int max_players(Variant v) {
    return v == Variant::classic ? 4 : 3;
}

std::optional<Error> check_options(const Options& o, int players) {
    if (players < 2 || players > max_players(o.variant))
        return Error{Errc::bad_config, std::string(variant_name(o.variant)) + " seats 2 to " +
                                           std::to_string(max_players(o.variant)) +
                                           " players, not " + std::to_string(players)};
    if (o.progressive && players == 4)
        return Error{Errc::bad_config,
                     "progressive Fantasyland needs at most 3 players: at 4, every hand is 13 "
                     "cards and the pack has none to spare"};
    if (o.unit <= 0) return Error{Errc::bad_option, "the unit must be positive"};
    if (o.rake < 0) return Error{Errc::bad_option, "the rake cannot be negative"};
    return std::nullopt;
}

// ---- rows -------------------------------------------------------------------------------------

int royalty(Row row, HandValue v) {
    const Category c = v.category();
    const int top = hand_class::rank_at(v.hand_class(), 0); // 0: deuce ... 12: ace
    switch (row) {
    case Row::front:
        if (c == Category::three_of_a_kind) return top + 10;      // deuces 10 ... aces 22
        if (c == Category::one_pair) return std::max(0, top - 3); // sixes 1 ... aces 9
        return 0;
    case Row::middle:
        switch (c) {
        case Category::three_of_a_kind:
            return 2;
        case Category::straight:
            return 4;
        case Category::flush:
            return 8;
        case Category::full_house:
            return 12;
        case Category::four_of_a_kind:
            return 20;
        case Category::straight_flush:
            return is_royal(v) ? 50 : 30;
        default:
            return 0;
        }
    case Row::back:
        switch (c) {
        case Category::straight:
            return 2;
        case Category::flush:
            return 4;
        case Category::full_house:
            return 6;
        case Category::four_of_a_kind:
            return 10;
        case Category::straight_flush:
            return is_royal(v) ? 25 : 15;
        default:
            return 0;
        }
    }
    return 0;
}

std::string royalty_hand(HandValue v) {
    return is_royal(v) ? "royal_flush" : std::string(category_name(v.category()));
}

bool fouled(const Split& s) {
    return fouled_values(values(s));
}

std::array<int, 3> royalties(const Split& s) {
    const auto v = values(s);
    if (fouled_values(v)) return {};
    return {royalty(Row::front, v[0]), royalty(Row::middle, v[1]), royalty(Row::back, v[2])};
}

namespace {

// The payments between a (player x) and b (player y), in units.
void pair_owed(int x, const Split& a, int y, const Split& b, std::vector<chinese::Owed>& out) {
    const auto va = values(a), vb = values(b);
    const bool fa = fouled_values(va), fb = fouled_values(vb);
    if (fa && fb) return;
    auto royalties_of = [&](int who, const std::array<HandValue, 3>& v, int payer) {
        for (std::size_t r = 0; r < 3; ++r)
            if (const int units = royalty(kRows[r], v[r]); units > 0)
                out.push_back({payer, who, units,
                               "royalty " + std::string(chinese::row_name(kRows[r])) + " " +
                                   royalty_hand(v[r])});
    };
    if (fa || fb) {
        const int clean = fa ? y : x, foul = fa ? x : y;
        out.push_back({foul, clean, 6, "foul"});
        royalties_of(clean, fa ? vb : va, foul);
        return;
    }
    int wins_x = 0, wins_y = 0;
    for (std::size_t r = 0; r < 3; ++r) {
        if (va[r] == vb[r]) continue;
        const bool x_wins = va[r] > vb[r];
        (x_wins ? wins_x : wins_y)++;
        out.push_back(
            {x_wins ? y : x, x_wins ? x : y, 1, std::string(chinese::row_name(kRows[r]))});
    }
    if (wins_x == 3) out.push_back({y, x, 3, "scoop"});
    if (wins_y == 3) out.push_back({x, y, 3, "scoop"});
    royalties_of(x, va, y);
    royalties_of(y, vb, x);
}

} // namespace

int points(const Split& a, const Split& b) {
    std::vector<chinese::Owed> owed;
    pair_owed(0, a, 1, b, owed);
    int p = 0;
    for (const auto& w : owed) p += w.to == 0 ? w.units : -w.units;
    return p;
}

// ---- Fantasyland ------------------------------------------------------------------------------

bool stays(Stay rule, const Split& s) {
    const auto v = values(s);
    if (v[0].category() == Category::three_of_a_kind) return true;
    if (v[2].category() >= Category::four_of_a_kind) return true;
    return rule == Stay::standard && v[1].category() >= Category::full_house;
}

int fantasyland_cards(const Options& o, const Split& s, bool in_fantasyland, int players) {
    if (fouled(s)) return 0;
    const int four = players >= 4 ? 13 : 0;
    if (in_fantasyland) return stays(o.stay, s) ? (four ? four : 14) : 0;
    const HandValue front = values(s)[0];
    if (front.category() == Category::three_of_a_kind) return four ? four : o.progressive ? 17 : 14;
    if (front.category() != Category::one_pair) return 0;
    const int pair = hand_class::rank_at(front.hand_class(), 0);
    if (pair < 10) return 0; // below queens
    return four ? four : o.progressive ? 14 + (pair - 10) : 14;
}

// ---- settlement -------------------------------------------------------------------------------

Result<Settlement> settle(const Options& o, const std::vector<Player>& players, int dealer) {
    const int n = static_cast<int>(players.size());
    if (auto e = check_options(o, n)) return *e;
    if (dealer < 0 || dealer >= n)
        return make_error(Errc::bad_option, "the dealer must be one of the players");
    std::array<int, 256> seen{};
    for (const Player& p : players) {
        if (p.stack && *p.stack < 0)
            return make_error(Errc::bad_option,
                              "player " + p.name + ": a stack cannot be negative");
        std::vector<Card> cards(p.split.front.begin(), p.split.front.end());
        cards.insert(cards.end(), p.split.middle.begin(), p.split.middle.end());
        cards.insert(cards.end(), p.split.back.begin(), p.split.back.end());
        if (auto e = deck_for(Wild::none).check(cards))
            return make_error(e->code, "player " + p.name + ": " + e->message);
        for (Card c : cards)
            if (seen[c.code()]++)
                return make_error(Errc::duplicate_card, "player " + p.name + ": " +
                                                            Deck::standard().to_string(c) +
                                                            " was dealt to two players");
    }
    const auto pairs = chinese::pairs_from(n, dealer);
    std::vector<chinese::Owed> owed;
    for (auto [x, y] : pairs)
        pair_owed(x, players[static_cast<std::size_t>(x)].split, y,
                  players[static_cast<std::size_t>(y)].split, owed);

    // A player without a stack backs any amount.
    constexpr Chips kUnlimited{std::int64_t{1} << 50};
    std::vector<Chips> stacks;
    for (const Player& p : players) stacks.push_back(p.stack.value_or(kUnlimited));
    chinese::PairLedger ledger(stacks, o.chip_limit, o.rake);
    Settlement out;
    ledger.settle_pass(pairs, owed, o.unit, false, out.payments, out.pairs);
    out.net = ledger.net();
    out.rake = ledger.rake();
    out.points.assign(static_cast<std::size_t>(n), 0);
    for (const auto& w : owed) {
        out.points[static_cast<std::size_t>(w.to)] += w.units;
        out.points[static_cast<std::size_t>(w.from)] -= w.units;
    }
    for (std::size_t i = 0; i < players.size(); ++i) {
        const Player& p = players[i];
        out.fouled.push_back(fouled(p.split));
        out.royalties.push_back(royalties(p.split));
        out.final_stacks.push_back(p.stack ? std::optional(*p.stack + out.net[i]) : std::nullopt);
        out.fantasyland.push_back(fantasyland_cards(o, p.split, p.fantasyland > 0, n));
    }
    return out;
}

// ---- a hand -----------------------------------------------------------------------------------

int row_size(Row r) {
    return r == Row::front ? 3 : 5;
}

Split Board::split() const {
    Split s;
    std::copy(front.begin(), front.end(), s.front.begin());
    std::copy(middle.begin(), middle.end(), s.middle.begin());
    std::copy(back.begin(), back.end(), s.back.begin());
    return s;
}

bool fouled_already(const Board& b) {
    std::optional<HandValue> f, m, k;
    if (b.front.size() == 3) f = evaluate(b.front);
    if (b.middle.size() == 5) m = evaluate(b.middle);
    if (b.back.size() == 5) k = evaluate(b.back);
    return chinese::check_order(f, m, k, {}).has_value();
}

int Hand::streets() const {
    return options_.variant == Variant::pineapple ? 5 : 9;
}

Result<Hand> Hand::start(const Options& o, std::span<const int> fantasyland,
                         std::span<const Card> deck) {
    const int n = static_cast<int>(fantasyland.size());
    if (auto e = check_options(o, n)) return *e;
    Hand h;
    h.options_ = o;
    h.fantasy_.assign(fantasyland.begin(), fantasyland.end());
    const auto un = static_cast<std::size_t>(n);
    h.boards_.resize(un);
    h.pending_.resize(un);
    h.discarded_.resize(un);
    h.dealt_.resize(un);
    h.positions_.resize(un);
    for (int p = 0; p < n; ++p) {
        const int f = fantasyland[static_cast<std::size_t>(p)];
        if (f != 0 && (f < 13 || f > 17 || (n == 4) != (f == 13) || (f > 14 && !o.progressive)))
            return make_error(Errc::bad_config,
                              "player " + std::to_string(p) + " cannot receive " +
                                  std::to_string(f) + " cards in Fantasyland: 14" +
                                  (o.progressive ? " to 17" : "") + ", or 13 at four players");
        (f ? h.fantasy_order_ : h.ordinary_).push_back(p);
    }
    const int per_street = o.variant == Variant::pineapple ? 3 : 1;
    int need = 0;
    for (int f : fantasyland) need += f ? f : 5 + (h.streets() - 1) * per_street;
    if (static_cast<int>(deck.size()) < need)
        return make_error(Errc::bad_config, "the deal needs " + std::to_string(need) +
                                                " cards and the deck has " +
                                                std::to_string(deck.size()));
    auto take = [&](int player, int street, int count) {
        auto& cards = h.dealt_[static_cast<std::size_t>(player)];
        cards.resize(static_cast<std::size_t>(h.streets()));
        for (int i = 0; i < count; ++i) {
            cards[static_cast<std::size_t>(street)].push_back(
                deck[static_cast<std::size_t>(h.used_)]);
            h.positions_[static_cast<std::size_t>(player)].push_back(h.used_++);
        }
    };
    for (int p = 0; p < n; ++p)
        take(p, 0,
             h.fantasy_[static_cast<std::size_t>(p)] ? h.fantasy_[static_cast<std::size_t>(p)] : 5);
    for (int s = 1; s < h.streets(); ++s)
        for (int p : h.ordinary_) take(p, s, per_street);
    for (int p : h.fantasy_order_)
        h.pending_[static_cast<std::size_t>(p)] = h.dealt_[static_cast<std::size_t>(p)][0];
    if (h.ordinary_.empty())
        h.street_ = h.streets();
    else
        h.begin_street();
    return h;
}

void Hand::begin_street() {
    turn_ = 0;
    for (int p : ordinary_)
        pending_[static_cast<std::size_t>(p)] =
            dealt_[static_cast<std::size_t>(p)][static_cast<std::size_t>(street_)];
}

int Hand::to_act() const {
    if (street_ < streets()) return ordinary_[turn_];
    return turn_ < fantasy_order_.size() ? fantasy_order_[turn_] : -1;
}

int Hand::discards_due(int player) const {
    const int f = fantasy_[static_cast<std::size_t>(player)];
    if (f) return f - 13;
    return options_.variant == Variant::pineapple && street_ > 0 && street_ < streets() ? 1 : 0;
}

std::optional<Error> Hand::check(int player, const Placement& p) const {
    const int actor = to_act();
    if (actor < 0) return Error{Errc::hand_over, "the hand is over: every row is set"};
    if (player != actor)
        return Error{Errc::not_your_turn, "it is seat " + std::to_string(actor) + "'s turn"};
    const auto& held = pending_[static_cast<std::size_t>(player)];
    std::vector<Card> given;
    for (const auto* part : {&p.front, &p.middle, &p.back, &p.discard})
        given.insert(given.end(), part->begin(), part->end());
    std::vector<Card> a = given, b(held.begin(), held.end());
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b)
        return Error{Errc::wrong_cards, "place exactly the cards dealt (" + cards_text(held) +
                                            "), each once, not " + cards_text(given)};
    const int due = discards_due(player);
    if (static_cast<int>(p.discard.size()) != due)
        return Error{Errc::wrong_count,
                     "discard " + (due ? count_words(due, "card") : std::string("nothing")) +
                         ", not " + count_words(static_cast<int>(p.discard.size()), "card")};
    const Board& board = boards_[static_cast<std::size_t>(player)];
    for (Row r : kRows) {
        const auto& add = r == Row::front ? p.front : r == Row::middle ? p.middle : p.back;
        const int room = row_size(r) - static_cast<int>(board.row(r).size());
        if (static_cast<int>(add.size()) > room)
            return Error{Errc::row_full, "the " + std::string(chinese::row_name(r)) +
                                             " has room for " + count_words(room, "card") +
                                             ", not " + std::to_string(add.size())};
    }
    return std::nullopt;
}

std::optional<Error> Hand::place(int player, const Placement& p) {
    if (auto e = check(player, p)) return e;
    const auto u = static_cast<std::size_t>(player);
    Board& board = boards_[u];
    board.front.insert(board.front.end(), p.front.begin(), p.front.end());
    board.middle.insert(board.middle.end(), p.middle.begin(), p.middle.end());
    board.back.insert(board.back.end(), p.back.begin(), p.back.end());
    discarded_[u].insert(discarded_[u].end(), p.discard.begin(), p.discard.end());
    pending_[u].clear();
    ++turn_;
    if (street_ < streets() && turn_ == ordinary_.size()) {
        ++street_;
        if (street_ < streets())
            begin_street();
        else
            turn_ = 0;
    }
    return std::nullopt;
}

} // namespace felt::openface
