/* Shared helpers of the CUnit suites.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "helpers.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/replay/evaluate.h"

const int sc_test_nps[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 24, 64};
const int sc_test_nnps = sizeof sc_test_nps / sizeof sc_test_nps[0];

/* dir/name, in one of four buffers used in turn (a call may name several). */
static const char *joined(const char *dir, const char *name)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

const char *sc_test_path(const char *relative)
{
    return joined(SC_SOURCE_DIR, relative);
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

sc_err_t sc_test_evaluate(const sc_platform_t *plat, const int *node_of, int np,
                          const sc_algo_t *algo, size_t bytes, int root, sc_type_t type,
                          const double *start, double *t)
{
    int *domain_of = malloc((size_t)np * sizeof *domain_of);
    sc_model_t m = {0};
    sc_schedule_t sched = {0};
    sc_schedule_source_t source = {0};
    sc_scratch_t *scratch = sc_scratch_create();
    /* address space only: the recording moves no data */
    void *area = scratch ? sc_scratch_get(scratch, (size_t)np * (bytes + 64) + 64) : NULL;
    sc_coll_args_t args = {.sendbuf = area,
                           .recvbuf = area,
                           .bytes = bytes,
                           .root = root,
                           .op = SC_OP_SUM,
                           .type = type};
    sc_err_t err = !domain_of || !area ? sc_error(SC_ERR_RUN, "out of memory") : SC_OK;
    if (!err)
        err = sc_place_domains(plat, np, node_of, domain_of);
    if (!err)
        err = sc_model_init(&m, plat, np, node_of, domain_of, NULL, NULL, sc_type_size(type));
    if (!err)
        err = sc_schedule_record(algo, &args, &m, scratch, &sched);
    if (!err)
        err = sc_schedule_source_init(&source, &sched);
    if (!err)
        err = sc_evaluate(&source.source, &m, start, t, NULL);
    sc_schedule_source_destroy(&source);
    sc_schedule_destroy(&sched);
    sc_model_destroy(&m);
    sc_scratch_destroy(scratch);
    free(domain_of);
    return err;
}

int *sc_test_part_sizes(const int *part, int n, int nparts)
{
    int *size = calloc((size_t)nparts, sizeof *size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(size);
    for (int v = 0; v < n; v++) {
        CU_ASSERT_TRUE(part[v] >= 0 && part[v] < nparts);
        if (part[v] >= 0 && part[v] < nparts)
            size[part[v]]++;
    }
    return size;
}

void sc_test_exact_sizes(sc_partitioner_t how)
{
    static const int caps[][6] = {{8, 8, 8, 4, 0, 0}, {3, 5, 1, 7, 0, 0}, {0, 6, 0, 6, 6, 6},
                                  {1, 1, 1, 1, 1, 1}, {13, 0, 0, 0, 0, 0}, {2, 9, 2, 9, 2, 0},
                                  {1, 20, 1, 3, 0, 11}};
    static const char *const algos[] = {"bruck", "ring", "allreduce-nonpow2"};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        int n = 0;
        for (int u = 0; u < 6; u++)
            n += caps[c][u];
        for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
            sc_graph_t g;
            CU_ASSERT_EQUAL_FATAL(sc_graph_record(sc_algo_find(algos[a]), n, 0, &g), SC_OK);
            int *part = malloc((size_t)n * sizeof *part);
            CU_ASSERT_EQUAL(sc_partition(&g, 6, caps[c], how, part), SC_OK);
            int *size = sc_test_part_sizes(part, n, 6);
            for (int u = 0; u < 6; u++)
                CU_ASSERT_EQUAL(size[u], caps[c][u]);
            free(size);
            free(part);
            sc_graph_destroy(&g);
        }
    }
}

unsigned sc_test_failures(void)
{
    return CU_get_number_of_failures();
}

int sc_test_case_failed(unsigned before)
{
    return CU_get_number_of_failures() > before;
}

/* The first 60 characters of `text`, line ends written \n, in out[128]. */
static const char *shown(const char *text, char *out)
{
    size_t k = 0;
    for (const char *p = text; *p && p - text < 60; p++) {
        if (*p == '\n' || *p == '\r') {
            out[k++] = '\\';
            out[k++] = *p == '\n' ? 'n' : 'r';
        } else {
            out[k++] = *p;
        }
    }
    out[k] = '\0';
    return out;
}

void sc_test_refusals(const sc_test_refusal_t *cases, size_t n,
                      sc_err_t (*try)(const char *input, int np))
{
    for (size_t i = 0; i < n; i++) {
        const sc_test_refusal_t *c = &cases[i];
        unsigned before = sc_test_failures();
        CU_ASSERT_EQUAL(try(c->input, c->np), SC_ERR_INPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(sc_error_message(), c->message));
        char input[128];
        if (sc_test_case_failed(before))
            fprintf(stderr, "\n  failed case: '%s' (np %d): want '%s' in '%s'\n",
                    shown(c->input, input), c->np, c->message, sc_error_message());
    }
}

static char test_dir[64];

int sc_test_dir_make(void)
{
    snprintf(test_dir, sizeof test_dir, "/tmp/simcoll-suite-XXXXXX");
    return mkdtemp(test_dir) ? 0 : 1;
}

int sc_test_dir_remove(void)
{
    DIR *d = opendir(test_dir);
    if (!d)
        return 1;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove(sc_test_in_dir(e->d_name));
    closedir(d);
    return rmdir(test_dir);
}

const char *sc_test_in_dir(const char *name)
{
    return joined(test_dir, name);
}
