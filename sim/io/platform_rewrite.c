/* The platform file as SimGrid reads it: what the check accepted, written
 * anew in one fixed shape, every number in its base unit (SimGrid's own XML
 * reader is stricter than XML: a missing or different DOCTYPE, for one,
 * makes it abort).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_units.h"
#include "platform_check.h"
#include "platform_file.h"

void sc_xml_put_escaped(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\t': fputs("&#9;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\r': fputs("&#13;", f); break;
        default: fputc(*s, f); break;
        }
}

static void put_attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    sc_xml_put_escaped(f, value);
    fputc('"', f);
}

/* A checked quantity in its base unit, written so that it reads back
 * exactly (17 significant digits). */
static void put_quantity(FILE *f, xmlNode *node, const char *name, sc_quantity_t kind,
                         const char *unit)
{
    double value = 0;
    sc_parse_quantity(sc_pf_attr(node, name), kind, &value);
    fprintf(f, " %s=\"%.17g%s\"", name, value, unit);
}

/* The <prop> children of node, one per line. */
static void put_props(FILE *f, const sc_pf_check_t *c, xmlNode *node, const char *indent)
{
    sc_err_t err = SC_OK;
    SC_PF_FOR_ELEMENTS(c, node, child, err)
    if (!strcmp((const char *)child->name, "prop")) {
        fprintf(f, "%s<prop", indent);
        put_attr(f, "id", sc_pf_attr(child, "id"));
        put_attr(f, "value", sc_pf_attr(child, "value"));
        fputs("/>\n", f);
    }
}

static int has_elements(const sc_pf_check_t *c, xmlNode *node)
{
    sc_err_t err = SC_OK;
    return sc_pf_next_element(c, node->children, &err) != NULL;
}

/* The checked zone in simcoll's shape: the zone's properties, hosts, links,
 * host_links, routes, with every number in its base unit. */
sc_err_t sc_pf_rewrite(const sc_pf_check_t *c, xmlNode *zone, sc_platform_t *plat)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n<zone",
          f);
    put_attr(f, "id", sc_pf_attr(zone, "id"));
    fputs(" routing=\"Cluster\">\n", f);
    put_props(f, c, zone, "");
    /* What SMPI's settings gave, as simcoll's properties (which the
     * generator copies from here). */
    sc_platform_prop_t props[SC_MAX_PLATFORM_PROPS];
    int nprops = sc_platform_props_list(props);
    for (int i = 0; i < nprops; i++)
        if (c->smpi_text[i]) {
            fputs("<prop", f);
            put_attr(f, "id", props[i].id);
            put_attr(f, "value", c->smpi_text[i]);
            fputs("/>\n", f);
        }
    static const char *const order[] = {"host", "link", "host_link", "route"};
    for (int k = 0; k < 4; k++) {
        sc_err_t err = SC_OK;
        SC_PF_FOR_ELEMENTS(c, zone, node, err)
        {
            const char *name = (const char *)node->name;
            if (strcmp(name, order[k]) != 0)
                continue;
            fprintf(f, "<%s", name);
            if (k == 0) {
                put_attr(f, "id", sc_pf_attr(node, "id"));
                put_quantity(f, node, "speed", SC_QTY_SPEED, "f");
                fprintf(f, " core=\"%ld\"",
                        sc_pf_attr(node, "core") ? strtol(sc_pf_attr(node, "core"), NULL, 10) : 1L);
            } else if (k == 1) {
                put_attr(f, "id", sc_pf_attr(node, "id"));
                put_quantity(f, node, "bandwidth", SC_QTY_BANDWIDTH, "Bps");
                /* Written even where SimGrid has defaults: 3.32 fails to
                 * apply the latency's. */
                if (sc_pf_attr(node, "latency"))
                    put_quantity(f, node, "latency", SC_QTY_TIME, "s");
                else
                    fputs(" latency=\"0s\"", f);
                put_attr(f, "sharing_policy",
                         sc_pf_attr(node, "sharing_policy") ? sc_pf_attr(node, "sharing_policy")
                                                            : "SHARED");
            } else if (k == 2) {
                put_attr(f, "id", sc_pf_attr(node, "id"));
                put_attr(f, "up", sc_pf_attr(node, "up"));
                put_attr(f, "down", sc_pf_attr(node, "down"));
            } else {
                put_attr(f, "src", sc_pf_attr(node, "src"));
                put_attr(f, "dst", sc_pf_attr(node, "dst"));
            }
            if (k == 3) {
                fputs(">", f);
                sc_err_t inner = SC_OK;
                SC_PF_FOR_ELEMENTS(c, node, ctn, inner)
                {
                    fputs("<link_ctn", f);
                    put_attr(f, "id", sc_pf_attr(ctn, "id"));
                    if (sc_pf_attr(ctn, "direction"))
                        put_attr(f, "direction", sc_pf_attr(ctn, "direction"));
                    fputs("/>", f);
                }
                fputs("</route>\n", f);
            } else if (has_elements(c, node)) {
                fputs(">\n", f);
                put_props(f, c, node, "  ");
                fprintf(f, "</%s>\n", name);
            } else {
                fputs("/>\n", f);
            }
        }
    }
    fputs("</zone>\n</platform>\n", f);
    if (fclose(f) != 0 || !text) {
        free(text);
        return sc_error(SC_ERR_RUN, "out of memory reading the platform");
    }
    plat->engine_xml = text;
    plat->engine_xml_len = len;
    return SC_OK;
}
