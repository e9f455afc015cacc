/* Fuzz target: the platform file check, and SimGrid behind it. Whatever the
 * check accepts, SimGrid must load and simulate on without dying.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim/simgrid/engine.h"
#include "sim/engine/run.h"
#include "sim/io/platform_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Loads the accepted file and runs a tiny simulation on it: any SC_ERR_RUN
 * is SimGrid failing on a file simcoll let through. */
static void load_and_run(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/simcoll-fuzz-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        perror("fuzz_platform: temporary file");
        abort();
    }
    close(fd);
    sc_platform_t plat;
    sc_err_t err = sc_platform_load("--platform", path, &plat);
    if (err == SC_ERR_RUN) {
        fprintf(stderr, "fuzz_platform: SimGrid failed on an accepted file: %s\n",
                sc_error_message());
        abort();
    }
    if (!err) {
        sc_run_spec_t spec = {.plat = &plat, .algo = sc_algo_find("bruck"),
                              .np = plat.total_cores < 3 ? plat.total_cores : 3, .bytes = 100,
                              .payload = 1};
        sc_run_result_t res;
        err = sc_run(&spec, &res);
        if (err || res.valid != 1) {
            fprintf(stderr, "fuzz_platform: a run on an accepted platform failed: %s\n",
                    err ? sc_error_message() : "wrong result");
            abort();
        }
        sc_run_result_destroy(&res);
        sc_platform_destroy(&plat);
    }
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sc_platform_t plat = {0};
    if (sc_platform_xml_check("--platform", "fuzz.xml", (const char *)data, size, &plat) == SC_OK)
        load_and_run(data, size);
    sc_platform_destroy(&plat);
    return 0;
}
