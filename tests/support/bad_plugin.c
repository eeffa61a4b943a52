/* Controller plugins the loader must refuse (built twice, see CMakeLists):
 * BAD_PLUGIN_VERSION exports the entry point with a table of another
 * interface version; BAD_PLUGIN_NO_ENTRY exports no entry point at all. */
#include <stddef.h>

#include "controllers/plugin/dissem_controller_plugin.h"

static int instance_token;

static void* create(const char* params, char* error, size_t error_size) {
  (void)params;
  (void)error;
  (void)error_size;
  return &instance_token;
}

static void destroy(void* instance) { (void)instance; }

#ifdef BAD_PLUGIN_VERSION
static const dissem_controller_plugin kTable = {DISSEM_CONTROLLER_PLUGIN_VERSION + 1, sizeof(dissem_controller_plugin),
                                                "from-the-future", create, destroy, NULL, NULL, NULL};

const dissem_controller_plugin* dissem_controller_plugin_v1(void) { return &kTable; }
#endif

#ifdef BAD_PLUGIN_NO_ENTRY
/* Something to export, so the library is not empty. */
void* not_a_dissem_plugin(void) { return create("", NULL, 0); }
void not_a_dissem_plugin_either(void* p) { destroy(p); }
#endif
