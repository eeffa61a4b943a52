/*
 * dissem controller plugins: the C interface, ABI version 2.0.
 *
 * A plugin is a shared library that dissemd (or dissem-sim) loads at
 * start-up when the configuration names it:
 *
 *   [controllers]
 *   plugin.path = "/usr/lib/dissem/libmy_controller.so"
 *   plugin.params = "min_priority=2"   # handed to create(), free-form
 *   forwarding.name = "plugin"          # let the plugin decide forwarding
 *   replication.name = "plugin"         # ... and/or replication
 *   deletion.name = "plugin"            # ... and/or deletion
 *
 * The library exports TWO symbols, whose names never change:
 *  - dissem_controller_plugin_abi, a dissem_plugin_abi_version holding the
 *    DISSEM_PLUGIN_ABI_MAJOR/MINOR it was compiled against. The loader reads
 *    it first, before calling anything in the library;
 *  - dissem_controller_plugin, a function returning a pointer to a static
 *    table of function pointers (dissem_controller_plugin_table).
 *
 * Versioning rule. The loader accepts a plugin of its own major version and
 * any minor version, and refuses every other major at start-up, never
 * calling it, with a message naming the file, the version found and the
 * version expected. Within a major version:
 *  - only the function table grows: a minor version appends members at its
 *    end (commented with the minor that added them). Its `size` tells the
 *    loader which the plugin knows; those it lacks count as NULL, and the
 *    engine never calls a member it does not know itself;
 *  - every other struct (what the engine passes in, what the plugin fills in)
 *    and every function's signature and meaning stays as it is.
 * Anything else (a struct, a signature or a meaning changes, a member is
 * removed) is a new major version. A library of ABI 1, which exported
 * dissem_controller_plugin_v1 instead, is refused as version 1.
 *
 * Only C types cross the boundary, so a plugin may be written in C, C++ or
 * anything that can export C symbols; it needs no dissem library and no
 * rebuild of the daemon.
 *
 * Memory: the engine owns everything it passes in (fragments, summaries,
 * message lists, output arrays and structs): valid for the duration of the
 * call only, never freed or kept by the plugin. Output arrays (victims[],
 * pushes[]) have room for as many entries as the input list they index.
 * The plugin owns its instance (create() allocates it, destroy() frees it)
 * and its table and name (static, alive while the library is loaded); the
 * engine frees nothing of the plugin's.
 *
 * Rules the engine relies on (it is deterministic and single-threaded):
 *  - every call comes from the engine's thread, one at a time;
 *  - a plugin reads no clock: now_us is the engine's time (Unix time in
 *    microseconds in dissemd, virtual time in the simulator);
 *  - a plugin draws no random numbers of its own: `random` is 64 uniform bits
 *    from the engine's seeded generator, so a simulation stays reproducible;
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

#define DISSEM_PLUGIN_ABI_MAJOR 2
#define DISSEM_PLUGIN_ABI_MINOR 0
#define DISSEM_PLUGIN_ABI_SYMBOL "dissem_controller_plugin_abi"
#define DISSEM_PLUGIN_ENTRY_SYMBOL "dissem_controller_plugin"

/* Exports a symbol from a library built with -fvisibility=hidden. */
#if defined(__GNUC__)
#define DISSEM_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define DISSEM_PLUGIN_EXPORT
#endif

/* The same in every major version: what the loader reads first. */
typedef struct dissem_plugin_abi_version {
  uint32_t major;
  uint32_t minor;
} dissem_plugin_abi_version;

/* --- forwarding ----------------------------------------------------------- */

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

/* --- replication ---------------------------------------------------------- */

/* This node, as replication decisions need it. */
typedef struct dissem_node_info {
  uint32_t self;              /* this node's id */
  int64_t packet_time_us;     /* one full-size fragment's time on the link */
  int64_t serve_delay_max_us; /* upper bound of the random delay before serving a request */
} dissem_node_info;

typedef struct dissem_group_name {
  const char* group; /* not NUL-terminated: use group_len */
  size_t group_len;
} dissem_group_name;

/* Sequence numbers [begin, end). */
typedef struct dissem_seq_range {
  uint64_t begin;
  uint64_t end;
} dissem_seq_range;

/* What a peer holds of one stream (publisher and group). */
typedef struct dissem_held_stream {
  const char* group; /* not NUL-terminated: use group_len */
  size_t group_len;
  uint32_t publisher;
  const dissem_seq_range* held; /* ascending, disjoint */
  size_t held_count;
} dissem_held_stream;

/* A peer's summary: what it wants and what it holds. */
typedef struct dissem_peer_summary {
  uint32_t peer;
  int32_t reply;     /* non-zero: it answers a summary */
  int32_t truncated; /* non-zero: streams not listed are unknown, not empty */
  const dissem_group_name* wants;
  size_t want_count;
  const dissem_held_stream* streams;
  size_t stream_count;
} dissem_peer_summary;

