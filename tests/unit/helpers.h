/* Shared helpers of the CUnit suites.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TEST_HELPERS_H
#define SC_TEST_HELPERS_H

#include "sim/simgrid/engine.h"
#include "algorithms/mapping/partition.h"
#include "sim/engine/run.h"

/* Path of a file in the source tree: "platforms/gige.xml" -> absolute. */
const char *sc_test_path(const char *relative);

/* Loads a platform of the source tree; the test fails (and returns NULL)
 * if it does not load. Platforms stay loaded until sc_test_cleanup(). */
const sc_platform_t *sc_test_platform(const char *relative);
void sc_test_cleanup(void);

/* Makes an empty file of a new name under /tmp for a test to write and
 * remove: fills path (SC_TEST_TEMP_LEN bytes); 0, or -1 if it could not. */
enum { SC_TEST_TEMP_LEN = 32 };
int sc_test_temp_file(char *path);

/* The cost model of one call: `algo`'s schedule on np ranks of plat placed
 * by node_of (their smallest domains worked out), rooted at `root`, on
 * elements of `type` summed, recorded and evaluated (sim/replay/evaluate.h)
 * with rank r starting at start[r] (NULL: 0): each rank's end in t. */
sc_err_t sc_test_evaluate(const sc_platform_t *plat, const int *node_of, int np,
                          const sc_algo_t *algo, size_t bytes, int root, sc_type_t type,
                          const double *start, double *t);

/* Whether the checks over every algorithm run `algo`: all but the early
 * exit ones, which need an operation and data of their own (test_early.c). */
int sc_test_generic(const sc_algo_t *algo);

/* How many of the n vertices each of the nparts parts holds in `part`
 * (malloc'ed); a vertex of no part fails the test and is not counted. */
int *sc_test_part_sizes(const int *part, int n, int nparts);

/* That partitioner `how` makes parts of exactly the sizes asked, whatever
 * they are (uneven, empty parts included), on the graphs of Bruck, the ring
 * and allreduce-nonpow2, whose best splits a balance within a tolerance
 * would leave uneven. */
void sc_test_exact_sizes(sc_partitioner_t how);

/* The process counts every collective is checked on. */
extern const int sc_test_nps[];
extern const int sc_test_nnps;

/* The sanitizer job's share of the long suites' cases: SIMCOLL_TEST_SAMPLE
 * = k (.ci/run) makes them run one case in k, in turn over what each case
 * varies, so that every algorithm still runs; 1 (every case) without it.
 * The normal build runs them whole. */
int sc_test_sample(void);

/* 1 if case number `index` runs under that sampling. */
static inline int sc_test_sampled(long index)
{
    return index % sc_test_sample() == 0;
}

/* A check of one case among a table of them, in one loop, where CUnit names
 * only the loop's line: take sc_test_failures() before the case; after it,
 * sc_test_case_failed(before) is 1 if any of its assertions failed, for the
 * test to print the case's values. */
unsigned sc_test_failures(void);
int sc_test_case_failed(unsigned before);

/* An input that must be refused: `input` (a text, a file's path, an
 * option's value: what the reader tried takes) for `np` processes gives
 * SC_ERR_INPUT, and a message that holds `message`. */
typedef struct {
    const char *input;
    int np;
    const char *message;
} sc_test_refusal_t;

/* Tries each of the n refusals with try(input, np), which checks itself
 * that the refused reader left nothing behind; a case that fails is
 * printed, with the message it got. */
void sc_test_refusals(const sc_test_refusal_t *cases, size_t n,
                      sc_err_t (*try)(const char *input, int np));

/* A scratch folder for a suite's files: sc_test_dir_make and
 * sc_test_dir_remove are the suite's initialisation and clean-up (as
 * CU_add_suite takes them: 0 if done), the second removing the files left
 * in it; sc_test_in_dir(name) is the path of the file `name` in it (four
 * held at a time, for a call that names several). */
int sc_test_dir_make(void);
int sc_test_dir_remove(void);
const char *sc_test_in_dir(const char *name);

#endif
