// What the other nodes on one PostgreSQL database say: a connection of its own that LISTENs on
// kBulletinChannel (storage/pg_store.h), on a thread of its own. Nodes send their lobby's changes
// and their sign-outs with Store::notify; a node that recovers another's tables tells of each
// table it closes in the same transaction. After each connection, and again after each loss of
// it (notifications sent meanwhile are lost), the open tables of the other nodes are read afresh
// from the database and handed over whole, before any notification that follows them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace felt::server {

// An open table of another node, as the database has it.
struct RemoteTable {
    std::int64_t id = 0;
    std::string config; // JSON, as created
    std::string url;    // how clients reach its node
    int taken = 0;      // seats taken
};

class Bulletin {
  public:
    struct Handlers {
        // The open tables of every other node that says where it is, by id.
        std::function<void(std::vector<RemoteTable>)> tables;
        // One message of another node (its text, JSON by convention; nothing is checked here).
        std::function<void(const std::string&)> message;
    };
    // Starts listening; the handlers run on the bulletin's thread. `node`: this node, whose own
    // tables are not remote.
    Bulletin(std::string conninfo, std::string node, Handlers handlers);
    // Stops listening (within half a second).
    ~Bulletin();
    Bulletin(const Bulletin&) = delete;
    Bulletin& operator=(const Bulletin&) = delete;

  private:
    void run();

    const std::string conninfo_, node_;
    const Handlers handlers_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace felt::server
