/* SMPI's calibration settings in a platform file's <config> (SimGrid
 * 3.32): read into simcoll's network level, and written from it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_SMPI_CONFIG_H
#define SC_SMPI_CONFIG_H

#include <stdio.h>

#include "models/platform.h"
#include "platform_props.h"

/* The settings read, and simcoll's network-level parameter each gives:
 *
 *   smpi/os                        simcoll/inter/send-overhead
 *   smpi/or                        simcoll/inter/recv-overhead
 *   smpi/bw-factor                 simcoll/inter/bandwidth-factor
 *   smpi/lat-factor                simcoll/inter/latency-factor
 *   smpi/async-small-thresh   }    simcoll/inter/eager-limit, both equal to
 *   smpi/send-is-detached-thresh } the eager limit + 1
 *
 * in SMPI's syntax and units: SIZE:START:PER_BYTE;... (os, or; START and
 * PER_BYTE durations, a bare number seconds) and SIZE:FACTOR;... (factors),
 * SIZE whole bytes. SMPI's segment at SIZE applies to messages larger than
 * SIZE (its first os/or segment to every smaller message too, and a factor
 * of 1 below its first factor), and its factors go by the message's size
 * plus its 16-byte envelope (SC_SMPI_ENVELOPE): the translation moves the
 * boundaries accordingly, so that every message size gets SMPI's value. */
enum {
    SC_SMPI_OS,
    SC_SMPI_OR,
    SC_SMPI_BW_FACTOR,
    SC_SMPI_LAT_FACTOR,
    SC_SMPI_ASYNC_SMALL,
    SC_SMPI_DETACHED,
    SC_SMPI_N
};

/* SMPI 3.32 sends a message of m bytes as m + 16 (smpi_request.cpp), and
 * its bandwidth and latency factors go by that size. */
enum { SC_SMPI_ENVELOPE = 16 };

/* "smpi/os", ... by the enum above. */
extern const char *const sc_smpi_names[SC_SMPI_N];

/* The setting named `id`, or -1. */
int sc_smpi_find(const char *id);

/* For a name SimGrid 3.32 does not know but older calibration scripts
 * write (platform-calibration's smpi/async-small-thres), its name now;
 * else NULL. */
const char *sc_smpi_renamed(const char *id);

/* Translates the settings (value[k], NULL where absent, found on line[k]
 * of the file that `file` names in messages, "--platform 'p.xml'") into
 * the texts of simcoll's network-level properties: text[i] (new strings,
 * the caller frees them) for the props of sc_platform_props_list, NULL
 * where no setting gives it; from[i] is then the setting (its enum) the
 * text comes from. Values are written in the fewest digits that read back
 * as the same doubles. SC_ERR_INPUT names the setting, the line, and what is
 * valid; what cannot be simulated as SMPI would (a latency factor below
 * 1, the two thresholds different, a negative overhead) is refused. */
sc_err_t sc_smpi_translate(const char *file, const char *const value[SC_SMPI_N],
                           const int line[SC_SMPI_N], char *text[SC_MAX_PLATFORM_PROPS],
                           int from[SC_MAX_PLATFORM_PROPS]);

/* The name of the network-level parameter setting k gives
 * ("send-overhead", ...). */
const char *sc_smpi_param(int k);

/* 1 if the network-level property `prop` is one the settings give (or the
 * constant form of one). */
int sc_smpi_gives(const sc_platform_prop_t *prop);

/* Writes a <config> section whose settings are `lv`'s (the network level),
 * each line after `indent`. SC_ERR_INPUT if SMPI cannot hold one (a size
 * beyond its int). */
sc_err_t sc_smpi_write(FILE *f, const sc_level_t *lv, const char *indent);

#endif
