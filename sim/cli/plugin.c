/* --load and new-algo (see plugin.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugin.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algorithms/kinds.h"
#include "algorithms/registry.h"
#include "args.h"
#include "cli.h"
#include "sim/simgrid/child.h"
#include "sim/io/files.h"

/* The -I flag of the plug-ins' header: this build's, the very text this
 * simcoll was compiled with, or once the build is gone, the installed one. */
static void include_flags(char *out, size_t size)
{
    char header[4200], dir[4096];
    snprintf(header, sizeof header, "%s/simcoll.h", SC_BUILD_INCLUDE_DIR);
    const char *found = access(header, R_OK) == 0 ? SC_BUILD_INCLUDE_DIR : SC_PLUGIN_INCLUDE_DIR;
    sc_shell_quote(found, dir, sizeof dir);
    snprintf(out, size, "-I%s", dir);
}

/* Compiles `path` into a shared object at `so`; the compiler's messages
 * become the error's, and when it compiles its warnings go to stderr, with
 * the user's file name and line. A call of a function simcoll.h does not
 * declare (sc_sendrcv for sc_sendrecv) is an error: a shared object may
 * leave a symbol undefined, and the load would then name only the
 * temporary file. */
static sc_err_t compile(const char *path, const char *so)
{
    const char *cc = getenv("CC");
    char flags[8300], src[4200], out[4200], command[17000];
    include_flags(flags, sizeof flags);
    if (sc_shell_quote(path, src, sizeof src) || sc_shell_quote(so, out, sizeof out))
        return sc_error(SC_ERR_INPUT, "--load %.64s...: the path is too long", path);
    snprintf(command, sizeof command,
             "%s -std=c11 -O2 -g -Wall -Werror=implicit-function-declaration -shared -fPIC %s "
             "-o %s %s 2>&1",
             cc && *cc ? cc : "cc", flags, out, src);
    FILE *p = popen(command, "r");
    if (!p)
        return sc_error(SC_ERR_RUN, "--load %s: cannot start the compiler: %s", path,
                        strerror(errno));
    char messages[4096] = "";
    size_t n = 0, got;
    char chunk[1024];
    while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
        if (n < sizeof messages - 1) {
            size_t take = got < sizeof messages - 1 - n ? got : sizeof messages - 1 - n;
            memcpy(messages + n, chunk, take);
            n += take;
            messages[n] = '\0';
        }
    int status = pclose(p);
    if (status != 0)
        return sc_error(SC_ERR_INPUT, "--load %s: it does not compile (%s):\n%s", path,
                        cc && *cc ? cc : "cc", messages[0] ? messages : "(no message)");
    if (messages[0])
        fprintf(stderr, "simcoll: --load %s: the compiler's warnings (%s):\n%s", path,
                cc && *cc ? cc : "cc", messages);
    return SC_OK;
}

static int valid_name(const char *name)
{
    if (!name || !*name || strlen(name) > 64)
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return 0;
    return 1;
}

/* Checks and adds every entry of the table. */
static sc_err_t add_table(const char *path, const sc_algo_t *table)
{
    int n = 0;
    for (const sc_algo_t *a = table; a->name && n <= SC_MAX_ADDED_ALGOS; a++, n++) {
        if (!valid_name(a->name))
            return sc_error(SC_ERR_INPUT,
                            "--load %s: entry %d of simcoll_algorithms: '%.64s' is not a name "
                            "(1 to 64 letters, digits, '_' and '-')",
                            path, n, a->name);
        if ((int)a->collective < 0 || (int)a->collective >= SC_NCOLLECTIVES)
            return sc_error(SC_ERR_INPUT,
                            "--load %s: %s: collective %d is none of SC_ALLGATHER, SC_BCAST, "
                            "SC_BARRIER, SC_REDUCE, SC_ALLREDUCE, SC_SCATTER",
                            path, a->name, (int)a->collective);
        if (!a->run)
            return sc_error(SC_ERR_INPUT, "--load %s: %s has no function to run", path, a->name);
        if (a->needs & ~(unsigned)(SC_NEEDS_POW2 | SC_USES_MAPPING))
            return sc_error(SC_ERR_INPUT,
                            "--load %s: %s: needs may be 0, SC_NEEDS_POW2 or SC_USES_MAPPING "
                            "for an algorithm of your own",
                            path, a->name);
        if (!a->doc)
            return sc_error(SC_ERR_INPUT, "--load %s: %s has no description (a string)", path,
                            a->name);
        sc_err_t err = sc_algo_add(a);
        if (err) {
            char why[512];
            snprintf(why, sizeof why, "%s", sc_error_message());
            return sc_error(SC_ERR_INPUT, "--load %s: %s", path, why);
        }
    }
    if (n == 0)
        return sc_error(SC_ERR_INPUT, "--load %s: simcoll_algorithms lists no algorithm", path);
    return SC_OK;
}

