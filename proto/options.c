/*
 * options.c - the table of engine options (see options.h). One row per
 * option: its name, the syntax of its value, the front-ends where it applies
 * (which also says where it is taken), its default and its meaning, and the
 * kind of value, which one setter reads into the options struct; a refused
 * value gets a sentence saying what is expected (a number's range). The
 * search settings that are fields of banyan_config are read by the
 * library's own table (banyan_config_set, src/options.c), which says what
 * their values must be. Nothing here knows a game: game parameters travel
 * as a string the game's own table checks.
 */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Kinds of value, each read by one case of options_apply. */
typedef enum options_kind {
    OPT_PLAYOUTS,
    OPT_TIME,
    OPT_NODES,
    OPT_CONFIG, /* A field of banyan_config: the library's table reads it by name. */
    OPT_PONDER,
    OPT_NO_PONDER,
    OPT_POLICY,
    OPT_PARAMS,
    OPT_NET,
    OPT_RESIGN,
    OPT_SHARE_MS,
    OPT_SHARE_EVERY,
    OPT_SHARE_PHANTOMS,
    OPT_SHARE_STATS,
    OPT_RANK_TIMEOUT
} options_kind;

/* Flags of a row. A search setting is listed by `banyan help options`,
 * not by each command's --help, which points there. */
#define OPT_LIVE    0x1u /* Taken by a running session (GTP banyan-set, Gomocup INFO). */
#define OPT_ENGINE  0x2u /* A change needs a new engine. */
#define OPT_SETTING 0x4u /* A search setting. */
#define OPT_SEARCH  (OPT_LIVE | OPT_ENGINE | OPT_SETTING)

/* The front-ends where an option applies: every one that searches, and
 * those without pondering, a move tree that goes on, or a node limit. */
#define IN_ALL      OPTIONS_IN_ANY
#define IN_PONDER   (OPTIONS_IN_PLAY | OPTIONS_IN_GTP | OPTIONS_IN_GOMOCUP)
#define IN_NO_NODES (OPTIONS_IN_ANY & ~(OPTIONS_IN_SOLO | OPTIONS_IN_SERVE))
#define IN_GAMES    (OPTIONS_IN_ANY & ~OPTIONS_IN_ANALYZE) /* Engines that play moves on. */
/* The front-ends whose search runs over every rank under mpirun. */
#define IN_DIST (OPTIONS_IN_GTP | OPTIONS_IN_GOMOCUP | OPTIONS_IN_ANALYZE | OPTIONS_IN_SERVE)

