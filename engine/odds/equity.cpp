#include "odds/equity.h"

#include "cards/deck.h"
#include "odds/holdem_exact.h"
#include "odds/tally.h"
#include "rankings/best_five.h"
#include "rankings/evaluator.h"
#include "rankings/lowball.h"
#include "rankings/short_deck.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace felt::odds {

namespace {

using detail::Tally;

constexpr int kMaxPlayers = 10;
constexpr int kMaxCards = 11; // an Omaha hand of six hole cards and the board
constexpr double kMostExactDeals = 3e6; // deals of the ranges enumerated exactly by default

constexpr std::array<std::string_view, 7> kGameNames = {
    "holdem", "short-deck", "omaha", "omaha-hilo", "stud", "stud-hilo", "razz"};

int index52(Card c) {
    return c.rank().index() * 4 + c.suit().index();
}
std::uint64_t bit(Card c) {
    return std::uint64_t{1} << index52(c);
}

// Cards of the game's deck, in a fixed order.
std::vector<Card> deck_of(Game g) {
    std::vector<Card> d;
    for (int r = shape(g).short_deck ? 4 : 0; r < 13; ++r)
        for (int s = 0; s < 4; ++s) d.emplace_back(Rank(r), Suit(s));
    return d;
}

// One player's hand at a showdown: the high value and the qualifying low (0: none).
struct Judged {
    std::uint32_t high = 0, low = 0;
};

Judged judge(Game g, std::span<const Card> hole, std::span<const Card> board, bool trips) {
    std::array<Card, kMaxCards> all{};
    std::size_t n = 0;
    for (Card c : hole) all[n++] = c;
    for (Card c : board) all[n++] = c;
    const std::span<const Card> cards(all.data(), n);
    switch (g) {
    case Game::holdem:
    case Game::stud:
        return {evaluate<7>(all.data()).raw(), 0};
    case Game::short_deck:
        return {best_short_deck_value(cards, trips).raw(), 0};
    case Game::stud_hilo: {
        const LowValue low = best_ace_to_five_low(cards);
        return {evaluate<7>(all.data()).raw(), low.qualifies() ? low.raw() : 0};
    }
    case Game::razz:
        return {best_ace_to_five_low(cards).raw(), 0};
    case Game::omaha:
    case Game::omaha_hilo: {
        Judged j;
        const bool hilo = g == Game::omaha_hilo;
        for_each_omaha_five(hole, board, [&](std::span<const Card, 5> five) {
            j.high = std::max<std::uint32_t>(j.high, evaluate<5>(five.data()).raw());
            if (hilo) j.low = std::max(j.low, eight_or_better_low(five).raw());
        });
        return j;
    }
    }
    return {};
}

double choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    double c = 1;
    for (int i = 0; i < k; ++i) c = c * (n - i) / (i + 1);
    return c;
}

// A query reduced to what both methods need.
struct Setup {
    Game game;
    int players = 0;
    int hole = 2;                           // cards each player ends with
    std::vector<std::vector<Combo>> ranges; // two-card games (else empty)
    std::vector<std::vector<Card>> known;   // other games: each player's cards so far
    std::vector<Card> board, dead;
    std::uint64_t fixed = 0; // board, dead and known cards
    int board_left = 0;
    bool trips = false; // the short deck's trips_beat_straight
};

// Deals the unknown cards every way and judges each showdown.
class Enumeration {
  public:
    Enumeration(const Setup& s, Tally& t) : s_(s), t_(t) {}

    void run(double w) {
        for (int p = 0; p < s_.players; ++p) hands_[static_cast<std::size_t>(p)] = known(p);
        board_ = s_.board;
        if (s_.ranges.empty()) {
            deal_cards(s_.fixed, w);
            return;
        }
        deal_ranges(0, s_.fixed, w);
    }

  private:
    std::vector<Card> known(int p) const {
        return s_.ranges.empty() ? s_.known[static_cast<std::size_t>(p)] : std::vector<Card>{};
    }

