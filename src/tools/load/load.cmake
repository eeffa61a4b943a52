# dissem-load: the publisher and receiver of emulated experiments (emulation/).
# Included from src/CMakeLists.txt, so paths are relative to this file.
# dissem_load_payload is the workload (plans, schedule, stamped payloads) and
# the JSON records of what was sent and received; the TCP baseline
# (emulation/baselines/tcp) links it too, so both measure alike.
add_library(dissem_load_payload STATIC ${CMAKE_CURRENT_LIST_DIR}/stamped_payload.cpp
                                       ${CMAKE_CURRENT_LIST_DIR}/message_plan.cpp
                                       ${CMAKE_CURRENT_LIST_DIR}/workload.cpp
                                       ${CMAKE_CURRENT_LIST_DIR}/publication_log.cpp
                                       ${CMAKE_CURRENT_LIST_DIR}/reception_log.cpp)
target_include_directories(dissem_load_payload PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(dissem_load_payload PUBLIC dissem_config fmt::fmt nlohmann_json::nlohmann_json)
target_compile_options(dissem_load_payload PRIVATE ${DISSEM_WARNINGS})

# dissem-load's command line, defined once: dissem-load and dissem-sim (which
# reads a scenario's dissem-load commands) both parse with it.
add_library(dissem_load_options STATIC ${CMAKE_CURRENT_LIST_DIR}/load_options.cpp)
target_link_libraries(dissem_load_options PUBLIC dissem_load_payload)
target_compile_options(dissem_load_options PRIVATE ${DISSEM_WARNINGS})

add_executable(dissem-load ${CMAKE_CURRENT_LIST_DIR}/dissem_load_main.cpp
                           ${CMAKE_CURRENT_LIST_DIR}/load_publisher.cpp
                           ${CMAKE_CURRENT_LIST_DIR}/load_receiver.cpp)
target_link_libraries(dissem-load PRIVATE dissem_load_options dissem_cli_support dissem_version nlohmann_json::nlohmann_json)
target_compile_options(dissem-load PRIVATE ${DISSEM_WARNINGS})
