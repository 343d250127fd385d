// Integration, accounts: registering, signing in and out, tokens, and the limits on password
// checks. A real feltd on a free loopback port, driven through its WebSocket protocol and HTTP
// endpoints by the harness's client, as a bot would.
#include "bot.h"
#include "phh_cards.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <sodium.h>

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using namespace feltd_test;

TEST_CASE("feltd: accounts over the protocol") {
    Feltd d;
    Client c(d.port());
    auto early = c.call({{"type", "ping"}});
    CHECK(early["code"] == "hello_first");
    CHECK(c.call({{"type", "hello"}, {"version", 99}})["code"] == "unsupported_version");
    // Protocol 1's reveal showed every card; its clients cannot check protocol 2's.
    CHECK(c.call({{"type", "hello"}, {"version", 1}})["code"] == "unsupported_version");
    c.hello();
    CHECK(c.call({{"type", "me"}})["code"] == "unauthorized");
    auto bad = c.call({{"type", "register"}, {"name", "x"}, {"password", "long enough"}});
    CHECK(bad["code"] == "bad_name");
    auto reg = c.call({{"type", "register"}, {"name", "ann"}, {"password", "correct horse"}});
    REQUIRE(reg["ok"] == true);
    CHECK(reg["account"]["name"] == "ann");
    CHECK(reg["account"]["balance"] == 10000);
    const std::string token = reg["token"];
    CHECK(c.call({{"type", "me"}})["account"]["name"] == "ann");

    Client other(d.port());
    other.hello();
    CHECK(
        other.call({{"type", "register"}, {"name", "Ann"}, {"password", "another one"}})["code"] ==
        "name_taken");
    CHECK(other.call({{"type", "login"}, {"name", "ann"}, {"password", "wrong horse"}})["code"] ==
          "unauthorized");
    CHECK(other.call({{"type", "login"}, {"name", "ann"}, {"password", "correct horse"}})["ok"] ==
          true);

    Client resumed(d.port());
    resumed.hello();
    CHECK(resumed.call({{"type", "resume"}, {"token", "0000"}})["code"] == "unauthorized");
    CHECK(resumed.call({{"type", "resume"}, {"token", token}})["account"]["name"] == "ann");
    CHECK(resumed.call({{"type", "logout"}})["ok"] == true);

    Client again(d.port());
    again.hello();
    CHECK(again.call({{"type", "resume"}, {"token", token}})["code"] == "unauthorized");
    auto guest = again.call({{"type", "guest"}});
    CHECK(guest["account"]["guest"] == true);
    CHECK(again.call({{"type", "guest"}})["code"] == "already_signed_in");
}

TEST_CASE("feltd: failed sign-ins back off, by name and by address; nobody learns which names "
          "exist; an address makes so many accounts an hour") {
    Feltd d({"--login-attempts", "3", "--login-backoff-ms", "400", "--accounts-per-hour", "3"});
    Client c(d.port());
    c.hello();
    // Reserved and overlong names are bad names, in any case and at any length.
    CHECK(c.call({{"type", "register"},
                  {"name", "GUEST-12345678"},
                  {"password", "long enough"}})["code"] == "bad_name");
    CHECK(c.call({{"type", "register"},
                  {"name", std::string(300, 'a')},
                  {"password", "long enough"}})["code"] == "bad_name");
    REQUIRE(c.call({{"type", "register"}, {"name", "bob"}, {"password", "correct horse"}})["ok"] ==
            true);
    Client e(d.port());
    e.hello();
    auto login = [&](const std::string& name, const std::string& password) {
        return e.call({{"type", "login"}, {"name", name}, {"password", password}});
    };
    // Three failures are free; the fourth makes the name wait, even with the right password.
    for (int i = 0; i < 4; ++i) CHECK(login("bob", "wrong horse")["code"] == "unauthorized");
    const json locked = login("bob", "correct horse");
    CHECK(locked["code"] == "too_many_attempts");
    CHECK(locked["id"].is_number());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    REQUIRE(login("BOB", "correct horse")["ok"] == true); // and a success forgets the failures
    Client f(d.port());
    f.hello();
    // A name with no account: the same answer, and about the same time, as a wrong password.
    auto timed = [&](const std::string& name) {
        const auto from = std::chrono::steady_clock::now();
        json r = f.call({{"type", "login"}, {"name", name}, {"password", "wrong horse"}});
        return std::pair{r, std::chrono::steady_clock::now() - from};
    };
    const auto [known, known_time] = timed("bob");
    const auto [unknown, unknown_time] = timed("nobody-here");
    CHECK(known["code"] == "unauthorized");
    CHECK(unknown["code"] == known["code"]);
    CHECK(unknown["message"] == known["message"]);
    CHECK(unknown_time * 3 > known_time);
    // One address failing with ever new names is made to wait too (four times a name's
    // allowance), though none of these names failed before.
    bool address_waits = false;
    for (int i = 0; i < 16 && !address_waits; ++i)
        address_waits = timed("new-name-" + std::to_string(i)).first["code"] == "too_many_attempts";
    CHECK(address_waits);
    // Three new accounts from this address this hour (bob, and two guests), then no more.
    Client g(d.port());
    g.hello();
    Client h(d.port());
    h.hello();
    CHECK(g.call({{"type", "guest"}})["ok"] == true);
    CHECK(h.call({{"type", "guest"}})["ok"] == true);
    Client k(d.port());
    k.hello();
    CHECK(k.call({{"type", "guest"}})["code"] == "too_many_accounts");
    CHECK(k.call({{"type", "register"}, {"name", "carol"}, {"password", "long enough"}})["code"] ==
          "too_many_accounts");
}

