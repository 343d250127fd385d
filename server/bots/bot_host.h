// The server's own bots (docs/bots.md, "Bots at a table"): a poker table whose configuration asks
// for bots (`"bots": {"seats": N, "level": "fair", "leave_for_people": true}`) gets them when its
// first person sits down, and loses them with its last. A bot is an account marked as a bot
// (accounts.bot), named bot-XXXXXXXX, whose chips the server grants as it needs them (ledger
// rows of reason grant, the bots' balances together at most --bot-bank).
//
// The bots run on a thread of their own, off the tables' strands. Each seated bot is a Peer
// (requests/peer.h) like a person's connection: its requests (join, act, leave) go through the
// request layer, and the table tells it what it tells that seat, nothing more. Its decisions are
// bots::TableSeat's, from those messages alone, after a person's pause (--bot-think-min-ms to
// --bot-think-max-ms).
#pragma once

#include "io.h"
#include "tables/services.h"

#include <boost/asio/executor_work_guard.hpp>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace felt::server {

class SharedState;
struct Account;

class BotHost : public std::enable_shared_from_this<BotHost> {
  public:
    // `log`: tests only (--bot-log), every message each bot receives, a JSON line each.
    BotHost(std::shared_ptr<SharedState> state, std::string log = {});
    ~BotHost();
    BotHost(const BotHost&) = delete;
    BotHost& operator=(const BotHost&) = delete;

    // Loads the bot accounts kept from earlier runs, and runs the bots' thread. Once made with
    // make_shared.
    void start();
    // The tables' seats are cashed out by then (shutdown): the bots' thread ends.
    void stop();

    // Services::seating: a table that asks for bots has seen its seats change. From any thread.
    void seating(TableSeating s);

    class Seat; // one bot at one table: a Peer

  private:
    struct Bot {
        std::int64_t account = 0;
        std::string name;
        std::int64_t table = 0;     // where it sits or is sitting down; 0: free
        bool leaving = false;       // asked to get up
        std::shared_ptr<Seat> seat; // while at a table
    };

    void changed(const TableSeating& s);
    // Seats one more bot at the table: a free bot, or a new one, funded for the buy-in, then
    // its join.
    void sit_one(const TableSeating& s);
    void join(Bot& b, const TableSeating& s);
    void get_up(Bot& b);
    Bot* find(std::int64_t account);
    // A bot's seat told it it has left the table (or its join was refused): it is free again.
    void gone(std::int64_t account, bool left);
    void log(const std::string& name, const std::string& message);
    // How long a bot waits before it acts, at a table whose clock gives `decision_ms`.
    std::chrono::milliseconds think(int decision_ms);

    std::shared_ptr<SharedState> state_;
    std::shared_ptr<net::io_context> ioc_ = std::make_shared<net::io_context>(1);
    net::executor_work_guard<net::io_context::executor_type> work_{ioc_->get_executor()};
    std::thread thread_;
    bool loaded_ = false;                         // the kept accounts are in bots_
    std::vector<TableSeating> waiting_;           // told before they were
    std::vector<std::unique_ptr<Bot>> bots_;      // every bot account, seated or not
    std::set<std::int64_t> ids_;                  // their accounts
    std::map<std::int64_t, TableSeating> tables_; // each table's last seating
    int creating_ = 0;                            // new bot accounts being written
    std::mt19937_64 rng_{std::random_device{}()};
    std::ofstream log_;

    friend class Seat;
};

} // namespace felt::server
