/* An OTF2 archive's global definitions (otf2_defs.h), read through
 * libotf2: the clock, the regions (which MPI calls are replayed), the ranks
 * (the locations MPI's COMM_LOCATIONS group lists, rank r at place r) and
 * the communicators.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "otf2_defs.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "otf2_error.h"

static const char *string_of(const sc_otf2_t *o, OTF2_StringRef ref)
{
    return ref < o->nstrings && o->strings[ref] ? o->strings[ref] : "";
}

/* Grows *array (of *n elements of `each` bytes) to hold index i, zeroing
 * the new ones; 0 if out of memory. */
static int grow_to(void **array, uint32_t *n, uint64_t i, size_t each)
{
    if (i < *n)
        return 1;
    if (i >= (1u << 24))
        return 0; /* no sane archive defines that many */
    uint32_t more = (uint32_t)i + 1 > 2 * *n ? (uint32_t)i + 1 : 2 * *n;
    void *grown = realloc(*array, (size_t)more * each);
    if (!grown)
        return 0;
    memset((char *)grown + (size_t)*n * each, 0, (size_t)(more - *n) * each);
    *array = grown;
    *n = more;
    return 1;
}

static OTF2_CallbackCode def_clock(void *u, uint64_t resolution, uint64_t offset, uint64_t length,
                                   uint64_t realtime)
{
    (void)length;
    (void)realtime;
    sc_otf2_t *o = u;
    o->resolution = resolution;
    o->offset = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *string)
{
    sc_otf2_t *o = u;
    if (!grow_to((void **)&o->strings, &o->nstrings, self, sizeof *o->strings) ||
        !(o->strings[self] = strdup(string)))
        return OTF2_CALLBACK_ERROR;
    return OTF2_CALLBACK_SUCCESS;
}

static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* MPI-IO, one-sided and non-blocking collective calls: recorded, not
 * replayed (Score-P writes no records of the data of the last). */
