/* Building a platform whose network is one of SimGrid's own topologies
 * (simcoll/topology): SimGrid's XML reader cannot give such a cluster a
 * shared memory-bus link per node, which simcoll's platforms have, so the
 * zone is built through the C++ API from the description the file's check
 * wrote (plat->zone, sim/io): the nodes, each node's memory-bus link as its
 * loopback, and the "network" link as every link of the topology (racks,
 * which are simcoll's, not one of SimGrid's topologies: every node's link;
 * "uplink" every rack's link to the core switch; "socket", "numa" and
 * "ccx" the links between a node's domains when it has them,
 * simcoll/sockets, simcoll/numa and simcoll/ccx).
 * In C++: SimGrid has no C API for it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/simgrid/topology_build.h"

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "models/platform.h"
}
#include "sim/io/topology.h"
#include "sim/simgrid/s4u_calls.h"

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

namespace
{

/* SimGrid 4.1 (SIMCOLL_SIMGRID=bundled) deprecates 3.32's zone builders
 * (create_host, create_link, create_router, create_*_zone, add_route
 * between netpoints with the gateways given) for NetZone::add_*, routes
 * from host to host or zone to zone, and a zone's gateway set on it
 * (set_gateway). The helpers below build each part with the calls of the
 * SimGrid compiled against, one per version: simcoll builds on 3.32 and
 * 4.1 alike until 3.32 goes (issue 32). */

/* A star (or full) zone in `parent`, or the platform's own zone when parent
 * is null. SimGrid 3.32 makes the first zone without a parent the root;
 * 4.x puts every platform under an implicit root zone (_world_), and a zone
 * outside it has no network or CPU models: 4.1 then refuses its links. */
sg4::NetZone *new_zone(bool star, const std::string &name, sg4::NetZone *parent)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    if (!parent)
        parent = sg4::Engine::get_instance()->get_netzone_root();
    return star ? parent->add_netzone_star(name) : parent->add_netzone_full(name);
#else
    sg4::NetZone *zone = star ? sg4::create_star_zone(name) : sg4::create_full_zone(name);
    return parent ? zone->set_parent(parent) : zone;
#endif
}

/* Whether a rack's switch needs a zone of its own when nodes have domains
 * (build_racks): SimGrid 3.32 routes from a domain's host to a router of the rack
 * zone without the node's NIC link. 4.1 gets that route right, zone by zone
 * down from the router's, and so fails on a router in a zone of its own
 * (it asks that zone for a route to the node). */
constexpr bool switch_zone_needed = !SC_SIMGRID_AT_LEAST(4, 1);

/* A sealed host of `cores` cores in zone z. */
sg4::Host *new_host(sg4::NetZone *z, const std::string &name, double speed, int cores)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    sg4::Host *host = z->add_host(name, speed);
#else
    sg4::Host *host = z->create_host(name, speed);
#endif
    return host->set_core_count(cores)->seal();
}

/* A router of zone z through which routes from z's parent enter z (its
 * gateway): 4.1 keeps it in the zone, set before z is sealed; 3.32 takes
 * it with each such route (route_zone). */
NetPoint *new_gateway(sg4::NetZone *z, const std::string &name)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    NetPoint *router = z->add_router(name);
    z->set_gateway(router);
    return router;
#else
    return z->create_router(name);
#endif
}

/* Routes between host src and dst of zone z, or z's centre when dst is
 * null (a star zone). */
void route_hosts(sg4::NetZone *z, const sg4::Host *src, const sg4::Host *dst,
                 const std::vector<sg4::LinkInRoute> &links, bool symmetrical)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    z->add_route(src, dst, links, symmetrical);
#else
    z->add_route(src->get_netpoint(), dst ? dst->get_netpoint() : nullptr, nullptr, nullptr, links,
                 symmetrical);
#endif
}

/* Routes both ways between host src and router dst of zone z. */
void route_to_router(sg4::NetZone *z, const sg4::Host *src, NetPoint *dst,
                     const std::vector<sg4::LinkInRoute> &links)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    z->add_route(src->get_netpoint(), dst, links, true);
#else
    z->add_route(src->get_netpoint(), dst, nullptr, nullptr, links, true);
#endif
}

/* Routes both ways between zone `child` of z, entered at its `gateway`
 * (new_gateway: 4.1 has it from the zone), and z's centre. */
