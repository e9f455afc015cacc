/* Running gnuplot (gnuplot.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "gnuplot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "sim/io/files.h"

/* OUT.gp: the script itself, whole or not at all. */
static sc_err_t write_script_file(const char *option, const char *path, const char *script)
{
    sc_outputs_t *outs;
    FILE *f;
    sc_err_t err = sc_output_open(option, path, &outs, &f);
    if (err)
        return err;
    fputs(script, f);
    return sc_outputs_commit(outs);
}

sc_err_t sc_gnuplot(const char *option, const char *path, const char *script)
{
    if (sc_ends_with(path, ".gp"))
        return write_script_file(option, path, script);
    char script_path[] = "/tmp/simcoll-plot-XXXXXX";
    int fd = mkstemp(script_path);
    size_t len = strlen(script);
    int written = fd >= 0 && sc_write_all(fd, script, len) == 0;
    if (fd >= 0)
        written = close(fd) == 0 && written;
    if (!written) {
        if (fd >= 0)
            unlink(script_path);
        return sc_error(SC_ERR_RUN, "%s %s: cannot write gnuplot's script in /tmp", option, path);
    }
    sc_outputs_t *outs;
    FILE *out;
    sc_err_t err = sc_output_open(option, path, &outs, &out);
    char command[64];
    snprintf(command, sizeof command, "gnuplot %s 2>/dev/null", script_path);
    FILE *g = !err ? popen(command, "r") : NULL;
    size_t got = 0, n;
    char chunk[65536];
    while (g && (n = fread(chunk, 1, sizeof chunk, g)) > 0)
        got += fwrite(chunk, 1, n, out);
    int status = g ? pclose(g) : -1;
    unlink(script_path);
    if (!err && (status != 0 || got == 0))
        err = sc_error(SC_ERR_RUN,
                       "%s %s: gnuplot failed (is it installed? apt-get install gnuplot-nox)",
                       option, path);
    if (err) {
        sc_outputs_discard(outs);
        return err;
    }
    return sc_outputs_commit(outs);
}

sc_err_t sc_gnuplot_terminal(const char *option, const char *path, const char **terminal)
{
    /* A script is written for a PNG: gnuplot OUT.gp > OUT.png. */
    if (sc_ends_with(path, ".png") || sc_ends_with(path, ".gp"))
        *terminal = "pngcairo noenhanced size 900,560 font ',11'";
    else if (sc_ends_with(path, ".svg"))
        *terminal = "svg noenhanced size 900,560 font ',11' background rgb 'white'";
    else
        return sc_error(SC_ERR_INPUT,
                        "%s '%s': the file name says what to draw: end it in .png "
                        "or .svg (or .gp for gnuplot's script)",
                        option, path);
    return SC_OK;
}

void sc_gnuplot_quote(const char *text, char *out, size_t size)
{
    size_t q = 0;
    for (const char *t = text; *t && q + 3 < size; t++) {
        if (*t == '\'')
            out[q++] = '\'';
        out[q++] = *t == '\n' ? ' ' : *t;
    }
    out[q] = '\0';
}