    void deal_ranges(int p, std::uint64_t used, double w) {
        if (p == s_.players) {
            deal_cards(used, w);
            return;
        }
        for (const Combo& c : s_.ranges[static_cast<std::size_t>(p)]) {
            const std::uint64_t m = bit(c.high) | bit(c.low);
            if (used & m) continue;
            hands_[static_cast<std::size_t>(p)] = {c.high, c.low};
            deal_ranges(p + 1, used | m, w * c.weight);
        }
    }

    // The deck left, then the board's cards and each player's missing ones, every way.
    void deal_cards(std::uint64_t used, double w) {
        deck_.clear();
        for (Card c : deck_of(s_.game))
            if (!(used & bit(c))) deck_.push_back(c);
        targets_.clear();
        for (int i = 0; i < s_.board_left; ++i) targets_.push_back(-1);
        for (int p = 0; p < s_.players; ++p)
            for (auto k = hands_[static_cast<std::size_t>(p)].size();
                 k < static_cast<std::size_t>(s_.hole); ++k)
                targets_.push_back(p);
        fill(0, 0, 0, w);
    }

    // Slot i of targets_ takes a card at or after `from` (the same target's cards in order).
    void fill(std::size_t i, std::size_t from, std::uint64_t taken, double w) {
        if (i == targets_.size()) {
            showdown(w);
            return;
        }
        const int who = targets_[i];
        const bool same = i > 0 && targets_[i - 1] == who;
        auto& into = who < 0 ? board_ : hands_[static_cast<std::size_t>(who)];
        for (std::size_t k = same ? from : 0; k < deck_.size(); ++k) {
            if (taken >> k & 1) continue;
            into.push_back(deck_[k]);
            fill(i + 1, k + 1, taken | std::uint64_t{1} << k, w);
            into.pop_back();
        }
    }

    void showdown(double w) {
        std::array<std::uint32_t, kMaxPlayers> high{}, low{};
        for (int p = 0; p < s_.players; ++p) {
            const Judged j = judge(s_.game, hands_[static_cast<std::size_t>(p)], board_, s_.trips);
            high[static_cast<std::size_t>(p)] = j.high;
            low[static_cast<std::size_t>(p)] = j.low;
        }
        if (shape(s_.game).hilo)
            detail::settle_hilo(high.data(), low.data(), s_.players, w, t_);
        else
            detail::settle(high.data(), s_.players, w, t_);
        t_.showdowns += w;
    }

    const Setup& s_;
    Tally& t_;
    std::array<std::vector<Card>, kMaxPlayers> hands_;
    std::vector<Card> board_, deck_;
    std::vector<int> targets_; // -1: the board; else the player
};

// splitmix64, seeded by the query.
struct Rng {
    std::uint64_t x;
    std::uint64_t operator()() {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) {
        return static_cast<std::size_t>(((*this)() >> 32) * n >> 32);
    }
    double unit() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }
};

// Whether the ranges allow any deal at all (a search that stops at the first).
bool any_deal(const Setup& s, int p, std::uint64_t used) {
    if (p == s.players) return true;
    for (const Combo& c : s.ranges[static_cast<std::size_t>(p)]) {
        const std::uint64_t m = bit(c.high) | bit(c.low);
        if (!(used & m) && any_deal(s, p + 1, used | m)) return true;
    }
    return false;
}