static const struct options_row {
    const char *name;  /* --name, name=, banyan-set name. */
    const char *arg;   /* Syntax of the value; NULL for a switch. */
    unsigned in;       /* OPTIONS_IN_* front-ends where it applies. */
    unsigned flags;    /* OPT_LIVE, OPT_ENGINE, OPT_SETTING. */
    options_kind kind; /* How the value is read. */
    const char *def;   /* The default, for --help. */
    const char *help;  /* The meaning, for --help. */
} options_rows[] = {
    {"playouts", "N", IN_ALL, OPT_LIVE, OPT_PLAYOUTS, "each command's own: its --help says",
     "simulations per move"},
    {"time", "S", IN_ALL, OPT_LIVE, OPT_TIME, "none", "seconds per move"},
    {"nodes", "N", IN_NO_NODES, OPT_LIVE, OPT_NODES, "none", "stop when the tree holds N nodes"},
    {"seed", "S", IN_ALL | OPTIONS_IN_TRAIN, OPT_LIVE | OPT_ENGINE, OPT_CONFIG, "a fixed seed",
     "random seed (never the clock)"},
    {"threads", "T", IN_ALL, OPT_LIVE | OPT_ENGINE, OPT_CONFIG, "1", "search threads"},
    {"memory", "B", IN_ALL, OPT_LIVE | OPT_ENGINE, OPT_CONFIG,
     "a 256M node arena and what the rest needs",
     "bytes the engine allocates in all, with an optional K, M or G: the node arena takes what "
     "each thread's scratch and the game's prover and solver memory leave"},
    {"net", "FILE", IN_ALL, OPT_LIVE | OPT_ENGINE, OPT_NET, "none",
     "a network file (banyan train) that evaluates the leaves and gives the priors"},
    {"ponder", NULL, IN_PONDER, 0, OPT_PONDER, "on in play, off in gtp and gomocup",
     "think on the opponent's time"},
    {"no-ponder", NULL, IN_PONDER, 0, OPT_NO_PONDER, "", "do not think on the opponent's time"},
    {"resign", "V|off", OPTIONS_IN_GTP, OPT_LIVE, OPT_RESIGN, "0.1",
     "resign when the move's value (its upper 95% bound) stays below V for 3 moves in a row, "
     "or at once when the game is proven lost"},
    {"policy", "textbook", IN_ALL, OPT_ENGINE, OPT_POLICY, "the engine's own",
     "textbook: plain UCT, c = 1.4, every move a candidate, the most visited played, uniform "
     "rollouts, no solvers, 2000 playouts unless told"},
    {"params", "k=v;k=v", OPTIONS_IN_MATCH, OPT_ENGINE, OPT_PARAMS, "none",
     "game parameters added to the match's"},
    {"parallel", "tree|root", IN_ALL, OPT_SEARCH, OPT_CONFIG, "tree",
     "threads share one tree, or own one each"},
    {"c", "X", IN_ALL, OPT_SEARCH, OPT_CONFIG, "1.414 (uct), 1.5 (puct)", "exploration constant"},
    {"select", "uct|puct", IN_ALL, OPT_SEARCH, OPT_CONFIG,
     "puct where leaves are evaluated, else uct", "selection formula"},
    {"final", "visits|value|lcb", IN_ALL, OPT_SEARCH, OPT_CONFIG, "lcb",
     "rule for the move to play"},
    {"fpu", "R|infinite", IN_ALL, OPT_SEARCH, OPT_CONFIG, "0.1 under puct, infinite under uct",
     "first-play urgency: an unvisited child is valued at its parent's mean less R (0 to 1), "
     "or every child is tried once before any twice"},
    {"widening", "W|off", IN_ALL, OPT_SEARCH, OPT_CONFIG,
     "2 for games with priors, 0.5 with RAVE (Go), else off",
     "progressive widening: a node with N visits considers its first max(2, W * sqrt(N)) "
     "children, by prior"},
    {"opponent-widening", "W|off", IN_ALL, OPT_SEARCH, OPT_CONFIG, "as widening",
     "progressive widening at the nodes where the opponent is to move"},
    {"expand", "N", IN_ALL, OPT_SEARCH, OPT_CONFIG, "1", "visits a leaf needs to be expanded"},
    {"leaf", "rollout|eval|cutoff", IN_ALL, OPT_SEARCH, OPT_CONFIG,
     "eval for a game with an evaluation, else rollout",
     "at a leaf: a rollout to the end, the game's evaluation, or a short rollout then the "
     "evaluation"},
    {"cutoff", "N", IN_ALL, OPT_SEARCH, OPT_CONFIG, "8",
     "plies of the short rollout of leaf=cutoff"},
    {"solve", "N", IN_ALL, OPT_SEARCH, OPT_CONFIG, "4000000, or 2500000 a second of a timed move",
     "positions the game's exact solver may visit on the root (games with one)"},
    {"reuse", "on|off", IN_GAMES, OPT_SEARCH, OPT_CONFIG, "on",
     "keep the subtree of the move played for the next search"},
    {"recycle", "on|off", IN_ALL, OPT_SEARCH, OPT_CONFIG, "on",
     "drop the least visited subtrees when the arena fills"},
    {"transpositions", "on|off|graph", IN_ALL, OPT_SEARCH, OPT_CONFIG, "off",
     "on: a new leaf reached before by another order of moves takes the mean found there; "
     "graph: it shares that position's children and subtree (two-player games)"},
    {"rave", "K|off", IN_ALL, OPT_SEARCH, OPT_CONFIG,
     "3000 for games whose rollouts tell their moves",
     "RAVE: each child's mean mixed with its all-moves-as-first mean, equal weights at K "
     "simulations"},
    {"max-mix", "M", IN_ALL, OPT_SEARCH, OPT_CONFIG, "0",
     "single-player games: each child's mean mixed with the best return seen through it, M "
     "(0 to 1) on the best"},
    {"adaptive", "on|off", IN_ALL, OPT_SEARCH, OPT_CONFIG, "off",
     "single-player games: exploration scaled by the spread of the returns seen"},
    {"batch", "N", IN_ALL, OPT_SEARCH, OPT_CONFIG, "1",
     "with net=: leaves a search thread gathers for one pass of the network"},
    {"share-nodes", "N", IN_DIST, OPT_ENGINE, OPT_CONFIG, "10000 under mpirun, else 0",
     "a search over MPI ranks: the nodes of the top of its tree each rank sends"},
    {"share-ms", "MS", IN_DIST, 0, OPT_SHARE_MS, "100",
     "a search over MPI ranks: milliseconds between two exchanges of a rank"},
    {"share-every", "N", IN_DIST, 0, OPT_SHARE_EVERY, "off",
     "a search over MPI ranks: exchange in step every N simulations of each rank (looked at "
     "every 16), waiting for every rank's, in place of --share-ms; with one thread a rank "
     "and a seed, a search is reproducible"},
    {"share-phantoms", "on|off", IN_DIST, 0, OPT_SHARE_PHANTOMS, "on",
     "a search over MPI ranks: each leaf is one rank's, and walks down the tree to the others' "
     "stand for their simulations until their statistics come in (virtual visits), so that "
     "the ranks spread as threads of one tree do and, while their trees agree, evaluate no "
     "leaf twice"},
    {"share-stats", NULL, IN_DIST, 0, OPT_SHARE_STATS, "off",
     "a search over MPI ranks: a line on standard error after each search with rank 0's "
     "exchanges, their bytes and their time"},
    {"rank-timeout", "S", IN_DIST, 0, OPT_RANK_TIMEOUT, "10",
     "under mpirun: seconds a rank may stay silent when an answer is due before the run "
     "ends naming it"},
};

