/*
 * api.h - the web board's interface without its transport: sessions (a
 * game record, an engine and a search thread each), the JSON routes of
 * docs/WEB.md, and the event streams. server.c feeds it HTTP requests; the
 * fuzz target feeds it any bytes. Every function is safe to call from any
 * number of threads at once.
 */
#ifndef BANYAN_WEB_API_H
#define BANYAN_WEB_API_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "web.h"

#define WEB_BODY_MAX (1u << 20) /* The largest request body taken. */

typedef struct web web;
typedef struct web_watch web_watch;

/* One request, as the transport read it. Strings are NUL-terminated and
 * borrowed; a header that was not sent is NULL. */
typedef struct web_request {
    const char *method; /* "GET", "POST", ... */
    const char *path;   /* Decoded, without the query. */
    const char *format; /* The query's format=, or NULL. */
    const char *host;   /* Headers. */
    const char *origin;
    const char *if_none_match;
    const char *body; /* body_len bytes (not NUL-terminated). */
    size_t body_len;
    bool too_large; /* The body was over WEB_BODY_MAX and dropped. */
} web_request;

/* The answer. body is malloc'd unless is_static; headers that do not
 * apply are "" . With watch set, the body is the event stream read through
 * web_watch_read until it ends, then web_watch_close. */
typedef struct web_response {
    int status;
    const char *type;  /* Content-Type. */
    const char *cache; /* Cache-Control. */
    char *body;
    size_t len;
    bool is_static;
    char etag[24];
    char allow[32];
    char disposition[96];
    web_watch *watch;
} web_response;

/* Makes the sessions' keeper for config c (borrowed for the call; strings in
 * it must outlive the web). Returns BANYAN_OK or BANYAN_ENOMEM. */
int web_new(const web_config *c, web **out);

/* Stops every search, ends every stream and frees everything. No request
 * may be in progress and every watch must be closed. */
void web_free(web *w);

/* Blocks SIGINT, SIGTERM and SIGPIPE in the calling thread (and so in the
 * threads it starts), which *sigs then holds: the server's main thread
 * takes them with sigtimedwait, a rank that follows rank 0 leaves them to
 * it. */
void web_block_signals(sigset_t *sigs);

/* Answers request r into *out (free it with web_response_free). */
void web_handle(web *w, const web_request *r, web_response *out);

void web_response_free(web_response *out);

/* Writes the next bytes of the stream into buf[max]: waits up to timeout
 * seconds for an event and writes a comment line when none comes. Returns
 * the bytes written, or -1 at the end of the stream (the session closed,
 * or web_shutdown). */
long web_watch_read(web_watch *wt, char *buf, size_t max, double timeout);

/* Ends a stream: when it was the session's last, the session's search
 * stops (docs/WEB.md, "Events"). */
void web_watch_close(web_watch *wt);

/* The port the server listens on, for the Host check (the configured one
 * may be 0). */
void web_set_port(web *w, int port);

/* Closes the sessions idle for longer than the configured time. */
void web_reap(web *w);

/* Ends every stream (their reads return -1 from now on), before the
 * transport waits for its connections. */
void web_shutdown(web *w);

/* The embedded files (assets.c, written at build time by gen_assets.c). */
typedef struct web_asset {
    const char *path; /* "/", "/app.js", ... */
    const char *type;
    const unsigned char *data;
    size_t len;
    const char *etag; /* Quoted, as sent. */
} web_asset;

extern const web_asset web_assets[];
extern const int web_n_assets;

#endif /* BANYAN_WEB_API_H */
