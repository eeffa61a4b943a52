// dissem-norm-gateway: bridges one NORM session and one dissem group, both
// ways, without loops (docs/norm-gateway.md).
//
//   dissem-norm-gateway --config /etc/dissem/norm-gateway.toml
//   dissem-norm-gateway --set dissem.group=news --set norm.interface=eth0 --print-config
//
// Exit codes: 0 stopped by SIGTERM or SIGINT; 1 NORM could not start;
// 2 bad arguments or configuration (the message names the key).
#include <CLI/CLI.hpp>
#include <sodium.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "core/version.h"
#include "tools/norm_gateway/gateway.h"
#include "tools/norm_gateway/gateway_config.h"

namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop.store(true); }

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a vanished dissemd is an error on the socket, not a signal
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dissem::norm_gateway;
  CLI::App app{"dissem-norm-gateway: bridges a NORM session and a dissem group both ways", "dissem-norm-gateway"};
  app.set_version_flag("--version", dissem::version_line("dissem-norm-gateway"), "print the version and exit");
  app.footer("Precedence, later winning: defaults, --config, then each --set in order.\n"
             "Keys: gateway.*, dissem.*, norm.*, bridge.* (--print-config lists them all;\n"
             "norm-gateway.example.toml explains each: docs/ in the sources, share/doc/dissem/examples/ when\n"
             "installed).");
  std::string config_file;
  std::vector<std::string> assignments;
  bool print_config = false;
  app.add_option("--config", config_file, "TOML configuration file")->type_name("FILE");
  app.add_option("--set", assignments, "section.key=value, e.g. dissem.group=news (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app.add_flag("--print-config", print_config, "print the effective configuration as TOML and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  GatewayConfig config;
  try {
    if (!config_file.empty()) apply_toml_file(config, config_file);
    for (const std::string& a : assignments) apply_assignment(config, a);
    if (print_config) {
      std::fputs(to_toml(config).c_str(), stdout);
      return 0;
    }
    validate(config);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "dissem-norm-gateway: %s\n", e.what());
    return 2;
  }
  if (sodium_init() < 0) {
    std::fprintf(stderr, "dissem-norm-gateway: libsodium failed to start\n");
    return 1;
  }
  install_stop_handlers();
  try {
    Gateway gateway(config);
    return gateway.run(g_stop);
  } catch (const NormError& e) {
    std::fprintf(stderr, "dissem-norm-gateway: %s\n", e.what());
    return 1;
  }
}
