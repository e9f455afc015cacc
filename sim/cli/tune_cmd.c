/* simcoll tune (tune_cmd.h), and the curves packing measures.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "tune_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "args.h"
#include "common/sc_units.h"
#include "gnuplot.h"
#include "program_cmd.h"
#include "sim/engine/run.h"
#include "sim/io/files.h"

static void print_tune_usage(void)
{
    fputs("usage: simcoll tune --platform FILE --coll NAME [--np N] [--algo A | --mpi P]\n"
          "         [--dims D] [--op OP] [--type T] [--root R] [--mapping M]\n"
          "         [-o CURVE.csv] [--plot CURVE.png] [--format table|csv]\n"
          "         [--turning-from SIZE (default 1M, as the patent)]\n",
          stdout);
}

static const int tune_accepts[] = {
    SC_OPT_PLATFORM,     SC_OPT_NP,   SC_OPT_MAPPING,      SC_OPT_MPI_PROGRAM,
    SC_OPT_COLL_TUNE,    SC_OPT_ALGO, SC_OPT_DIMS,         SC_OPT_OP,
    SC_OPT_TYPE,         SC_OPT_ROOT, SC_OPT_OUTPUT,       SC_OPT_PLOT,
    SC_OPT_FORMAT_CURVE, SC_OPT_HELP, SC_OPT_TURNING_FROM, 0};

const sc_run_syntax_t sc_cli_tune_syntax = {
    .name = "tune",
    .shortopts = ":o:",
    .options = tune_accepts,
    .help = print_tune_usage,
};

sc_err_t sc_cli_measure_curve(const sc_cli_bench_t *b, const sc_stmt_t *proto,
                              sc_cli_curve_t *curve)
{
    size_t align = 1;
    if (proto->kind == SC_STMT_CALL && sc_kind(proto->collective)->is_reduction)
        align = sc_type_size(proto->type);
    curve->n = 0;
    size_t last = 0;
    for (int k = 1; k <= 22; k++)
        for (int half = 0; half < 2 && curve->n < CURVE_MAX; half++) {
            size_t m = half ? ((size_t)3 << k) / 2 : (size_t)1 << k;
            if (k == 22 && half)
                continue;
            m = m / align * align;
            if (m == 0 || m == last)
                continue;
            last = m;
            sc_piece_t piece = {0, 0, 0, m, m, 0, 0};
            sc_stmt_t st = *proto;
            st.bytes = m;
            st.pieces = &piece;
            st.npieces = 1;
            st.line = 0;
            sc_buffer_t buffer = {(char *)"data"};
            sc_program_t prog = {(char *)"tune", &st, 1, &buffer, 1};
            sc_run_spec_t spec = {.plat = b->plat,
                                  .program = &prog,
                                  .profile = b->profile,
                                  .np = b->np,
                                  .placement = b->place->placement,
                                  .pi = b->place->pi};
            sc_run_result_t res;
            sc_err_t err = sc_run(&spec, &res);
            if (err)
                return err;
            curve->bytes[curve->n] = (double)m;
            curve->seconds[curve->n++] = res.sim_time_s;
            sc_run_result_destroy(&res);
        }
    return SC_OK;
}

sc_err_t sc_cli_interval_of(void *ctx, const sc_stmt_t *st, sc_interval_t *iv)
{
    sc_cli_intervals_t *ivs = ctx;
    for (int i = 0; i < ivs->n; i++)
        if (sc_stmt_same_type(&ivs->known[i].proto, st)) {
            *iv = ivs->known[i].interval;
            return SC_OK;
        }
    if (ivs->n == ivs->cap) {
        int cap = ivs->cap ? 2 * ivs->cap : 8;
        struct known *more = realloc(ivs->known, (size_t)cap * sizeof *more);
        if (!more)
            return sc_error(SC_ERR_RUN, "out of memory");
        ivs->known = more;
        ivs->cap = cap;
    }
    sc_cli_curve_t curve;
    struct known *k = &ivs->known[ivs->n];
    sc_err_t err = sc_cli_measure_curve(ivs->bench, st, &curve);
    if (!err)
        err = sc_interval_find(curve.bytes, curve.seconds, curve.n, ivs->bench->turning_from,
                               &k->interval, &k->found);
    if (err)
        return err;
    k->proto = *st;
    k->proto.pieces = NULL;
    k->proto.npieces = 0;
    ivs->n++;
    *iv = k->interval;
    return SC_OK;
}

void sc_cli_print_intervals(const sc_cli_intervals_t *ivs, int np)
{
    for (int i = 0; i < ivs->n; i++) {
        char type[160], lo[32], hi[32];
        sc_stmt_format(&ivs->known[i].proto, 0, type, sizeof type);
        sc_format_bytes((double)ivs->known[i].interval.min, lo, sizeof lo);
        sc_format_bytes((double)ivs->known[i].interval.max, hi, sizeof hi);
        fprintf(stderr, "simcoll: --pack auto: %s at np %d: [%s, %s]%s\n", type, np, lo, hi,
                ivs->known[i].found ? "" : " (no turning point: max is the largest size measured)");
    }
}

/* ---- simcoll tune ---- */