void route_zone(sg4::NetZone *z, sg4::NetZone *child, [[maybe_unused]] NetPoint *gateway,
                const std::vector<sg4::LinkInRoute> &links)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    z->add_route(child, nullptr, links, true);
#else
    z->add_route(child->get_netpoint(), nullptr, gateway, nullptr, links, true);
#endif
}

struct link_spec {
    double bandwidth = 0, latency = 0;
    sg4::Link::SharingPolicy policy = sg4::Link::SharingPolicy::SHARED;
};

/* Domains inside each node (sc_platform_t's domain_count): count[d] of
 * kind d (SC_DOMAIN_CCX, _NUMA, _SOCKET) in the next larger kind present. */
struct domains_spec {
    int count[SC_NDOMAIN_KINDS] = {1, 1, 1};

    /* smallest domains a node */
    int total() const
    {
        return span(SC_NDOMAIN_KINDS);
    }
    /* smallest domains in one domain of kind d */
    int span(int d) const
    {
        int n = 1;
        for (int k = 0; k < d; k++)
            n *= count[k];
        return n;
    }
};

std::string domain_name(int kind)
{
    return sc_domain_name(static_cast<sc_domain_kind_t>(kind));
}

struct node_spec {
    std::string name;
    double speed = 0;
    int cores = 1;
    std::string membus; /* the link of its loopback route */
};

[[noreturn]] void fail(const char *why)
{
    std::fprintf(stderr, "[simcoll/ERROR] cannot build the platform's topology: %s\n", why);
    std::_Exit(3);
}

/* A link of `spec` in zone z, which is not SPLITDUPLEX. */
sg4::Link *new_link(sg4::NetZone *z, const std::string &name, const link_spec &spec)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    sg4::Link *link = z->add_link(name, spec.bandwidth);
#else
    sg4::Link *link = z->create_link(name, spec.bandwidth);
#endif
    return link->set_latency(spec.latency)->set_sharing_policy(spec.policy)->seal();
}

/* The link a node's messages cross in both directions besides its NIC
 * link, when the network's bidirectional bandwidth is limited
 * (simcoll/inter/bidirectional-bandwidth): NODE_bidirectional, SHARED by
 * what enters and what leaves the node, no latency. */
sg4::Link *bidirectional_link(sg4::NetZone *z, const std::string &node, double bandwidth)
{
    link_spec spec;
    spec.bandwidth = bandwidth;
    return new_link(z, node + SC_ENGINE_BIDIRECTIONAL_SUFFIX, spec);
}

/* A link of `spec` in zone z, and how a route from a node (or a rack's
 * switch) to the zone's centre takes it: a split-duplex link its UP half
 * (the way back its DOWN half), any other link whole. */
sg4::LinkInRoute make_link(sg4::NetZone *z, const std::string &name, const link_spec &spec)
{
    if (spec.policy == sg4::Link::SharingPolicy::SPLITDUPLEX) {
#if SC_SIMGRID_AT_LEAST(4, 1)
        sg4::SplitDuplexLink *link = z->add_split_duplex_link(name, spec.bandwidth);
#else
        sg4::SplitDuplexLink *link = z->create_split_duplex_link(name, spec.bandwidth);
#endif
        return sg4::LinkInRoute(link->set_latency(spec.latency)->seal(),
                                sg4::LinkInRoute::Direction::UP);
    }
    return sg4::LinkInRoute(new_link(z, name, spec));
}

/* Node i in zone z, which reaches z's centre through the node's NIC link
 * (named like the host_link of a star cluster, NODE_nic).
 * Without domains the node is a host, which reaches itself through its
 * memory bus. With D smallest domains it is a full zone of D hosts
 * (NODE-KIND-K, cores / D each, KIND the smallest kind) and a router
 * (NODE_router): each domain reaches itself through the node's memory bus
 * (one link, shared as the node's is), another domain through the memory
 * bus and the link of the level where the two part, one per domain of the
 * next larger kind holding both (PARENT_sockets, PARENT_numas,
 * PARENT_ccxs, copies of "socket", "numa" and "ccx", PARENT the node or
 * NODE-KIND-J; a SPLITDUPLEX one is taken UP from the lower domain to the
 * higher), and the router through the NIC link, so a message between
 * nodes crosses the two NIC links as it does without domains (and each
 * node's bidirectional link after its NIC link, with `bidirectional` > 0,
 * its bandwidth). */
