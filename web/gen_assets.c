/*
 * gen_assets.c - writes assets.c, the page's files as C arrays, at build
 * time: gen_assets OUT.c FILE... Each file is served at "/" + its name
 * (index.html at "/"), with the type its extension gives and an ETag made
 * from its bytes, so a new build invalidates what browsers keep.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *gen_type(const char *name)
{
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
    };
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t k = strlen(types[i][0]);
        if (n > k && !strcmp(name + n - k, types[i][0]))
            return types[i][1];
    }
    return "application/octet-stream";
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_assets OUT.c FILE...\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "/* Written by web/gen_assets.c from web/assets/: do not edit. */\n"
                 "#include \"api.h\"\n\n");
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        fprintf(out, "static const unsigned char asset%d[] = {", i);
        int c;
        size_t n = 0;
        while ((c = fgetc(f)) != EOF)
            fprintf(out, "%s%d,", n++ % 24 ? "" : "\n    ", c);
        fprintf(out, "0};\n");
        fclose(f);
    }
    fprintf(out, "\nconst web_asset web_assets[] = {\n");
    for (int i = 2; i < argc; i++) {
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        FILE *f = fopen(argv[i], "rb");
        uint64_t h = 1469598103934665603ULL;
        size_t n = 0;
        int c;
        while (f && (c = fgetc(f)) != EOF)
            h = (h ^ (uint64_t)c) * 1099511628211ULL, n++;
        if (f)
            fclose(f);
        fprintf(out, "    {\"/%s\", \"%s\", asset%d, %zu, \"\\\"%016llx\\\"\"},\n",
                strcmp(base, "index.html") ? base : "", gen_type(base), i, n,
                (unsigned long long)h);
    }
    fprintf(out, "};\nconst int web_n_assets = %d;\n", argc - 2);
    return fclose(out) ? 1 : 0;
}
