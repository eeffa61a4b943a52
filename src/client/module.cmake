# Blocking C++ client library for dissemd's local IPC socket (used by the
# `dissem` CLI). Shares the frame codec and conversions with dissem_ipc.
# Included from src/CMakeLists.txt, so paths are relative to this file.

file(GLOB CLIENT_SRCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_library(dissem_client STATIC ${CLIENT_SRCS})
target_include_directories(dissem_client PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(dissem_client PUBLIC dissem_ipc dissem_ipc_proto)
target_compile_options(dissem_client PRIVATE ${DISSEM_WARNINGS})

# libdissem-client.so, the client that `cmake --install` and the package ship
# (find_package(dissem) gives dissem::client; src/install.cmake): the same
# sources, with the IPC framing, the conversions and the generated ipc.pb code
# they need, compiled position-independent into one shared library that
# depends on libprotobuf alone. The programs keep linking the static one.
add_library(dissem_client_shared SHARED ${CLIENT_SRCS} ${CMAKE_CURRENT_LIST_DIR}/../ipc/convert.cpp
                                        ${CMAKE_CURRENT_LIST_DIR}/../ipc/convert_links.cpp
                                        ${CMAKE_CURRENT_LIST_DIR}/../ipc/framing.cpp)
set_target_properties(dissem_client_shared PROPERTIES OUTPUT_NAME dissem-client VERSION ${PROJECT_VERSION}
                                                      SOVERSION ${PROJECT_VERSION_MAJOR})
set_target_properties(dissem_ipc_proto PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(dissem_client_shared PRIVATE ${CMAKE_CURRENT_LIST_DIR}/.. ${PROJECT_SOURCE_DIR})
target_link_libraries(dissem_client_shared PRIVATE dissem_ipc_proto protobuf::libprotobuf)
target_compile_options(dissem_client_shared PRIVATE ${DISSEM_WARNINGS})
# Every symbol it needs is in it or in libprotobuf (sanitised builds leave the
# sanitiser runtime's symbols to the executable, so the check is off there).
if(NOT DISSEM_SANITIZE AND NOT DISSEM_FUZZ)
  target_link_options(dissem_client_shared PRIVATE -Wl,--no-undefined)
endif()
