/*
 * none.c - `banyan serve` in a build without libmicrohttpd and jansson:
 * says what to install. The Makefile links it in place of server.c and
 * api.c when pkg-config finds neither.
 */
#include <stdio.h>

#include "web.h"

/* What is missing and how to get it; a build that leaves the board out by
 * design says why instead (make windows). */
#ifndef WEB_MISSING
#define WEB_MISSING                                                                                \
    "not built (it needs libmicrohttpd and jansson: apt-get install libmicrohttpd-dev "            \
    "libjansson-dev pkg-config, then rebuild)"
#endif

int web_serve(const web_config *c)
{
    (void)c;
    fprintf(stderr, "banyan serve: the web board is %s\n", WEB_MISSING);
    return 1;
}

int web_follow(const web_config *c)
{
    (void)c;
    return 1; /* Rank 0 says why. */
}

const char *web_about(void)
{
    return WEB_MISSING;
}
