// What a table needs of a connection: somewhere to queue messages for the one reading it. Tables
// hold recipients, never sessions, so that they know nothing of WebSocket (a test, a bot in
// process or another transport can be one).
#pragma once

#include <boost/container/small_vector.hpp>

#include <memory>
#include <string>

namespace felt::server {

// One text message, shared by everyone it goes to.
using Message = std::shared_ptr<const std::string>;
// The messages that one turn of a table has for one recipient, in order: most often one, or an
// action's reply and its update.
using Messages = boost::container::small_vector<Message, 2>;

class Recipient {
  public:
    virtual ~Recipient() = default;
    // Queues text messages, in order, to go out together; from any thread.
    virtual void send(Messages messages) = 0;
    void send(Message message) { send(Messages{std::move(message)}); }
};

} // namespace felt::server
