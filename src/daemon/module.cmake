# dissemd's configuration: key table, TOML file, command line.
# Included from src/CMakeLists.txt, so paths are relative to this file.
# toml++ (found in src/CMakeLists.txt, for the engine's TOML reader) and
# CLI11 are used header-only (Debian: libtomlplusplus-dev, libcli11-dev);
# fail at configure time, not mid-build, if they are missing.

find_path(DISSEM_CLI11_INCLUDE CLI/CLI.hpp REQUIRED)

# Listed, not globbed: the daemon's other sources will live in this folder.
set(DAEMON_CONFIG_SRCS
    ${CMAKE_CURRENT_LIST_DIR}/daemon_config.cpp
    ${CMAKE_CURRENT_LIST_DIR}/daemon_keys.cpp
    ${CMAKE_CURRENT_LIST_DIR}/key_files.cpp
    ${CMAKE_CURRENT_LIST_DIR}/key_files_write.cpp
    ${CMAKE_CURRENT_LIST_DIR}/config_toml.cpp
    ${CMAKE_CURRENT_LIST_DIR}/daemon_args.cpp
    ${CMAKE_CURRENT_LIST_DIR}/listen_address.cpp
    ${CMAKE_CURRENT_LIST_DIR}/config_reload.cpp
    ${CMAKE_CURRENT_LIST_DIR}/interface_keys.cpp)
add_library(dissem_daemon_config STATIC ${DAEMON_CONFIG_SRCS})
target_include_directories(dissem_daemon_config PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_include_directories(dissem_daemon_config PRIVATE ${DISSEM_TOMLPP_INCLUDE} ${DISSEM_CLI11_INCLUDE})
target_link_libraries(dissem_daemon_config PUBLIC dissem_core dissem_engine dissem_ipc)
target_compile_options(dissem_daemon_config PRIVATE ${DISSEM_WARNINGS})
target_link_libraries(dissem_daemon_config PRIVATE dissem_version)