/* A complete, unexpired message this node holds: a push candidate. */
typedef struct dissem_held_message {
  const char* group; /* not NUL-terminated: use group_len */
  size_t group_len;
  uint32_t publisher;
  uint64_t seq;
  uint32_t bytes;
  uint32_t priority;
} dissem_held_message;

typedef struct dissem_summary_reply {
  int32_t reply;          /* non-zero: answer with our own summary ... */
  int64_t delay_us;       /* ... after this delay */
} dissem_summary_reply;

/* How pushes are carried out; asked once, when the controller is made. */
typedef struct dissem_replication_policy {
  /* Share of the link capacity pushes may use, 0.001 .. 1. Prefilled with
   * replication.budget_fraction. */
  double budget_fraction;
  /* Non-zero: what peers' summaries (and beacons) show they hold, in groups
   * this node wants, becomes known-missing here and is requested like any
   * gap. Prefilled with 1, as the built-in anti-entropy does. */
  int32_t learn_from_summaries;
} dissem_replication_policy;

/* --- deletion ------------------------------------------------------------- */

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

/* --- the function table --------------------------------------------------- */

typedef struct dissem_controller_plugin_table {
  uint32_t size;    /* sizeof(dissem_controller_plugin_table) as the plugin was compiled */
  const char* name; /* shown in logs and errors */

  /* Required. One instance per node. `params` is plugin.params ("" if unset).
   * Returns NULL on failure after writing a NUL-terminated reason into
   * `error` (at most error_size bytes); dissemd then refuses to start. */
  void* (*create)(const char* params, char* error, size_t error_size);
  /* Required. */
  void (*destroy)(void* instance);

  /* Forwarding (NULL: the plugin cannot be the forwarding controller).
   * Called once per newly held fragment; fills *decision (zeroed on entry). */
  void (*forward)(void* instance, const dissem_fragment* fragment, int64_t now_us, uint64_t random,
                  dissem_forward_decision* decision);
  /* Optional, with forward() (NULL: never). Non-zero if this node relays
   * `group` for others: it then also requests what it misses of the group,
   * as a subscriber would, so a hole here is not a hole behind it. */
  int32_t (*relays)(void* instance, const char* group, size_t group_len);

  /* Replication: on_contact and on_summary (both NULL: the plugin cannot be
   * the replication controller). The engine detects contacts, sends and
   * receives the summaries, and carries out the pushes through its repair
   * queue: paced, within the policy's share of the link, and dropped fragment
   * by fragment if another node put them on the air since the summary.
   *
   * `peer` appeared, or reconnected after it went silent. Returns non-zero to
   * broadcast our summary after *delay_us (0 on entry); contacts that fall
   * due together share one summary. */
  int32_t (*on_contact)(void* instance, uint32_t peer, const dissem_node_info* node, int64_t now_us,
                        uint64_t random, int64_t* delay_us);
  /* A peer's summary arrived. `held` lists this node's complete messages in
   * the groups the peer wants, ordered by group, publisher and seq. Writes
   * the indices into held[] of the messages to push into pushes[] (room for
   * held_count), in the order to send them, and returns how many; fills
   * *reply (zeroed on entry) to answer with our own summary. */
  size_t (*on_summary)(void* instance, const dissem_peer_summary* summary, const dissem_held_message* held,
                       size_t held_count, const dissem_node_info* node, int64_t now_us, uint64_t random,
                       dissem_summary_reply* reply, size_t* pushes);
  /* Optional: `peer` went silent. */
  void (*on_peer_silent)(void* instance, uint32_t peer);
  /* Optional: our summary went out at now_us. */
  void (*on_summary_sent)(void* instance, int64_t now_us);
  /* Optional: adjusts the prefilled policy. */
  void (*replication_policy)(void* instance, dissem_replication_policy* policy);

  /* Deletion (NULL: the plugin cannot be the deletion controller). Called
   * when messages expired or the cache is over quota. Writes the indices of
   * the messages to erase into victims[] (room for `count`) and returns how
   * many; it must include every expired message. */
  size_t (*select_victims)(void* instance, const dissem_cached_message* messages, size_t count,
                           uint64_t total_bytes, uint64_t quota_bytes, int64_t now_us, size_t* victims);
} dissem_controller_plugin_table;

/* What every plugin exports (extern "C" in C++); this declaration gives the
 * version constant external linkage in C++ as well. */
extern const dissem_plugin_abi_version dissem_controller_plugin_abi;
const dissem_controller_plugin_table* dissem_controller_plugin(void);

#ifdef __cplusplus
}
#endif

#endif /* DISSEM_CONTROLLER_PLUGIN_H */
