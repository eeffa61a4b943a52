/*
 * Example dissem controller plugin: "priority-relay".
 *
 * Forwarding: rebroadcast only fragments of messages whose priority is at
 * least `min_priority`, while they have been rebroadcast fewer than
 * `hop_limit` times, after a random delay below `delay_us`. Low-priority
 * traffic stays within one radio hop; urgent traffic crosses the network.
 *
 * Replication: when a peer appears or reconnects, send a summary after a
 * short random delay and answer every summary that is not itself an answer;
 * unlike the built-in anti-entropy, which pushes whatever a peer lacks and
 * wants, push only what is urgent (priority at least `min_priority`), the
 * most urgent first, and do not make subscribers fetch the rest of what
 * peers hold (learn_from_summaries = 0): routine messages reach a node
 * through its own subscription's requests only.
 *
 * Deletion: every expired message; then, while over the quota, messages
 * of this node's own publications last, the others lowest priority first
 * and, within a priority, the largest first (frees the quota with the
 * fewest evictions).
 *
 * plugin.params: comma-separated key=value, e.g.
 *   "min_priority=2,hop_limit=4,delay_us=5000"
 *
 * Build: cc -shared -fPIC -fvisibility=hidden -I<dissem source> -o libpriority_relay.so priority_relay.c
 * Only the ABI version and the entry point are exported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controllers/plugin/dissem_controller_plugin.h"

typedef struct relay {
  uint32_t min_priority;
  uint32_t hop_limit;
  int64_t delay_us;
  /* How many decisions this instance took: the tests read it through the
   * observable behaviour only, but a real plugin might log it. */
  uint64_t decisions;
} relay;

static int parse_u64(const char* text, size_t len, uint64_t* out) {
  uint64_t v = 0;
  size_t i;
  if (len == 0 || len > 18) return 0;
  for (i = 0; i < len; ++i) {
    if (text[i] < '0' || text[i] > '9') return 0;
    v = v * 10u + (uint64_t)(text[i] - '0');
  }
  *out = v;
  return 1;
}