void add_node(sg4::NetZone *z, const node_spec &spec, const domains_spec &domains,
              const std::map<std::string, link_spec> &links, double bidirectional)
{
    const link_spec &nic = links.at("network"), &bus = links.at(spec.membus);
    int total = domains.total();
    if (total <= 1) {
        sg4::Host *host = new_host(z, spec.name, spec.speed, spec.cores);
        std::vector<sg4::LinkInRoute> out{make_link(z, spec.name + "_nic", nic)};
        if (bidirectional > 0)
            out.emplace_back(bidirectional_link(z, spec.name, bidirectional));
        route_hosts(z, host, nullptr, out, true);
        route_hosts(z, host, host, {make_link(z, spec.membus, bus)}, false);
        return;
    }
    sg4::NetZone *node = new_zone(false, spec.name, z);
    NetPoint *router = new_gateway(node, spec.name + "_router");
    std::vector<sg4::LinkInRoute> out{make_link(node, spec.name + "_nic", nic)};
    if (bidirectional > 0)
        out.emplace_back(bidirectional_link(node, spec.name, bidirectional));
    sg4::LinkInRoute bus_link = make_link(node, spec.membus, bus);
    /* between[d][j]: the link between the domains of kind d in the j-th
     * domain of the next larger kind present (or the node) */
    std::vector<sg4::LinkInRoute> between[SC_NDOMAIN_KINDS];
    int smallest = -1;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
        if (domains.count[d] <= 1)
            continue;
        if (smallest < 0)
            smallest = d;
        int parent = d + 1;
        while (parent < SC_NDOMAIN_KINDS && domains.count[parent] <= 1)
            parent++;
        int instances = total / (domains.span(d) * domains.count[d]);
        for (int j = 0; j < instances; j++) {
            std::string owner = parent == SC_NDOMAIN_KINDS ? spec.name
                                                           : spec.name + "-" + domain_name(parent) +
                                                                 "-" + std::to_string(j);
            between[d].push_back(
                make_link(node, owner + "_" + domain_name(d) + "s", links.at(domain_name(d))));
        }
    }
    std::vector<sg4::Host *> hosts;
    for (int k = 0; k < total; k++) {
        sg4::Host *host =
            new_host(node, spec.name + "-" + domain_name(smallest) + "-" + std::to_string(k),
                     spec.speed, spec.cores / total);
        route_hosts(node, host, host, {bus_link}, false);
        route_to_router(node, host, router, out);
        for (int lower = 0; lower < k; lower++) {
            int part = SC_NDOMAIN_KINDS - 1; /* the largest kind whose domains differ */
            while (domains.count[part] <= 1 || lower / domains.span(part) == k / domains.span(part))
                part--;
            const sg4::LinkInRoute &link =
                between[part][lower / (domains.span(part) * domains.count[part])];
            route_hosts(node, hosts[lower], host, {bus_link, link}, true);
        }
        hosts.push_back(host);
    }
    node->seal();
    route_zone(z, node, router, {});
}

/* The zone of simcoll's checked rewrite of a platform file, as the
 * builders below take it. */
struct zone_spec {
    std::string id;
    std::vector<std::pair<std::string, std::string>> props;
    std::vector<node_spec> nodes; /* in simcoll's order of nodes */
    std::map<std::string, link_spec> links;
    std::string topology; /* simcoll/topology */
    domains_spec domains;
};

/* Racks (racks:N,R): SimGrid has no such topology, so it is made of its
 * star zones, one per rack and one for the core switch. A node reaches its
 * rack's switch (the rack zone's centre) through its NIC link (add_node);
 * the rack's switch, a router, reaches the core switch through the rack's
 * uplink (RACK_uplink). A message between racks crosses the sender's NIC
 * link, both racks' uplinks and the receiver's NIC link. One rack is one
 * switch: the nodes are on the core switch itself. */
