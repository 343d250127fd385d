// A poker table: seats, stacks and one hand at a time, driven by the betting engine on a strand
// of its own. Every message it sends is built for its recipient: hole cards reach their owner
// only. Each hand is committed to before the deal and revealed after; finished hands are written
// in one transaction.
#pragma once

#include "accounts.h"
#include "hand.h"
#include "messages.h"
#include "net.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::server {

class SharedState;
class WsSession;

struct TableConfig {
    std::string variant = "holdem";
    std::string structure = "no-limit";
    std::string ranking = "standard";
    std::string wild = "none";
    int seats = 6;
    poker::Stakes stakes;
    poker::Chips min_buy_in = 0, max_buy_in = 0;
    int decision_ms = 30'000;  // time to act before the server acts (check, else fold)
    int sit_out_after = 3;     // hands a disconnected player misses before being sat out
    int hand_delay_ms = 1'000; // pause between hands

    protocol::json to_json() const;
};

// A table configuration from a create_table request, with defaults: blinds 1/2 (stud: ante 1,
// bring-in 2, bets 4/8), buy-ins of 40 to 200 big blinds (or big bets). Refusals: bad_config.
Outcome<std::pair<TableConfig, poker::HandConfig>> parse_table_config(const protocol::json& body);

class Table : public std::enable_shared_from_this<Table> {
  public:
    Table(std::int64_t id, TableConfig config, poker::HandConfig base, SharedState& state,
          net::io_context& ioc);

    std::int64_t id() const { return id_; }
    const TableConfig& config() const { return config_; }
    // For the lobby, from any thread.
    int seats_taken() const { return taken_.load(); }

    // Requests, from any thread; each replies to the session (or errs) on the table's strand.
    void join(std::shared_ptr<WsSession> s, Account a, protocol::Request r);
    void spectate(std::shared_ptr<WsSession> s, Account a, protocol::Request r);
    void leave(std::shared_ptr<WsSession> s, Account a, protocol::Request r);
    void act(std::shared_ptr<WsSession> s, Account a, protocol::Request r);
    // A player signed in again: their seat now speaks to this session, which gets a snapshot
    // (and, if it is their turn, what they may do).
    void attach(std::shared_ptr<WsSession> s, Account a);
    // A session has gone: its seat is held; the clock acts for it.
    void disconnected(WsSession* s);
    // Shutdown: no new hands; cash everyone out once the running hand ends.
    void stop();
    // Grace period over: a running hand is void (stacks as before it), everyone cashed out.
    void void_and_close();

  private:
    struct Seat {
        std::int64_t account = 0;
        std::string name;
        poker::Chips stack = 0;
        std::weak_ptr<WsSession> session;
        bool leaving = false;
        int missed = 0;           // hands in a row the clock played for a disconnected player
        bool sitting_out = false; // dealt no hands until the player is back
        int missed_hand = -1;     // the last hand counted in `missed`
    };
    struct Running {
        poker::HandState state;
        std::int64_t hand_id = 0;
        int number = 0;
        std::string deck, seed, salt; // revealed at the end
        std::array<poker::Chips, poker::kMaxSeats> start{};
        std::vector<std::string> log; // every event with every card, for the database
    };

    void send(const std::shared_ptr<WsSession>& s, std::string text);
    void refuse(const std::shared_ptr<WsSession>& s, const protocol::Request& r,
                const std::string& code, const std::string& message);
    void broadcast(protocol::json message);
    void publish(std::span<const poker::Event> batch, const poker::Legal* turn);
    int seat_of_session(const std::shared_ptr<WsSession>& s) const;
    // The whole table as `seat` (-1: a spectator) may see it, with its legal actions on its turn.
    std::string snapshot(int seat) const;
    std::optional<int> seat_of(std::int64_t account) const;

    void maybe_start();
    void start_hand();
    void after_events(const std::vector<poker::Event>& events, std::size_t from);
    void start_clock();
    void act_for_leaving();
    protocol::json legal_json() const;
    void on_clock(int hand, int decision);
    void apply(const poker::Action& a);
    void log_action(const poker::Action& a, const char* by);
    void finish_hand();
    void cash_out(int seat, const char* reason);

    std::int64_t id_;
    TableConfig config_;
    poker::HandConfig base_;
    SharedState& state_;
    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer clock_;
    net::steady_timer next_hand_;
    std::array<std::optional<Seat>, poker::kMaxSeats> seats_;
    std::map<WsSession*, std::weak_ptr<WsSession>> watchers_; // spectators and players
    std::optional<Running> hand_;
    int hands_ = 0;    // hands dealt
    int button_ = -1;  // the last hand's button
    int decision_ = 0; // decisions asked for, to tell a stale clock from the current one
    std::int64_t seq_ = 0;
    bool starting_ = false;
    bool stopping_ = false;
    std::atomic<int> taken_{0};
};

} // namespace felt::server
