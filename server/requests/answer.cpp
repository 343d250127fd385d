#include "requests/answer.h"

namespace felt::server::requests {

void reply(Peer& p, const protocol::Request& r, protocol::json fields) {
    p.answer(std::make_shared<const std::string>(protocol::reply(r, std::move(fields))));
    p.state().metrics().request_latency.observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - p.client.arrived).count());
}

void refuse(Peer& p, const protocol::json& id, const protocol::Refusal& why) {
    p.answer(std::make_shared<const std::string>(protocol::error(id, why)));
}

void refuse(Peer& p, const protocol::json& id, std::string code, std::string message) {
    refuse(p, id, {std::move(code), std::move(message)});
}

} // namespace felt::server::requests