void build_racks(const zone_spec &zone, const sc_topology_t &t, double bidirectional)
{
    sg4::NetZone *core = new_zone(true, zone.id, nullptr);
    for (const auto &[id, value] : zone.props)
        core->set_property(id, value);
    if (t.racks == 1) {
        for (const node_spec &spec : zone.nodes)
            add_node(core, spec, zone.domains, zone.links, bidirectional);
        core->seal();
        return;
    }
    const link_spec &uplink = zone.links.at("uplink");
    for (unsigned r = 0; r < t.racks; r++) {
        std::string rack_id = zone.id + "-rack-" + std::to_string(r);
        sg4::NetZone *rack = new_zone(true, rack_id, core);
        /* With domains a host is two zones below its rack, and SimGrid 3.32
         * routes from it to a router of the rack zone itself without the
         * node's NIC link (it takes the rack as the common zone of both and
         * finds no local route in it): the switch is then a zone of its own
         * in the rack, ZONE-rack-R-switch (not in 4.1: switch_zone_needed). */
        bool own_zone = zone.domains.total() > 1 && switch_zone_needed;
        sg4::NetZone *switch_zone = rack;
        if (own_zone)
            switch_zone = new_zone(true, rack_id + "-switch", rack);
        NetPoint *rack_switch = new_gateway(switch_zone, rack_id + "_switch");
        if (own_zone) {
            switch_zone->seal();
            route_zone(rack, switch_zone, rack_switch, {});
        }
        for (unsigned i = r * t.rack_nodes; i < (r + 1) * t.rack_nodes; i++)
            add_node(rack, zone.nodes.at(i), zone.domains, zone.links, bidirectional);
        rack->seal();
        route_zone(core, rack, rack_switch, {make_link(core, rack_id + "_uplink", uplink)});
    }
    core->seal();
}

/* The zone as the file's check described it (plat->zone): its properties
 * (the topology and the domains in nodes among them), nodes, links and
 * each node's memory bus (its loopback route). */
zone_spec read_zone(const sc_zone_desc_t *desc)
{
    if (!desc)
        fail("no zone in the checked platform");
    zone_spec spec;
    spec.id = desc->id;
    for (int i = 0; i < desc->nprops; i++) {
        const auto &[id, value] = spec.props.emplace_back(desc->props[i].id, desc->props[i].value);
        if (id == "simcoll/topology")
            spec.topology = value;
        for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
            if (id == "simcoll/" + domain_name(d) + (d == SC_DOMAIN_SOCKET ? "s" : ""))
                spec.domains.count[d] = std::max(1, std::atoi(value.c_str()));
    }
    for (int i = 0; i < desc->nhosts; i++) {
        const sc_zone_host_t &h = desc->hosts[i];
        spec.nodes.push_back({h.name, h.speed_flops, h.cores, h.membus ? h.membus : ""});
    }
    for (int i = 0; i < desc->nlinks; i++) {
        const sc_zone_link_t &l = desc->links[i];
        spec.links[l.id] = {l.bandwidth_Bps, l.latency_s,
                            l.sharing == SC_SHARING_FATPIPE ? sg4::Link::SharingPolicy::FATPIPE
                            : l.sharing == SC_SHARING_SPLITDUPLEX
                                ? sg4::Link::SharingPolicy::SPLITDUPLEX
                                : sg4::Link::SharingPolicy::SHARED};
    }
    /* Node i of the topology is simcoll's node i, whose groups of
     * consecutive nodes (sc_topology_groupings) are its racks or switches,
     * whatever the order of the file. */
    std::stable_sort(spec.nodes.begin(), spec.nodes.end(),
                     [](const node_spec &a, const node_spec &b) {
                         return sc_engine_name_compare(a.name.c_str(), b.name.c_str()) < 0;
                     });
    return spec;
}

/* A torus, fat tree or dragonfly of SimGrid's, whose network links are
 * all copies of the zone's "network" link. SimGrid numbers a topology's
 * nodes 0, 1, ...: node i is simcoll's (node-i in generated platforms). */
