// The password checks' order (limits/fair_pool.h) without a clock, and the key an address counts
// under (limits/limits.h).
#include "limits/fair_pool.h"
#include "limits/limits.h"

#include <doctest/doctest.h>

#include <boost/asio/ip/address.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

using felt::server::FairQueue;

namespace {

// Jobs that record their names as they run.
struct Log {
    std::vector<std::string> ran;
    FairQueue::Job job(std::string name) {
        return [this, name = std::move(name)] { ran.push_back(name); };
    }
};

// Starts the next job (if any) and says whose it was.
std::string start(FairQueue& q) {
    auto next = q.next();
    if (!next) return "";
    next->second();
    return next->first;
}

} // namespace

TEST_CASE(
    "fair pool: while one address keeps the pool busy, another's check is the next to start") {
    Log log;
    FairQueue q(1, 8);
    for (int i = 0; i < 8; ++i) CHECK(q.push("flood", log.job("flood" + std::to_string(i))));
    CHECK_FALSE(q.push("flood", log.job("ninth"))); // beyond 8 waiting: busy
    CHECK(q.waiting("flood") == 8);
    CHECK(start(q) == "flood");                // the only slot
    CHECK(start(q).empty());                   // full
    CHECK(q.push("flood", log.job("flood8"))); // a place came free
    CHECK(q.push("person", log.job("person0")));
    q.done("flood");
    CHECK(start(q) == "person"); // not the flood's next, queued long before
    q.done("person");
    CHECK(start(q) == "flood");
    q.done("flood");
    CHECK(log.ran == std::vector<std::string>{"flood0", "person0", "flood1"});
}

TEST_CASE("fair pool: an address has one check in the pool at a time; addresses take turns") {
    Log log;
    FairQueue q(2, 8);
    for (const char* key : {"a", "a", "a", "b", "c"}) CHECK(q.push(key, log.job(key)));
    // Two slots: a and b. a's second waits for a's first, though a slot is free after c.
    CHECK(start(q) == "a");
    CHECK(start(q) == "b");
    CHECK(start(q).empty());
    q.done("b");
    CHECK(start(q) == "c"); // a still has one running
    CHECK(start(q).empty());
    q.done("a");
    CHECK(start(q) == "a");
    q.done("c");
    CHECK(start(q).empty()); // a's third waits for a's second
    q.done("a");
    CHECK(start(q) == "a");
    q.done("a");
    CHECK(start(q).empty());
    CHECK(q.waiting("a") == 0);
    q.done("nobody"); // a key with nothing running changes nothing
    CHECK(q.push("d", log.job("d")));
    CHECK(start(q) == "d");
}

TEST_CASE("fair pool: on threads, every job runs once, and one key never runs two at once") {
    boost::asio::thread_pool threads(2);
    felt::server::FairPool pool(threads, 2, 8);
    std::mutex m;
    std::condition_variable cv;
    int done = 0, accepted = 0;
    std::atomic<int> in_a{0}, most_in_a{0};
    for (int i = 0; i < 40; ++i) {
        const bool a = i % 4 != 0;
        accepted += pool.submit(a ? "a" : "b", [&, a] {
            if (a) {
                const int now = ++in_a;
                int seen = most_in_a.load();
                while (now > seen && !most_in_a.compare_exchange_weak(seen, now)) {
                }
            }
            volatile int spin = 0;
            for (int k = 0; k < 100000; ++k) spin = spin + 1;
            if (a) --in_a;
            std::lock_guard lock(m);
            ++done;
            cv.notify_all();
        });
    }
    {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return done == accepted; });
    }
    threads.join();
    CHECK(accepted >= 10); // b's ten at least: a's beyond eight waiting may be refused
    CHECK(most_in_a == 1);
}

TEST_CASE("limits by address: IPv4 as it is, IPv4-mapped as IPv4, IPv6 by its prefix") {
    using boost::asio::ip::make_address;
    using felt::server::address_key;
    CHECK(address_key(make_address("203.0.113.7"), 64) == "203.0.113.7");
    CHECK(address_key(make_address("::ffff:203.0.113.7"), 64) == "203.0.113.7");
    const std::string a = address_key(make_address("2001:db8:1:2:aaaa::1"), 64);
    CHECK(a == "2001:db8:1:2::/64");
    CHECK(address_key(make_address("2001:db8:1:2:ffff:ffff:ffff:ffff"), 64) == a);
    CHECK(address_key(make_address("2001:db8:1:3::1"), 64) != a);
    CHECK(address_key(make_address("2001:db8:1:3::1"), 48) == "2001:db8:1::/48");
    CHECK(address_key(make_address("2001:db8:1:3::1"), 61) == "2001:db8:1::/61");
    CHECK(address_key(make_address("2001:db8:1:f::1"), 61) == "2001:db8:1:8::/61");
    CHECK(address_key(make_address("2001:db8::1"), 128) == "2001:db8::1");
    CHECK(address_key(make_address("::1"), 64) == "::/64");
}
