/* What to undo when simcoll is killed: the simulation child to stop and
 * the temporary files to remove.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sc_cleanup.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* A signal handler may only touch these: fixed storage, flags set last. */
enum { MAX_FILES = 16, MAX_PATH = 4096 };
static char files[MAX_FILES][MAX_PATH];
static volatile sig_atomic_t file_used[MAX_FILES];
static volatile pid_t child;

static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
enum { NSIGNALS = sizeof signals / sizeof signals[0] };

static void on_signal(int sig)
{
    if (child > 0)
        kill(child, SIGKILL);
    for (int i = 0; i < MAX_FILES; i++)
        if (file_used[i])
            unlink(files[i]);
    /* Blocked while we run: delivered, with its default action, on return. */
    signal(sig, SIG_DFL);
    raise(sig);
}

void sc_cleanup_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    for (int i = 0; i < NSIGNALS; i++)
        sigaction(signals[i], &sa, NULL);
}

void sc_cleanup_in_child(pid_t parent)
{
    for (int i = 0; i < NSIGNALS; i++)
        signal(signals[i], SIG_DFL);
    for (int i = 0; i < MAX_FILES; i++)
        file_used[i] = 0;
    child = 0;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent died before prctl took effect */
        _exit(127);
}

void sc_cleanup_set_child(pid_t pid)
{
    child = pid;
}

int sc_cleanup_remember(const char *path)
{
    size_t n = strlen(path);
    if (n >= MAX_PATH)
        return -1;
    for (int i = 0; i < MAX_FILES; i++)
        if (!file_used[i]) {
            memcpy(files[i], path, n + 1);
            atomic_signal_fence(memory_order_seq_cst); /* the path before the flag */
            file_used[i] = 1;
            return i;
        }
    return -1;
}

void sc_cleanup_forget(int handle)
{
    if (handle >= 0 && handle < MAX_FILES)
        file_used[handle] = 0;
}