/* In a child: loads the plug-in at `arg` as sc_plugin_load will, so that
 * code the plug-in runs as it loads (constructors) and that ends the
 * process ends this child, where sc_child_run sees how, and not simcoll
 * (an exit(0) there was a silent exit 0). Its output goes to the child's
 * log, which is dropped: a plug-in that loads fine speaks once, when
 * simcoll loads it. */
static sc_err_t try_load(void *arg, sc_wire_t *out)
{
    (void)out;
    dup2(STDERR_FILENO, STDOUT_FILENO); /* stderr is the log */
    dlopen(arg, RTLD_NOW | RTLD_LOCAL); /* a failure is for the real load to say */
    return SC_OK;
}

sc_err_t sc_plugin_load(const char *path)
{
    int source = sc_ends_with(path, ".c");
    if (!source && !sc_ends_with(path, ".so"))
        return sc_error(SC_ERR_INPUT, "--load %s: give a C file (.c) or a shared object (.so)",
                        path);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return sc_error(SC_ERR_INPUT, "--load %s: %s", path,
                        errno ? strerror(errno) : "not a regular file");
    char so[] = "/tmp/simcoll-plugin-XXXXXX";
    if (source) {
        int fd = mkstemp(so);
        if (fd < 0)
            return sc_error(SC_ERR_RUN, "--load %s: cannot make a file in /tmp: %s", path,
                            strerror(errno));
        close(fd);
        sc_err_t err = compile(path, so);
        if (err) {
            unlink(so);
            return err;
        }
    }
    /* dlopen needs a slash to take the name as a path. */
    char where[4200];
    snprintf(where, sizeof where, "%s%s", source || strchr(path, '/') ? "" : "./",
             source ? so : path);
    char what[4300];
    snprintf(what, sizeof what, "--load %s: the plug-in ended the process while loading", path);
    sc_wire_t in;
    sc_err_t err = sc_child_run(try_load, where, SC_ERR_INPUT, what, &in);
    if (err) {
        if (source)
            unlink(so);
        char why[1024];
        snprintf(why, sizeof why, "%s", sc_error_message());
        return sc_error(err, "%s; code a plug-in runs as it loads (a constructor) must return",
                        why);
    }
    sc_wire_free(&in);
    void *handle = dlopen(where, RTLD_NOW | RTLD_LOCAL);
    if (source)
        unlink(so); /* the mapping stays */
    if (!handle) {
        /* The compiled file is a temporary one: its name means nothing. */
        char why[2048];
        const char *said = dlerror(), *at = source ? strstr(said, so) : NULL;
        snprintf(why, sizeof why, "%.*s%s%s", at ? (int)(at - said) : (int)strlen(said), said,
                 at ? "the plug-in" : "", at ? at + strlen(so) : "");
        return sc_error(SC_ERR_INPUT, "--load %s: cannot load it: %s", path, why);
    }
    const sc_algo_t *table = dlsym(handle, "simcoll_algorithms");
    if (!table)
        return sc_error(SC_ERR_INPUT,
                        "--load %s: it defines no table 'const sc_algo_t "
                        "simcoll_algorithms[]' (simcoll new-algo writes one)",
                        path);
    return add_table(path, table); /* the handle stays open: simcoll runs its code */
}

