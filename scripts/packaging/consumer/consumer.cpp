// An application of the installed client library: subscribes to a group on
// the dissemd whose socket it is given, publishes a message there and reads
// it back byte for byte. Exit 0 when it arrived intact.
#include <client/client.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: dissem-consumer SOCKET\n");
    return 2;
  }
  try {
    dissem::client::Client client(argv[1]);
    client.subscribe("package-test");
    std::vector<std::uint8_t> payload(5000);
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 7 + 3);
    client.publish("package-test", payload);
    const auto delivery = client.next_delivery(std::chrono::seconds(20));
    if (!delivery || delivery->payload != payload) {
      std::fprintf(stderr, "dissem-consumer: the message did not come back intact\n");
      return 1;
    }
    std::printf("dissem-consumer: %zu bytes published and delivered through libdissem-client\n", payload.size());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissem-consumer: %s\n", e.what());
    return 1;
  }
}
