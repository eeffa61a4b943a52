# UDP transport (boost.asio, header-only) and interface discovery for dissemd.
# Included from src/CMakeLists.txt, so paths are relative to this file.

find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED)  # headers only: asio needs no compiled Boost library

file(GLOB NET_SRCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_library(dissem_net STATIC ${NET_SRCS})
target_include_directories(dissem_net PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
# Sockets only: net includes nothing of the engine's (scripts/check_layers.py).
target_link_libraries(dissem_net PUBLIC Boost::headers Threads::Threads)
target_compile_options(dissem_net PRIVATE ${DISSEM_WARNINGS})
