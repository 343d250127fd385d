// The request layer: each request of a connection (requests/peer.h) goes to its family's handler,
// once the client may send it. A family is one file that adds its requests to the routes; adding
// one is that file and one line in router.cpp.
#pragma once

#include "protocol/messages.h"
#include "requests/peer.h"

#include <functional>
#include <map>
#include <string>

namespace felt::server {
class Table;
}

namespace felt::server::requests {

// Who may send a request: anyone, a connection that said hello, or a signed-in one.
enum class Needs { nothing, hello, account };

struct Handler {
    Needs needs;
    std::function<void(Peer& p, const protocol::Request& r)> run;
};
using Routes = std::map<std::string, Handler, std::less<>>;

// The families.
void add_account_requests(Routes& routes);    // hello, ping, register, login, guest, resume, me,
                                              // logout, change_password (accounts.cpp)
void add_lobby_requests(Routes& routes);      // tables, watch_lobby, unwatch_lobby, create_table
void add_table_requests(Routes& routes);      // join, act, chat, ...: to the table named
void add_history_requests(Routes& routes);    // my_hands, hand, hand_phh, table_hands, totals
void add_tournament_requests(Routes& routes); // create_tournament, tournaments, tournament,
                                              // tournament_register, tournament_unregister

// Answers one request, on the connection's strand. A type nobody handles is unknown_type; an
// exception that escapes a handler (a bug) is logged and the client refused with internal.
void route(Peer& p, const protocol::Request& r);

// The connection has ended: the lobby and its tables stop telling it anything, and its seats are
// held as for a lost connection.
void closed(Peer& p);

// A sign-out (SharedState::sign_out) has reached the connection; on its strand.
void sign_out(Peer& p, const SignOut& which);
// The account's balance changed: the client signed in to it is told (`balance`).
void tell_balance(Peer& p, std::int64_t account, Chips balance);
// A tournament's news: the client signed in to an account it names gets the account's
// messages, then the connection attaches to the seat the account was given (if any).
void tournament_news(Peer& p, const TournamentNews& news);

// Signed out: the tables stop telling the connection anything, its seats are held as for a
// closed connection, and it may sign in again.
void drop_account(Peer& p);

} // namespace felt::server::requests
