/*
 * serve.c - `banyan serve`: the web board (docs/WEB.md). Reads the
 * command line (the server's own options, and the engine options of
 * options.h, which set new games' strength; --memory is what all games'
 * engines take together) and hands over to web_serve().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dist.h"
#include "dsearch.h"
#include "net.h"
#include "os.h"
#include "web.h"

#define SERVE_MEMORY ((size_t)1 << 30) /* --memory's default: all sessions together. */

static void serve_help(FILE *f)
{
    fprintf(f, "usage: banyan serve [--host ADDR] [--port N] [options]\n"
               "\n"
               "A web page where a browser plays every game against the engine, analyses\n"
               "positions and shows the engine's thinking (docs/WEB.md). Open the address it\n"
               "prints. It binds to 127.0.0.1 (this machine only) unless --host says otherwise:\n"
               "there are no accounts, so anyone who can reach the address can open games and\n"
               "run searches on this machine.\n"
               "New games' strength without --playouts or --time: 1 s a move.\n"
               "\n"
               "options:\n"
               "  --host ADDR              the address to listen on (default: 127.0.0.1)\n"
               "  --port N                 the port, 0 for a free one (default: 8080)\n"
               "  --sessions N             games open at once (default: 16)\n"
               "  --memory SIZE            what all games' engines take together (default: 1G)\n"
               "  --idle SECONDS           close a game idle this long (default: 600)\n"
               "  --max-threads N          the most search threads a game may use (default: the\n"
               "                           cores)\n");
    /* The engine options, but --memory, which is the server's own here. */
    char *text = NULL;
    size_t len = 0;
    os_mem m;
    FILE *mem = os_mem_open(&m, &text, &len);
    if (mem) {
        options_help(mem, OPTIONS_CLI, OPTIONS_IN_SERVE, "--");
        os_mem_close(&m);
        for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
            end = strchr(line, '\n');
            if (strncmp(line, "  --memory ", 11) != 0)
                fprintf(f, "%.*s\n", (int)(end ? end - line : (long)strlen(line)), line);
        }
        free(text);
    }
    fprintf(f, "  %-24s %s\n", "--help", "this text");
}

/* The game whose sessions use the network file: the first the file fits. */
static bool serve_net_game(const char *path, const char **out)
{
    int n;
    char why[512] = "";
    const banyan_game *const *games = banyan_game_list(&n);
    for (int i = 0; i < n; i++) {
        net_evaluator *ev;
        if (net_evaluator_open(path, games[i], "", 1, 1024, &ev, why, sizeof why) == 0) {
            net_evaluator_free(ev);
            *out = games[i]->name;
            return true;
        }
    }
    fprintf(stderr, "banyan serve: %s\n", why);
    return false;
}

int cli_serve(int argc, char **argv)
{
    web_config c = {.host = "127.0.0.1", .port = 8080, .sessions = 16, .idle = 600};
    int cores = os_cpus();
    char err[256];
    c.max_threads = cores < BANYAN_MAX_THREADS ? cores : BANYAN_MAX_THREADS;
    options_init(&c.eng);
    if (cli_wants_help(argc, argv, 2)) {
        serve_help(stdout);
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *name = a + (a[0] == '-' && a[1] == '-' ? 2 : 1);
        if (a[0] != '-') {
            fprintf(stderr, "banyan serve: unexpected argument \"%s\" (see banyan serve --help)\n",
                    a);
            return 2;
        }
        bool own = !strcmp(name, "host") || !strcmp(name, "port") || !strcmp(name, "sessions") ||
                   !strcmp(name, "idle") || !strcmp(name, "max-threads");
        bool engine = !own && options_known(name, OPTIONS_CLI);
        bool takes = own || (engine && !options_is_switch(name));
        const char *v = takes && i + 1 < argc ? argv[i + 1] : NULL;
        long k;
        if (!own && !engine) {
            fprintf(stderr, "banyan serve: unknown option %s (see banyan serve --help)\n", a);
            return 2;
        }
        if (takes && !v) {
            fprintf(stderr, "banyan serve: %s needs a value\n", a);
            return 2;
        }
        i += takes;
        bool ok = true;
        if (!strcmp(name, "host"))
            c.host = v;
        else if (!strcmp(name, "port") && (ok = !banyan_parse_int(v, 0, 65535, &k)))
            c.port = (int)k;
        else if (!strcmp(name, "sessions") && (ok = !banyan_parse_int(v, 1, 10000, &k)))
            c.sessions = (int)k;
        else if (!strcmp(name, "idle") && (ok = !banyan_parse_int(v, 1, 86400 * 365, &k)))
            c.idle = (double)k;
        else if (!strcmp(name, "max-threads") &&
                 (ok = !banyan_parse_int(v, 1, BANYAN_MAX_THREADS, &k)))
            c.max_threads = (int)k;
        else if (engine && options_set_in(&c.eng, name, v, OPTIONS_IN_SERVE, err, sizeof err)) {
            fprintf(stderr, "banyan serve: %s\n", err);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "banyan serve: bad value for %s: \"%s\"\n", a, v);
            return 2;
        }
    }
    c.memory = c.eng.cfg.memory ? c.eng.cfg.memory : SERVE_MEMORY;
    if (c.eng.cfg.threads > c.max_threads)
        c.eng.cfg.threads = c.max_threads;
    if (c.eng.net[0] && !serve_net_game(c.eng.net, &c.net_for))
        return 2;
    if (dist_ranks() > 1) {
        /* Rank 0 serves, each session's search running over every rank;
         * the others take part until it ends. */
        if (!dsearch_setup(&c.eng, err, sizeof err)) {
            fprintf(stderr, "banyan serve: %s\n", err);
            return 2;
        }
        if (dist_rank() > 0)
            return web_follow(&c);
        int rc = web_serve(&c);
        dsearch_end();
        return rc;
    }
    return web_serve(&c);
}