TEST_CASE("feltd: a logout reaches every connection signed in with the token; log out "
          "everywhere; a new password revokes every other token") {
    Feltd d;
    Client a(d.port()), b(d.port()), c(d.port());
    for (Client* x : {&a, &b, &c}) x->hello();
    const std::string t1 =
        a.call({{"type", "register"}, {"name", "dora"}, {"password", "correct horse"}})["token"];
    REQUIRE(b.call({{"type", "resume"}, {"token", t1}})["ok"] == true);
    const std::string t2 =
        c.call({{"type", "login"}, {"name", "dora"}, {"password", "correct horse"}})["token"];
    // a logs out: b (same token) is told and signed out; c (its own token) stays in.
    CHECK(a.call({{"type", "logout"}})["ok"] == true);
    const json told = next_of_type(b, "signed_out");
    CHECK(told["reason"] == "logout");
    CHECK(b.call({{"type", "me"}})["code"] == "unauthorized");
    CHECK(c.call({{"type", "me"}})["ok"] == true);
    CHECK(a.call({{"type", "logout"}, {"everywhere", "yes"}})["code"] == "unauthorized");
    // Everywhere: every token of the account, from any of its connections.
    const std::string t3 =
        a.call({{"type", "login"}, {"name", "dora"}, {"password", "correct horse"}})["token"];
    CHECK(c.call({{"type", "logout"}, {"everywhere", "yes"}})["code"] == "bad_request");
    CHECK(c.call({{"type", "logout"}, {"everywhere", true}})["ok"] == true);
    CHECK(next_of_type(a, "signed_out")["reason"] == "logout");
    for (const std::string& t : {t1, t2, t3})
        CHECK(b.call({{"type", "resume"}, {"token", t}})["code"] == "unauthorized");
    // A new password: the old one must be right and the new one good; every other token goes.
    const std::string t4 =
        a.call({{"type", "login"}, {"name", "dora"}, {"password", "correct horse"}})["token"];
    const std::string t5 =
        b.call({{"type", "login"}, {"name", "dora"}, {"password", "correct horse"}})["token"];
    CHECK(a.call({{"type", "change_password"},
                  {"password", "wrong horse"},
                  {"new_password", "battery staple"}})["code"] == "unauthorized");
    CHECK(a.call({{"type", "change_password"},
                  {"password", "correct horse"},
                  {"new_password", "short"}})["code"] == "bad_password");
    CHECK(a.call({{"type", "change_password"},
                  {"password", "correct horse"},
                  {"new_password", "battery staple"}})["ok"] == true);
    CHECK(next_of_type(b, "signed_out")["reason"] == "password_changed");
    CHECK(a.call({{"type", "me"}})["ok"] == true); // the one that asked stays in
    CHECK(c.call({{"type", "resume"}, {"token", t5}})["code"] == "unauthorized");
    CHECK(c.call({{"type", "resume"}, {"token", t4}})["ok"] == true);
    Client e(d.port());
    e.hello();
    CHECK(e.call({{"type", "login"}, {"name", "dora"}, {"password", "correct horse"}})["code"] ==
          "unauthorized");
    CHECK(e.call({{"type", "login"}, {"name", "dora"}, {"password", "battery staple"}})["ok"] ==
          true);
    CHECK(e.call({{"type", "guest"}})["code"] == "already_signed_in");
    Client g(d.port());
    g.hello();
    g.call({{"type", "guest"}});
    CHECK(g.call({{"type", "change_password"},
                  {"password", "x"},
                  {"new_password", "long enough"}})["code"] == "no_password");
}

