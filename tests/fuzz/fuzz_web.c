/*
 * fuzz_web.c - libFuzzer target for the web board's request handling
 * (web/api.c): the input is a stream of requests against a server of three
 * small sessions, each request a line "METHOD PATH [FLAGS]" and a body that
 * runs to a line "--" (or the end). "{id}" in a path stands for the last
 * session made, so that the stream reaches every route. FLAGS: 'o' sends a
 * foreign Origin, 'h' a foreign Host, 'b' marks the body too large, 's'
 * and 't' and 'p' ask for the record as sgf, text or psq. An event stream
 * is read twice without waiting, then closed. Searches run in their own
 * threads meanwhile; web_free stops them. Only crashes, hangs, leaks and
 * sanitizer reports count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next line of [*p, end) into out (at most len - 1 bytes, cut). */
static bool fuzz_line(const char **p, const char *end, char *out, size_t len)
{
    if (*p >= end)
        return false;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    size_t n = (size_t)((nl ? nl : end) - *p);
    size_t k = n < len - 1 ? n : len - 1;
    memcpy(out, *p, k);
    out[k] = 0;
    *p += n + (nl != NULL);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    web_config c = {.sessions = 3,
                    .memory = 24u << 20,
                    .idle = 600,
                    .max_threads = 2,
                    .host = "127.0.0.1",
                    .port = 8080,
                    .check_host = true};
    web *w;
    char id[64] = "none", line[512], path[600], buf[4096];
    const char *p = (const char *)data, *end = p + size;
    options_init(&c.eng);
    c.eng.cfg.seed = 1;
    c.eng.lim.playouts = 30;
    if (web_new(&c, &w) != BANYAN_OK)
        return 0;
    for (int n = 0; n < 64 && fuzz_line(&p, end, line, sizeof line); n++) {
        char method[16] = "", raw[512] = "", flags[16] = "";
        if (sscanf(line, "%15s %511s %15s", method, raw, flags) < 2)
            continue;
        const char *at = strstr(raw, "{id}");
        if (at)
            snprintf(path, sizeof path, "%.*s%s%s", (int)(at - raw), raw, id, at + 4);
        else
            snprintf(path, sizeof path, "%s", raw);
        const char *body = p;
        while (p < end &&
               !(p + 2 <= end && p[0] == '-' && p[1] == '-' && (p + 2 == end || p[2] == '\n'))) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
        }
        size_t body_len = (size_t)(p - body);
        p += p < end ? (p + 2 < end ? 3 : 2) : 0;
        web_request r = {
            .method = method,
            .path = path,
            .host = strchr(flags, 'h') ? "evil.example:8080" : "127.0.0.1:8080",
            .origin = strchr(flags, 'o') ? "http://evil.example" : NULL,
            .format = strchr(flags, 's')   ? "sgf"
                      : strchr(flags, 't') ? "text"
                      : strchr(flags, 'p') ? "psq"
                                           : NULL,
            .body = body,
            .body_len = body_len,
            .too_large = strchr(flags, 'b') != NULL,
        };
        web_response res;
        web_handle(w, &r, &res);
        if (res.status == 201 && res.body) {
            const char *k = strstr(res.body, "\"id\":\"");
            if (k)
                snprintf(id, sizeof id, "%.32s", k + 6);
        }
        if (res.watch) {
            web_watch_read(res.watch, buf, sizeof buf, 0);
            web_watch_read(res.watch, buf, sizeof buf, 0);
            web_watch_close(res.watch);
        }
        web_response_free(&res);
    }
    web_free(w);
    return 0;
}
