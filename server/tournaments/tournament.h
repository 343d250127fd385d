// A tournament on feltd: its registration, its start (a sit-and-go once full, a multi-table
// tournament at its time, or cancelled with every entry refunded when too few registered), its
// tables run as hosts (tables/host.h) by the tournament director (engine/tournament/director.h),
// the players it moves between them as it balances and breaks tables, the places and prizes
// written with the hands that decide them, and its end. The registry (Tournaments) holds every
// tournament of this node, for the requests and the lobby of tournaments.
//
// A move is made once the hand that decided it is written: the player's seat frees at the table
// they leave, they sit at the other (a seat still taken is given once it frees, and that table
// deals no hand that needs them before), and their connections follow them there.
//
// A deal: a player still in proposes one (by ICM or chip count) when at most ten are left; the
// tables deal no new hand and the level clock stops. Once no hand is being played, its terms go to
// every entrant; when every player still in has accepted them the tournament ends by them (one
// change written: each their place by stack and their share); one decline, or a minute of the
// clock without every answer, calls it off and play goes on. A deal is not stored: after a
// restart play goes on without it.
//
// The entry period (late registration, re-entries, rebuys, the add-on): each purchase is
// checked, then written alone with the tournament's state after it (the director is changed
// under the lock while it is written, and restored if the write fails or is refused), and once
// written what it changed is applied in order with the hands' changes: a newcomer seated at a
// random seat (at a new table when every table is full), a rebuying player seated again. A
// player out of chips in it keeps their seat for a minute of the clock when they may rebuy, and
// is placed when it closes (at the end of its windows, or when fewer than two players have
// chips), with the other players out in it.
//
// After a restart a tournament still registering takes registrations again, and one that was
// running is taken up where its last hand written left it (its standing is stored with every
// hand); one whose state cannot be read is cancelled: the prizes paid stand, and the rest of the
// pool goes to the players still in, in proportion to their stacks (Store::cancel_tournament).
#pragma once

#include "io.h"
#include "protocol/poker_config.h"
#include "protocol/tournament_config.h"
#include "tables/host.h"
#include "tables/services.h"
#include "tournament/director.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace felt::server {

class Table;

// What a tournament has for its players at once, by account: messages for every connection of
// the account (on this node), then a table those connections attach to (they follow it without
// a click). Gathered and sent together, so that telling a thousand players is one pass over the
// connections, not a thousand.
struct TournamentNews {
    std::unordered_map<std::int64_t, std::vector<std::shared_ptr<const std::string>>> told;
    std::unordered_map<std::int64_t, std::shared_ptr<Table>> seated;
    void tell(std::int64_t account, const nlohmann::json& message) {
        told[account].push_back(std::make_shared<const std::string>(message.dump()));
    }
    bool empty() const { return told.empty() && seated.empty(); }
};

// How a tournament reaches players: its news to every connection of this node.
struct TournamentOutlet {
    std::function<void(std::shared_ptr<const TournamentNews>)> send;
};

class Tournament final : public TableHost, public std::enable_shared_from_this<Tournament> {
  public:
    struct Entrant {
        std::int64_t account = 0;
        std::string name;
    };

    Tournament(std::int64_t id, protocol::TournamentConfig config, std::int64_t creator,
               std::string creator_name, Services& services, TournamentOutlet outlet);

    std::int64_t id() const { return id_; }
    const protocol::TournamentConfig& config() const { return config_; }
    // Its line in the lobby of tournaments.
    nlohmann::json summary() const;
    // The `tournament` reply: the line, the structure, the prizes by place, the standings and,
    // running, the level and the tables.
    nlohmann::json view() const;
    bool registering() const;

    // Registration, once the entry is written (Store::enter_tournament): a sit-and-go starts
    // when its seats are full.
    void registered(const Account& a);
    // An entry given back (Store::leave_tournament).
    void unregistered(std::int64_t account);
    // After a restart: the entries of a tournament still registering.
    void restore(std::vector<Entrant> entrants);
    // A multi-table tournament's start, at its time (at once if the time has passed). After
    // creation and after a restart.
    void arm_start();
    // After a restart: a running tournament taken up from its stored state, at its tables (their
    // hands so far, by table), as its last hand written left it. False when the state cannot be
    // read (the tournament is then cancelled).
    bool resume(const TournamentRow& row, const std::map<std::int64_t, int>& table_hands);
    // feltd's tables it plays at.
    std::vector<std::int64_t> table_ids() const;

    // A player's part in a deal (tournament_deal): the deal as it stands after it (deal_json;
    // null once off), or why not: not_running, not_in_tournament (not a player still in),
    // too_many_players, deal_pending (one is on the table already), no_deal (none to answer),
    // deal_not_ready (an accept before its terms, which wait for the hand being played; a
    // decline needs none), deal_closing (being written).
    enum class DealAnswer { propose, accept, decline };
    protocol::Outcome<nlohmann::json> deal(std::int64_t account, DealAnswer answer,
                                           tournament::DealMethod method);

