// Start-up waits for interfaces that are not ready yet (daemon/interface_wait.h),
// with a probe standing in for the kernel's answers.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <string>

#include "daemon/interface_wait.h"
#include "net/interface_info.h"

using namespace dissem::daemon;
using namespace std::chrono_literals;

namespace interface_wait_test {
namespace {

NetSection with(std::vector<std::string> interfaces, std::uint32_t wait_s) {
  NetSection net;
  net.interfaces = std::move(interfaces);
  net.interface_wait_s = wait_s;
  return net;
}

std::string thrown_by(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(InterfaceWait, ReturnsOnceEveryInterfaceIsReady) {
  std::map<std::string, int> checks;
  const ReadinessProbe probe = [&](const std::string& name, bool) -> std::string {
    // eth0 at once; wlan0 after three checks (a tentative address).
    return name == "wlan0" && ++checks[name] <= 3 ? "its link-local address is still tentative" : "";
  };
  wait_for_interfaces(with({"eth0", "wlan0"}, 10), probe, 1ms);
  EXPECT_EQ(checks["wlan0"], 4);
}

TEST(InterfaceWait, WithoutAWaitTheFirstAnswerIsTheError) {
  int checks = 0;
  const ReadinessProbe probe = [&](const std::string&, bool) -> std::string {
    ++checks;
    return "network interface 'radio0' not found";
  };
  EXPECT_EQ(thrown_by([&] { wait_for_interfaces(with({"radio0"}, 0), probe, 1ms); }),
            "network interface 'radio0' not found");
  EXPECT_EQ(checks, 1);
}

TEST(InterfaceWait, AnInterfaceStillNotReadyAtTheEndNamesItsReasonAndTheKey) {
  int checks = 0;
  const ReadinessProbe probe = [&](const std::string&, bool) -> std::string {
    ++checks;
    return "not found";
  };
  const std::string error = thrown_by([&] { wait_for_interfaces(with({"radio0"}, 1), probe, 100ms); });
  EXPECT_EQ(error, "interface 'radio0' is still not ready after 1 s (net.interface_wait_s): not found");
  EXPECT_GE(checks, 2);
  EXPECT_LE(checks, 11) << "bounded by the wait over the poll, plus the first";
}

TEST(InterfaceWait, TheProbeAsksForIpv6OnlyWhereTheInterfaceUsesAnIpv6Group) {
  NetSection net = with({"eth0", "wlan0"}, 0);
  net.interface_links["wlan0"].group = "ff02::4242";
  std::map<std::string, bool> asked;
  wait_for_interfaces(net, [&](const std::string& name, bool ipv6) -> std::string {
    asked[name] = ipv6;
    return "";
  });
  EXPECT_FALSE(asked.at("eth0"));
  EXPECT_TRUE(asked.at("wlan0"));
}

TEST(InterfaceWait, TheKernelProbeFindsLoopbackReadyAndAMissingInterfaceNot) {
  EXPECT_EQ(dissem::net::interface_not_ready("lo", false), "");
  const std::string missing = dissem::net::interface_not_ready("dissem-none0", false);
  EXPECT_NE(missing.find("'dissem-none0' not found"), std::string::npos) << missing;
  EXPECT_NE(dissem::net::interface_not_ready("dissem-none0", true).find("not found"), std::string::npos);
}

}  // namespace interface_wait_test
