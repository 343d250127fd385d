// Integration: a real feltd on a free loopback port, driven through its WebSocket protocol and
// HTTP endpoints by a Beast client, as a bot would.
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using json = nlohmann::json;

namespace {

// feltd in a folder of its own, started with --port 0 and waited for until it listens.
class Feltd {
  public:
    explicit Feltd(std::vector<std::string> extra = {}, std::string dir = "") {
        if (dir.empty()) {
            char tmpl[] = "/tmp/feltd_test_XXXXXX";
            REQUIRE(mkdtemp(tmpl) != nullptr);
            dir = tmpl;
            owns_dir_ = true;
        }
        dir_ = dir;
        start(std::move(extra));
    }
    ~Feltd() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        if (owns_dir_) std::filesystem::remove_all(dir_);
    }

    void start(std::vector<std::string> extra) {
        const std::string port_file = dir_ + "/port";
        std::filesystem::remove(port_file);
        std::vector<std::string> args = {FELTD_PATH,
                                         "--port",
                                         "0",
                                         "--port-file",
                                         port_file,
                                         "--db",
                                         dir_ + "/data/felt.db",
                                         "--log-level",
                                         "warn",
                                         "--static",
                                         dir_ + "/web",
                                         "--grace",
                                         "5"};
        args.insert(args.end(), extra.begin(), extra.end());
        pid_ = fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(argv[0], argv.data());
            _exit(127);
        }
        for (int i = 0; i < 200; ++i) { // up to 10 s: the sanitizer build starts slowly
            std::ifstream in(port_file);
            int p = 0;
            if (in >> p && p > 0) {
                port_ = static_cast<unsigned short>(p);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL("feltd did not start");
    }

    // Sends a signal and waits for the exit status (-1 if it did not exit normally).
    int stop(int sig) {
        ::kill(pid_, sig);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    unsigned short port() const { return port_; }
    const std::string& dir() const { return dir_; }

  private:
    std::string dir_;
    bool owns_dir_ = false;
    pid_t pid_ = -1;
    unsigned short port_ = 0;
};

struct HttpReply {
    int status = 0;
    std::string body;
};

HttpReply http_get(unsigned short port, const std::string& target) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    return {static_cast<int>(res.result_int()), res.body()};
}

// A WebSocket client speaking JSON.
class Client {
  public:
    explicit Client(unsigned short port) : ws_(ioc_) {
        ws_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
        ws_.handshake("127.0.0.1", "/ws");
    }
    void send(const std::string& text) { ws_.write(net::buffer(text)); }
    void send(const json& j) { send(j.dump()); }
    // The next message, or nothing when the server closed the connection.
    std::optional<json> read() {
        beast::flat_buffer buf;
        beast::error_code ec;
        ws_.read(buf, ec);
        if (ec) return std::nullopt;
        return json::parse(beast::buffers_to_string(buf.data()));
    }
    json call(json req) {
        req["id"] = ++id_;
        send(req);
        auto r = read();
        REQUIRE(r.has_value());
        CHECK((*r)["id"] == id_);
        return *r;
    }
    void hello() { REQUIRE(call({{"type", "hello"}, {"version", 1}})["ok"] == true); }
    websocket::stream<tcp::socket>& ws() { return ws_; }

  private:
    net::io_context ioc_;
    websocket::stream<tcp::socket> ws_;
    int id_ = 0;
};

int metric(unsigned short port, const std::string& name) {
    const std::string body = http_get(port, "/metrics").body;
    auto at = body.find("\n" + name + " ");
    REQUIRE(at != std::string::npos);
    return std::stoi(body.substr(at + name.size() + 2));
}

} // namespace

TEST_CASE("feltd: health, metrics, static files") {
    Feltd d;
    CHECK(http_get(d.port(), "/healthz").status == 200);
    auto page = http_get(d.port(), "/");
    CHECK(page.status == 200);
    CHECK(page.body.find("feltd") != std::string::npos); // the placeholder
    CHECK(http_get(d.port(), "/nothing.js").status == 404);
    CHECK(http_get(d.port(), "/a/../../etc/passwd").status == 400);
    CHECK(http_get(d.port(), "/api/nothing").status == 404);
    std::filesystem::create_directories(d.dir() + "/web");
    std::ofstream(d.dir() + "/web/index.html") << "<p>client</p>";
    CHECK(http_get(d.port(), "/").body == "<p>client</p>");
    CHECK(metric(d.port(), "felt_connections") == 0);
    Client c(d.port());
    c.hello();
    CHECK(metric(d.port(), "felt_connections") == 1);
    CHECK(http_get(d.port(), "/metrics").body.find("felt_request_latency_seconds_bucket") !=
          std::string::npos);
}