Tally monte_carlo(const Setup& s, const Query& q, double& stderr_percent) {
    Tally t(s.players);
    Rng rng{q.seed};
    // Each range's cumulative weights, to draw a combination by weight.
    std::vector<std::vector<double>> cumulative;
    for (const auto& r : s.ranges) {
        auto& c = cumulative.emplace_back();
        double sum = 0;
        for (const Combo& x : r) c.push_back(sum += x.weight);
    }
    const std::vector<Card> full = deck_of(s.game);
    std::array<std::vector<Card>, kMaxPlayers> hands;
    std::vector<Card> board, deck;
    std::vector<double> sum(static_cast<std::size_t>(s.players)),
        squares(static_cast<std::size_t>(s.players));
    std::uint64_t n = 0;
    stderr_percent = 100;
    // The largest player's standard error of the mean share, in percent.
    auto largest_error = [&] {
        double worst = 0;
        for (int p = 0; p < s.players; ++p) {
            const auto i = static_cast<std::size_t>(p);
            const double mean = sum[i] / static_cast<double>(n);
            const double var = squares[i] / static_cast<double>(n) - mean * mean;
            worst = std::max(worst, std::sqrt(std::max(0.0, var) / static_cast<double>(n)));
        }
        return 100 * worst;
    };
    // Ranges that seldom fit together redraw often; a bound on the draws keeps that finite.
    std::uint64_t draws = 0;
    const std::uint64_t most_draws = 20 * q.max_samples + 1'000'000;
    while (n < q.max_samples && draws++ < most_draws) {
        std::uint64_t used = s.fixed;
        bool ok = true;
        for (int p = 0; p < s.players && ok; ++p) {
            auto& h = hands[static_cast<std::size_t>(p)];
            if (s.ranges.empty()) {
                h = s.known[static_cast<std::size_t>(p)];
                continue;
            }
            const auto& c = cumulative[static_cast<std::size_t>(p)];
            const auto at = std::upper_bound(c.begin(), c.end(), rng.unit() * c.back()) - c.begin();
            const Combo& x =
                s.ranges[static_cast<std::size_t>(p)]
                        [std::min<std::size_t>(static_cast<std::size_t>(at), c.size() - 1)];
            const std::uint64_t m = bit(x.high) | bit(x.low);
            ok = !(used & m);
            used |= m;
            h = {x.high, x.low};
        }
        if (!ok) continue; // a collision: draw the whole deal again
        deck.clear();
        for (Card c : full)
            if (!(used & bit(c))) deck.push_back(c);
        std::size_t next = 0;
        auto draw = [&] {
            std::swap(deck[next], deck[next + rng.below(deck.size() - next)]);
            return deck[next++];
        };
        board = s.board;
        for (int i = 0; i < s.board_left; ++i) board.push_back(draw());
        std::array<std::uint32_t, kMaxPlayers> high{}, low{};
        for (int p = 0; p < s.players; ++p) {
            auto& h = hands[static_cast<std::size_t>(p)];
            while (static_cast<int>(h.size()) < s.hole) h.push_back(draw());
            const Judged j = judge(s.game, h, board, s.trips);
            high[static_cast<std::size_t>(p)] = j.high;
            low[static_cast<std::size_t>(p)] = j.low;
        }
        if (shape(s.game).hilo)
            detail::settle_hilo(high.data(), low.data(), s.players, 1, t);
        else
            detail::settle(high.data(), s.players, 1, t);
        t.showdowns += 1;
        ++n;
        // Each player's share this time, for the variance.
        for (int p = 0; p < s.players; ++p) {
            const auto i = static_cast<std::size_t>(p);
            const double x = t.equity[i] - sum[i];
            sum[i] = t.equity[i];
            squares[i] += x * x;
        }
        if (n % 4096 == 0 && n >= 16384) {
            stderr_percent = largest_error();
            if (stderr_percent <= q.target_stderr) break;
        }
    }
    if (n > 0) stderr_percent = largest_error();
    return t;
}

Error count_error(std::string m) {
    return Error{Errc::wrong_count, std::move(m)};
}

