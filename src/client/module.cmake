# Blocking C++ client library for dissemd's local IPC socket (used by the
# `dissem` CLI). Shares the frame codec and conversions with dissem_ipc.
# Included from src/CMakeLists.txt, so paths are relative to this file.

file(GLOB CLIENT_SRCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_library(dissem_client STATIC ${CLIENT_SRCS})
target_include_directories(dissem_client PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(dissem_client PUBLIC dissem_ipc dissem_ipc_proto)
target_compile_options(dissem_client PRIVATE ${DISSEM_WARNINGS})