TEST_CASE("feltd: session tokens expire unused, and some time after they were issued") {
    Feltd d({"--token-idle", "2s", "--token-max", "4s"});
    Client a(d.port());
    a.hello();
    const std::string idle = a.call({{"type", "guest"}})["token"];
    Client b(d.port());
    b.hello();
    const std::string used = b.call({{"type", "guest"}})["token"];
    auto resumes = [&](const std::string& t) {
        Client c(d.port());
        c.hello();
        return c.call({{"type", "resume"}, {"token", t}})["ok"] == true;
    };
    std::this_thread::sleep_for(std::chrono::milliseconds(1300));
    CHECK(resumes(used)); // a use keeps it alive past the idle time ...
    std::this_thread::sleep_for(std::chrono::milliseconds(1300));
    CHECK(resumes(used));
    CHECK_FALSE(resumes(idle)); // ... which the unused one has passed
    std::this_thread::sleep_for(std::chrono::milliseconds(1600));
    CHECK_FALSE(resumes(used)); // used, but issued over 4 s ago
    CHECK(exit_status({"--token-idle", "soon"}) != 0);
}

// An attack of docs/security.md ("Figures"): a timing check, so in the release build only (the
// sanitizers' builds are slower).
#ifdef NDEBUG
TEST_CASE("feltd: one address signing in without end delays only itself; another address's "
          "sign-in stays within three times its unloaded time") {
    Feltd d;
    for (const char* name : {"flood", "person"}) {
        Client setup(d.port());
        setup.hello();
        REQUIRE(setup.call(
                    {{"type", "register"}, {"name", name}, {"password", "correct horse"}})["ok"] ==
                true);
    }
    // A person at another address signs in five times: the median.
    Client person(d.port(), 0, "127.0.0.2");
    person.hello();
    auto sign_in = [&person] {
        const auto t0 = std::chrono::steady_clock::now();
        const json r =
            person.call({{"type", "login"}, {"name", "person"}, {"password", "correct horse"}});
        const auto took = std::chrono::steady_clock::now() - t0;
        CHECK(r["ok"] == true);
        CHECK(person.call({{"type", "logout"}})["ok"] == true);
        return std::chrono::duration<double>(took).count();
    };
    auto median = [&sign_in] {
        std::vector<double> times;
        for (int i = 0; i < 5; ++i) times.push_back(sign_in());
        std::sort(times.begin(), times.end());
        return times[2];
    };
    const double unloaded = median();
    // The attack: 40 connections from 127.0.0.1 sign in and out with the right password, as fast
    // as they are answered.
    std::atomic<bool> attacking = true;
    std::atomic<int> signed_in = 0, refused = 0;
    std::vector<std::thread> attackers;
    for (int i = 0; i < 40; ++i)
        attackers.emplace_back([&] {
            Client c(d.port());
            c.hello();
            while (attacking) {
                const json r =
                    c.call({{"type", "login"}, {"name", "flood"}, {"password", "correct horse"}});
                if (r["ok"] == true) {
                    ++signed_in;
                    c.call({{"type", "logout"}});
                } else {
                    ++refused;
                    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // its rate limit
                }
            }
        });
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const double loaded = median();
    attacking = false;
    for (auto& t : attackers) t.join();
    MESSAGE("another address's sign-in, median of 5: "
            << unloaded * 1000 << " ms unloaded, " << loaded * 1000 << " ms under the attack ("
            << signed_in.load() << " of its sign-ins served, " << refused.load() << " refused)");
    CHECK(signed_in > 0);
    CHECK(loaded <= std::max(3 * unloaded, unloaded + 0.5));
}
#endif
