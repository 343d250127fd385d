// The test main's watchdog (main.cpp): a test case that never ends is named and the run stopped.
// Skipped unless asked for; ctest's "watchdog" test runs it with a limit of one second.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

TEST_CASE("watchdog: a test case that never ends" * doctest::skip()) {
    SUBCASE("waiting") {
        for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}
