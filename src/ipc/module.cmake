# Local IPC: frame codec, stats/peer conversion and the Unix socket server
# (boost.asio, header-only) that dissemd exposes to applications.
# Included from src/CMakeLists.txt, so paths are relative to this file.

find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED)  # headers only: asio needs no compiled Boost library

file(GLOB IPC_SRCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_library(dissem_ipc STATIC ${IPC_SRCS})
target_include_directories(dissem_ipc PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(dissem_ipc PUBLIC dissem_engine dissem_ipc_proto Boost::headers Threads::Threads
                                 nlohmann_json::nlohmann_json)
target_compile_options(dissem_ipc PRIVATE ${DISSEM_WARNINGS})
