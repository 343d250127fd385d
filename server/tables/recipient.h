// What a table needs of a connection: somewhere to queue messages for the one reading it. Tables
// hold recipients, never sessions, so that they know nothing of WebSocket (a test, a bot in
// process or another transport can be one).
#pragma once

#include <memory>
#include <string>

namespace felt::server {

class Recipient {
  public:
    virtual ~Recipient() = default;
    // Queues a text message; from any thread.
    virtual void send(std::shared_ptr<const std::string> message) = 0;
};

} // namespace felt::server
