// libFuzzer: `felt chinese settle`'s document. Anything wrong with it is a UsageError naming the
// problem, never a crash nor another exception. A document that settles conserves chips: the
// nets and the rake add up to nothing, each final stack is the stack plus its net, none is
// negative, and what was paid accounts for every net: the pairs' settlements (edition 2), or the
// payments themselves (edition 1).
#include "chinese_settle.h"
#include "cli.h"
#include "fuzz_bytes.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using json = nlohmann::ordered_json;
    using felt::fuzz::check;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    json out;
    try {
        out = felt::cli::settle_document(text);
    } catch (const felt::cli::UsageError& e) {
        check(!e.message.empty());
        return 0;
    }
    // It settled, so the document is well formed: its players, by name.
    const json doc = json::parse(text);
    std::map<std::string, std::int64_t> stacks;
    for (const json& p : doc["players"]) stacks[p["name"].get<std::string>()] = p["stack"];
    if (stacks.size() != doc["players"].size()) return 0; // a name twice: the output merges them
    std::int64_t total = 0;
    std::map<std::string, std::int64_t> paid;
    const bool netted = doc.value("options", json::object()).value("edition", 2) != 1;
    for (const json& pay : netted ? out["settled"] : out["payments"]) {
        const std::int64_t chips = pay["chips"];
        check(chips >= 0);
        paid[pay["from"].get<std::string>()] -= chips;
        paid[pay["to"].get<std::string>()] += chips;
    }
    for (const auto& [name, stack] : stacks) {
        const std::int64_t net = out["net"][name], rake = out["rake"][name];
        const std::int64_t final_stack = out["final_stacks"][name];
        check(final_stack == stack + net && final_stack >= 0 && rake >= 0);
        check(net == paid[name] - rake);
        total += net + rake;
    }
    check(total == 0);
    return 0;
}
