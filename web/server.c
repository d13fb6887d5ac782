/*
 * server.c - `banyan serve`'s HTTP, on libmicrohttpd: a thread per
 * connection (so an event stream may block while it waits for the next
 * event), request bodies gathered up to WEB_BODY_MAX, each request answered
 * by web_handle() (api.c), streams read through web_watch_read(). The main
 * thread waits for SIGINT or SIGTERM and closes idle sessions every second.
 */
#include <jansson.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "api.h"

#define SERVE_KEEPALIVE 15.0        /* Seconds between a stream's comment lines. */
#define SERVE_TIMEOUT   60          /* Seconds a connection may stay silent. */
#define SERVE_DRAIN_MAX (64u << 20) /* The largest body read only to be refused. */

/* One request while its body arrives. */
typedef struct serve_request {
    char *body;
    size_t len, cap;
    bool too_large;
} serve_request;

static ssize_t serve_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    long n = web_watch_read(cls, buf, max, SERVE_KEEPALIVE);
    return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : (ssize_t)n;
}

static void serve_read_end(void *cls)
{
    web_watch_close(cls);
}

static enum MHD_Result serve_queue(struct MHD_Connection *c, web_response *res)
{
    struct MHD_Response *r;
    if (res->watch) {
        r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, serve_read, res->watch,
                                              serve_read_end);
        if (!r) {
            web_watch_close(res->watch);
            return MHD_NO;
        }
        MHD_add_response_header(r, "X-Accel-Buffering", "no");
    } else {
        r = MHD_create_response_from_buffer(
            res->len, res->body, res->is_static ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_FREE);
        if (!r) {
            web_response_free(res);
            return MHD_NO;
        }
    }
    MHD_add_response_header(r, "Content-Type", res->type);
    MHD_add_response_header(r, "Cache-Control", res->cache);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (res->etag[0])
        MHD_add_response_header(r, "ETag", res->etag);
    if (res->allow[0])
        MHD_add_response_header(r, "Allow", res->allow);
    if (res->disposition[0])
        MHD_add_response_header(r, "Content-Disposition", res->disposition);
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)res->status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result serve_access(void *cls, struct MHD_Connection *c, const char *url,
                                    const char *method, const char *version, const char *upload,
                                    size_t *upload_size, void **con_cls)
{
    (void)version;
    web *w = cls;
    serve_request *q = *con_cls;
    if (!q) {
        q = calloc(1, sizeof *q);
        if (!q)
            return MHD_NO;
        *con_cls = q;
        /* A body over the limit is read and dropped, and answered with 413
         * at its end: a client still sending would not see an answer given
         * before (the connection is reset with its body unread). Only one
         * too large to be worth reading is answered at once. */
        const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        q->too_large = length && strtoull(length, NULL, 10) > WEB_BODY_MAX;
        if (!length || strtoull(length, NULL, 10) <= SERVE_DRAIN_MAX)
            return MHD_YES;
    } else if (*upload_size) {
        if (!q->too_large && q->len + *upload_size > WEB_BODY_MAX) {
            q->too_large = true;
        } else if (!q->too_large) {
            if (q->len + *upload_size > q->cap) {
                size_t cap = q->cap ? q->cap : 4096;
                while (cap < q->len + *upload_size)
                    cap *= 2;
                char *p = realloc(q->body, cap);
                if (!p)
                    return MHD_NO;
                q->body = p;
                q->cap = cap;
            }
            memcpy(q->body + q->len, upload, *upload_size);
            q->len += *upload_size;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    web_request r = {
        .method = method,
        .path = url,
        .format = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "format"),
        .host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host"),
        .origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
        .if_none_match = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match"),
        .body = q->body,
        .body_len = q->len,
        .too_large = q->too_large,
    };
    web_response res;
    web_handle(w, &r, &res);
    return serve_queue(c, &res);
}

static void serve_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                            enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)c, (void)why;
    serve_request *q = *con_cls;
    if (q) {
        free(q->body);
        free(q);
        *con_cls = NULL;
    }
}

/* libmicrohttpd's messages, but for a client gone while its stream was
 * being written: a closed tab, which is the normal end of a stream. */
static void serve_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    if (!strncmp(fmt, "Failed to send", 14))
        return;
    fputs("banyan serve: ", stderr);
    vfprintf(stderr, fmt, ap);
}

/* Whether addr is a loopback address. */
static bool serve_is_loopback(const struct sockaddr *addr)
{
    if (addr->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)(const void *)addr)->sin_addr.s_addr) >> 24) ==
               127;
    if (addr->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)(const void *)addr)->sin6_addr;
        static const unsigned char one[16] = {[15] = 1};
        return !memcmp(a->s6_addr, one, 16);
    }
    return false;
}

int web_serve(const web_config *config)
{
    web_config c = *config;
    struct addrinfo hints = {.ai_flags = AI_PASSIVE, .ai_socktype = SOCK_STREAM}, *ai;
    char port[16];
    snprintf(port, sizeof port, "%d", c.port);
    int rc = getaddrinfo(c.host, port, &hints, &ai);
    if (rc != 0) {
        fprintf(stderr, "banyan serve: cannot listen on %s: %s\n", c.host, gai_strerror(rc));
        return 1;
    }
    bool loopback = serve_is_loopback(ai->ai_addr);
    bool v6 = ai->ai_family == AF_INET6;
    c.check_host = loopback;

    /* The signals go to the main thread's sigtimedwait: blocked before any
     * thread starts, so that every thread inherits the mask. */
    sigset_t sigs;
    web_block_signals(&sigs);

    web *w;
    if (web_new(&c, &w) != BANYAN_OK) {
        freeaddrinfo(ai);
        fprintf(stderr, "banyan serve: out of memory\n");
        return 1;
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
            (v6 ? MHD_USE_IPv6 : 0),
        0, NULL, NULL, serve_access, w, MHD_OPTION_EXTERNAL_LOGGER, serve_log, NULL,
        MHD_OPTION_SOCK_ADDR, ai->ai_addr, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)(4 * c.sessions + 16), MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT,
        MHD_OPTION_NOTIFY_COMPLETED, serve_completed, NULL, MHD_OPTION_END);
    freeaddrinfo(ai);
    if (!d) {
        fprintf(stderr,
                "banyan serve: cannot listen on %s port %d (in use, or not an address of "
                "this machine)\n",
                c.host, c.port);
        web_free(w);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    int bound = info ? info->port : c.port;
    web_set_port(w, bound); /* For the Host check, before anyone knows the port. */
    printf("banyan serve: http://%s%s%s:%d/\n", v6 ? "[" : "", c.host, v6 ? "]" : "", bound);
    fflush(stdout);
    if (!loopback)
        fprintf(stderr,
                "banyan serve: listening on %s, beyond this machine: anyone who can reach it may "
                "open games and run searches on its cores and memory (there are no accounts)\n",
                c.host);

    for (;;) {
        struct timespec second = {1, 0};
        int sig = sigtimedwait(&sigs, NULL, &second);
        if (sig == SIGINT || sig == SIGTERM)
            break;
        web_reap(w);
    }
    web_shutdown(w);
    MHD_stop_daemon(d);
    web_free(w);
    return 0;
}

const char *web_about(void)
{
    static char buf[128];
    snprintf(buf, sizeof buf, "libmicrohttpd %s, jansson %s", MHD_get_version(),
             jansson_version_str());
    return buf;
}
