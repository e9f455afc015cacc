/* Runs a fuzz target on files, without libFuzzer: the regression tests run
 * every corpus and every past finding through each target in every build.
 * usage: fuzz_TARGET_replay FILE_OR_DIR...
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *data = malloc(cap);
    for (size_t k; data && (k = fread(data + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            uint8_t *bigger = realloc(data, cap *= 2);
            if (!bigger)
                free(data);
            data = bigger;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}

static int replay(const char *path, int *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return replay_file(path);
    }
    DIR *d = opendir(path);
    int bad = !d;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        bad |= replay(child, count);
    }
    if (d)
        closedir(d);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++)
        bad |= replay(argv[i], &count);
    printf("%d inputs replayed\n", count);
    return bad;
}