static int skipped_mpi(const char *name)
{
    static const char *const prefixes[] = {
        "MPI_File_", "MPI_Win_", "MPI_Put", "MPI_Get", "MPI_Rput", "MPI_Rget",
        "MPI_Accumulate", "MPI_Raccumulate", "MPI_Fetch_and_op", "MPI_Compare_and_swap",
        "MPI_Ibarrier", "MPI_Ibcast", "MPI_Igather", "MPI_Iscatter", "MPI_Iallgather",
        "MPI_Ialltoall", "MPI_Ireduce", "MPI_Iallreduce", "MPI_Iscan", "MPI_Iexscan",
        "MPI_Ineighbor_", NULL};
    for (int i = 0; prefixes[i]; i++)
        if (starts(name, prefixes[i]))
            return 1;
    return 0;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                    uint32_t end)
{
    (void)canonical;
    (void)description;
    (void)role;
    (void)flags;
    (void)file;
    (void)begin;
    (void)end;
    sc_otf2_t *o = u;
    if (!grow_to((void **)&o->regions, &o->nregions, self, sizeof *o->regions))
        return OTF2_CALLBACK_ERROR;
    const char *n = string_of(o, name);
    sc_otf2_region_t *r = &o->regions[self];
    r->name = strdup(n);
    if (!r->name)
        return OTF2_CALLBACK_ERROR;
    int mpi = paradigm == OTF2_PARADIGM_MPI || starts(n, "MPI_");
    r->kind = !mpi                                                      ? SC_OTF2_REGION_USER
              : !strcmp(n, "MPI_Init") || !strcmp(n, "MPI_Init_thread") ? SC_OTF2_REGION_INIT
              : !strcmp(n, "MPI_Finalize")                              ? SC_OTF2_REGION_FINALIZE
              : skipped_mpi(n)                                          ? SC_OTF2_REGION_SKIPPED
                                                                        : SC_OTF2_REGION_MPI;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    (void)name;
    (void)type;
    (void)group;
    sc_otf2_t *o = u;
    uint32_t i = o->nlocations;
    if (!grow_to((void **)&o->locations, &o->nlocations, i, sizeof *o->locations))
        return OTF2_CALLBACK_ERROR;
    o->nlocations = i + 1;
    o->locations[i].ref = self;
    o->locations[i].events = events;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    (void)name;
    (void)flags;
    sc_otf2_t *o = u;
    if (!grow_to((void **)&o->groups, &o->ngroups, self, sizeof *o->groups))
        return OTF2_CALLBACK_ERROR;
    sc_otf2_group_t *g = &o->groups[self];
    g->type = type;
    g->mpi = paradigm == OTF2_PARADIGM_MPI;
    g->n = n;
    g->members = malloc((size_t)(n ? n : 1) * sizeof *g->members);
    if (!g->members)
        return OTF2_CALLBACK_ERROR;
    memcpy(g->members, members, (size_t)n * sizeof *members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    (void)parent;
    (void)flags;
    sc_otf2_t *o = u;
    uint32_t i = o->ncomm_defs;
    if (!grow_to((void **)&o->comm_defs, &o->ncomm_defs, i, sizeof *o->comm_defs))
        return OTF2_CALLBACK_ERROR;
    o->ncomm_defs = i + 1;
    o->comm_defs[i] = (sc_otf2_comm_def_t){self, name, group};
    return OTF2_CALLBACK_SUCCESS;
}

int sc_otf2_detect(const char *path, const unsigned char *head, size_t len)
{
    (void)path;
    return len >= 8 && (memcmp(head + 1, "BOTF2", 5) == 0 || memcmp(head, "OTF2", 4) == 0);
}

void sc_otf2_close(sc_trace_t *t)
{
    sc_otf2_t *o = t->format;
    if (!o)
        return;
    for (uint32_t i = 0; i < o->nstrings; i++)
        free(o->strings[i]);
    free(o->strings);
    for (uint32_t i = 0; i < o->nregions; i++)
        free(o->regions[i].name);
    free(o->regions);
    for (uint32_t i = 0; i < o->ngroups; i++)
        free(o->groups[i].members);
    free(o->groups);
    free(o->comm_defs);
    free(o->locations);
    free(o->rank_location);
    free(o->rank_events);
    free(o->comm_index);
    free(o->self_comm);
    free(o);
    t->format = NULL;
}

/* Each rank's reader holds files open: let the process open as many as
 * it may. */
static void raise_file_limit(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
}

/* Our communicators from OTF2's: MPI_COMM_WORLD is ours 0. */
static sc_err_t map_comms(sc_trace_t *t, sc_otf2_t *o)
{
    uint32_t top = 0;
    for (uint32_t i = 0; i < o->ncomm_defs; i++)
        if (o->comm_defs[i].self + 1 > top)
            top = o->comm_defs[i].self + 1;
    o->comm_index = malloc((size_t)(top ? top : 1) * sizeof *o->comm_index);
    o->self_comm = malloc((size_t)t->nranks * sizeof *o->self_comm);
    if (!o->comm_index || !o->self_comm)
        return sc_error(SC_ERR_RUN, "out of memory");
    o->ncomm_index = top;
    for (uint32_t i = 0; i < top; i++)
        o->comm_index[i] = -1;
    for (int r = 0; r < t->nranks; r++)
        o->self_comm[r] = -1;
    int world_found = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < o->ncomm_defs; i++) {
            const sc_otf2_comm_def_t *d = &o->comm_defs[i];
            if (o->comm_index[d->self] != -1)
                continue;
            const sc_otf2_group_t *g = d->group < o->ngroups ? &o->groups[d->group] : NULL;
            if (!g || !g->members)
                return sc_error(SC_ERR_INPUT, "OTF2 archive '%s': communicator %u names group "
                                "%u, which is not defined", t->path, d->self, d->group);
            if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
                o->comm_index[d->self] = -3;
                continue;
            }
            int identity = (int)g->n == t->nranks;
            for (uint32_t k = 0; identity && k < g->n; k++)
                identity = g->members[k] == k;
            /* first pass: the world, by name or else as the first of all ranks */
            if (pass == 0) {
                if (!world_found && identity &&
                    (!strcmp(string_of(o, d->name), "MPI_COMM_WORLD") || i + 1 == o->ncomm_defs ||
                     !strcmp(string_of(o, d->name), ""))) {
                    o->comm_index[d->self] = 0;
                    world_found = 1;
                }
                continue;
            }
            int *members = malloc((size_t)(g->n ? g->n : 1) * sizeof *members);
            if (!members)
                return sc_error(SC_ERR_RUN, "out of memory");
            for (uint32_t k = 0; k < g->n; k++) {
                if (g->members[k] >= (uint64_t)t->nranks) {
                    free(members);
                    return sc_error(SC_ERR_INPUT, "OTF2 archive '%s': communicator %u holds "
                                    "rank %llu of %d", t->path, d->self,
                                    (unsigned long long)g->members[k], t->nranks);
                }
                members[k] = (int)g->members[k];
            }
            int c = sc_trace_add_comm(t, (int)g->n, members);
            free(members);
            if (c < 0)
                return SC_ERR_RUN;
            o->comm_index[d->self] = c;
        }
    return SC_OK;
}

