/* What the platform file's check shares among its files: platform_file.c
 * reads the document and checks its elements and properties,
 * platform_topology.c checks a zone with simcoll/topology and domains
 * inside nodes, platform_rewrite.c writes what SimGrid reads. Private to
 * sim/io (sc_pf_: the platform file's).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_IO_PLATFORM_CHECK_H
#define SC_IO_PLATFORM_CHECK_H

#include <libxml/tree.h>

#include "models/platform.h"
#include "platform_props.h"
#include "smpi_config.h"

/* A declared host or link: its id and the line declaring it. */
typedef struct {
    const char *id;
    int line;
    int split;       /* link: SPLITDUPLEX, known to SimGrid as ID_UP, ID_DOWN */
    int host_link;   /* host: line of its <host_link>, 0 if none */
    int loopback;    /* host: line of its <route src=dst>, 0 if none */
    long cores;      /* host: its cores */
    const char *bus; /* host: the one link of that route, NULL if more */
} sc_pf_decl_t;

typedef struct {
    const char *option, *name;
    sc_pf_decl_t *hosts, *links;
    int nhosts, nlinks;
    const char *prop_value[SC_MAX_PLATFORM_PROPS]; /* of sc_platform_props_list's */
    int prop_line[SC_MAX_PLATFORM_PROPS];
    const char *topology; /* simcoll/topology, or NULL */
    int topology_line;
    /* simcoll/sockets, simcoll/numa, simcoll/ccx, by domain kind, or NULL */
    const char *domains[SC_NDOMAIN_KINDS];
    int domains_line[SC_NDOMAIN_KINDS];
    /* SMPI's settings in <config> (sim/io/smpi_config.h), and the network
     * properties they give: texts of their own, which prop_value[] then
     * points to. */
    const char *smpi_value[SC_SMPI_N];
    int smpi_line[SC_SMPI_N];
    char *smpi_text[SC_MAX_PLATFORM_PROPS];
    /* simcoll/source/...: where each parameter came from, moved into the
     * platform once it is checked; the line of each */
    sc_param_source_t *sources;
    int nsources, *source_line;
    /* hosts without core=, which SimGrid gives one core: a warning names
     * the first */
    int coreless;
    char first_coreless[128];
    int first_coreless_line;
} sc_pf_check_t;

/* SC_ERR_INPUT with a message (printf format) about line `line` of the
 * file ("OPTION 'NAME':LINE: ..."; the file as a whole when line <= 0). */
sc_err_t sc_pf_refuse(const sc_pf_check_t *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The value of node's attribute `name`: "" if present but empty, NULL if
 * absent. */
const char *sc_pf_attr(xmlNode *node, const char *name);

/* The line of node in the file. */
int sc_pf_line(xmlNode *node);

/* The first element from n on, skipping comments and blank text; NULL at
 * the end, or with *err set on other content. */
xmlNode *sc_pf_next_element(const sc_pf_check_t *c, xmlNode *n, sc_err_t *err);

/* Every element child of parent, until the end or an error in err. */
#define SC_PF_FOR_ELEMENTS(c, parent, child, err)                                                  \
    for (xmlNode *child = sc_pf_next_element(c, (parent)->children, &(err)); child && !(err);      \
         child = sc_pf_next_element(c, child->next, &(err)))

/* The declaration of `id` among decls[0..n-1], sorted by id; NULL if none. */
sc_pf_decl_t *sc_pf_find(sc_pf_decl_t *decls, int n, const char *id);

/* The property giving each kind's domains in the next larger one
 * ("simcoll/ccx", ...), by sc_domain_kind_t. */
extern const char *const sc_pf_domain_props[SC_NDOMAIN_KINDS];

/* The checks of a zone whose network is simcoll/topology, with its domains
 * inside nodes (platform_topology.c): fills plat's groupings and levels. */
sc_err_t sc_pf_check_topology(sc_pf_check_t *c, xmlNode *zone, sc_platform_t *plat);

/* The checked zone in simcoll's shape, into plat->engine_xml
 * (platform_rewrite.c). */
sc_err_t sc_pf_rewrite(const sc_pf_check_t *c, xmlNode *zone, sc_platform_t *plat);

#endif