void build_simgrid_topology(const zone_spec &zone, const sc_topology_t &t, double bidirectional)
{
    const std::vector<node_spec> &nodes = zone.nodes;
    const std::map<std::string, link_spec> &links = zone.links;
    const link_spec &net = links.at("network");
    const std::string &zone_id = zone.id;
    auto host = [&nodes](sg4::NetZone *z, const std::vector<unsigned long> &, unsigned long id) {
        const node_spec &spec = nodes.at(id);
        return new_host(z, spec.name, spec.speed, spec.cores);
    };
    auto loopback = [&nodes, &links](sg4::NetZone *z, const std::vector<unsigned long> &,
                                     unsigned long id) {
        const node_spec &spec = nodes.at(id);
        return new_link(z, spec.membus, links.at(spec.membus));
    };
    std::vector<unsigned long> dims(t.dims, t.dims + t.ndims);
    std::vector<unsigned int> down(t.down, t.down + t.levels), up(t.up, t.up + t.levels),
        count(t.links, t.links + t.levels);
    /* SimGrid's limiter link: both directions of a node's messages cross it. */
    std::function<sg4::ClusterCallbacks::ClusterLinkCb> limiter;
    if (bidirectional > 0)
        limiter = [&nodes, bidirectional](sg4::NetZone *z, const std::vector<unsigned long> &,
                                          unsigned long id) {
            return bidirectional_link(z, nodes.at(id).name, bidirectional);
        };
    sg4::NetZone *built = nullptr;
#if SC_SIMGRID_AT_LEAST(4, 1)
    /* In 4.1's root zone (new_zone); the callbacks make each node when the
     * zone is sealed. */
    sg4::NetZone *root = sg4::Engine::get_instance()->get_netzone_root();
    switch (t.kind) {
    case SC_TOPO_TORUS:
        built = root->add_netzone_torus(zone_id, dims, net.bandwidth, net.latency, net.policy);
        break;
    case SC_TOPO_FAT_TREE:
        built = root->add_netzone_fatTree(zone_id, t.levels, down, up, count, net.bandwidth,
                                          net.latency, net.policy);
        break;
    case SC_TOPO_DRAGONFLY:
        built =
            root->add_netzone_dragonfly(zone_id, {t.groups[0], t.groups[1]},
                                        {t.chassis[0], t.chassis[1]}, {t.routers[0], t.routers[1]},
                                        t.nodes_per_router, net.bandwidth, net.latency, net.policy);
        break;
    case SC_TOPO_RACKS: /* built above */ break;
    }
    built->set_host_cb(host)->set_loopback_cb(loopback);
    if (limiter)
        built->set_limiter_cb(limiter);
#else
    /* 3.32's builders take the node's netpoint (and gateway), and make the
     * zone the platform's root (no parent). */
    auto netpoint = [&host](sg4::NetZone *z, const std::vector<unsigned long> &coord,
                            unsigned long id) {
        return std::make_pair(host(z, coord, id)->get_netpoint(), static_cast<NetPoint *>(nullptr));
    };
    sg4::ClusterCallbacks callbacks(netpoint, loopback, limiter);
    switch (t.kind) {
    case SC_TOPO_TORUS:
        built = sg4::create_torus_zone(zone_id, nullptr, dims, callbacks, net.bandwidth,
                                       net.latency, net.policy);
        break;
    case SC_TOPO_FAT_TREE:
        built = sg4::create_fatTree_zone(zone_id, nullptr,
                                         sg4::FatTreeParams(t.levels, down, up, count), callbacks,
                                         net.bandwidth, net.latency, net.policy);
        break;
    case SC_TOPO_DRAGONFLY:
        built = sg4::create_dragonfly_zone(
            zone_id, nullptr,
            sg4::DragonflyParams({t.groups[0], t.groups[1]}, {t.chassis[0], t.chassis[1]},
                                 {t.routers[0], t.routers[1]}, t.nodes_per_router),
            callbacks, net.bandwidth, net.latency, net.policy);
        break;
    case SC_TOPO_RACKS: /* built above */ break;
    }
#endif
    for (const auto &[id, value] : zone.props)
        built->set_property(id, value);
    built->seal();
}

} // namespace

extern "C" void sc_engine_build_topology(const sc_zone_desc_t *desc, double bidirectional)
{
    zone_spec zone = read_zone(desc);
    sc_topology_t t;
    if (sc_topology_parse("simcoll/topology", zone.topology.c_str(), &t) != SC_OK ||
        t.nodes != static_cast<long>(zone.nodes.size()) || !zone.links.count("network") ||
        (t.kind == SC_TOPO_RACKS && t.racks > 1 && !zone.links.count("uplink")) ||
        (zone.domains.total() > 1 && t.kind != SC_TOPO_RACKS))
        fail("the checked file disagrees with its topology");
    if (t.kind == SC_TOPO_RACKS)
        build_racks(zone, t, bidirectional);
    else
        build_simgrid_topology(zone, t, bidirectional);
}
