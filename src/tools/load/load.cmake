# dissem-load: the publisher and receiver of emulated experiments (emulation/).
# Included from src/CMakeLists.txt, so paths are relative to this file.
add_library(dissem_load_payload STATIC ${CMAKE_CURRENT_LIST_DIR}/stamped_payload.cpp
                                       ${CMAKE_CURRENT_LIST_DIR}/message_plan.cpp)
target_include_directories(dissem_load_payload PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_compile_options(dissem_load_payload PRIVATE ${DISSEM_WARNINGS})

add_executable(dissem-load ${CMAKE_CURRENT_LIST_DIR}/dissem_load_main.cpp)
target_link_libraries(dissem-load PRIVATE dissem_load_payload dissem_cli_support)
target_compile_options(dissem-load PRIVATE ${DISSEM_WARNINGS})
