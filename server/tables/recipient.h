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
    // Queues text messages, in order, to go out together; from any thread. A connection may
    // write them at once, ahead of a reply it is about to queue itself.
    virtual void send(Messages messages) = 0;
    void send(Message message) { send(Messages{std::move(message)}); }
    // The same, queued only after what the recipient is busy with now: for news from elsewhere
    // that a request of its own may have caused (the lobby's, after the reply to create_table or
    // watch_lobby), so that it never overtakes that request's reply.
    virtual void send_later(Messages messages) { send(std::move(messages)); }
    void send_later(Message message) { send_later(Messages{std::move(message)}); }
};

} // namespace felt::server
