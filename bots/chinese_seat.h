// A seat bot at a feltd Chinese poker table: the table's configuration from its snapshot, and at
// each deal its thirteen cards split by choose_chinese (bots/chinese_bot.h) at its level, with a
// special hand declared, or a surrender where the table allows one and that pays more.
#pragma once

#include "chinese/chinese.h"
#include "seat_bot.h"

#include <string>

namespace felt::bots {

class ChineseSeat final : public SeatBot {
  public:
    explicit ChineseSeat(Profile profile) : profile_(profile) {}

    int seat() const override { return seat_; }
    void set_seat(int seat) override { seat_ = seat; }

  private:
    std::optional<nlohmann::json> read(const nlohmann::json& m) override;

    Profile profile_;
    int seat_ = -1;
    std::string rules_ = "classic"; // the table's profile
    chinese::SplitRules split_rules_;
    bool surrender_ = false; // the table allows it
};

} // namespace felt::bots