static void* relay_create(const char* params, char* error, size_t error_size) {
  relay r;
  const char* p = params;
  r.min_priority = 1;
  r.hop_limit = 8;
  r.delay_us = 10000;
  r.decisions = 0;
  while (p != NULL && *p != '\0') {
    const char* end = strchr(p, ',');
    const size_t item = end != NULL ? (size_t)(end - p) : strlen(p);
    const char* eq = memchr(p, '=', item);
    uint64_t v = 0;
    if (eq == NULL || !parse_u64(eq + 1, item - (size_t)(eq + 1 - p), &v)) {
      snprintf(error, error_size, "expected key=number in '%.*s'", (int)item, p);
      return NULL;
    }
    if ((size_t)(eq - p) == 12 && strncmp(p, "min_priority", 12) == 0) {
      r.min_priority = (uint32_t)v;
    } else if ((size_t)(eq - p) == 9 && strncmp(p, "hop_limit", 9) == 0) {
      if (v == 0 || v > 255) {
        snprintf(error, error_size, "hop_limit must be 1..255");
        return NULL;
      }
      r.hop_limit = (uint32_t)v;
    } else if ((size_t)(eq - p) == 8 && strncmp(p, "delay_us", 8) == 0) {
      r.delay_us = (int64_t)v;
    } else {
      snprintf(error, error_size, "unknown parameter '%.*s' (min_priority, hop_limit, delay_us)", (int)(eq - p), p);
      return NULL;
    }
    p = end != NULL ? end + 1 : NULL;
  }
  relay* instance = malloc(sizeof *instance);
  if (instance == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  *instance = r;
  return instance;
}

static void relay_destroy(void* instance) { free(instance); }

static void relay_forward(void* instance, const dissem_fragment* f, int64_t now_us, uint64_t random,
                          dissem_forward_decision* decision) {
  relay* r = instance;
  (void)now_us;
  ++r->decisions;
  if (f->priority < r->min_priority || f->hops >= r->hop_limit) return;
  decision->forward = 1;
  decision->delay_us = r->delay_us > 0 ? (int64_t)(random % (uint64_t)r->delay_us) : 0;
}

/* It relays what it hears, by priority, but fetches nothing for others: a
 * group is not what it decides by. */
static int32_t relay_relays(void* instance, const char* group, size_t group_len) {
  (void)instance;
  (void)group;
  (void)group_len;
  return 0;
}

/* --- replication ---------------------------------------------------------- */

/* A summary soon after a contact: within the serve delay and a few packet
 * times, like the built-in anti-entropy, so that nodes meeting the same peer
 * spread out. */
static int32_t relay_on_contact(void* instance, uint32_t peer, const dissem_node_info* node, int64_t now_us,
                                uint64_t random, int64_t* delay_us) {
  const int64_t max = node->serve_delay_max_us + 4 * node->packet_time_us;
  (void)instance;
  (void)peer;
  (void)now_us;
  *delay_us = max > 0 ? (int64_t)(random % (uint64_t)max) : 0;
  return 1;
}

static int same_group(const char* a, size_t a_len, const char* b, size_t b_len) {
  return a_len == b_len && memcmp(a, b, a_len) == 0;
}

/* 1: the peer's summary says it holds m; 0: it lacks m; -1: it cannot tell
 * (a truncated summary that does not list m's stream). */
static int peer_holds(const dissem_peer_summary* s, const dissem_held_message* m) {
  size_t i;
  size_t r;
  for (i = 0; i < s->stream_count; ++i) {
    const dissem_held_stream* st = &s->streams[i];
    if (st->publisher != m->publisher || !same_group(st->group, st->group_len, m->group, m->group_len)) continue;
    for (r = 0; r < st->held_count; ++r)
      if (m->seq >= st->held[r].begin && m->seq < st->held[r].end) return 1;
    return 0;
  }
  return s->truncated ? -1 : 0;
}

/* Push order: the most urgent first; within a priority, as held (stream
 * order, so ordered subscribers can deliver as the pushes arrive). */
static const dissem_held_message* push_base;

static int push_order(const void* a, const void* b) {
  const size_t i = *(const size_t*)a;
  const size_t j = *(const size_t*)b;
  if (push_base[i].priority != push_base[j].priority) return push_base[i].priority > push_base[j].priority ? -1 : 1;
  return i < j ? -1 : 1;
}

static size_t relay_on_summary(void* instance, const dissem_peer_summary* summary, const dissem_held_message* held,
                               size_t held_count, const dissem_node_info* node, int64_t now_us, uint64_t random,
                               dissem_summary_reply* reply, size_t* pushes) {
  const relay* r = instance;
  size_t n = 0;
  size_t i;
  (void)now_us;
  /* Answer a peer's first summary; an answer is not answered again. */
  if (!summary->reply) {
    const int64_t max = 4 * node->packet_time_us;
    reply->reply = 1;
    reply->delay_us = max > 0 ? (int64_t)(random % (uint64_t)max) : 0;
  }
  /* held[] is already limited to the groups the peer wants. */
  for (i = 0; i < held_count; ++i)
    if (held[i].priority >= r->min_priority && peer_holds(summary, &held[i]) == 0) pushes[n++] = i;
  /* The engine calls from one thread at a time (see the header). */
  push_base = held;
  if (n > 1) qsort(pushes, n, sizeof *pushes, push_order);
  return n;
}

static void relay_replication_policy(void* instance, dissem_replication_policy* policy) {
  (void)instance;
  policy->learn_from_summaries = 0;
}

/* --- deletion ------------------------------------------------------------- */

/* Eviction order for messages over the quota; expired ones are taken first. */
static const dissem_cached_message* sort_base;

static int eviction_order(const void* a, const void* b) {
  const dissem_cached_message* x = &sort_base[*(const size_t*)a];
  const dissem_cached_message* y = &sort_base[*(const size_t*)b];
  if (x->own != y->own) return x->own - y->own; /* others' messages first */
  if (x->priority != y->priority) return x->priority < y->priority ? -1 : 1;
  if (x->stored_bytes != y->stored_bytes) return x->stored_bytes > y->stored_bytes ? -1 : 1;
  return (*(const size_t*)a < *(const size_t*)b) ? -1 : 1;
}

static size_t relay_select_victims(void* instance, const dissem_cached_message* messages, size_t count,
                                   uint64_t total_bytes, uint64_t quota_bytes, int64_t now_us, size_t* victims) {
  size_t n = 0;
  size_t live = 0;
  size_t i;
  uint64_t remaining = total_bytes;
  size_t* order;
  (void)instance;
  if (count == 0) return 0;
  order = malloc(count * sizeof *order);
  if (order == NULL) return 0;
  for (i = 0; i < count; ++i) {
    const int expired = messages[i].expiry_s != 0 && now_us / 1000000 >= (int64_t)messages[i].expiry_s;
    if (expired) {
      victims[n++] = i;
      remaining -= messages[i].stored_bytes < remaining ? messages[i].stored_bytes : remaining;
    } else {
      order[live++] = i;
    }
  }
  /* The engine calls from one thread at a time (see the header). */
  sort_base = messages;
  qsort(order, live, sizeof *order, eviction_order);
  for (i = 0; i < live && remaining > quota_bytes; ++i) {
    victims[n++] = order[i];
    remaining -= messages[order[i]].stored_bytes < remaining ? messages[order[i]].stored_bytes : remaining;
  }
  free(order);
  return n;
}

DISSEM_PLUGIN_EXPORT const dissem_plugin_abi_version dissem_controller_plugin_abi = {DISSEM_PLUGIN_ABI_MAJOR,
                                                                                    DISSEM_PLUGIN_ABI_MINOR};

/* Designated initializers: members it does not set (on_peer_silent and
 * on_summary_sent: it keeps no state per peer) are NULL. */
static const dissem_controller_plugin_table kTable = {
    .size = sizeof(dissem_controller_plugin_table),
    .name = "priority-relay",
    .create = relay_create,
    .destroy = relay_destroy,
    .forward = relay_forward,
    .relays = relay_relays,
    .on_contact = relay_on_contact,
    .on_summary = relay_on_summary,
    .replication_policy = relay_replication_policy,
    .select_victims = relay_select_victims,
};

DISSEM_PLUGIN_EXPORT const dissem_controller_plugin_table* dissem_controller_plugin(void) { return &kTable; }