Result<Setup> setup(const Query& q) {
    const GameShape sh = shape(q.game);
    Setup s;
    s.game = q.game;
    s.trips = q.trips_beat_straight;
    s.players = static_cast<int>(q.players.size());
    if (s.players < 2 || s.players > kMaxPlayers)
        return count_error("equity takes 2 to 10 players, not " + std::to_string(s.players));
    s.hole = sh.hole;
    if (q.game == Game::omaha || q.game == Game::omaha_hilo) {
        s.hole = q.hole == 0 ? 4 : q.hole;
        if (s.hole < 4 || s.hole > 6)
            return count_error("Omaha deals 4 to 6 hole cards, not " + std::to_string(s.hole));
    }
    if (static_cast<int>(q.board.size()) > sh.board)
        return count_error(std::string(game_name(q.game)) + " has a board of " +
                           std::to_string(sh.board) + " cards, not " +
                           std::to_string(q.board.size()));
    s.board = q.board;
    s.dead = q.dead;
    s.board_left = sh.board - static_cast<int>(q.board.size());
    const std::vector<Card> deck = deck_of(q.game);
    auto check = [&](Card c, const std::string& whose) -> std::optional<Error> {
        if (std::find(deck.begin(), deck.end(), c) == deck.end())
            return Error{Errc::bad_card, whose + ": " + Deck::standard().to_string(c) +
                                             " is not a card of the " +
                                             (sh.short_deck ? "36-card deck" : "deck")};
        if (s.fixed & bit(c))
            return Error{Errc::duplicate_card,
                         whose + ": " + Deck::standard().to_string(c) + " is given twice"};
        s.fixed |= bit(c);
        return std::nullopt;
    };
    for (Card c : q.board)
        if (auto e = check(c, "the board")) return *e;
    for (Card c : q.dead)
        if (auto e = check(c, "the dead cards")) return *e;
    int dealt = static_cast<int>(q.board.size()) + s.board_left;
    for (int p = 0; p < s.players; ++p) {
        const Player& pl = q.players[static_cast<std::size_t>(p)];
        const std::string who = "player " + std::to_string(p + 1);
        dealt += s.hole;
        if (sh.ranges) {
            std::vector<Combo> r;
            for (const Combo& c : pl.range) {
                const bool in_deck = std::find(deck.begin(), deck.end(), c.high) != deck.end() &&
                                     std::find(deck.begin(), deck.end(), c.low) != deck.end();
                if (in_deck && !(s.fixed & (bit(c.high) | bit(c.low))) && c.weight > 0)
                    r.push_back(c);
            }
            if (r.empty())
                return Error{Errc::bad_range, who +
                                                  "'s range has no hand left beside the board "
                                                  "and the dead cards" +
                                                  (sh.short_deck ? " in the 36-card deck" : "")};
            s.ranges.push_back(std::move(r));
            continue;
        }
        if (static_cast<int>(pl.cards.size()) > s.hole)
            return count_error(who + " has " + std::to_string(pl.cards.size()) + " cards; " +
                               std::string(game_name(q.game)) + " deals " + std::to_string(s.hole));
        for (Card c : pl.cards)
            if (auto e = check(c, who)) return *e;
        s.known.push_back(pl.cards);
    }
    if (dealt + static_cast<int>(q.dead.size()) > static_cast<int>(deck.size()))
        return count_error(std::to_string(s.players) + " players need " + std::to_string(dealt) +
                           " cards and " + std::to_string(q.dead.size()) +
                           " are dead: the deck has " + std::to_string(deck.size()));
    if (sh.ranges && !any_deal(s, 0, s.fixed))
        return Error{Errc::bad_range, "no deal gives every player a hand of their range"};
    return s;
}

// Showdowns an exact enumeration judges (an upper bound with ranges: deals that share a card
// are not counted out).
double exact_count(const Setup& s) {
    double n = 1;
    int deck = static_cast<int>(deck_of(s.game).size()) - std::popcount(s.fixed);
    for (const auto& r : s.ranges) {
        n *= static_cast<double>(r.size());
        deck -= 2;
    }
    n *= choose(deck, s.board_left);
    deck -= s.board_left;
    for (const auto& k : s.known) {
        const int m = s.hole - static_cast<int>(k.size());
        n *= choose(deck, m);
        deck -= m;
    }
    return n;
}

} // namespace

std::string_view game_name(Game g) {
    return kGameNames[static_cast<std::size_t>(g)];
}

std::span<const std::string_view> game_names() {
    return kGameNames;
}

