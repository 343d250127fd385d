// The static folder's path rules and opening, on a folder made here with files, symlinks and a
// hard link around it.
#include "net/static_files.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using felt::server::is_hidden;
using felt::server::open_static;
using felt::server::static_relative_path;

TEST_CASE("static files: request paths are decoded, and anything but a plain path is refused") {
    struct Case {
        const char* target;
        const char* relative; // nullptr: refused
    };
    const Case cases[] = {
        {"/", "index.html"},
        {"/?v=3", "index.html"},
        {"/app.js", "app.js"},
        {"/img/card%20back.png", "img/card back.png"},
        {"/img/", "img/index.html"},
        {"/%61pp.js?x=/../..", "app.js"},
        {"/caf%C3%A9.html", "caf\xC3\xA9.html"},
        // Absolute paths, in every spelling: the root joined with one is the absolute path.
        {"//etc/passwd", nullptr},
        {"///etc/passwd", nullptr},
        {"/%2Fetc/passwd", nullptr},
        {"/%2fetc%2fpasswd", nullptr},
        {"/a//b", nullptr},
        {"/a/%2F/b", nullptr},
        {"/img//", nullptr},
        {"etc/passwd", nullptr},
        {"http://127.0.0.1/etc/passwd", nullptr},
        {"*", nullptr},
        {"", nullptr},
        // Dot segments, plain and encoded.
        {"/..", nullptr},
        {"/../etc/passwd", nullptr},
        {"/a/../../etc/passwd", nullptr},
        {"/%2e%2e/etc/passwd", nullptr},
        {"/%2E%2E%2Fetc%2Fpasswd", nullptr},
        {"/.%2e/x", nullptr},
        {"/./app.js", nullptr},
        {"/a/.", nullptr},
        // Bytes no file name here has, and broken escapes.
        {"/a\\..\\..\\etc\\passwd", nullptr},
        {"/a%5C..%5Cb", nullptr},
        {"/a%00.html", nullptr},
        {"/a%0a.html", nullptr},
        {"/a%", nullptr},
        {"/a%2", nullptr},
        {"/a%zz", nullptr},
        {"/a%%32%66b", nullptr},
    };
    for (const Case& c : cases) {
        CAPTURE(c.target);
        const auto got = static_relative_path(c.target);
        if (c.relative == nullptr) {
            CHECK_FALSE(got.has_value());
        } else {
            REQUIRE(got.has_value());
            CHECK(*got == c.relative);
        }
    }
    CHECK(is_hidden(".env"));
    CHECK(is_hidden(".git/config"));
    CHECK(is_hidden("img/.secret"));
    CHECK_FALSE(is_hidden("img/x.y.png"));
    CHECK_FALSE(is_hidden("index.html"));
}

TEST_CASE("static files: only regular files inside the root open; symlinks out, folders and "
          "guarded files do not") {
    char tmpl[] = "/tmp/felt_static_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const fs::path dir = tmpl, root = dir / "web";
    fs::create_directories(root / "sub");
    std::ofstream(root / "index.html") << "index";
    std::ofstream(root / "sub" / "page.html") << "page";
    std::ofstream(dir / "secret.txt") << "secret";
    std::ofstream(dir / "felt.db") << "database";
    fs::create_symlink("sub/page.html", root / "inside");    // stays in: served
    fs::create_symlink("../secret.txt", root / "out");       // leaves: refused
    fs::create_symlink(dir, root / "up");                    // a folder outside
    fs::create_symlink("/etc/passwd", root / "passwd");      // absolute
    fs::create_symlink("../felt.db", root / "db");           // the database, outside
    fs::create_hard_link(dir / "felt.db", root / "copy.db"); // the database, inside
    fs::create_symlink(root / "sub", root / "alias");        // a folder inside, absolute
    const std::vector<fs::path> guarded = felt::server::database_files((dir / "felt.db").string());

    auto read = [&](const std::string& relative) -> std::optional<std::string> {
        boost::beast::file file;
        if (!open_static(root, relative, guarded, file)) return std::nullopt;
        boost::beast::error_code ec;
        std::string text(static_cast<std::size_t>(file.size(ec)), '\0');
        file.read(text.data(), text.size(), ec);
        REQUIRE_FALSE(ec);
        return text;
    };
    CHECK(read("index.html") == "index");
    CHECK(read("sub/page.html") == "page");
    CHECK(read("inside") == "page");
    CHECK(read("alias/page.html") == "page");
    std::ofstream(root / ".env") << "hidden";
    for (const char* refused : {"out", "up/secret.txt", "passwd", "db", "copy.db", "sub", "",
                                ".env", "missing.html", "/etc/passwd", "../secret.txt"}) {
        CAPTURE(refused);
        CHECK_FALSE(read(refused).has_value());
    }
    // A root that is missing opens nothing.
    boost::beast::file file;
    CHECK_FALSE(open_static(dir / "none", "index.html", guarded, file));
    fs::remove_all(dir);
}
