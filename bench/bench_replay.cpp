// Speed of `felt replay` over many hands: the hands of one .phhs file (default: the tests'
// online_sample.phhs), repeated and renumbered until N hands (default 1,000,000) are replayed,
// 10,000 to a text, each text parsed and replayed as `felt replay` does (replay_corpus). Prints
// hands per second and the time a million hands take; asserts nothing (tests do that).
//
//   bench_replay [--file PATH.phhs] [--hands N]
#include "poker/phh.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::string path = FELT_SOURCE_DIR "/tests/phh/online_sample.phhs";
    long hands = 1'000'000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--file")) path = argv[i + 1];
        if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "bench_replay: cannot read %s\n", path.c_str());
        return 2;
    }
    std::ostringstream whole;
    whole << in.rdbuf();
    // The file's hands: the text after each header line.
    std::vector<std::string> bodies;
    {
        const std::string text = whole.str();
        std::size_t at = text.find("\n[");
        at = text.rfind('[', 0) == 0 ? 0 : at == std::string::npos ? at : at + 1;
        while (at != std::string::npos) {
            const std::size_t body = text.find('\n', at) + 1;
            std::size_t next = text.find("\n[", body);
            bodies.push_back(text.substr(body, next == std::string::npos ? next : next + 1 - body));
            at = next == std::string::npos ? next : next + 1;
        }
    }
    if (bodies.empty()) {
        std::fprintf(stderr, "bench_replay: %s holds no [N] hands\n", path.c_str());
        return 2;
    }
    felt::poker::Corpus c;
    double seconds = 0;
    long made = 0;
    while (made < hands) {
        std::string chunk;
        for (long i = 0; i < 10'000 && made < hands; ++i, ++made) {
            chunk += '[';
            chunk += std::to_string(made + 1);
            chunk += "]\n";
            chunk += bodies[static_cast<std::size_t>(made) % bodies.size()];
        }
        const auto t0 = std::chrono::steady_clock::now();
        felt::poker::replay_corpus(chunk, "bench", c);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    std::printf("%s: %zu distinct hands, %ld replayed in %.2f s\n", path.c_str(), bodies.size(),
                c.hands, seconds);
    std::printf("  %ld replayed, %ld failed, %ld undecided, %ld winnings mismatches\n", c.replayed,
                c.failed, c.undecided, c.winnings_mismatches);
    std::printf("  %.0f hands per second: a million hands in %.0f s\n",
                static_cast<double>(c.hands) / seconds,
                1e6 * seconds / static_cast<double>(c.hands));
    return 0;
}