sc_err_t sc_otf2_open(sc_trace_t *t)
{
    sc_otf2_t *o = calloc(1, sizeof *o);
    if (!o)
        return sc_error(SC_ERR_RUN, "out of memory");
    t->format = o;
    sc_otf2_errors_to(o);
    OTF2_Reader *rd = OTF2_Reader_Open(t->path);
    if (!rd)
        return sc_error(SC_ERR_INPUT, "OTF2 archive '%s' cannot be opened: %s", t->path,
                        o->error[0] ? o->error : "not an OTF2 anchor file");
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *cbs = OTF2_GlobalDefReaderCallbacks_New();
    sc_err_t err = SC_OK;
    if (!gdr || !cbs) {
        err = sc_error(SC_ERR_INPUT, "OTF2 archive '%s': its definitions cannot be read (%s)",
                       t->path, o->error);
    } else {
        OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cbs, def_clock);
        OTF2_GlobalDefReaderCallbacks_SetStringCallback(cbs, def_string);
        OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cbs, def_region);
        OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cbs, def_location);
        OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cbs, def_group);
        OTF2_GlobalDefReaderCallbacks_SetCommCallback(cbs, def_comm);
        OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cbs, o);
        uint64_t ndefs = 0;
        if (OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &ndefs) != OTF2_SUCCESS)
            err = sc_error(SC_ERR_INPUT, "OTF2 archive '%s': its definitions are corrupt (%s)",
                           t->path, o->error);
    }
    if (cbs)
        OTF2_GlobalDefReaderCallbacks_Delete(cbs);
    OTF2_Reader_Close(rd);
    if (err)
        return err;
    if (o->resolution == 0)
        return sc_error(SC_ERR_INPUT, "OTF2 archive '%s' defines no clock", t->path);
    /* The ranks: MPI's group of locations, rank r at place r. */
    const sc_otf2_group_t *world = NULL;
    for (uint32_t i = 0; i < o->ngroups; i++)
        if (o->groups[i].members && o->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
            o->groups[i].mpi)
            world = &o->groups[i];
    if (!world || world->n == 0)
        return sc_error(SC_ERR_INPUT, "OTF2 archive '%s' holds no MPI ranks (no MPI group of "
                        "locations): it is not an MPI application's trace", t->path);
    if ((err = sc_trace_set_ranks(t, (int)world->n)))
        return err;
    o->rank_location = malloc(world->n * sizeof *o->rank_location);
    o->rank_events = calloc(world->n, sizeof *o->rank_events);
    if (!o->rank_location || !o->rank_events)
        return sc_error(SC_ERR_RUN, "out of memory");
    for (uint32_t r = 0; r < world->n; r++) {
        o->rank_location[r] = world->members[r];
        int found = 0;
        for (uint32_t l = 0; l < o->nlocations && !found; l++)
            if (o->locations[l].ref == world->members[r]) {
                o->rank_events[r] = o->locations[l].events;
                found = 1;
            }
        if (!found)
            return sc_error(SC_ERR_INPUT, "OTF2 archive '%s': rank %u's location %llu is not "
                            "defined", t->path, r, (unsigned long long)world->members[r]);
    }
    /* Other locations are threads' own: not replayed. */
    for (uint32_t l = 0; l < o->nlocations; l++) {
        int rank = 0;
        for (uint32_t r = 0; r < world->n && !rank; r++)
            rank = o->locations[l].ref == world->members[r];
        for (uint64_t e = 0; !rank && e < o->locations[l].events; e++)
            sc_trace_skip(t, "events of threads other than the ranks'", 0);
    }
    raise_file_limit();
    return map_comms(t, o);
}

void sc_otf2_errors_to(sc_otf2_t *o)
{
    sc_otf2_errors_into(o->error, sizeof o->error);
}
