/* Shared helpers of the CUnit suites.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "helpers.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const int sc_test_nps[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 24, 64};
const int sc_test_nnps = sizeof sc_test_nps / sizeof sc_test_nps[0];

const char *sc_test_path(const char *relative)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", SC_SOURCE_DIR, relative);
    return p;
}

static struct {
    char *relative;
    sc_platform_t plat;
} loaded[32];
static int nloaded;

const sc_platform_t *sc_test_platform(const char *relative)
{
    for (int i = 0; i < nloaded; i++)
        if (strcmp(loaded[i].relative, relative) == 0)
            return &loaded[i].plat;
    if (nloaded == (int)(sizeof loaded / sizeof loaded[0])) {
        CU_FAIL("too many test platforms");
        return NULL;
    }
    sc_err_t err = sc_platform_load("--platform", sc_test_path(relative), &loaded[nloaded].plat);
    if (err) {
        fprintf(stderr, "\n%s: %s\n", relative, sc_error_message());
        CU_FAIL("platform did not load");
        return NULL;
    }
    loaded[nloaded].relative = strdup(relative);
    return &loaded[nloaded++].plat;
}

void sc_test_cleanup(void)
{
    for (int i = 0; i < nloaded; i++) {
        free(loaded[i].relative);
        sc_platform_destroy(&loaded[i].plat);
    }
    nloaded = 0;
}

int sc_test_generic(const sc_algo_t *algo)
{
    return !(algo->needs & SC_DATA_DEPENDENT);
}

int sc_test_temp_file(char *path)
{
    snprintf(path, SC_TEST_TEMP_LEN, "/tmp/simcoll-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int sc_test_sample(void)
{
    const char *k = getenv("SIMCOLL_TEST_SAMPLE");
    return k && atoi(k) > 1 ? atoi(k) : 1;
}
