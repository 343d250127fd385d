// `felt open-face`: settle a hand from a JSON document, solve a Fantasyland hand.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace felt::cli {

// The settlement of an open-face document (the README's "felt open-face settle"): payments,
// settled, points, net, rake, final_stacks, fouled, royalties and fantasyland, by player name.
// Anything wrong with the document throws UsageError naming it.
nlohmann::ordered_json openface_settle_document(std::string_view text);

// Both subcommands, added to `app`; run() runs the one chosen (-1: neither was).
class OpenFaceCommand {
  public:
    void add_to(CLI::App& app);
    int run() const;

  private:
    CLI::App* settle_ = nullptr;
    CLI::App* fantasyland_ = nullptr;
    bool settle_json_ = false;
    std::vector<std::string> cards_;
    std::vector<std::string> against_;
    bool progressive_ = false, strict_ = false, json_ = false;
    int stay_value_ = -1;
};

} // namespace felt::cli
