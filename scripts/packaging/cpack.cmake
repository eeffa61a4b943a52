# The Debian package (cpack -G DEB, or `cmake --build BUILD --target package`):
# everything src/install.cmake installs, under /usr, with /etc/dissem/dissemd.toml
# as a conffile, the systemd units, and maintainer scripts that create the
# system user `dissem` (scripts/packaging/postinst). Dependencies come from
# dpkg-shlibdeps. scripts/packaging/package-test.sh builds, installs, uses and
# removes it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dissem)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the dissem project")
set(CPACK_PACKAGE_CONTACT "dissem maintainers <dissem@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "peer-to-peer reliable dissemination for disrupted wireless networks")
set(CPACK_PACKAGE_DESCRIPTION
    "dissemd is a node of a peer-to-peer dissemination network over local broadcast or multicast UDP: every message is self-describing and cached, receivers request what they miss, and any node holding the data may answer. This package holds the daemon, the dissem command, the NORM gateway, the C++ client library with its CMake package, the controller plugin header, the manual pages and the systemd units.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/postinst ${CMAKE_CURRENT_LIST_DIR}/prerm ${CMAKE_CURRENT_LIST_DIR}/postrm
    ${CMAKE_CURRENT_LIST_DIR}/conffiles)
# The install rules write /etc and /lib/systemd/system for the prefix /usr:
# install into a staging DESTDIR with that prefix.
set(CPACK_SET_DESTDIR ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
include(CPack)
