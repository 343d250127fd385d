// How a request is answered: a reply, a refusal, or work in storage whose result comes back to the
// connection's strand (requests/peer.h).
#pragma once

#include "protocol/messages.h"
#include "requests/peer.h"

#include <string>
#include <utility>

namespace felt::server::requests {

// The request's reply, with the time it took in the metrics.
void reply(Peer& p, const protocol::Request& r, protocol::json fields = protocol::json::object());
void refuse(Peer& p, const protocol::json& id, const protocol::Refusal& why);
void refuse(Peer& p, const protocol::json& id, std::string code, std::string message);

// How a request uses storage: reading, writing, or a sign-in (which ends `busy`).
enum class Access { read, write, sign_in };

// Runs job(store) in storage (a write, or a read) and done(result) back on the connection's
// strand; when storage fails the request is refused with `internal` instead.
template <class Job, class Done>
void stored(Peer& p, const protocol::Request& r, Access access, Job job, Done done) {
    auto then = [self = p.keep(), r, access, done = std::move(done)](auto result) mutable {
        if (access == Access::sign_in) self->client.busy = false;
        if (!result)
            return refuse(*self, r.id, "internal", "the server could not complete this request");
        done(std::move(*result));
    };
    if (access == Access::read)
        p.state().storage().read(std::move(job), p.strand(), std::move(then));
    else
        p.state().storage().write(std::move(job), p.strand(), std::move(then));
}

} // namespace felt::server::requests
