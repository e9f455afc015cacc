/* DUMPI rank files read record by record (dumpi_record.c): a record's
 * function, wall times and fields, as the table dumpi_layout.inc lays
 * them out. What a record means is the rank reader's (dumpi.c). Private
 * to sim/trace/dumpi*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_DUMPI_RECORD_H
#define SC_DUMPI_RECORD_H

#include "reader.h"

/* The first 8 bytes of a rank file. */
#define SC_DUMPI_MAGIC "\xff\xaa\xdd" "DUMPI"

/* The function ids that are no MPI call: a user's annotations, and the
 * label that ends the records. */
enum { SC_DUMPI_FUNCTION_ENTER = 291, SC_DUMPI_FUNCTION_EXIT = 292, SC_DUMPI_END = 293 };

/* A value of a record's field: a number, or an array in the file's
 * scratch (`at`, `n`). A field the layout leaves out is INT64_MIN. */
typedef struct {
    int64_t v;
    size_t at;
    int n;
} sc_dumpi_field_t;

enum { SC_DUMPI_MAX_FIELDS = 32 };

/* The wall clock every rank file's times count from, shared by a trace's
 * files: the offset of the first file read, so that times are seconds
 * from it, exact in a double where seconds since 1970 are not to the
 * nanosecond. */
typedef struct {
    double base;
    int based;
} sc_dumpi_clock_t;

/* One rank's file, and the record last read. */
typedef struct {
    const char *file;
    int rank;
    sc_tfile_t f;
    int version[3];
    long long body, header, footer, sizelbl;
    double wall_offset;
    uint32_t *type_size; /* by datatype handle */
    int ntypes;
    long record;         /* records read */
    long long record_at; /* its offset */
    int id, mask;
    double began, ended; /* the record's wall times */
    int last_sec;        /* to undo the u16 seconds' wrap */
    double wraps;
    sc_dumpi_field_t fields[SC_DUMPI_MAX_FIELDS];
    int nfields;
    int64_t *scratch; /* arrays of the record being read */
    size_t nscratch, cap_scratch;
    int status_source, status_tag, status_n; /* the record's first status */
} sc_dumpi_file_t;

/* Opens rank `rank`'s file `path` (kept, not copied) and reads its
 * sections: its version, datatypes' sizes and wall clock, against
 * `clock`. Nothing to close on error. */
sc_err_t sc_dumpi_file_open(sc_dumpi_file_t *df, const char *path, int rank,
                            sc_dumpi_clock_t *clock);
void sc_dumpi_file_close(sc_dumpi_file_t *df);

/* The next record's prelude and fields; *end set at the label that ends
 * the body. SC_ERR_INPUT naming the file and record on a corrupt one. */
sc_err_t sc_dumpi_read_record(sc_dumpi_file_t *df, int *end);

/* MPI's name of function `id` ("MPI_Send"), or NULL for an id DUMPI does
 * not write. */
const char *sc_dumpi_function_name(int id);

/* SC_ERR_INPUT: the record last read is corrupt, as `what` says. */
sc_err_t sc_dumpi_corrupt(const sc_dumpi_file_t *df, const char *what);

/* Room for n values in the scratch of the record last read, at *at. */
sc_err_t sc_dumpi_scratch_take(sc_dumpi_file_t *df, size_t n, size_t *at);

#endif
