/*
 * web.h - `banyan serve`: the web board (docs/WEB.md). The program hands
 * web_serve() its options; the server (server.c, on libmicrohttpd) turns
 * HTTP requests into calls of the interface in api.h, which keeps the
 * sessions and speaks JSON (jansson). A build without those libraries
 * links none.c instead, whose web_serve() says what to install.
 */
#ifndef BANYAN_WEB_H
#define BANYAN_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* What the server is started with. */
typedef struct web_config {
    options eng;         /* New sessions' engine options: strength, seed, net, ... */
    size_t memory;       /* What all sessions' engines take together. */
    int sessions;        /* Sessions open at once. */
    double idle;         /* Seconds without a request or an open page before a session closes. */
    int max_threads;     /* The most search threads a session may have. */
    const char *host;    /* The address to listen on. */
    int port;            /* Its port; 0: a free one. */
    bool check_host;     /* Refuse a Host header that is not the loopback's (set by web_serve
                            when it binds to the loopback). */
    const char *net_for; /* The game whose sessions use eng.net (the others search without
                            it); NULL: every game's. */
} web_config;

/* Runs the server until SIGINT or SIGTERM. Prints its address on stdout
 * (and what binding beyond the loopback means, on stderr). Returns the
 * program's exit status: 0 after a signal, 1 when it cannot start. */
int web_serve(const web_config *c);

/* Under mpirun, on every rank but 0: takes part in the searches of rank
 * 0's web_serve() (whose sessions search over every rank) until rank 0
 * ends them (dsearch_end). Returns the program's exit status. */
int web_follow(const web_config *c);

/* One line for --version: the libraries the web board is built on, or why
 * it is not built. */
const char *web_about(void);

#endif /* BANYAN_WEB_H */