Result<Game> game_by_name(std::string_view name) {
    for (std::size_t i = 0; i < kGameNames.size(); ++i)
        if (kGameNames[i] == name) return static_cast<Game>(i);
    std::string m = "unknown game \"";
    m += name;
    m += "\"; the games are";
    for (auto n : kGameNames) {
        m += ' ';
        m += n;
    }
    return Error{Errc::bad_option, std::move(m)};
}

GameShape shape(Game g) {
    switch (g) {
    case Game::holdem:
        return {};
    case Game::short_deck:
        return {2, 5, true, false, true};
    case Game::omaha:
        return {6, 5, false, false, false};
    case Game::omaha_hilo:
        return {6, 5, false, true, false};
    case Game::stud:
    case Game::razz:
        return {7, 0, false, false, false};
    case Game::stud_hilo:
        return {7, 0, false, true, false};
    }
    return {};
}

std::uint64_t exact_limit(Game g) {
    switch (g) {
    case Game::holdem:
        return 20'000'000'000ull;
    case Game::stud:
    case Game::stud_hilo:
    case Game::razz:
        return 20'000'000ull;
    case Game::omaha:
    case Game::omaha_hilo:
        return 5'000'000ull;
    case Game::short_deck:
        return 2'000'000ull;
    }
    return 0;
}

Result<Query> make_query(Game g, std::span<const std::string> hands, std::string_view board,
                         std::string_view dead) {
    Query q;
    q.game = g;
    const Deck deck = Deck::standard();
    auto cards = [&](std::string_view text, const std::string& whose) -> Result<std::vector<Card>> {
        if (text.empty()) return std::vector<Card>{};
        auto c = deck.parse_cards(text);
        if (!c) return Error{c.error().code, whose + ": " + c.error().message};
        return c;
    };
    auto b = cards(board, "the board");
    if (!b) return b.error();
    q.board = *b;
    auto d = cards(dead, "the dead cards");
    if (!d) return d.error();
    q.dead = *d;
    for (std::size_t i = 0; i < hands.size(); ++i) {
        const std::string who = "player " + std::to_string(i + 1);
        Player p;
        if (shape(g).ranges) {
            auto r = parse_range(hands[i]);
            if (!r) return Error{r.error().code, who + ": " + r.error().message};
            p.range = std::move(r).value();
        } else if (hands[i] != "random" && hands[i] != "-") {
            auto c = cards(hands[i], who);
            if (!c) return c.error();
            p.cards = *c;
        }
        q.players.push_back(std::move(p));
    }
    return q;
}

Result<Equity> equity(const Query& q) {
    auto s = setup(q);
    if (!s) return s.error();
    const double count = exact_count(*s);
    const double limit = static_cast<double>(q.exact_limit ? q.exact_limit : exact_limit(q.game));
    // Each deal of the ranges costs its own bookkeeping, whatever the boards: a bound on them too.
    double deals = 1;
    for (const auto& r : s->ranges) deals *= static_cast<double>(r.size());
    Equity out;
    Tally t(s->players);
    if (q.exact || (!q.monte_carlo && count <= limit && deals <= kMostExactDeals)) {
        if (q.game == Game::holdem)
            t = detail::holdem_exact(s->ranges, s->board, s->dead);
        else
            Enumeration(*s, t).run(1);
    } else {
        out.exact = false;
        t = monte_carlo(*s, q, out.stderr_percent);
    }
    out.showdowns = t.showdowns;
    const double scale = t.showdowns > 0 ? 100 / t.showdowns : 0;
    auto percent = [&](const std::vector<double>& v) {
        std::vector<double> r(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i] * scale;
        return r;
    };
    out.equity = percent(t.equity);
    out.wins = percent(t.wins);
    out.ties = percent(t.ties);
    if (shape(q.game).hilo) {
        out.high = percent(t.high);
        out.low = percent(t.low);
        out.scoop = percent(t.scoop);
    }
    return out;
}

} // namespace felt::odds
