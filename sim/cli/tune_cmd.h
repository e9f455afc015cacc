/* simcoll tune: the bandwidth curve of one type of communication, size by
 * size, and reference 002's interval [min, max] where packing pays; and
 * the same curves that simcoll run --pack auto measures for each type of
 * statement it packs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_TUNE_CMD_H
#define SC_CLI_TUNE_CMD_H

#include "run_opts.h"
#include "sim/program/pack.h"

/* MPI's placement of the ranks, or a mapping file's. */
typedef struct {
    sc_placement_t placement;
    int *pi;
    const char *name;
    char chosen[64]; /* what --objective time made of the partition, which name
                        then points to */
} sc_cli_place_t;

/* Where the curves are measured. */
typedef struct {
    const sc_platform_t *plat;
    int np;
    const sc_cli_place_t *place;
    const sc_profile_t *profile;
    double turning_from;
} sc_cli_bench_t;

/* The sizes of a curve: 2 B to 4 MiB, powers of two and the halves
 * between them, in whole elements for reductions. */
enum { CURVE_MAX = 64 };
typedef struct {
    double bytes[CURVE_MAX], seconds[CURVE_MAX];
    int n;
} sc_cli_curve_t;

/* The curve of the type of communication of `proto` on b's ranks: its
 * simulated time at each size. */
sc_err_t sc_cli_measure_curve(const sc_cli_bench_t *b, const sc_stmt_t *proto,
                              sc_cli_curve_t *curve);

/* What --pack auto found, type by type. */
typedef struct {
    const sc_cli_bench_t *bench;
    struct known {
        sc_stmt_t proto;
        sc_interval_t interval;
        int found;
    } * known;
    int n, cap;
} sc_cli_intervals_t;

/* sc_pack's interval of a statement's type (ctx: an sc_cli_intervals_t),
 * measured the first time the type is asked for; and what was found, on
 * stderr. */
sc_err_t sc_cli_interval_of(void *ctx, const sc_stmt_t *st, sc_interval_t *iv);
void sc_cli_print_intervals(const sc_cli_intervals_t *ivs, int np);

/* simcoll tune's options (run_opts.h) */
extern const sc_run_syntax_t sc_cli_tune_syntax;

#endif
