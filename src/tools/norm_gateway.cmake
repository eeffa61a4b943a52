# dissem-norm-gateway: bridges a NORM session (Debian libnorm-dev) and a
# dissem group both ways (docs/norm-gateway.md). Included from
# src/CMakeLists.txt, so paths are relative to this file.
find_path(DISSEM_GATEWAY_NORM_INCLUDE normApi.h REQUIRED)
find_library(DISSEM_GATEWAY_NORM_LIBRARY norm REQUIRED)

# The bridging rules and the configuration, without NORM or a socket: what
# the unit tests link.
add_library(dissem_norm_gateway_core STATIC ${CMAKE_CURRENT_LIST_DIR}/norm_gateway/bridge_origin.cpp
                                            ${CMAKE_CURRENT_LIST_DIR}/norm_gateway/bridge_policy.cpp
                                            ${CMAKE_CURRENT_LIST_DIR}/norm_gateway/gateway_config.cpp)
target_include_directories(dissem_norm_gateway_core PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_include_directories(dissem_norm_gateway_core PRIVATE ${DISSEM_TOMLPP_INCLUDE})
target_link_libraries(dissem_norm_gateway_core PUBLIC dissem_engine)
target_compile_options(dissem_norm_gateway_core PRIVATE ${DISSEM_WARNINGS})

add_executable(dissem-norm-gateway ${CMAKE_CURRENT_LIST_DIR}/norm_gateway/norm_gateway_main.cpp
                                   ${CMAKE_CURRENT_LIST_DIR}/norm_gateway/gateway.cpp
                                   ${CMAKE_CURRENT_LIST_DIR}/norm_gateway/norm_endpoint.cpp)
# normApi.h is third-party C: a SYSTEM header, so that warnings-as-errors
# judge only our code.
target_include_directories(dissem-norm-gateway SYSTEM PRIVATE ${DISSEM_GATEWAY_NORM_INCLUDE} ${DISSEM_CLI11_INCLUDE})
target_link_libraries(dissem-norm-gateway PRIVATE dissem_norm_gateway_core dissem_client ${DISSEM_GATEWAY_NORM_LIBRARY}
                                                  fmt::fmt nlohmann_json::nlohmann_json dissem_version)
target_compile_options(dissem-norm-gateway PRIVATE ${DISSEM_WARNINGS})
