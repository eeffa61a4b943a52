// Controller plugins: the example plugin (controllers/plugin/example) loads
// and decides forwarding and deletion; plugins of another ABI major version
// or without its symbols are refused with the file named, one of a newer
// minor version loads. (Replication: plugin_replication_test.cpp.)
#include <gtest/gtest.h>

#include <string>

#include "controllers/controller_set.h"
#include "support/quiet_node_view.h"
#include "controllers/plugin/plugin_controllers.h"
#include "controllers/plugin/plugin_loader.h"

namespace dissem::controllers::controller_plugin_test {
namespace {

using dissem::testing::QuietView;

std::string load_error(const std::string& path, const std::string& params = "") {
  try {
    PluginInstance instance(PluginLibrary::open(path), params);
  } catch (const PluginError& e) {
    return e.what();
  }
  return "loaded";
}

TEST(ControllerPlugin, TheExampleForwardsByPriorityWithinItsHopLimit) {
  auto plugin = std::make_shared<PluginInstance>(PluginLibrary::open(DISSEM_EXAMPLE_PLUGIN),
                                                 "min_priority=2,hop_limit=3,delay_us=5000");
  EXPECT_STREQ(plugin->table().name, "priority-relay");
  PluginForwarding f(plugin);
  QuietView view;
  Random rng(1);
  MessageMeta urgent;
  urgent.id = MessageId{"alerts", 1, 1};
  urgent.total_length = 100;
  urgent.priority = 2;
  MessageMeta routine = urgent;
  routine.priority = 1;

  const auto d = f.on_new_fragment(ReceivedFragment{urgent, 0, 100, 0, false, 1, false}, view, 0, rng);
  EXPECT_TRUE(d.forward);
  EXPECT_GE(d.delay, 0);
  EXPECT_LT(d.delay, 5000);
  EXPECT_FALSE(f.on_new_fragment(ReceivedFragment{routine, 0, 100, 0, false, 1, false}, view, 0, rng).forward);
  EXPECT_FALSE(f.on_new_fragment(ReceivedFragment{urgent, 0, 100, 3, false, 1, false}, view, 0, rng).forward);
}

TEST(ControllerPlugin, TheExampleEvictsExpiredThenOthersLowPriorityLargestFirst) {
  auto plugin = std::make_shared<PluginInstance>(PluginLibrary::open(DISSEM_EXAMPLE_PLUGIN), "");
  PluginDeletion d(plugin);
  const Micros now = Micros{2000} * kSeconds;
  std::vector<MessageRecord> cache(4);
  for (std::size_t i = 0; i < cache.size(); ++i) cache[i].meta.id = MessageId{"g", 1, i + 1};
  cache[0].stored_bytes = 100;
  cache[0].meta.expiry_ms = 1'000'000;  // expired
  cache[1].stored_bytes = 300;
  cache[1].own = true;  // ours: last
  cache[2].stored_bytes = 200;
  cache[3].stored_bytes = 400;
  cache[3].meta.priority = 1;
  // 1000 held, quota 700: the expired one (100), then the largest of priority 0 not ours (200).
  EXPECT_EQ(d.select_victims(cache, 1000, 700, now), (std::vector<MessageId>{{"g", 1, 1}, {"g", 1, 3}}));
}

TEST(ControllerPlugin, SelectedByNameThroughTheSettings) {
  ControllerSettings s;
  s.plugin_path = DISSEM_EXAMPLE_PLUGIN;
  s.plugin_params = "min_priority=0";
  s.forwarding = "plugin";
  s.replication = "plugin";
  s.deletion = "plugin";
  auto set = make_controllers(s);
  EXPECT_EQ(set.forwarding->name(), "plugin");
  EXPECT_EQ(set.replication->name(), "plugin");
  EXPECT_TRUE(set.replication->active());
  EXPECT_EQ(set.deletion->name(), "plugin");

  // Each decision point set to "plugin" needs the library, and the library
  // needs what that decision point calls.
  ControllerSettings no_path;
  no_path.replication = "plugin";
  try {
    make_controllers(no_path);
    ADD_FAILURE() << "replication.name = plugin without plugin.path was accepted";
  } catch (const SettingsError& e) {
    EXPECT_STREQ(e.what(), "replication.name: \"plugin\" needs plugin.path, the shared library to load");
  }
  ControllerSettings forward_only;
  forward_only.plugin_path = DISSEM_PLUGIN_NEWER_MINOR;  // forward() only
  forward_only.replication = "plugin";
  try {
    make_controllers(forward_only);
    ADD_FAILURE() << "a plugin without on_contact() was made the replication controller";
  } catch (const PluginError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(DISSEM_PLUGIN_NEWER_MINOR), std::string::npos) << what;
    EXPECT_NE(what.find("replication.name is \"plugin\" but it has no on_contact() and on_summary()"),
              std::string::npos)
        << what;
  }
}

TEST(ControllerPlugin, AnotherMajorVersionIsRefusedNamingTheFileAndBothVersions) {
  const std::string expected = "this build expects ABI version " + std::to_string(DISSEM_PLUGIN_ABI_MAJOR) + ".x";
  const std::string other = load_error(DISSEM_PLUGIN_OTHER_MAJOR);
  EXPECT_NE(other.find(std::string("controller plugin ") + DISSEM_PLUGIN_OTHER_MAJOR + ": "), std::string::npos)
      << other;
  EXPECT_NE(other.find("ABI version " + std::to_string(DISSEM_PLUGIN_ABI_MAJOR + 1) + ".0, " + expected),
            std::string::npos)
      << other;

  // ABI 1 had the version in its entry point's name; it is still recognised.
  const std::string v1 = load_error(DISSEM_PLUGIN_ABI_1);
  EXPECT_NE(v1.find(DISSEM_PLUGIN_ABI_1), std::string::npos) << v1;
  EXPECT_NE(v1.find("ABI version 1 (it exports dissem_controller_plugin_v1), " + expected), std::string::npos) << v1;

  // Refused before any decision point could ask for it.
  ControllerSettings s;
  s.plugin_path = DISSEM_PLUGIN_OTHER_MAJOR;
  EXPECT_THROW(make_controllers(s), PluginError);
}

TEST(ControllerPlugin, ANewerMinorVersionLoadsAndItsAppendedMembersAreNotSeen) {
  const auto library = PluginLibrary::open(DISSEM_PLUGIN_NEWER_MINOR);
  EXPECT_EQ(library->abi().major, static_cast<std::uint32_t>(DISSEM_PLUGIN_ABI_MAJOR));
  EXPECT_EQ(library->abi().minor, static_cast<std::uint32_t>(DISSEM_PLUGIN_ABI_MINOR + 1));
  EXPECT_EQ(library->table().size, sizeof(dissem_controller_plugin_table));
  EXPECT_STREQ(library->table().name, "next-minor");
  EXPECT_EQ(library->table().on_summary, nullptr);
  PluginForwarding f(std::make_shared<PluginInstance>(library, ""));
  QuietView view;
  Random rng(1);
  MessageMeta m;
  m.id = MessageId{"g", 1, 1};
  m.total_length = 10;
  EXPECT_TRUE(f.on_new_fragment(ReceivedFragment{m, 0, 10, 0, false, 1, false}, view, 0, rng).forward);
}

TEST(ControllerPlugin, RefusalsNameTheFileAndTheReason) {
  const std::string missing = load_error("/nonexistent/libnothing.so");
  EXPECT_NE(missing.find("controller plugin /nonexistent/libnothing.so:"), std::string::npos) << missing;

  const std::string no_abi = load_error(DISSEM_PLUGIN_NO_ABI);
  EXPECT_NE(no_abi.find(DISSEM_PLUGIN_NO_ABI), std::string::npos) << no_abi;
  EXPECT_NE(no_abi.find("no ABI version symbol 'dissem_controller_plugin_abi'"), std::string::npos) << no_abi;

  const std::string params = load_error(DISSEM_EXAMPLE_PLUGIN, "min_priority=2,colour=1");
  EXPECT_NE(params.find(DISSEM_EXAMPLE_PLUGIN), std::string::npos) << params;
  EXPECT_NE(params.find("unknown parameter 'colour'"), std::string::npos) << params;
}

}  // namespace
}  // namespace dissem::controllers::controller_plugin_test
