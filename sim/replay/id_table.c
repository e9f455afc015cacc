/* A table by 64-bit id: id_table.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "id_table.h"

#include <stdlib.h>

static size_t slot_of(uint64_t id, size_t cap)
{
    return (size_t)(id * 0x9E3779B97F4A7C15ull >> 17) & (cap - 1);
}

int sc_id_table_put(sc_id_table_t *t, uint64_t id, uint64_t number, void *ptr)
{
    if (t->used * 2 >= t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        sc_id_entry_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return 0;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].used) {
                size_t k = slot_of(t->slots[i].id, cap);
                while (slots[k].used)
                    k = (k + 1) & (cap - 1);
                slots[k] = t->slots[i];
            }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    size_t k = slot_of(id, t->cap);
    while (t->slots[k].used)
        k = (k + 1) & (t->cap - 1);
    t->slots[k] = (sc_id_entry_t){id, number, ptr, 1};
    t->used++;
    return 1;
}

sc_id_entry_t *sc_id_table_find(const sc_id_table_t *t, uint64_t id)
{
    if (!t->cap)
        return NULL;
    for (size_t k = slot_of(id, t->cap); t->slots[k].used; k = (k + 1) & (t->cap - 1))
        if (t->slots[k].id == id)
            return &t->slots[k];
    return NULL;
}

int sc_id_table_take(sc_id_table_t *t, uint64_t id, sc_id_entry_t *out)
{
    sc_id_entry_t *e = sc_id_table_find(t, id);
    if (!e)
        return 0;
    *out = *e;
    size_t hole = (size_t)(e - t->slots), j = hole;
    t->slots[hole].used = 0;
    while (1) {
        j = (j + 1) & (t->cap - 1);
        if (!t->slots[j].used)
            break;
        size_t home = slot_of(t->slots[j].id, t->cap);
        if ((j > hole && (home <= hole || home > j)) || (j < hole && home <= hole && home > j)) {
            t->slots[hole] = t->slots[j];
            t->slots[j].used = 0;
            hole = j;
        }
    }
    t->used--;
    return 1;
}

void sc_id_table_free(sc_id_table_t *t)
{
    free(t->slots);
    *t = (sc_id_table_t){0};
}
