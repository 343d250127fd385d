// feltd's settings: its flags, each with a FELT_* variable, and a TOML file (--config) whose keys
// are the flags' names. A flag wins over the environment, which wins over the file.
#pragma once

#include "config.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace felt::server {

// Declares every flag of feltd on `app`, each writing into `c`; --config writes `config_file`.
void add_settings(CLI::App& app, Config& c, std::string& config_file);

// Applies a TOML document to every option of `app` that neither the command line nor the
// environment set. `source` names the document in what is returned: what is wrong, if anything
// (a syntax error with its line, an unknown key, --config itself, a value that is neither a
// string nor a number, or one the flag refuses).
std::optional<std::string> apply_config_text(CLI::App& app, std::string_view text,
                                             const std::string& source);

// The same for the TOML file at `path`.
std::optional<std::string> apply_config_file(CLI::App& app, const std::string& path);

} // namespace felt::server