TEST_CASE("feltd: accounts over the protocol") {
    Feltd d;
    Client c(d.port());
    auto early = c.call({{"type", "ping"}});
    CHECK(early["code"] == "hello_first");
    CHECK(c.call({{"type", "hello"}, {"version", 99}})["code"] == "unsupported_version");
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

TEST_CASE("feltd: bad messages get errors, the connection and the server live on") {
    Feltd d;
    Client c(d.port());
    c.hello();
    c.send(std::string("{not json"));
    CHECK((*c.read())["code"] == "malformed");
    c.send(std::string("[1,2]"));
    CHECK((*c.read())["code"] == "malformed");
    c.send(json{{"type", "ping"}}); // no id
    CHECK((*c.read())["code"] == "bad_request");
    c.send(json{{"type", 7}, {"id", 1}});
    CHECK((*c.read())["code"] == "bad_request");
    CHECK(c.call({{"type", "shuffle_deck"}})["code"] == "unknown_type");
    CHECK(c.call({{"type", "login"}, {"name", 5}, {"password", "x"}})["code"] == "bad_request");
    CHECK(c.call({{"type", "resume"}})["code"] == "bad_request");
    c.ws().binary(true);
    c.ws().write(net::buffer(std::string("\x01\x02", 2)));
    c.ws().binary(false);
    CHECK((*c.read())["code"] == "malformed");
    CHECK(c.call({{"type", "ping"}})["ok"] == true); // still connected, still served
}

TEST_CASE("feltd: abuse closes the connection, not the server") {
    Feltd d({"--max-frame", "4096", "--rate", "20", "--burst", "10"});
    SUBCASE("a frame over the limit") {
        Client c(d.port());
        c.hello();
        c.send(std::string(5000, ' '));
        CHECK_FALSE(c.read().has_value());
    }
    SUBCASE("not JSON, again and again") {
        Client c(d.port());
        for (int i = 0; i < 9; ++i) {
            c.send(std::string("nope"));
            CHECK((*c.read())["code"] == "malformed");
        }
        c.send(std::string("nope"));
        CHECK_FALSE(c.read().has_value());
    }
    SUBCASE("a flood past the rate limit") {
        Client c(d.port());
        for (int i = 0; i < 40; ++i) c.send(json{{"type", "ping"}, {"id", i}});
        int limited = 0;
        std::optional<json> m;
        while ((m = c.read()))
            if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") ++limited;
        CHECK(limited >= 10); // told, then closed
    }
    Client after(d.port());
    after.hello();
    CHECK(after.call({{"type", "ping"}})["ok"] == true);
    CHECK(http_get(d.port(), "/healthz").status == 200);
}

TEST_CASE("feltd: connections per address are limited") {
    Feltd d({"--per-address", "2"});
    Client a(d.port()), b(d.port());
    CHECK_THROWS(Client(d.port()));
    a.hello();
    CHECK(a.call({{"type", "ping"}})["ok"] == true);
}

TEST_CASE("feltd: SIGTERM closes connections and exits 0; data survives SIGKILL") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::string token;
    {
        Feltd d({}, dir);
        Client c(d.port());
        c.hello();
        token = c.call({{"type", "guest"}})["token"];
        CHECK(d.stop(SIGTERM) == 0);
        CHECK_FALSE(c.read().has_value()); // closed by the server
    }
    {
        Feltd d({}, dir);
        Client c(d.port());
        c.hello();
        CHECK(c.call({{"type", "resume"}, {"token", token}})["ok"] == true);
        d.stop(SIGKILL);
    }
    {
        Feltd d({}, dir);
        Client c(d.port());
        c.hello();
        CHECK(c.call({{"type", "resume"}, {"token", token}})["ok"] == true);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: settings from a config file and the environment") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::ofstream(dir + "/felt.toml") << "grant = 123\nper-address = 5\n";
    auto guest_balance = [&] {
        Feltd d({"--config", dir + "/felt.toml"}, dir);
        Client c(d.port());
        c.hello();
        return c.call({{"type", "guest"}})["account"]["balance"].get<int>();
    };
    CHECK(guest_balance() == 123);
    setenv("FELT_GRANT", "77", 1); // the environment wins over the file
    CHECK(guest_balance() == 77);
    unsetenv("FELT_GRANT");
    std::ofstream(dir + "/bad.toml") << "prot = 9000\n";
    {
        // A setting the server does not have: refused at start, naming it.
        pid_t pid = fork();
        if (pid == 0) {
            execl(FELTD_PATH, FELTD_PATH, "--config", (dir + "/bad.toml").c_str(), "--port", "0",
                  "--db", (dir + "/x.db").c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 2);
    }
    std::filesystem::remove_all(dir);
}
