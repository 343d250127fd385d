// A tournament on feltd: its registration, its start once full (a sit-and-go), its table run as
// a host (tables/host.h) by the tournament director (engine/tournament/director.h), the places
// and prizes written with the hands that decide them, and its end. The registry (Tournaments)
// holds every tournament of this node, for the requests and the lobby of tournaments.
//
// Multi-table tournaments (several tables, balancing and breaking, a start time) are the
// director's already, and come to feltd next: today create_tournament takes sit-and-gos.
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
#include <vector>

namespace felt::server {

class Table;

// How a tournament reaches players: a message to every connection of an account (on this
// node), and the account's connections seated at a table (they attach to it, and follow it
// without a click).
struct TournamentOutlet {
    std::function<void(std::int64_t account, nlohmann::json message)> tell;
    std::function<void(std::int64_t account, std::shared_ptr<Table> table)> attach;
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
    // After a restart: a running tournament taken up from its stored state, at its tables (their
    // hands so far, by table), as its last hand written left it. False when the state cannot be
    // read (the tournament is then cancelled).
    bool resume(const TournamentRow& row, const std::map<std::int64_t, int>& table_hands);
    // feltd's tables it plays at.
    std::vector<std::int64_t> table_ids() const;

    // ---- TableHost ----
    std::optional<HostDeal> next_deal(std::int64_t table) override;
    TournamentChange hand_ended(std::int64_t table, std::span<const Chips> stacks) override;
    void settled(std::int64_t table, bool ok) override;
    void not_dealt(std::int64_t table) override;

  private:
    enum class Status { registering, starting, running, finished };
    nlohmann::json line() const; // summary(), with the lock held
    void start();
    // The poker game its tables deal.
    protocol::Outcome<std::pair<protocol::PokerConfig, poker::HandConfig>> table_game() const;
    // Makes feltd's table `table_id` for the director's table, seats its players with their
    // stacks, and lists it; its hands numbered on from `hands`.
    std::shared_ptr<Table> open_table(std::int64_t table_id, int director_table, int hands);
    // The director's rules from the configuration; `seed` draws the seats.
    tournament::Rules rules(std::uint64_t seed) const;
    // The state stored with each change: the standing and the level clock.
    std::string state() const;
    tournament::Position position() const;
    // Tells every entrant.
    void tell_all(const nlohmann::json& message) const;
    // The balance after a prize, read back and pushed to the player's connections.
    void push_balance(std::int64_t account);
    // Wakes the tables at the next level's start (a new level, or a break's end).
    void arm_level_timer();
    nlohmann::json level_json(int level) const;

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
    std::optional<tournament::Director> before_hand_; // the director before the hand being written
    tournament::Outcome pending_;                     // what that hand changed
    std::map<std::int64_t, int> tables_;              // feltd's table id -> the director's
    std::map<int, std::shared_ptr<Table>> running_;   // the director's table id -> the table
    std::chrono::steady_clock::time_point started_;
    long hands_ = 0;         // dealt, for levels counted in hands
    std::uint64_t seed_ = 0; // the seating's draws
    int level_ = 0;          // the last level told
};

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
