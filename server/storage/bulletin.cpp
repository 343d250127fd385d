#include "storage/bulletin.h"

#include "storage/pg_store.h"
#include "storage/postgres.h"

#include <spdlog/spdlog.h>

#include <memory>

namespace felt::server {

namespace {

std::vector<RemoteTable> open_tables_of_others(pg::Connection& db, const std::string& node) {
    const pg::Result r =
        db.query("SELECT t.id, t.config, n.url, "
                 "(SELECT count(*) FROM table_seats s WHERE s.table_id = t.id) "
                 "FROM tables t JOIN nodes n ON n.id = t.node_id "
                 "WHERE t.closed_at IS NULL AND n.id != $1 AND n.url != '' ORDER BY t.id",
                 {node});
    std::vector<RemoteTable> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back(
            {r.integer(i, 0), r.text(i, 1), r.text(i, 2), static_cast<int>(r.integer(i, 3))});
    return out;
}

} // namespace

Bulletin::Bulletin(std::string conninfo, std::string node, Handlers handlers)
    : conninfo_(std::move(conninfo)), node_(std::move(node)), handlers_(std::move(handlers)),
      thread_([this] { run(); }) {}

Bulletin::~Bulletin() {
    stop_ = true;
    thread_.join();
}

void Bulletin::run() {
    using namespace std::chrono_literals;
    std::unique_ptr<pg::Connection> db;
    bool lost = false;
    while (!stop_) {
        try {
            if (!db) {
                db = std::make_unique<pg::Connection>(conninfo_);
                db->exec(std::string("LISTEN ") + kBulletinChannel);
                handlers_.tables(open_tables_of_others(*db, node_));
                if (lost) spdlog::warn("listening to the other nodes again");
                lost = false;
            }
            for (const std::string& m : db->notifications(500ms)) handlers_.message(m);
        } catch (const std::exception& e) {
            if (!lost) spdlog::error("not listening to the other nodes: {}", e.what());
            lost = true;
            db.reset();
            for (int i = 0; i < 10 && !stop_; ++i) std::this_thread::sleep_for(100ms);
        }
    }
}

} // namespace felt::server