/* ---- simcoll new-algo ---- */

/* The end of the root's loop over the other ranks in the reduce and
 * allreduce skeletons: receive rank r's vector into tmp and combine it into
 * recvbuf; then free tmp. */
#define RECEIVE_AND_COMBINE                                                                        \
    "        err = sc_recv(comm, tmp, args->bytes, r, MY_TAG);\n"                                  \
    "        if (!err)\n"                                                                          \
    "            err = sc_vector_combine(comm, args, args->recvbuf, tmp, (sc_span_t){0, n});\n"    \
    "    }\n"                                                                                      \
    "    if (tmp)\n"                                                                               \
    "        sc_buf_free(comm, tmp);\n"

/* The body of each collective's skeleton: a simple, correct algorithm to
 * start from, and comments on what to change. */
static const char *const bodies[] = {
    /* allgather */
    "    /* Allgather: every rank contributes args->bytes at args->sendbuf and\n"
    "     * ends with all p blocks, in rank order, in args->recvbuf. This is the\n"
    "     * ring: at step k a rank sends the block it got at step k - 1 to its\n"
    "     * right neighbour and receives a new one from its left, p - 1 steps. */\n"
    "    int rank = comm->rank, p = comm->size;\n"
    "    size_t m = args->bytes;\n"
    "    char *out = args->recvbuf;\n"
    "    if (m == 0)\n"
    "        return SC_OK;\n"
    "    sc_buf_copy(comm, out + (size_t)rank * m, args->sendbuf, m); /* my own block */\n"
    "    int left = (rank - 1 + p) % p, right = (rank + 1) % p;\n"
    "    for (int k = 0; k < p - 1; k++) {\n"
    "        int send_block = (rank - k + p) % p, recv_block = (rank - k - 1 + p) % p;\n"
    "        sc_err_t err = sc_sendrecv(comm, out + (size_t)send_block * m, m, right, MY_TAG,\n"
    "                                   out + (size_t)recv_block * m, m, left, MY_TAG);\n"
    "        if (err)\n"
    "            return err;\n"
    "    }\n"
    "    return SC_OK;\n",
    /* bcast */
    "    /* Broadcast: the root's args->bytes at args->recvbuf reach every\n"
    "     * rank's args->recvbuf. This is the linear one: the root sends to\n"
    "     * each rank in turn, p - 1 messages one after the other. */\n"
    "    int rank = comm->rank, p = comm->size;\n"
    "    if (args->bytes == 0)\n"
    "        return SC_OK;\n"
    "    if (rank != args->root)\n"
    "        return sc_recv(comm, args->recvbuf, args->bytes, args->root, MY_TAG);\n"
    "    for (int r = 0; r < p; r++) {\n"
    "        if (r == rank)\n"
    "            continue;\n"
    "        sc_err_t err = sc_send(comm, args->recvbuf, args->bytes, r, MY_TAG);\n"
    "        if (err)\n"
    "            return err;\n"
    "    }\n"
    "    return SC_OK;\n",
    /* barrier */
    "    /* Barrier: no rank leaves before every rank has entered. This is the\n"
    "     * central one: every rank tells rank 0 it has entered, and rank 0\n"
    "     * lets them all go once all have. Messages of 0 bytes. */\n"
    "    int rank = comm->rank, p = comm->size;\n"
    "    sc_err_t err = SC_OK;\n"
    "    if (rank != 0) {\n"
    "        err = sc_send(comm, NULL, 0, 0, MY_TAG);\n"
    "        return err ? err : sc_recv(comm, NULL, 0, 0, MY_TAG);\n"
    "    }\n"
    "    for (int r = 1; r < p && !err; r++)\n"
    "        err = sc_recv(comm, NULL, 0, r, MY_TAG);\n"
    "    for (int r = 1; r < p && !err; r++)\n"
    "        err = sc_send(comm, NULL, 0, r, MY_TAG);\n"
    "    return err;\n",
    /* reduce */
    "    /* Reduce: the vectors of every rank (args->bytes at args->sendbuf)\n"
    "     * combined with args->op end in the root's args->recvbuf (the other\n"
    "     * ranks may use theirs as working space). This is the linear one:\n"
    "     * every rank sends its vector to the root, which combines them in\n"
    "     * rank order. */\n"
    "    int rank = comm->rank, p = comm->size;\n"
    "    size_t n = sc_vector_elems(args);\n"
    "    if (n == 0)\n"
    "        return SC_OK;\n"
    "    if (rank != args->root)\n"
    "        return sc_send(comm, args->sendbuf, args->bytes, args->root, MY_TAG);\n"
    "    sc_vector_start(comm, args); /* my own vector into recvbuf */\n"
    "    char *tmp;\n"
    "    sc_err_t err = sc_vector_alloc(comm, args, n, &tmp);\n"
    "    for (int r = 0; r < p && !err; r++) {\n"
    "        if (r == rank)\n"
    "            continue;\n" RECEIVE_AND_COMBINE "    return err;\n",
    /* allreduce */
    "    /* Allreduce: the vectors of every rank (args->bytes at args->sendbuf)\n"
    "     * combined with args->op end in every rank's args->recvbuf. This is\n"
    "     * the simplest: everyone sends to rank 0, which combines and sends the\n"
    "     * result back to everyone. */\n"
    "    int rank = comm->rank, p = comm->size;\n"
    "    size_t n = sc_vector_elems(args);\n"
    "    if (n == 0)\n"
    "        return SC_OK;\n"
    "    sc_vector_start(comm, args); /* my own vector into recvbuf */\n"
    "    if (rank != 0) {\n"
    "        sc_err_t err = sc_send(comm, args->recvbuf, args->bytes, 0, MY_TAG);\n"
    "        return err ? err : sc_recv(comm, args->recvbuf, args->bytes, 0, MY_TAG);\n"
    "    }\n"
    "    char *tmp;\n"
    "    sc_err_t err = sc_vector_alloc(comm, args, n, &tmp);\n"
    "    for (int r = 1; r < p && !err; r++) {\n" RECEIVE_AND_COMBINE
    "    for (int r = 1; r < p && !err; r++)\n"
    "        err = sc_send(comm, args->recvbuf, args->bytes, r, MY_TAG);\n"
    "    return err;\n",
    /* scatter */
    "    /* Scatter: the root holds p blocks of args->bytes at args->sendbuf,\n"
    "     * block j for rank j; every rank ends with its block in\n"
    "     * args->recvbuf. This is the linear one: the root sends each rank its\n"
    "     * block in turn and copies its own. */\n"
    "    int rank = comm->rank, p = comm->size;\n"
    "    size_t m = args->bytes;\n"
    "    if (m == 0)\n"
    "        return SC_OK;\n"
    "    if (rank != args->root)\n"
    "        return sc_recv(comm, args->recvbuf, m, args->root, MY_TAG);\n"
    "    const char *blocks = args->sendbuf;\n"
    "    for (int r = 0; r < p; r++) {\n"
    "        if (r == rank) {\n"
    "            sc_buf_copy(comm, args->recvbuf, blocks + (size_t)r * m, m);\n"
    "            continue;\n"
    "        }\n"
    "        sc_err_t err = sc_send(comm, blocks + (size_t)r * m, m, r, MY_TAG);\n"
    "        if (err)\n"
    "            return err;\n"
    "    }\n"
    "    return SC_OK;\n",
};

