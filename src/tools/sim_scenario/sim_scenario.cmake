# dissem-sim's reading of a scenario of the scenario language: the system's
# dissemd and dissem-load commands, parsed by their own command lines.
# Included from src/CMakeLists.txt after the daemon and dissem-load modules.
file(GLOB SIM_SCENARIO_SRCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_library(dissem_sim_scenario STATIC ${SIM_SCENARIO_SRCS})
target_include_directories(dissem_sim_scenario PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_include_directories(dissem_sim_scenario PRIVATE ${DISSEM_CLI11_INCLUDE})
target_link_libraries(dissem_sim_scenario PUBLIC dissem_sim dissem_scenario dissem_daemon_config dissem_load_options fmt::fmt)
target_compile_options(dissem_sim_scenario PRIVATE ${DISSEM_WARNINGS})
target_link_libraries(dissem-sim PRIVATE dissem_sim_scenario)
