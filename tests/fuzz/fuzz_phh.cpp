// libFuzzer: a PHH hand history (engine/poker/phh.h), replayed as one hand and as a .phhs file of
// many. Text that is not a hand the engine can play is an error, never a crash.
#include "poker/phh.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)felt::poker::replay_phh(text);
    felt::poker::Corpus corpus;
    felt::poker::replay_corpus(text, "fuzz", corpus);
    return 0;
}