#define OPTIONS_N      (sizeof options_rows / sizeof options_rows[0])
#define OPTIONS_INDENT "                           " /* Help text under a long syntax. */

/* The front-ends of OPTIONS_IN_*, bit by bit, by their command's name. */
static const char *const options_fronts[] = {"play", "gtp",   "gomocup",  "analyze", "bench",
                                             "solo", "serve", "selfplay", "match",   "train"};

/* The places (OPTIONS_CLI, OPTIONS_PLAYER, OPTIONS_LIVE) that take row r. */
static unsigned options_places(const struct options_row *r)
{
    return (r->in & ~OPTIONS_IN_MATCH ? OPTIONS_CLI : 0) |
           (r->in & OPTIONS_IN_MATCH ? OPTIONS_PLAYER : 0) |
           (r->flags & OPT_LIVE ? OPTIONS_LIVE : 0);
}

static const struct options_row *options_find(const char *name, unsigned place)
{
    for (size_t i = 0; name && i < OPTIONS_N; i++)
        if (!strcmp(options_rows[i].name, name) && (options_places(&options_rows[i]) & place))
            return &options_rows[i];
    return NULL;
}

unsigned options_front(const char *command)
{
    for (size_t i = 0; command && i < sizeof options_fronts / sizeof options_fronts[0]; i++)
        if (!strcmp(options_fronts[i], command))
            return 1u << i;
    return 0;
}

