// The connection a request came on, as the request layer (requests/router.h) sees it: where the
// answers go, the strand its callbacks come back to, and what the client has said so far. The
// WebSocket session (net/ws_session.h) is one; the request layer knows nothing of WebSocket.
#pragma once

#include "accounts/account.h"
#include "io.h"
#include "state.h"
#include "tables/recipient.h"

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace felt::server {

// What the client has said on one connection: the request layer's alone, read and written on the
// connection's strand. The connection holds it for the request layer and never reads it.
struct ClientState {
    bool hello = false;
    std::optional<Account> account;
    std::string token;
    bool busy = false;             // a sign-in is being checked
    std::set<std::int64_t> tables; // joined or watched, to tell them when the connection ends
    std::chrono::steady_clock::time_point arrived; // when the request being answered came
};

class Peer : public Recipient, public Connection {
  public:
    // The connection, kept open until a callback that holds it has run.
    virtual std::shared_ptr<Peer> keep() = 0;
    // Where storage's answers and timers come back to: the connection's strand.
    virtual const net::any_io_executor& strand() const = 0;
    virtual const std::string& address() const = 0;
    virtual SharedState& state() = 0;
    // Queues one message after what waits; on the strand.
    virtual void answer(Message message) = 0;

    ClientState client;
};

} // namespace felt::server
