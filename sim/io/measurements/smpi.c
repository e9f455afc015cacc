/* SimGrid platform-calibration CSV: "MPI_Op,size,start,duration" rows, in
 * seconds. One file is one experiment: Isend (MPI_Isend rows), Recv
 * (MPI_Recv rows) or PingPong (MPI_Send then MPI_Recv of the same size,
 * both timed on the initiator).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "reader.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { OP_SEND, OP_RECV, OP_ISEND, OP_OTHER };

typedef struct {
    int op;
    size_t bytes;
    double duration;
} smpi_row_t;

/* Parses the current line: 1 with *row, 0 for a line to skip (blank, a
 * header), -1 with *err. */
static int smpi_row(sc_meas_reader_t *r, smpi_row_t *row, int *header_seen, sc_err_t *err)
{
    static const struct {
        const char *name;
        int op;
    } ops[] = {{"MPI_Send", OP_SEND},  {"MPI_Recv", OP_RECV},    {"MPI_Isend", OP_ISEND},
               {"MPI_Test", OP_OTHER}, {"MPI_Iprobe", OP_OTHER}, {"MPI_Wtime", OP_OTHER}};
    char copy[SC_MEAS_LINE_MAX + 1], shown[80];
    char *s = sc_meas_trim(r->buf);
    if (!*s || *s == '#')
        return 0;
    snprintf(copy, sizeof copy, "%s", s);
    char *field[4];
    int n = 0;
    for (char *p = s;; p++) {
        if (n < 4)
            field[n] = p;
        n++;
        p += strcspn(p, ",");
        if (!*p)
            break;
        *p = '\0';
    }
    if (n != 4) {
        *err = sc_error_at(r->where, r->line,
                           "'%s' has %d comma-separated fields; expected 4: "
                           "operation,size,start,duration",
                           sc_meas_show(copy, shown, sizeof shown), n);
        return -1;
    }
    for (int i = 0; i < 4; i++)
        field[i] = sc_meas_trim(field[i]);
    if (!*header_seen && strcasecmp(field[0], "Op") == 0 && strcasecmp(field[1], "Size") == 0 &&
        strcasecmp(field[2], "Start") == 0 && strcasecmp(field[3], "Duration") == 0) {
        *header_seen = 1;
        return 0;
    }
    *header_seen = 1;
    row->op = -1;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(field[0], ops[i].name) == 0)
            row->op = ops[i].op;
    if (row->op < 0) {
        *err = sc_error_at(r->where, r->line,
                           "operation '%s' is not one of the calibration's; expected "
                           "MPI_Send, MPI_Recv, MPI_Isend (or MPI_Test, MPI_Iprobe, MPI_Wtime, "
                           "skipped)",
                           sc_meas_show(field[0], shown, sizeof shown));
        return -1;
    }
    double start;
    if ((*err = sc_meas_get_size(r, "size", field[1], &row->bytes)) ||
        (*err = sc_meas_get_real(r, "start", field[2], &start)) ||
        (*err = sc_meas_get_real(r, "duration", field[3], &row->duration)))
        return -1;
    return 1;
}

sc_err_t sc_meas_smpi_parse(sc_meas_reader_t *r)
{
    /* First pass: check every row and see which experiment this is. */
    int line_of[3] = {0, 0, 0}, header_seen = 0;
    smpi_row_t row;
    sc_err_t err = SC_OK;
    sc_meas_rewind(r);
    while (sc_meas_next_line(r, &err) > 0) {
        int got = smpi_row(r, &row, &header_seen, &err);
        if (got < 0)
            return err;
        if (got && row.op != OP_OTHER && !line_of[row.op])
            line_of[row.op] = r->line;
    }
    if (err)
        return err;
    if (line_of[OP_ISEND] && (line_of[OP_SEND] || line_of[OP_RECV])) {
        int other = line_of[OP_SEND] ? line_of[OP_SEND] : line_of[OP_RECV];
        return sc_error_at(r->where, other,
                           "%s rows among the MPI_Isend rows of line %d; expected one experiment "
                           "per file: Isend, Recv or PingPong",
                           line_of[OP_SEND] ? "MPI_Send" : "MPI_Recv", line_of[OP_ISEND]);
    }
    sc_measure_kind_t kind = line_of[OP_ISEND]  ? SC_MEASURE_SEND_OVERHEAD
                             : line_of[OP_SEND] ? SC_MEASURE_LATENCY
                                                : SC_MEASURE_RECV_OVERHEAD;
    const char *source = line_of[OP_ISEND]  ? "SimGrid platform-calibration Isend"
                         : line_of[OP_SEND] ? "SimGrid platform-calibration PingPong"
                                            : "SimGrid platform-calibration Recv";
    if (!line_of[OP_ISEND] && !line_of[OP_SEND] && !line_of[OP_RECV])
        return sc_error_at(r->where, 0,
                           "no MPI_Send, MPI_Recv or MPI_Isend row; expected the Isend, Recv "
                           "or PingPong CSV of SimGrid's platform calibration");
    /* Second pass: the points. */
    header_seen = 0;
    int send_line = 0;
    smpi_row_t send = {0, 0, 0};
    sc_meas_rewind(r);
    while (!err && sc_meas_next_line(r, &err) > 0) {
        int got = smpi_row(r, &row, &header_seen, &err);
        if (got <= 0 || row.op == OP_OTHER)
            continue;
        if (r->open < 0 && (err = sc_meas_series_open(r, r->buf, kind, source, NULL, 0, 0)))
            break;
        if (kind != SC_MEASURE_LATENCY) {
            err = sc_meas_point_add(r, row.bytes, row.duration, NAN);
        } else if (row.op == OP_SEND) {
            if (send_line)
                err = sc_error_at(r->where, r->line,
                                  "an MPI_Send after the MPI_Send of line %d; expected "
                                  "MPI_Recv rows to follow MPI_Send rows (a PingPong CSV)",
                                  send_line);
            send = row;
            send_line = r->line;
        } else if (!send_line) {
            err = sc_error_at(r->where, r->line,
                              "an MPI_Recv that follows no MPI_Send; expected MPI_Send "
                              "then MPI_Recv of the same size (a PingPong CSV)");
        } else if (row.bytes != send.bytes) {
            err = sc_error_at(r->where, r->line,
                              "an MPI_Recv of %zu bytes after the MPI_Send of %zu on line "
                              "%d; expected the same size",
                              row.bytes, send.bytes, send_line);
        } else {
            /* Round trip: MPI_Send's time plus the MPI_Recv that waited for
             * the answer; one way is half of it. */
            int line = r->line;
            r->line = send_line;
            err = sc_meas_point_add(r, row.bytes, (send.duration + row.duration) / 2, NAN);
            r->line = line;
            send_line = 0;
        }
    }
    if (!err && send_line)
        err = sc_error_at(r->where, send_line,
                          "an MPI_Send without its MPI_Recv; expected MPI_Send then "
                          "MPI_Recv of the same size (a PingPong CSV)");
    return err;
}

int sc_meas_smpi_row(const char *line)
{
    int commas = 0;
    for (const char *p = line; *p; p++)
        commas += *p == ',';
    if (commas != 3)
        return 0;
    char op[32];
    size_t n = strcspn(line, ",");
    if (n >= sizeof op)
        return 0;
    memcpy(op, line, n);
    op[n] = '\0';
    char *o = sc_meas_trim(op);
    return sc_meas_starts_with(o, "MPI_") || strcasecmp(o, "Op") == 0;
}