/* The front-ends of in as words, "play, gtp and gomocup", into out[len]. */
static void options_where(unsigned in, char *out, size_t len)
{
    size_t used = 0, n = sizeof options_fronts / sizeof options_fronts[0];
    int left = 0;
    for (size_t i = 0; i < n; i++)
        left += (in >> i) & 1;
    out[0] = 0;
    for (size_t i = 0; i < n && used < len; i++)
        if ((in >> i) & 1) {
            left--;
            used += (size_t)snprintf(out + used, len - used, "%s%s", options_fronts[i],
                                     left > 1    ? ", "
                                     : left == 1 ? " and "
                                                 : "");
        }
}

void options_init(options *o)
{
    memset(o, 0, sizeof *o);
    o->cfg = BANYAN_CONFIG();
    o->lim = BANYAN_LIMITS();
    o->ponder = -1;
}

uint64_t options_default_playouts(const banyan_game *g, const void *s, uint64_t base)
{
    int w = 0, h = 0;
    if (g->board && g->board->board_size)
        g->board->board_size(s, &w, &h);
    uint64_t cells = w > 0 && h > 0 ? (uint64_t)w * (uint64_t)h : 0;
    if (cells <= OPTIONS_DEFAULT_CELLS)
        return base;
    uint64_t n = base * OPTIONS_DEFAULT_CELLS / cells;
    return n > 0 ? n : 1;
}

int options_search(const options *o, banyan_engine *e, const banyan_limits *lim, banyan_report *r)
{
    return o->search ? o->search(e, lim, r) : banyan_engine_search(e, lim, r);
}

bool options_known(const char *name, unsigned place)
{
    return options_find(name, place) != NULL;
}

bool options_is_switch(const char *name)
{
    const struct options_row *r = options_find(name, OPTIONS_ALL);
    return r && !r->arg;
}

bool options_need_engine(const char *name)
{
    const struct options_row *r = options_find(name, OPTIONS_ALL);
    return r && (r->flags & OPT_ENGINE);
}

/* Whether text is written with the characters of a decimal number only (no
 * "0x", "inf", "nan" or spaces, which strtod would also read). */
static bool options_is_decimal(const char *text)
{
    return *text && strspn(text, "0123456789.eE+-") == strlen(text);
}

/* A whole decimal count in [lo, hi]; on failure, what is expected into
 * want[len]. A number too large for any count is out of range like any
 * other, never taken as the largest one. */
static bool options_count(const char *text, uint64_t lo, uint64_t hi, uint64_t *out, char *want,
                          size_t len)
{
    char *end;
    errno = 0;
    unsigned long long v = isdigit((unsigned char)*text) ? strtoull(text, &end, 10) : 0;
    if (!isdigit((unsigned char)*text) || *end || errno || v < lo || v > hi) {
        snprintf(want, len, "a whole number from %llu to %llu", (unsigned long long)lo,
                 (unsigned long long)hi);
        return false;
    }
    *out = v;
    return true;
}

/* A decimal number in [lo, hi]; on failure, what is expected into
 * want[len] (then "or" and alt, when alt is not NULL). */
static bool options_real(const char *text, double lo, double hi, double *out, const char *alt,
                         char *want, size_t len)
{
    char *end;
    errno = 0;
    double v = options_is_decimal(text) ? strtod(text, &end) : NAN;
    if (!options_is_decimal(text) || *end || errno || !(v >= lo && v <= hi)) {
        snprintf(want, len, "a number from %.15g to %.15g%s%s", lo, hi, alt ? ", or " : "",
                 alt ? alt : "");
        return false;
    }
    *out = v;
    return true;
}

/* The index of word among the '|'-separated words of list, or -1. */
static int options_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    int i = 0;
    for (const char *c = list; *c; i++) {
        size_t k = strcspn(c, "|");
        if (k == n && !strncmp(c, word, n))
            return i;
        c += k + (c[k] == '|');
    }
    return -1;
}

/* Appends "k=v" pairs to params, ';' in v standing for a separator. */
static bool options_add_params(options *o, const char *v)
{
    size_t n = strlen(o->params);
    if (n + strlen(v) + 2 > sizeof o->params)
        return false;
    snprintf(o->params + n, sizeof o->params - n, "%s%s", n ? " " : "", v);
    for (char *c = o->params + n; *c; c++)
        if (*c == ';')
            *c = ' ';
    return true;
}