    // A purchase in the entry period: a late registration (tournament_register once running), a
    // re-entry, a rebuy or the add-on. `answer` gets, on the tournament's strand, the account's
    // balance after it or a refusal: not_running, not_registering (late registration closed or
    // none), already_registered (a new entry for an account that has one: re-enter instead),
    // tournament_full, not_in_tournament, reentry_refused, rebuy_refused, add_on_refused (each
    // saying why), insufficient_chips, internal (storage failed: nothing bought).
    enum class Purchase { enter, reenter, rebuy, add_on };
    void buy(const Account& a, Purchase what, std::function<void(protocol::Outcome<Chips>)> answer);

    // ---- TableHost ----
    std::optional<HostDeal> next_deal(std::int64_t table, int number) override;
    TournamentChange hand_ended(std::int64_t table, std::span<const Chips> stacks) override;
    void settled(std::int64_t table, bool ok) override;
    void not_dealt(std::int64_t table) override;

  private:
    enum class Status { registering, starting, running, finished, cancelled };
    nlohmann::json line() const; // summary(), with the lock held
    // Registration closes with the entries storage holds: the tournament starts, or with fewer
    // than min_entrants it is cancelled and every entry refunded.
    void start();
    // What start() wrote: the tables made (feltd's id, the director's), or that it cancelled;
    // neither, a sit-and-go short of its seats after all, or a failure.
    struct Started {
        std::vector<std::pair<std::int64_t, int>> tables;
        bool cancelled = false;
    };
    void started(std::optional<Started> done);
    // start() after `wait`, if it still registers then.
    void start_after(std::chrono::seconds wait);
    // The poker game its tables deal.
    protocol::Outcome<std::pair<protocol::PokerConfig, poker::HandConfig>> table_game() const;
    // Makes feltd's table `table_id` for the director's table, seats its players with their
    // stacks, and lists it; its hands numbered on from `hands`.
    struct Opened {
        std::shared_ptr<Table> table;
        std::vector<std::pair<Entrant, int>> seated; // and their seats
    };
    Opened open_table(std::int64_t table_id, int director_table, int hands);
    // The table alone, listed, without players; with the lock held.
    std::shared_ptr<Table> make_table(std::int64_t table_id, int director_table, int hands);
    // The configuration stored with each of its tables.
    std::string table_config() const;
    // Once a hand's change is written (and every change before it): its players out and the
    // winner told (and their prizes' balances), the players it moved sent to their new tables,
    // the tables it broke closed, and the tables that waited poked. With the lock held.
    void apply(const tournament::Outcome& o, TournamentNews& news);
    // Applies the changes written, in order, up to the first not written yet.
    void apply_written(TournamentNews& news);
    // What a change writes: its finishes, and the state after it with its number.
    TournamentChange change_of(const tournament::Outcome& o);
    // A change between hands (the entry period's close, seats given up): written (again until
    // it is), then applied in order with the hands' changes.
    void write_change(const tournament::Outcome& o);
    void write_pending(long sequence, TournamentChange c);
    // The entry period's close once the clock has passed its windows: with the hand's change, or
    // written alone (at a new level).
    tournament::Outcome advance();
    // A purchase, checked: the director's player it is for (-1: a new entry), or why not.
    std::variant<int, protocol::Refusal> check_purchase(std::int64_t account, Purchase what,
                                                        const tournament::Position& at) const;
    // Inside its write, with the lock held: the purchase made in the director and written; the
    // balance after it and its change's place in pending_, or why not (the director as before).
    struct Bought {
        Chips balance{};
        long sequence = 0;
    };
    std::variant<Bought, protocol::Refusal> purchase(Store& s, const Account& a, Purchase what);
    // The account's last entry (the director's player), or -1; which of its entries a player is.
    int last_entry(std::int64_t account) const;
    int entry_of(int player) const;
    EntryFinish entry_finish(const tournament::Finish& f) const;
    // Players out of chips who may rebuy keep their seat until then; the timer frees it.
    void arm_bust_timer();
    // A change to the director other than the hand being written: a failed write can no longer
    // be taken back by restoring the director from before it.
    void forget_befores();
    // The prize pool for `entries`: their buy-ins, or the guarantee when that is more.
    Chips pool(int entries) const;
    // The director's rules from the configuration; `seed` draws the seats.
    tournament::Rules rules(std::uint64_t seed) const;
    // The state stored with each change: the standing and the level clock.
    std::string state() const;
    tournament::Position position() const;
    // The level clock: milliseconds of play since the start (a minute lasts
    // Services::tournament_minute_ms of real time, 60,000 but in tests); and a span of it in
    // real time.
    std::int64_t clock_ms() const;
    std::chrono::milliseconds real_ms(std::int64_t clock_ms) const;
    // Every entrant's news: the same message for each.
    void tell_all(TournamentNews& news, const nlohmann::json& message) const;
    void send(TournamentNews news) const;
    // The balance after a prize, read back and pushed to the player's connections.
    void push_balance(std::int64_t account);
    // Wakes the tables at the next level's start (a new level, or a break's end).
    void arm_level_timer();
    nlohmann::json level_json(int level) const;

