// The one file that holds the test main, and its watchdog.
//
// A test case that runs past its limit (FELT_TEST_CASE_SECONDS, 300 unless set) is named on
// stderr, with its subcase, and the program ends with status 3: a hang fails in minutes and says
// where, instead of running into ctest's timeout, which kills the program without a word. The
// programs a test started die with it (the harness's spawn asks for that). And the output is
// written a line at a time, so that what failed before a hang is not lost in a buffer.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

class Watchdog {
  public:
    static Watchdog& get() {
        static Watchdog w;
        return w;
    }

    void started(std::string test_case) {
        std::lock_guard lock(mutex_);
        test_case_ = std::move(test_case);
        subcase_.clear();
        since_ = Clock::now();
        running_ = true;
        if (!thread_.joinable()) thread_ = std::thread([this] { watch(); });
    }
    void entered(std::string subcase) {
        std::lock_guard lock(mutex_);
        subcase_ = std::move(subcase);
    }
    void ended() {
        std::lock_guard lock(mutex_);
        running_ = false;
    }

    ~Watchdog() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

  private:
    Watchdog() {
        if (const char* s = std::getenv("FELT_TEST_CASE_SECONDS"); s && std::atoi(s) > 0)
            limit_ = std::chrono::seconds(std::atoi(s));
    }

    void watch() {
        std::unique_lock lock(mutex_);
        while (!done_) {
            wake_.wait_for(lock, std::chrono::seconds(1));
            if (!running_ || Clock::now() - since_ < limit_) continue;
            std::fprintf(stderr,
                         "\nwatchdog: the test case \"%s\"%s%s%s has run for %lld s, past its "
                         "limit (FELT_TEST_CASE_SECONDS): stopping the run\n",
                         test_case_.c_str(), subcase_.empty() ? "" : " (in the subcase \"",
                         subcase_.c_str(), subcase_.empty() ? "" : "\")",
                         static_cast<long long>(limit_.count()));
            std::fflush(nullptr);
            std::_Exit(3);
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
    std::chrono::seconds limit_{300};
    std::string test_case_, subcase_;
    Clock::time_point since_;
    bool running_ = false, done_ = false;
};

// What the watchdog hears of the run: each test case's start and end, and the subcases entered.
struct WatchdogListener : doctest::IReporter {
    explicit WatchdogListener(const doctest::ContextOptions&) {}

    void test_case_start(const doctest::TestCaseData& tc) override {
        Watchdog::get().started(tc.m_name);
    }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override { Watchdog::get().ended(); }
    void subcase_start(const doctest::SubcaseSignature& s) override {
        Watchdog::get().entered(s.m_name.c_str());
    }
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

REGISTER_LISTENER("watchdog", 1, WatchdogListener);

} // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    doctest::Context context(argc, argv);
    return context.run();
}