/* Reads v into o as r says. Returns false for a bad value, with what is
 * expected in want[len] (the row's syntax, unless a number's range says
 * more). */
static bool options_apply(options *o, const struct options_row *r, const char *v, char *want,
                          size_t len)
{
    int w = r->arg ? options_word(r->arg, v) : -1;
    snprintf(want, len, "%s%s", r->arg && strchr(r->arg, '|') ? "one of " : "",
             r->arg ? r->arg : "");
    switch (r->kind) {
    case OPT_PLAYOUTS:
        return options_count(v, 1, UINT64_MAX, &o->lim.playouts, want, len);
    case OPT_TIME:
        return options_real(v, 0.001, 1e7, &o->lim.time, NULL, want, len);
    case OPT_NODES:
        return options_count(v, 1, UINT64_MAX, &o->lim.nodes, want, len);
    case OPT_CONFIG:
        if (banyan_config_set(&o->cfg, r->name, v) == BANYAN_OK)
            return true;
        snprintf(want, len, "%s", banyan_config_expects(r->name));
        return false;
    case OPT_PONDER:
    case OPT_NO_PONDER:
        o->ponder = r->kind == OPT_PONDER;
        return true;
    case OPT_POLICY:
        if (w != 0)
            return false;
        /* The seed articles' player: UCB1 with c = 1.4 over every move in
         * order (no priors, no widening), the most visited child played;
         * the game side (uniform rollouts, no solvers) comes from the
         * game's parameter table. */
        o->cfg.c = 1.4;
        o->cfg.select = BANYAN_SELECT_UCT;
        o->cfg.final = BANYAN_FINAL_VISITS;
        o->cfg.widening = -1;
        o->cfg.leaf = BANYAN_LEAF_ROLLOUT;
        if (!o->lim.playouts && o->lim.time <= 0)
            o->lim.playouts = 2000;
        o->textbook = true;
        return true;
    case OPT_PARAMS:
        return strchr(v, '=') && options_add_params(o, v);
    case OPT_RESIGN:
        if (!strcmp(v, "off")) {
            o->resign = -1;
            return true;
        }
        return options_real(v, 1e-9, 1, &o->resign, "off", want, len);
    case OPT_NET:
        if (!*v || strlen(v) >= sizeof o->net)
            return false;
        snprintf(o->net, sizeof o->net, "%s", v);
        return true;
    case OPT_SHARE_STATS:
        o->share_stats = true;
        return true;
    case OPT_SHARE_MS:
        return options_real(v, 1, 60000, &o->share_ms, NULL, want, len);
    case OPT_SHARE_PHANTOMS:
        if (strcmp(v, "on") && strcmp(v, "off")) {
            snprintf(want, len, "on or off");
            return false;
        }
        o->no_phantoms = !strcmp(v, "off");
        return true;
    case OPT_SHARE_EVERY:
        if (!strcmp(v, "off")) {
            o->share_every = 0;
            return true;
        }
        double every;
        if (!options_real(v, 1, 1e9, &every, "off", want, len) || every != floor(every)) {
            snprintf(want, len, "a whole number from 1 to 1000000000, or off");
            return false;
        }
        o->share_every = every;
        return true;
    case OPT_RANK_TIMEOUT:
        return options_real(v, 0.1, 86400, &o->rank_timeout, NULL, want, len);
    }
    return false;
}

int options_set(options *o, const char *name, const char *value, unsigned place, char *err,
                size_t len)
{
    const struct options_row *r = options_find(name, place);
    options tmp = *o;
    char want[128];
    if (!r) {
        snprintf(err, len, "unknown option %s", name ? name : "(none)");
        return BANYAN_EINVAL;
    }
    if (r->arg && (!value || !options_apply(&tmp, r, value, want, sizeof want))) {
        snprintf(err, len, "bad value for %s: \"%s\" (%s expected)", name, value ? value : "",
                 want);
        return BANYAN_EINVAL;
    }
    if (!r->arg)
        options_apply(&tmp, r, "", want, sizeof want);
    *o = tmp;
    return BANYAN_OK;
}