    // The deal on the table: its method, who proposed it, its terms once set, who accepted.
    struct Offer {
        tournament::DealMethod method = tournament::DealMethod::icm;
        std::string proposer;
        std::optional<tournament::DealTerms> terms; // once no hand is being played
        std::vector<int> accepted;                  // players
        bool closing = false;                       // agreed: being written
    };
    nlohmann::json deal_json() const;
    // The deal as it stands, to every entrant (the `deal` push).
    void tell_deal(TournamentNews& news) const;
    // The player an account plays as, while still in; -1 otherwise.
    int player_of(std::int64_t account) const;
    // Sets the deal's terms once no hand is being played nor written, and tells every entrant.
    void offer_terms(TournamentNews& news);
    // Calls the deal off (`reason`: why, in words), the clock running again; then, once that
    // news is sent, resume_play() lets the tables deal (their hands come after it).
    void deal_off(const std::string& reason, TournamentNews& news);
    void resume_play();
    // Every player still in agreed: the tournament ends by the terms, once written.
    void close_deal();

    const std::int64_t id_;
    const protocol::TournamentConfig config_;
    const std::int64_t creator_;
    const std::string creator_name_;
    Services& services_;
    const TournamentOutlet outlet_;
    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer level_timer_;

    mutable std::mutex mutex_; // the rest, from the requests' and the tables' threads
    Status status_ = Status::registering;
    std::vector<Entrant> entrants_; // in the order they registered; the director's players
    std::optional<tournament::Director> director_;
    // Hands ended whose change is being written or waits for an earlier one, in the order they
    // ended: the table, what the hand changed, and the director from before it while nothing
    // else has changed it since (a failed write restores it; once something else changed the
    // director, a failed write's hand stands, for the changes written after it hold its result).
    struct Pending {
        std::int64_t table = 0;
        std::optional<tournament::Director> before;
        tournament::Outcome outcome;
        bool written = false;
    };
    std::map<long, Pending> pending_;
    long sequence_ = 0;
    std::map<std::int64_t, int> tables_;            // feltd's table id -> the director's (all made)
    std::map<int, std::shared_ptr<Table>> running_; // the director's table id -> the table
    // Tables that did not deal when asked (halted, to be broken, short of players, on a break):
    // poked after each change; since when each waits for a balancing or break decision.
    std::map<int, std::optional<std::chrono::steady_clock::time_point>> idle_;
    long longest_wait_ms_ = 0;
    net::steady_timer start_timer_;
    std::chrono::steady_clock::time_point started_;
    long hands_ = 0;         // dealt, for levels counted in hands
    std::uint64_t seed_ = 0; // the seating's draws
    int level_ = 0;          // the last level told
    std::optional<Offer> offer_;
    net::steady_timer deal_timer_;
    // While a deal is on the table the level clock stands still, since then.
    std::optional<std::chrono::steady_clock::time_point> paused_;
    std::optional<tournament::Director> before_deal_; // while the deal agreed is written
    bool told_hand_for_hand_ = false;
    long changes_ = 0; // the changes numbered (TournamentChange::seq)
    std::map<int, std::chrono::steady_clock::time_point> busted_;
    net::steady_timer bust_timer_;
};

// A tournament's line in the lobby of tournaments, from its configuration: its status
// (registering, running, break, finished or cancelled), its entries and its creator.
nlohmann::json tournament_line(std::int64_t id, const protocol::TournamentConfig& c,
                               const std::string& status, std::size_t entrants,
                               const std::string& creator);

// The stacks of the players still in (by account) in a stored state; none when it is unreadable.
std::vector<std::pair<std::int64_t, Chips>> stacks_in(const std::string& state);

// After a restart: the tournaments the last run left registering take registrations again; those
// it left running are taken up where their last hand written left them, at their tables
// (`tables`: the tournament tables the last run left open, with their hands); one whose state
// cannot be read is cancelled (Store::cancel_tournament, by the stacks of its last hand). The
// tables left over close.
class Storage;
class Tournaments;
void open_tournaments(std::vector<TournamentRow> rows, std::map<std::int64_t, int> tables,
                      Storage& storage, Tournaments& registry, Services& services,
                      const TournamentOutlet& outlet, const net::any_io_executor& ex);

// Every tournament of this node, by id.
class Tournaments {
  public:
    void add(std::shared_ptr<Tournament> t);
    std::shared_ptr<Tournament> find(std::int64_t id);
    // The lobby of tournaments: registering, running and finished (this run), newest first.
    nlohmann::json lines();

  private:
    std::mutex mutex_;
    std::map<std::int64_t, std::shared_ptr<Tournament>> all_;
};

} // namespace felt::server
