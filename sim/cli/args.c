/* What every simcoll command does with its arguments: lists, choices,
 * options getopt refused, and the message of a failure.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "args.h"
#include "plugin.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"
#include "algorithms/registry.h"
#include "sim/io/files.h"

int sc_cli_fail(sc_err_t err)
{
    fprintf(stderr, "simcoll: %s\n", sc_error_message());
    return (int)err;
}

int sc_cli_finish(int code)
{
    sc_err_t err = sc_stdout_finish();
    return err && !code ? sc_cli_fail(err) : code;
}

/* Splits a comma-separated list in place into *items (caller frees the
 * array) and its length *n. An empty item is bad input. */
sc_err_t sc_cli_split_list(char *text, const char *what, char ***items, int *n)
{
    *n = 1;
    for (const char *p = text; *p; p++)
        *n += *p == ',';
    *items = malloc((size_t)*n * sizeof **items);
    if (!*items)
        return sc_error(SC_ERR_RUN, "out of memory");
    int i = 0;
    for (char *item = text, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (!*item)
            return sc_error(SC_ERR_INPUT, "%s: empty item in the comma-separated list", what);
        (*items)[i++] = item;
    }
    return SC_OK;
}

sc_err_t sc_cli_distinct_nps(const int *nps, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (nps[j] == nps[i])
                return sc_error(SC_ERR_INPUT, "--np: %d is listed twice", nps[i]);
    return SC_OK;
}

/* The option getopt_long just refused, as the user wrote it. `before` is
 * optind before the call: getopt_long moves past a word only once done
 * with it, so a letter inside a cluster like -xyz is still at args[optind]
 * while a finished word is at args[optind - 1]. */
const char *sc_cli_refused_option(char **args, int before, const struct option *longopts)
{
    static char text[300];
    const char *word = optind == before ? args[optind] : args[optind - 1];
    if (!word)
        word = "?";
    /* -np 8 as mpirun spells it: name the word, and the option meant. */
    size_t len = strcspn(word, "=");
    for (const struct option *o = longopts; o && o->name && word[0] == '-' && word[1] != '-';
         o++)
        if (len > 2 && strlen(o->name) == len - 1 && strncmp(o->name, word + 1, len - 1) == 0) {
            snprintf(text, sizeof text, "%.*s' (long options take two dashes: -%.*s)", (int)len,
                     word, (int)len, word);
            return text;
        }
    if (optopt && word[0] == '-' && word[1] != '-' && strlen(word) > 2)
        snprintf(text, sizeof text, "-%c' (in '%.200s')", optopt, word);
    else
        snprintf(text, sizeof text, "%.200s'", word);
    return text;
}

/* "did you mean 'csv'? " where one of names is close to value
 * (sc_name_close), else "", in out. */
static const char *did_you_mean(const char *value, const char *const *names, char *out,
                                size_t size)
{
    const char *close = sc_name_close(value, names);
    snprintf(out, size, "%s%s%s", close ? "did you mean '" : "", close ? close : "",
             close ? "'? " : "");
    return out;
}

sc_err_t sc_cli_choice(const char *value, const char *option,
                             const char *const *choices, int *index)
{
    for (int i = 0; choices[i]; i++)
        if (strcmp(value, choices[i]) == 0) {
            *index = i;
            return SC_OK;
        }
    char valid[256] = "";
    for (int i = 0; choices[i]; i++) {
        strncat(valid, i ? ", " : "", sizeof valid - strlen(valid) - 1);
        strncat(valid, choices[i], sizeof valid - strlen(valid) - 1);
    }
    char hint[300];
    return sc_error(SC_ERR_INPUT, "%s: unknown value '%s'; %suse one of %s", option, value,
                    did_you_mean(value, choices, hint, sizeof hint), valid);
}

void sc_cli_accept_mpirun_np(int argc, char **argv)
{
    static char np[] = "--np";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-np"))
            argv[i] = np;
}

sc_err_t sc_cli_coll(const char *option, const char *name)
{
    if (sc_kind_find(name))
        return SC_OK;
    /* the names, out of sc_kind_names's list, for the nearest */
    char list[256];
    const char *names[32];
    int n = 0;
    snprintf(list, sizeof list, "%s", sc_kind_names());
    for (char *save = NULL, *w = strtok_r(list, ", ", &save); w && n < 31;
         w = strtok_r(NULL, ", ", &save))
        names[n++] = w;
    names[n] = NULL;
    char hint[300];
    return sc_error(SC_ERR_INPUT, "%s: unknown collective '%s'; %suse one of %s", option, name,
                    did_you_mean(name, names, hint, sizeof hint), sc_kind_names());
}

sc_err_t sc_cli_profile(const char *name, const sc_profile_t **out)
{
    *out = sc_profile_find(name);
    if (*out)
        return SC_OK;
    char known[256] = "";
    for (const sc_profile_t *p = sc_profiles; p->name; p++) {
        strncat(known, p == sc_profiles ? "" : ", ", sizeof known - strlen(known) - 1);
        strncat(known, p->name, sizeof known - strlen(known) - 1);
    }
    return sc_error(SC_ERR_INPUT, "--mpi: unknown profile '%s'; use one of %s (simcoll list --mpi)",
                    name, known);
}

sc_err_t sc_cli_data(const char *text, sc_cli_data_t *data)
{
    sc_err_t err;
    if (strncmp(text, "decider=", 8) == 0) {
        if (!(err = sc_deciders_parse(text + 8, &data->deciders_given)))
            data->deciders = &data->deciders_given;
        return err;
    }
    if (strncmp(text, "extreme=", 8) == 0) {
        if (!(err = sc_extreme_parse(text + 8, &data->extreme_given)))
            data->extreme = &data->extreme_given;
        return err;
    }
    return sc_error(SC_ERR_INPUT, "--data: unknown setting '%s'; use decider=... or "
                    "extreme=... (simcoll --help describes them)", text);
}

sc_err_t sc_cli_add_load(const char **loads, int *n, const char *path)
{
    if (*n == SC_CLI_MAX_LOADS)
        return sc_error(SC_ERR_INPUT, "--load: at most %d files", SC_CLI_MAX_LOADS);
    loads[(*n)++] = path;
    return SC_OK;
}

sc_err_t sc_cli_load_all(const char *const *loads, int n)
{
    sc_err_t err = SC_OK;
    for (int i = 0; i < n && !err; i++)
        err = sc_plugin_load(loads[i]);
    return err;
}

int sc_shell_quote(const char *word, char *out, size_t size)
{
    size_t n = 0;
    if (size < 3)
        return -1;
    out[n++] = '\'';
    for (const char *c = word; *c; c++) {
        const char *piece = *c == '\'' ? "'\\''" : NULL;
        size_t len = piece ? 4 : 1;
        if (n + len + 2 > size) {
            out[n] = '\0';
            return -1;
        }
        if (piece)
            memcpy(out + n, piece, len);
        else
            out[n] = *c;
        n += len;
    }
    out[n++] = '\'';
    out[n] = '\0';
    return 0;
}

int sc_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}
