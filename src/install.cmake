# What `cmake --install` puts where (GNU directories under CMAKE_INSTALL_PREFIX),
# and so what the Debian package holds (scripts/packaging/cpack.cmake):
#   sbin:  dissemd, dissem-norm-gateway        bin: dissem
#   lib:   libdissem-client.so (+ CMake package config: find_package(dissem))
#   include/dissem: the client's headers and the controller plugin's C header
#   share/man: a page per program (help2man, from --help and --version)
#   share/doc/dissem: README, protocol, plugin interface, example configurations
#   etc/dissem/dissemd.toml (/etc/dissem when the prefix is /usr)
#   lib/systemd/system: the units (/lib/systemd/system when the prefix is /usr)
# Included from src/CMakeLists.txt, after every target is defined.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DISSEM_PACKAGING_DIR ${PROJECT_SOURCE_DIR}/scripts/packaging)

install(TARGETS dissemd dissem-norm-gateway RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
install(TARGETS dissem RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The client library: dissem::client for applications. Its headers are the
# closure of client/client.h under src/ (and controllers/), installed with
# their paths so that their own includes resolve; the consumer test in
# scripts/packaging/package-test.sh builds against the installed tree only,
# so a header missing here fails there.
set_target_properties(dissem_client_shared PROPERTIES EXPORT_NAME client)
target_include_directories(dissem_client_shared
                           INTERFACE $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>
                                     $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                     $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/dissem>)
# Follows the quoted #include lines from client/client.h, each header looked
# up under src/ and then under the project's root (controllers/...), and
# installs every header reached at its include path. A header read here is a
# configure dependency, so a new include is picked up by the next build.
set(pending client/client.h)
set(DISSEM_CLIENT_HEADERS)
while(pending)
  list(POP_FRONT pending header)
  if(header IN_LIST DISSEM_CLIENT_HEADERS)
    continue()
  endif()
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${header})
    set(file ${CMAKE_CURRENT_SOURCE_DIR}/${header})
  elseif(EXISTS ${PROJECT_SOURCE_DIR}/${header})
    set(file ${PROJECT_SOURCE_DIR}/${header})
  else()
    message(FATAL_ERROR "install: ${header}, which a client header includes, is neither under src/ nor the "
                        "project's root (a generated header cannot be installed this way)")
  endif()
  list(APPEND DISSEM_CLIENT_HEADERS ${header})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" included "${line}")
    list(APPEND pending ${included})
  endforeach()
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${file} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dissem/${dir} COMPONENT dev)
endwhile()

# The controller plugin interface: one C header (its ABI version in it),
# included as in the sources ("controllers/plugin/dissem_controller_plugin.h",
# as the installed example priority_relay.c does), and dissem::plugin for
# plugins built with CMake.
add_library(dissem_plugin_interface INTERFACE)
set_target_properties(dissem_plugin_interface PROPERTIES EXPORT_NAME plugin)
target_include_directories(dissem_plugin_interface
                           INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                     $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/dissem>)
install(FILES ${PROJECT_SOURCE_DIR}/controllers/plugin/dissem_controller_plugin.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dissem/controllers/plugin COMPONENT dev)

install(TARGETS dissem_client_shared dissem_plugin_interface EXPORT dissemTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT dev)
set(DISSEM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dissem)
install(EXPORT dissemTargets NAMESPACE dissem:: DESTINATION ${DISSEM_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${DISSEM_PACKAGING_DIR}/dissemConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/dissemConfig.cmake INSTALL_DESTINATION ${DISSEM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/dissemConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dissemConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/dissemConfigVersion.cmake
        DESTINATION ${DISSEM_CMAKE_DIR} COMPONENT dev)

# Manual pages from each program's --help and --version (Debian help2man,
# installed by scripts/setup.sh); without help2man, the --help text instead.
find_program(DISSEM_HELP2MAN help2man)
set(manual_pages)
foreach(entry "dissemd|8|peer-to-peer reliable dissemination node"
              "dissem-norm-gateway|8|bridge between a NORM session and a dissem group"
              "dissem|1|publish, subscribe and inspect through the local dissemd")
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 program)
  list(GET fields 1 section)
  list(GET fields 2 summary)
  if(DISSEM_HELP2MAN)
    set(page ${CMAKE_CURRENT_BINARY_DIR}/man/${program}.${section})
    add_custom_command(OUTPUT ${page}
                       COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/man
                       COMMAND ${DISSEM_HELP2MAN} --no-info --no-discard-stderr --section ${section}
                               --name ${summary} --output ${page} $<TARGET_FILE:${program}>
                       DEPENDS ${program} VERBATIM)
    install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
  else()
    set(page ${CMAKE_CURRENT_BINARY_DIR}/man/${program}.txt)
    add_custom_command(OUTPUT ${page} COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/man
                       COMMAND $<TARGET_FILE:${program}> --help > ${page} DEPENDS ${program})
    install(FILES ${page} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  endif()
  list(APPEND manual_pages ${page})
endforeach()
add_custom_target(dissem_manual_pages ALL DEPENDS ${manual_pages})

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/protocol.md
              ${PROJECT_SOURCE_DIR}/docs/norm-gateway.md ${PROJECT_SOURCE_DIR}/docs/threat-model.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/controllers/plugin/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME plugins.md)
install(FILES ${PROJECT_SOURCE_DIR}/docs/dissemd.example.toml ${PROJECT_SOURCE_DIR}/docs/norm-gateway.example.toml
              ${PROJECT_SOURCE_DIR}/controllers/plugin/example/priority_relay.c
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The configuration and the units name installed paths, which follow the
# prefix given at install time (cmake --install --prefix, or the package's
# /usr), so they are written then. Prefix /usr means the system's own /etc
# and /lib/systemd/system, as Debian packages have them.
install(CODE "
  set(prefix \"\${CMAKE_INSTALL_PREFIX}\")
  if(prefix STREQUAL \"/usr\")
    set(sysconfdir /etc)
    set(unitdir /lib/systemd/system)
  else()
    set(sysconfdir \"\${prefix}/${CMAKE_INSTALL_SYSCONFDIR}\")
    set(unitdir \"\${prefix}/lib/systemd/system\")
  endif()
  set(SBINDIR \"\${prefix}/${CMAKE_INSTALL_SBINDIR}\")
  set(SYSCONFDIR \"\${sysconfdir}\")
  foreach(unit dissemd.service dissem-norm-gateway.service)
    configure_file(\"${DISSEM_PACKAGING_DIR}/\${unit}.in\" \"${CMAKE_CURRENT_BINARY_DIR}/units/\${unit}\" @ONLY)
  endforeach()
  file(INSTALL \"${CMAKE_CURRENT_BINARY_DIR}/units/dissemd.service\"
                \"${CMAKE_CURRENT_BINARY_DIR}/units/dissem-norm-gateway.service\"
       DESTINATION \"\${unitdir}\")
  # An operator's edited configuration is never overwritten (the package's
  # is a conffile, which dpkg guards the same way).
  if(EXISTS \"\$ENV{DESTDIR}\${sysconfdir}/dissem/dissemd.toml\")
    message(STATUS \"Kept: \$ENV{DESTDIR}\${sysconfdir}/dissem/dissemd.toml\")
  else()
    file(INSTALL \"${DISSEM_PACKAGING_DIR}/dissemd.toml\" DESTINATION \"\${sysconfdir}/dissem\")
  endif()
")
