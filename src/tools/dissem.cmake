# The `dissem` command-line tool: publish, subscribe, stats and peers over
# dissemd's local IPC socket, built on the C++ client library.
# Included from src/CMakeLists.txt, so paths are relative to this file.

# Connecting, progress lines and the stats/peers reports, shared with dissem-load.
add_library(dissem_cli_support STATIC ${CMAKE_CURRENT_LIST_DIR}/dissem_common.cpp
                                      ${CMAKE_CURRENT_LIST_DIR}/dissem_progress.cpp
                                      ${CMAKE_CURRENT_LIST_DIR}/dissem_stats.cpp
                                      ${CMAKE_CURRENT_LIST_DIR}/dissem_peers.cpp
                                      ${CMAKE_CURRENT_LIST_DIR}/dissem_peers_watch.cpp
                                      ${CMAKE_CURRENT_LIST_DIR}/top_view.cpp)
# stats_json and peers_json return nlohmann-json objects (core/json.h).
target_link_libraries(dissem_cli_support PUBLIC dissem_client fmt::fmt nlohmann_json::nlohmann_json)
target_compile_options(dissem_cli_support PRIVATE ${DISSEM_WARNINGS})

add_executable(dissem ${CMAKE_CURRENT_LIST_DIR}/dissem_main.cpp ${CMAKE_CURRENT_LIST_DIR}/dissem_transfer.cpp
                      ${CMAKE_CURRENT_LIST_DIR}/dissem_cache.cpp ${CMAKE_CURRENT_LIST_DIR}/dissem_keygen.cpp
                      ${CMAKE_CURRENT_LIST_DIR}/dissem_top.cpp)
# `dissem top` draws with ncurses (Debian libncurses-dev).
find_package(Curses REQUIRED)
target_include_directories(dissem PRIVATE ${CURSES_INCLUDE_DIRS})
target_link_libraries(dissem PRIVATE ${CURSES_LIBRARIES})
# dissem_daemon_config: `dissem keygen` writes key files with daemon/key_files.h;
# nlohmann-json: `dissem list --json`.
target_link_libraries(dissem PRIVATE dissem_cli_support dissem_daemon_config dissem_version nlohmann_json::nlohmann_json)
target_compile_options(dissem PRIVATE ${DISSEM_WARNINGS})

# The CLI integration tests (tests/integration/dissem_cli_test.cpp) run this
# binary from next to dissemd, so building the tests must build it too. The
# test target is defined later (tests/ is added after src/), hence deferred
# to the end of the top-level directory.
if(DISSEM_TESTS)
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL add_dependencies dissem_tests dissem)
endif()