/* The statement whose type --coll and the other options describe. */
static sc_err_t tune_prototype(const sc_run_opts_t *o, sc_stmt_t *st)
{
    *st = (sc_stmt_t){.op = o->op, .type = o->type, .root = o->root};
    const sc_kind_t *named = sc_kind_find(o->coll);
    const char *unused = o->dims && strcmp(o->coll, "halo") ? "--dims"
                         : (o->op_given || o->type_given) && !(named && named->is_reduction)
                             ? (o->op_given ? "--op" : "--type")
                         : o->root_given && !(named && named->has_root) ? "--root"
                         : o->algo && !named                            ? "--algo"
                                                                        : NULL;
    if (unused)
        return sc_error(SC_ERR_INPUT,
                        "%s does not apply to --coll %s (--dims: halo; --op, "
                        "--type: reduce, allreduce; --root: bcast, reduce, scatter; "
                        "--algo: the collectives)",
                        unused, o->coll);
    if (!strcmp(o->coll, "halo")) {
        st->kind = SC_STMT_HALO;
        st->grid.ndims = 1;
        if (o->dims) {
            char text[64];
            snprintf(text, sizeof text, "halo 8 dims=%s", o->dims);
            sc_program_t prog;
            sc_err_t err = sc_program_parse("--dims", text, strlen(text), &prog);
            if (err)
                return sc_error(SC_ERR_INPUT, "--dims %s: use 1, 2 or 3, or the sizes, e.g. 8x8",
                                o->dims);
            st->grid = prog.stmts[0].grid;
            sc_program_destroy(&prog);
        }
        return SC_OK;
    }
    if (!strcmp(o->coll, "send")) {
        st->kind = SC_STMT_SEND;
        st->from = 0;
        st->to = -1; /* the last rank, once p is known */
        return SC_OK;
    }
    const sc_kind_t *kind = sc_kind_find(o->coll);
    if (!kind)
        return sc_cli_coll("--coll", o->coll);
    if (!kind->has_data)
        return sc_error(SC_ERR_INPUT,
                        "--coll: '%s' has no sizes to tune; use one of allgather, "
                        "bcast, reduce, allreduce, scatter, halo, send",
                        o->coll);
    st->kind = SC_STMT_CALL;
    st->collective = kind->collective;
    if (o->algo) {
        st->choice.algo = sc_algo_find(o->algo);
        if (!st->choice.algo)
            return sc_error(SC_ERR_INPUT, "--algo: unknown algorithm '%s'; did you mean '%s'?",
                            o->algo, sc_algo_nearest(o->algo)->name);
        if (st->choice.algo->collective != kind->collective)
            return sc_error(SC_ERR_INPUT, "--algo %s is for %s, not %s", o->algo,
                            sc_kind(st->choice.algo->collective)->name, kind->name);
    } else {
        st->choice.profile = o->mpi;
    }
    return SC_OK;
}

/* gnuplot draws the curve into a PNG, which goes out whole or not at all. */
static sc_err_t plot_curve(const char *path, const char *title, const sc_cli_curve_t *c,
                           const sc_interval_t *iv)
{
    char quoted[512], *script = NULL;
    size_t len;
    const char *terminal;
    sc_err_t err = sc_gnuplot_terminal("--plot", path, &terminal);
    FILE *s = err ? NULL : open_memstream(&script, &len);
    if (err || !s)
        return err ? err : sc_error(SC_ERR_RUN, "out of memory");
    sc_gnuplot_quote(title, quoted, sizeof quoted);
    fprintf(s,
            "set terminal %s\nset output\n"
            "set logscale x 2\nset xlabel 'size'\nset ylabel 'MB/s'\n"
            "set xtics ('2 B' 2, '32 B' 32, '1 KiB' 1024, '32 KiB' 32768, '1 MiB' 1048576)\n"
            "set title '%s'\nset key top left\n"
            "set arrow from %zu, graph 0 to %zu, graph 1 nohead dt 2\n"
            "set arrow from %zu, graph 0 to %zu, graph 1 nohead dt 2\n"
            "plot '-' with linespoints title 'bandwidth'\n",
            terminal, quoted, iv->min, iv->min, iv->max, iv->max);
    for (int i = 0; i < c->n; i++)
        fprintf(s, "%.0f %.6g\n", c->bytes[i], c->bytes[i] / c->seconds[i] / 1e6);
    fprintf(s, "e\n");
    err =
        fclose(s) == 0 ? sc_gnuplot("--plot", path, script) : sc_error(SC_ERR_RUN, "out of memory");
    free(script);
    return err;
}

