/* Arrays that grow one element at a time, their room doubled when full, so
 * that n appends cost O(n) copies in all.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_GROW_H
#define SC_GROW_H

#include <stddef.h>

/* Room for one more element of `size` bytes in `array`, which holds `count`
 * and has room for *cap: the array itself while there is room, else the
 * array reallocated to twice the room (`first` while it had none), *cap
 * updated. NULL when memory runs out, the array and *cap left as they were. */
void *sc_grow(void *array, size_t count, size_t *cap, size_t first, size_t size);

#endif