int options_set_in(options *o, const char *name, const char *value, unsigned front, char *err,
                   size_t len)
{
    const struct options_row *r = options_find(name, OPTIONS_CLI);
    if (r && !(r->in & front)) {
        char where[128], here[32];
        options_where(r->in, where, sizeof where);
        options_where(front, here, sizeof here);
        snprintf(err, len, "--%s does nothing in %s: it applies to %s only", name, here, where);
        return BANYAN_EINVAL;
    }
    return options_set(o, name, value, OPTIONS_CLI, err, len);
}

/* Appends " key=value" to out[len] at *used; false when it does not fit. */
static bool options_append(char *out, size_t len, size_t *used, const char *text)
{
    int n = snprintf(out + *used, len - *used, "%s%s", *used ? " " : "", text);
    if (n < 0 || (size_t)n >= len - *used) {
        out[*used] = 0;
        return false;
    }
    *used += (size_t)n;
    return true;
}

bool options_game_params(const options *o, const banyan_game *g, const char *base, char *out,
                         size_t len)
{
    size_t used = 0;
    bool ok = true;
    out[0] = 0;
    if (base && base[0])
        ok = options_append(out, len, &used, base);
    for (const banyan_param *p = g->params; ok && o->textbook && p && p->name; p++)
        if (p->plain) {
            char pair[128];
            snprintf(pair, sizeof pair, "%s=%s", p->name, p->plain);
            ok = options_append(out, len, &used, pair);
        }
    if (ok && o->params[0])
        ok = options_append(out, len, &used, o->params);
    return ok;
}

/* One row's line of help: the syntax (prefix, name, value), the meaning
 * and the default, and with where the front-ends it applies to when it
 * does not apply in all of them. */
static void options_help_row(FILE *f, const struct options_row *r, const char *prefix, bool where)
{
    char syntax[64], in[160] = "";
    snprintf(syntax, sizeof syntax, "%s%s%s%s", prefix, r->name,
             r->arg ? (prefix[0] ? " " : "=") : "", r->arg ? r->arg : "");
    if (where && (r->in & IN_ALL) != IN_ALL)
        options_where(r->in, in, sizeof in);
    fprintf(f, "  %-24s%s%s%s%s%s%s%s%s\n", syntax, strlen(syntax) < 24 ? " " : "\n" OPTIONS_INDENT,
            r->help, r->def[0] ? " (default: " : "", r->def, r->def[0] ? ")" : "",
            in[0] ? " [" : "", in, in[0] ? " only]" : "");
}

void options_help(FILE *f, unsigned place, unsigned in, const char *prefix)
{
    for (size_t i = 0; i < OPTIONS_N; i++) {
        const struct options_row *r = &options_rows[i];
        if ((options_places(r) & place) && (r->in & in) && !(r->flags & OPT_SETTING))
            options_help_row(f, r, prefix, false);
    }
    fprintf(f, "  %-24s %sc, %sselect, %sfpu, %srave and more: banyan help options\n",
            "search settings", prefix, prefix, prefix, prefix);
}

void options_help_all(FILE *f)
{
    fprintf(f, "Engine options, one table for every front-end: --name VALUE on the command line,\n"
               "name=VALUE in a match player (banyan:name=VALUE,...), banyan-set name VALUE in a\n"
               "GTP session and INFO name VALUE to a Gomocup brain. Each applies wherever the\n"
               "engine searches, unless [brackets] name where; each command's --help lists its\n"
               "own.\n");
    for (int setting = 0; setting < 2; setting++) {
        fprintf(f, "\n%s:\n", setting ? "search settings" : "limits and resources");
        for (size_t i = 0; i < OPTIONS_N; i++) {
            const struct options_row *r = &options_rows[i];
            if (!(r->flags & OPT_SETTING) == !setting)
                options_help_row(f, r, options_places(r) & OPTIONS_CLI ? "--" : "", true);
        }
    }
}