int sc_cli_tune(int argc, char **argv)
{
    sc_run_opts_t o;
    int done, np;
    sc_err_t err = sc_cli_program_options(argc, argv, 1, &o, &done);
    if (err || done)
        return err ? sc_cli_fail(err) : 0;
    sc_platform_t plat = {0};
    sc_cli_place_t pl = {0};
    sc_stmt_t proto;
    sc_cli_curve_t curve;
    sc_interval_t iv;
    int found = 0;
    if ((err = tune_prototype(&o, &proto)) ||
        (err = sc_platform_load("--platform", o.platform, &plat)))
        goto cleanup;
    np = plat.total_cores;
    if (o.np_list && (err = sc_parse_int(o.np_list, "--np", 1, 1 << 30, &np)))
        goto cleanup;
    if (np < 2) {
        err = sc_error(SC_ERR_INPUT,
                       "tune at np 1: one process communicates with nobody, so "
                       "--coll %s has no bandwidth curve; give --np 2 or more",
                       o.coll);
        goto cleanup;
    }
    if (proto.kind == SC_STMT_SEND)
        proto.to = np - 1;
    if ((err = sc_cli_make_place(o.mapping, np, &pl)))
        goto cleanup;
    sc_cli_bench_t bench = {&plat, np, &pl, o.mpi, o.turning_from};
    if ((err = sc_cli_measure_curve(&bench, &proto, &curve)) ||
        (err = sc_interval_find(curve.bytes, curve.seconds, curve.n, o.turning_from, &iv, &found)))
        goto cleanup;
    char type[160];
    sc_stmt_format(&proto, 0, type, sizeof type);
    sc_outputs_t *outs = NULL;
    FILE *f = stdout;
    if (o.out) {
        outs = sc_outputs_new();
        err = outs ? sc_outputs_add(outs, "-o", o.out, &f) : sc_error(SC_ERR_RUN, "out of memory");
    }
    if (!err) {
        sc_provenance_t prov = {o.platform, argc, argv};
        if (o.out || o.format == SC_FORMAT_CSV) {
            fprintf(f, "size_bytes,time_s,bandwidth_Bps,simcoll_version,platform_file,command\n");
            for (int i = 0; i < curve.n; i++) {
                fprintf(f, "%.0f,%.9e,%.9e", curve.bytes[i], curve.seconds[i],
                        curve.bytes[i] / curve.seconds[i]);
                sc_provenance_csv_fields(f, &prov);
                fputc('\n', f);
            }
        } else {
            fprintf(f, "%12s  %12s  %12s\n", "size", "time", "bandwidth");
            for (int i = 0; i < curve.n; i++) {
                char size[32], time[32];
                sc_format_bytes(curve.bytes[i], size, sizeof size);
                sc_format_duration(curve.seconds[i], time, sizeof time);
                fprintf(f, "%12s  %12s  %7.1f MB/s\n", size, time,
                        curve.bytes[i] / curve.seconds[i] / 1e6);
            }
            sc_provenance_line(f, &prov);
        }
        err = outs ? sc_outputs_commit(outs) : SC_OK;
    } else {
        sc_outputs_discard(outs);
    }
    if (!err && o.plot) {
        char title[256];
        snprintf(title, sizeof title, "%s on %s, np %d", type, plat.name, np);
        err = plot_curve(o.plot, title, &curve, &iv);
    }
    if (!err) {
        char lo[32], hi[32];
        sc_format_bytes((double)iv.min, lo, sizeof lo);
        sc_format_bytes((double)iv.max, hi, sizeof hi);
        FILE *note = o.out || o.format == SC_FORMAT_CSV ? stderr : stdout;
        fprintf(note, "%s%s on %s at np %d: interval [min, max] = [%s, %s]%s\n",
                note == stderr ? "simcoll: " : "", type, plat.name, np, lo, hi,
                found ? " (the bandwidth falls after max, then climbs again)"
                      : " (no turning point: max is the largest size measured)");
    }
cleanup:
    free(pl.pi);
    sc_platform_destroy(&plat);
    return err ? sc_cli_fail(err) : 0;
}
