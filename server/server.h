// feltd's network core, after Boost.Beast's examples: a listener that only accepts, an HTTP
// session per connection (health, metrics, static files, the upgrade to WebSocket) and a WebSocket
// session that speaks the protocol, all sharing one SharedState.
#pragma once

#include "config.h"

#include <cstdint>
#include <memory>

namespace felt::server {

class Server {
  public:
    // Opens and migrates the database, binds the port. Throws with a clear message on failure.
    explicit Server(Config config);
    ~Server();

    std::uint16_t port() const; // the bound port

    // Serves on config.threads threads until SIGINT or SIGTERM (or stop()), then shuts down
    // gracefully: stops accepting, closes every connection within the grace period, returns.
    void run();
    void stop(); // from any thread

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace felt::server
