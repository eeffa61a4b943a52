/* Controller plugins for the loader's tests, one per build (see
 * tests/CMakeLists.txt), each with one oddity:
 *   PLUGIN_OTHER_MAJOR          ABI version of the next major: refused
 *   PLUGIN_ABI_1                the entry point of ABI 1 only: refused as version 1
 *   PLUGIN_NO_ABI               no dissem symbol at all: refused
 *   PLUGIN_NEWER_MINOR          the next minor, with a larger table: loaded
 *   PLUGIN_FAULTY_REPLICATION   replication decisions out of range, and
 *                               plugin.params "budget=X" sets its budget */
#include <stdlib.h>

#include "controllers/plugin/dissem_controller_plugin.h"

#ifndef PLUGIN_ABI_1
typedef struct odd {
  double budget;
} odd;

static void* create(const char* params, char* error, size_t error_size) {
  odd* o = malloc(sizeof *o);
  (void)error;
  (void)error_size;
  if (o == NULL) return NULL;
  o->budget = params != NULL && params[0] == 'b' ? strtod(params + 7, NULL) : 0.5; /* "budget=X" */
  return o;
}

static void destroy(void* instance) { free(instance); }
#endif

#if defined(PLUGIN_OTHER_MAJOR) || defined(PLUGIN_NEWER_MINOR)
static void forward_all(void* instance, const dissem_fragment* fragment, int64_t now_us, uint64_t random,
                        dissem_forward_decision* decision) {
  (void)instance;
  (void)fragment;
  (void)now_us;
  (void)random;
  decision->forward = 1;
}
#endif

#ifdef PLUGIN_OTHER_MAJOR
DISSEM_PLUGIN_EXPORT const dissem_plugin_abi_version dissem_controller_plugin_abi = {DISSEM_PLUGIN_ABI_MAJOR + 1, 0};
static const dissem_controller_plugin_table kTable = {
    .size = sizeof kTable, .name = "from-the-future", .create = create, .destroy = destroy, .forward = forward_all};
DISSEM_PLUGIN_EXPORT const dissem_controller_plugin_table* dissem_controller_plugin(void) { return &kTable; }
#endif

#ifdef PLUGIN_ABI_1
/* What ABI 1 exported: the version was in the symbol's name. */
DISSEM_PLUGIN_EXPORT const void* dissem_controller_plugin_v1(void) { return NULL; }
#endif

#ifdef PLUGIN_NO_ABI
/* Something to export, so the library is not empty. */
DISSEM_PLUGIN_EXPORT void* not_a_dissem_plugin(void) { return create("", NULL, 0); }
DISSEM_PLUGIN_EXPORT void not_a_dissem_plugin_either(void* p) { destroy(p); }
#endif

#ifdef PLUGIN_NEWER_MINOR
/* A member the next minor version might append: this build never sees it. */
typedef struct newer_table {
  dissem_controller_plugin_table base;
  void (*appended)(void* instance);
} newer_table;

static void appended(void* instance) { (void)instance; }

DISSEM_PLUGIN_EXPORT const dissem_plugin_abi_version dissem_controller_plugin_abi = {DISSEM_PLUGIN_ABI_MAJOR,
                                                                                    DISSEM_PLUGIN_ABI_MINOR + 1};
static const newer_table kTable = {
    .base = {.size = sizeof kTable, .name = "next-minor", .create = create, .destroy = destroy, .forward = forward_all},
    .appended = appended};
DISSEM_PLUGIN_EXPORT const dissem_controller_plugin_table* dissem_controller_plugin(void) { return &kTable.base; }
#endif

#ifdef PLUGIN_FAULTY_REPLICATION
static int32_t on_contact(void* instance, uint32_t peer, const dissem_node_info* node, int64_t now_us,
                          uint64_t random, int64_t* delay_us) {
  (void)instance;
  (void)peer;
  (void)node;
  (void)now_us;
  (void)random;
  *delay_us = -5;
  return 1;
}

/* Out of range, repeated, and a reply a century away. */
static size_t on_summary(void* instance, const dissem_peer_summary* summary, const dissem_held_message* held,
                         size_t held_count, const dissem_node_info* node, int64_t now_us, uint64_t random,
                         dissem_summary_reply* reply, size_t* pushes) {
  size_t n = 0;
  (void)instance;
  (void)summary;
  (void)held;
  (void)node;
  (void)now_us;
  (void)random;
  reply->reply = 1;
  reply->delay_us = INT64_MAX;
  if (held_count == 0) return 0;
  pushes[n++] = held_count - 1;
  if (held_count > 1) pushes[n++] = held_count + 7;
  if (held_count > 2) pushes[n++] = held_count - 1;
  return n;
}

static void policy(void* instance, dissem_replication_policy* p) { p->budget_fraction = ((odd*)instance)->budget; }

DISSEM_PLUGIN_EXPORT const dissem_plugin_abi_version dissem_controller_plugin_abi = {DISSEM_PLUGIN_ABI_MAJOR,
                                                                                    DISSEM_PLUGIN_ABI_MINOR};
static const dissem_controller_plugin_table kTable = {.size = sizeof kTable,
                                                      .name = "faulty-replication",
                                                      .create = create,
                                                      .destroy = destroy,
                                                      .on_contact = on_contact,
                                                      .on_summary = on_summary,
                                                      .replication_policy = policy};
DISSEM_PLUGIN_EXPORT const dissem_controller_plugin_table* dissem_controller_plugin(void) { return &kTable; }
#endif