static const char *const enum_names[] = {"SC_ALLGATHER", "SC_BCAST",     "SC_BARRIER",
                                         "SC_REDUCE",    "SC_ALLREDUCE", "SC_SCATTER"};

int sc_cli_new_algo(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs("usage: simcoll new-algo COLLECTIVE NAME -o FILE.c [--force]\n"
              "Writes a commented skeleton of an algorithm of your own for COLLECTIVE\n"
              "(allgather, bcast, barrier, reduce, allreduce, scatter) named NAME: a simple\n"
              "correct algorithm to change. Run it with simcoll --load FILE.c --algo NAME ...\n"
              "A FILE.c that exists (your edits) is kept unless --force is given.\n",
              stdout);
        return 0;
    }
    int force = argc == 6 && !strcmp(argv[5], "--force");
    if ((argc != 5 && !force) || strcmp(argv[3], "-o") != 0)
        return sc_cli_fail(sc_error(SC_ERR_INPUT,
                                    "new-algo needs COLLECTIVE NAME -o FILE.c [--force], e.g. "
                                    "simcoll new-algo allgather my_ring -o my_ring.c"));
    const sc_kind_t *kind = sc_kind_find(argv[1]);
    if (!kind)
        return sc_cli_fail(sc_cli_coll("new-algo", argv[1]));
    const char *name = argv[2], *path = argv[4];
    if (!valid_name(name))
        return sc_cli_fail(sc_error(SC_ERR_INPUT,
                                    "new-algo: '%s' is not a name (1 to 64 letters, digits, "
                                    "'_' and '-')",
                                    name));
    if (sc_algo_find(name))
        return sc_cli_fail(sc_error(SC_ERR_INPUT,
                                    "new-algo: simcoll has an algorithm named '%s'; choose "
                                    "another name",
                                    name));
    if (!sc_ends_with(path, ".c"))
        return sc_cli_fail(
            sc_error(SC_ERR_INPUT, "new-algo -o %s: the file name must end in .c", path));
    if (!force && access(path, F_OK) == 0)
        return sc_cli_fail(sc_error(SC_ERR_INPUT,
                                    "new-algo -o %s: the file exists (an algorithm you edited?); "
                                    "choose another name, or give --force to overwrite it",
                                    path));
    /* A C identifier for the function: the name with '-' as '_', and
     * "_run" after it, so that no name (int, exit, MY_TAG) makes a
     * skeleton that does not compile. */
    char fn[80];
    snprintf(fn, sizeof fn, "%s%s_run", isdigit((unsigned char)name[0]) ? "algo_" : "", name);
    for (char *c = fn; *c; c++)
        if (*c == '-')
            *c = '_';
    sc_outputs_t *outs;
    FILE *f;
    sc_err_t err = sc_output_open("-o", path, &outs, &f);
    if (err)
        return sc_cli_fail(err);
    int c = (int)kind->collective;
    fprintf(f,
            "/* %s: %s %s algorithm of my own, for simcoll.\n"
            " *\n"
            " * Run it, checked against the sequential reference:\n"
            " *   simcoll --platform gige.xml --load %s --algo %s --np 16\n"
            " * See every message it sends:\n"
            " *   simcoll --platform gige.xml --load %s --algo %s --np 16 --timeline %s.svg\n"
            " * The API is in simcoll.h (pkg-config --cflags simcoll says where). */\n"
            "#include <simcoll.h>\n\n"
            "/* A tag of my own: messages match by sender and tag. */\n"
            "enum { MY_TAG = 4242 };\n\n"
            "/* One rank's part: every rank of the communicator runs this. */\n"
            "static sc_err_t %s(sc_comm_t *comm, const sc_coll_args_t *args)\n{\n%s}\n\n"
            "/* What simcoll finds in this file: each algorithm's name, collective,\n"
            " * function and description, and .needs = SC_NEEDS_POW2 if it needs a\n"
            " * power of two; simcoll's model column comes from its messages. */\n"
            "const sc_algo_t simcoll_algorithms[] = {\n"
            "    {.name = \"%s\", .collective = %s, .run = %s, .doc = \"my own %s\"},\n"
            "    {.name = NULL},\n"
            "};\n",
            path, strchr("aeiou", kind->name[0]) ? "an" : "a", kind->name, path, name, path, name,
            name, fn, bodies[c], name, enum_names[c], fn, kind->name);
    err = sc_outputs_commit(outs);
    if (err)
        return sc_cli_fail(err);
    fprintf(stderr, "simcoll: wrote %s, the skeleton of %s (%s); run it with simcoll --platform "
                    "gige.xml --load %s --algo %s\n",
            path, name, kind->name, path, name);
    return 0;
}
