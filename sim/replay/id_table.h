/* A table by 64-bit id, for a rank's open requests by their trace id (the
 * actors' engine, trace_run.c, and the replay's, trace_source.c) and a
 * trace's tags (trace_coll.c): open addressing with linear probing, kept at
 * most half full, deletion by backward shift so that probe chains stay
 * whole. Each entry holds a number and a pointer for its user. The slots
 * are in the same order on every run: a user may walk them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_REPLAY_ID_TABLE_H
#define SC_REPLAY_ID_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t id;
    uint64_t number;
    void *ptr;
    int used; /* 0: an empty slot */
} sc_id_entry_t;

/* All zero: empty. */
typedef struct {
    sc_id_entry_t *slots; /* cap of them, a power of two */
    size_t cap, used;
} sc_id_table_t;

/* Adds `id`, which the table does not hold, with its number and pointer;
 * 0 when memory runs out (the table as it was). */
int sc_id_table_put(sc_id_table_t *t, uint64_t id, uint64_t number, void *ptr);

/* The entry of `id`, or NULL. */
sc_id_entry_t *sc_id_table_find(const sc_id_table_t *t, uint64_t id);

/* Takes the entry of `id` out of the table into *out: 1, or 0 if there is
 * none. */
int sc_id_table_take(sc_id_table_t *t, uint64_t id, sc_id_entry_t *out);

void sc_id_table_free(sc_id_table_t *t);

#endif
