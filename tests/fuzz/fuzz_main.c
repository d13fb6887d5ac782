/*
 * fuzz_main.c - replays saved fuzz inputs without libFuzzer: every file
 * named on the command line (or in a directory named there) is passed once
 * to LLVMFuzzerTestOneInput. Every crash ever found stays a test this way.
 * Prints "fuzz: N passed, 0 failed"; a crash ends the process.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return 0;
            }
            buf = nb;
        }
        buf[len++] = (uint8_t)c;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", len);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            n += fuzz_replay_file(argv[i]);
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *ent;
        while (d && (ent = readdir(d))) {
            char path[4096];
            if (ent->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", argv[i], ent->d_name);
            n += fuzz_replay_file(path);
        }
        if (d)
            closedir(d);
    }
    printf("fuzz: %d passed, 0 failed\n", n);
    return 0;
}