int options_engine_new(const options *o, const banyan_config *cfg, const banyan_game *g,
                       const char *params, banyan_engine **e, net_evaluator **ev, char *why,
                       size_t len)
{
    banyan_config c = *cfg;
    *e = NULL;
    *ev = NULL;
    why[0] = 0;
    if (o->net[0]) {
        if (net_evaluator_open(o->net, g, params, c.threads > 0 ? c.threads : 1, 0, ev, why, len) !=
            0)
            return BANYAN_EINVAL;
        c.evaluator = net_evaluator_hook(*ev);
    }
    int rc = banyan_engine_new(g, params, &c, e);
    if (rc != BANYAN_OK) {
        net_evaluator_free(*ev);
        *ev = NULL;
    }
    return rc;
}

/* For options_explain_new: every parameter of g's table with the value
 * params gives it (the last one) or its default, "a=3 b=5", into
 * all[alen]; and the meaning of each one params names, "b: ...", into
 * helps[hlen]. */
static void options_params_in_full(const banyan_game *g, const char *params, char *all, size_t alen,
                                   char *helps, size_t hlen)
{
    size_t used = 0, hused = 0;
    all[0] = helps[0] = 0;
    for (const banyan_param *p = g->params; p && p->name; p++) {
        char v[128], pair[160];
        const char *cur = params;
        char k[64], given[128];
        bool named = false;
        if (banyan_params_value(g, params, p->name, v, sizeof v) != BANYAN_OK)
            continue;
        snprintf(pair, sizeof pair, "%s=%s", p->name, v);
        options_append(all, alen, &used, pair);
        while (!named && banyan_params_next(&cur, k, sizeof k, given, sizeof given) == 1)
            named = !strcmp(k, p->name);
        if (named && hused < hlen)
            hused += (size_t)snprintf(helps + hused, hlen - hused, "%s%s: %s", hused ? "; " : "",
                                      p->name, p->help);
    }
}

void options_explain_new(const banyan_game *g, const char *params, const banyan_config *cfg, int rc,
                         char *why, size_t len)
{
    char sub[256], all[256], helps[512];
    const char *bad = banyan_game_check(g);
    size_t least;
    if (rc == BANYAN_ENOMEM)
        snprintf(why, len, "cannot create the engine: %s", banyan_strerror(rc));
    else if (bad)
        snprintf(why, len, "the game table of %s is unusable: %s", g->name, bad);
    else if (banyan_params_check(g, params, sub, sizeof sub) != BANYAN_OK)
        snprintf(why, len, "bad parameters for %s: %s", g->name, sub);
    else if (cfg->memory && cfg->memory < (least = banyan_memory_least(g, cfg)))
        snprintf(why, len,
                 "memory %zu is below the %zu bytes (%.1f MiB) that %s needs with %d thread%s: "
                 "the memory counts everything the engine allocates, the game's provers "
                 "included",
                 cfg->memory, least, (double)least / (1 << 20), g->name,
                 cfg->threads > 1 ? cfg->threads : 1, cfg->threads > 1 ? "s" : "");
    else if (banyan_config_check(g, cfg))
        snprintf(why, len, "%s", banyan_config_check(g, cfg));
    else {
        /* Each value is within its range (the table's check passed), yet
         * the game refuses them: they do not go together. */
        options_params_in_full(g, params, all, sizeof all, helps, sizeof helps);
        if (helps[0])
            snprintf(why, len,
                     "%s cannot be set up with %s: each value is within its range, but not "
                     "with the others (%s; banyan games --params lists them)",
                     g->name, all, helps);
        else
            snprintf(why, len, "%s refuses the parameters \"%s\" or the engine options", g->name,
                     params);
    }
}
