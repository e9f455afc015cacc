/* Counts SimGrid's simcalls: loaded with LD_PRELOAD into a program linked
 * with libsimgrid 3.32, it counts the calls of ActorImpl::simcall_handle
 * (one per simcall, the unit of an actor's cost beyond the network model:
 * a switch to maestro and back) and, at exit, appends the count to the
 * file named by SIMCALLS_OUT. bench/simcalls.sh uses it. SimGrid counts
 * nothing of the kind itself; this is a measuring device, not part of
 * simcoll.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long handled;

/* simgrid::kernel::actor::ActorImpl::simcall_handle(int), as exported. */
#define HANDLE "_ZN7simgrid6kernel5actor9ActorImpl14simcall_handleEi"
void _ZN7simgrid6kernel5actor9ActorImpl14simcall_handleEi(void *self, int times);
void _ZN7simgrid6kernel5actor9ActorImpl14simcall_handleEi(void *self, int times)
{
    static void (*real)(void *, int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, HANDLE);
    handled++;
    real(self, times);
}

static void report(void)
{
    const char *path = getenv("SIMCALLS_OUT");
    FILE *f = handled && path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, "%ld\n", handled);
        fclose(f);
    }
    handled = 0;
}

__attribute__((destructor)) static void at_exit_report(void)
{
    report();
}

/* simcoll's simulation children end with _exit, which runs no destructor. */
void _exit(int code)
{
    static void (*real)(int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "_exit");
    report();
    real(code);
    abort(); /* not reached: _exit does not return */
}
