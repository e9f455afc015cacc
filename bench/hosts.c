/* The benchmarks' floors place ranks on hosts as simcoll does.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosts.h"

#include <ctype.h>
#include <stdlib.h>

/* node-2 before node-10, as simcoll orders a platform's nodes. */
static int natural_compare(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            char *ea, *eb;
            unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
            if (x != y)
                return x < y ? -1 : 1;
            a = ea;
            b = eb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return *a ? 1 : (*b ? -1 : 0);
}

static int by_name(const void *x, const void *y)
{
    return natural_compare(sg_host_get_name(*(const sg_host_t *)x),
                           sg_host_get_name(*(const sg_host_t *)y));
}

sg_host_t *bench_hosts_in_order(size_t *count)
{
    *count = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    if (hosts && *count)
        qsort(hosts, *count, sizeof *hosts, by_name);
    return hosts;
}
