/*
 * dissem controller plugins: version 1 of the C interface.
 *
 * A plugin is a shared library that dissemd (or dissem-sim) loads at
 * start-up when the configuration names it:
 *
 *   [controllers]
 *   plugin.path = "/usr/lib/dissem/libmy_controller.so"
 *   plugin.params = "min_priority=2"   # handed to create(), free-form
 *   forwarding.name = "plugin"          # let the plugin decide forwarding
 *   deletion.name = "plugin"            # ... and/or deletion
 *
 * The library exports ONE symbol, DISSEM_CONTROLLER_PLUGIN_ENTRY, a function
 * returning a pointer to a static table of function pointers. The version is
 * in the symbol's name and again in the table: a library built for another
 * version is refused at start-up with a message naming the file, never
 * called. Only C types cross the boundary, so a plugin may be written in C,
 * C++ or anything that can export a C function; it needs no dissem library
 * and no rebuild of the daemon.
 *
 * Rules the engine relies on (it is deterministic and single-threaded):
 *  - every call comes from the engine's thread, one at a time;
 *  - a plugin reads no clock: now_us is the engine's time (Unix time in
 *    microseconds in dissemd, virtual time in the simulator);
 *  - a plugin draws no random numbers of its own: `random` is 64 uniform bits
 *    from the engine's seeded generator, so a simulation stays reproducible;
 *  - pointers passed in are valid only for the duration of the call;
 *  - calls return quickly: they run on the receive path.
 *
 * See controllers/plugin/example/ for a complete plugin built by the tests.
 */
#ifndef DISSEM_CONTROLLER_PLUGIN_H
#define DISSEM_CONTROLLER_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DISSEM_CONTROLLER_PLUGIN_VERSION 1
#define DISSEM_CONTROLLER_PLUGIN_ENTRY "dissem_controller_plugin_v1"

/* A fragment this node has just received for the first time. */
typedef struct dissem_fragment {
  const char* group; /* not NUL-terminated: use group_len */
  size_t group_len;
  uint32_t publisher;
  uint64_t seq;
  uint32_t offset;
  uint32_t length;
  uint32_t total_length;
  uint32_t priority;
  uint32_t expiry_s; /* absolute Unix seconds (the message's millisecond expiry rounded up), 0 = never */
  uint32_t hops;     /* rebroadcasts so far */
  uint32_t transmitter; /* publisher or forwarder that sent this copy; 0 = unknown (a repair) */
  int32_t locally_subscribed;
  int32_t repair;
} dissem_fragment;

typedef struct dissem_forward_decision {
  int32_t forward;  /* non-zero: rebroadcast it */
  int64_t delay_us; /* after this delay (the NTM drops it if heard meanwhile) */
} dissem_forward_decision;

/* One cached message, for deletion decisions. */
typedef struct dissem_cached_message {
  const char* group; /* not NUL-terminated: use group_len */
  size_t group_len;
  uint32_t publisher;
  uint64_t seq;
  uint32_t priority;
  uint32_t expiry_s;
  uint64_t stored_bytes;
  int64_t first_seen_us;
  int64_t last_used_us;
  int32_t complete;
  int32_t own; /* published by this node */
} dissem_cached_message;

typedef struct dissem_controller_plugin {
  uint32_t version; /* DISSEM_CONTROLLER_PLUGIN_VERSION */
  uint32_t size;    /* sizeof(dissem_controller_plugin) as the plugin was compiled */
  const char* name; /* shown in logs and errors */

  /* Required. One instance per node. `params` is plugin.params ("" if unset).
   * Returns NULL on failure after writing a NUL-terminated reason into
   * `error` (at most error_size bytes); dissemd then refuses to start. */
  void* (*create)(const char* params, char* error, size_t error_size);
  /* Required. */
  void (*destroy)(void* instance);

  /* Optional (NULL: the plugin cannot be the forwarding controller). Called
   * once per newly held fragment; fills *decision (zeroed on entry). */
  void (*forward)(void* instance, const dissem_fragment* fragment, int64_t now_us, uint64_t random,
                  dissem_forward_decision* decision);

  /* Optional (NULL: the plugin cannot be the deletion controller). Called
   * when messages expired or the cache is over quota. Writes the indices of
   * the messages to erase into victims[] (room for `count`) and returns how
   * many; it must include every expired message. */
  size_t (*select_victims)(void* instance, const dissem_cached_message* messages, size_t count,
                           uint64_t total_bytes, uint64_t quota_bytes, int64_t now_us, size_t* victims);

  /* Optional, with forward() (NULL: never). Non-zero if this node relays
   * `group` for others: it then also requests what it misses of the group,
   * as a subscriber would, so a hole here is not a hole behind it. */
  int32_t (*relays)(void* instance, const char* group, size_t group_len);
} dissem_controller_plugin;

/* The entry point every plugin exports (extern "C" in C++). */
const dissem_controller_plugin* dissem_controller_plugin_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* DISSEM_CONTROLLER_PLUGIN_H */
