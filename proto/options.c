/*
 * options.c - the table of engine options (see options.h). One row per
 * option: its name, the syntax of its value, where it is taken, its default
 * and its meaning, and the kind of value, which one setter reads into the
 * options struct. Nothing here knows a game: game parameters travel as a
 * string the game's own table checks.
 */
#include "options.h"

#include <ctype.h>
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
    OPT_SEED,
    OPT_THREADS,
    OPT_PARALLEL,
    OPT_MEMORY,
    OPT_C,
    OPT_SELECT,
    OPT_FINAL,
    OPT_EXPAND,
    OPT_LEAF,
    OPT_CUTOFF,
    OPT_SOLVE,
    OPT_REUSE,
    OPT_RECYCLE,
    OPT_TRANSPOSITIONS,
    OPT_RAVE,
    OPT_PONDER,
    OPT_NO_PONDER,
    OPT_POLICY,
    OPT_PARAMS,
    OPT_NET,
    OPT_BATCH,
    OPT_RESIGN,
    OPT_MAX_MIX,
    OPT_ADAPTIVE,
    OPT_FPU,
    OPT_WIDENING,
    OPT_OPP_WIDENING
} options_kind;

static const struct options_row {
    const char *name;  /* --name, name=, banyan-set name. */
    const char *arg;   /* Syntax of the value; NULL for a switch. */
    unsigned places;   /* OPTIONS_* where it is taken. */
    bool engine;       /* A change needs a new engine. */
    options_kind kind; /* How the value is read. */
    const char *def;   /* The default, for --help. */
    const char *help;  /* The meaning, for --help. */
} options_rows[] = {
    {"playouts", "N", OPTIONS_ALL, false, OPT_PLAYOUTS, "each command's own: its --help says",
     "simulations per move"},
    {"time", "S", OPTIONS_ALL, false, OPT_TIME, "none", "seconds per move"},
    {"nodes", "N", OPTIONS_ALL, false, OPT_NODES, "none", "stop when the tree holds N nodes"},
    {"seed", "S", OPTIONS_ALL, true, OPT_SEED, "a fixed seed", "random seed (never the clock)"},
    {"threads", "T", OPTIONS_ALL, true, OPT_THREADS, "1", "search threads"},
    {"parallel", "tree|root", OPTIONS_ALL, true, OPT_PARALLEL, "tree",
     "threads share one tree, or own one each"},
    {"memory", "B", OPTIONS_ALL, true, OPT_MEMORY, "256M",
     "node arena in bytes, with an optional K, M or G"},
    {"c", "X", OPTIONS_ALL, true, OPT_C, "1.414 (uct), 1.5 (puct)", "exploration constant"},
    {"select", "uct|puct", OPTIONS_ALL, true, OPT_SELECT,
     "puct where leaves are evaluated, else uct", "selection formula"},
    {"final", "visits|value|lcb", OPTIONS_ALL, true, OPT_FINAL, "lcb", "rule for the move to play"},
    {"fpu", "R|infinite", OPTIONS_ALL, true, OPT_FPU, "0.1 under puct, infinite under uct",
     "first-play urgency: an unvisited child is valued at its parent's mean less R (0 to 1), "
     "or every child is tried once before any twice"},
    {"widening", "W|off", OPTIONS_ALL, true, OPT_WIDENING, "2 for games with priors, else off",
     "progressive widening: a node with N visits considers its first max(2, W * sqrt(N)) "
     "children, by prior"},
    {"opponent-widening", "W|off", OPTIONS_ALL, true, OPT_OPP_WIDENING, "as widening",
     "progressive widening at the nodes where the opponent is to move"},
    {"expand", "N", OPTIONS_ALL, true, OPT_EXPAND, "1", "visits a leaf needs to be expanded"},
    {"leaf", "rollout|eval|cutoff", OPTIONS_ALL, true, OPT_LEAF,
     "eval for a game with an evaluation, else rollout",
     "at a leaf: a rollout to the end, the game's evaluation, or a short rollout then the "
     "evaluation"},
    {"cutoff", "N", OPTIONS_ALL, true, OPT_CUTOFF, "8",
     "plies of the short rollout of leaf=cutoff"},
    {"solve", "N", OPTIONS_ALL, true, OPT_SOLVE, "4000000, or 2500000 a second of a timed move",
     "positions the game's exact solver may visit on the root (games with one)"},
    {"reuse", "on|off", OPTIONS_ALL, true, OPT_REUSE, "on",
     "keep the subtree of the move played for the next search"},
    {"recycle", "on|off", OPTIONS_ALL, true, OPT_RECYCLE, "on",
     "drop the least visited subtrees when the arena fills"},
    {"transpositions", "on|off|graph", OPTIONS_ALL, true, OPT_TRANSPOSITIONS, "off",
     "on: a new leaf reached before by another order of moves takes the mean found there; "
     "graph: it shares that position's children and subtree (two-player games)"},
    {"rave", "K|off", OPTIONS_ALL, true, OPT_RAVE, "3000 for games whose rollouts tell their moves",
     "RAVE: each child's mean mixed with its all-moves-as-first mean, equal weights at K "
     "simulations"},
    {"max-mix", "M", OPTIONS_ALL, true, OPT_MAX_MIX, "0",
     "single-player games: each child's mean mixed with the best return seen through it, M "
     "(0 to 1) on the best"},
    {"adaptive", "on|off", OPTIONS_ALL, true, OPT_ADAPTIVE, "off",
     "single-player games: exploration scaled by the spread of the returns seen"},
    {"net", "FILE", OPTIONS_ALL, true, OPT_NET, "none",
     "a network file (banyan train) that evaluates the leaves and gives the priors"},
    {"batch", "N", OPTIONS_ALL, true, OPT_BATCH, "1",
     "with net=: leaves a search thread gathers for one pass of the network"},
    {"ponder", NULL, OPTIONS_CLI, false, OPT_PONDER, "on in play, off in gtp and gomocup",
     "think on the opponent's time"},
    {"no-ponder", NULL, OPTIONS_CLI, false, OPT_NO_PONDER, "",
     "do not think on the opponent's time"},
    {"resign", "V|off", OPTIONS_CLI | OPTIONS_LIVE, false, OPT_RESIGN,
     "0.1 in gtp; play, serve and gomocup play every game out",
     "gtp: resign when the move's value (its upper 95% bound) stays below V for 3 moves in a "
     "row, or at once when the game is proven lost"},
    {"policy", "textbook", OPTIONS_CLI | OPTIONS_PLAYER, true, OPT_POLICY, "the engine's own",
     "textbook: plain UCT, c = 1.4, every move a candidate, the most visited played, uniform "
     "rollouts, no solvers, 2000 playouts unless told"},
    {"params", "k=v;k=v", OPTIONS_PLAYER, true, OPT_PARAMS, "none",
     "game parameters added to the match's"},
};

#define OPTIONS_N      (sizeof options_rows / sizeof options_rows[0])
#define OPTIONS_INDENT "                           " /* Help text under a long syntax. */

static const struct options_row *options_find(const char *name, unsigned place)
{
    for (size_t i = 0; name && i < OPTIONS_N; i++)
        if (!strcmp(options_rows[i].name, name) && (options_rows[i].places & place))
            return &options_rows[i];
    return NULL;
}

void options_init(options *o)
{
    memset(o, 0, sizeof *o);
    o->ponder = -1;
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
    return r && r->engine;
}

bool options_parse_size(const char *text, size_t *out)
{
    static const char units[] = "kmg";
    char *end;
    double v = strtod(text, &end), mult = 1;
    if (end == text || !(v >= 0) || isspace((unsigned char)*text))
        return false;
    const char *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
    if (u) {
        mult = (double)(1ULL << (10 * (u - units + 1)));
        end++;
    }
    if (!strcasecmp(end, "b") || (u && !strcasecmp(end, "ib")))
        end += strlen(end);
    if (*end || v * mult > 1e15)
        return false;
    *out = (size_t)(v * mult);
    return true;
}

/* A whole decimal count in [lo, hi]. */
static bool options_count(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)*text))
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A real number in [lo, hi]. */
static bool options_real(const char *text, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || isspace((unsigned char)*text) || !(v >= lo && v <= hi))
        return false;
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

/* Reads v into o as r says. Returns false for a bad value. */
static bool options_apply(options *o, const struct options_row *r, const char *v)
{
    uint64_t u;
    int w = r->arg ? options_word(r->arg, v) : -1;
    switch (r->kind) {
    case OPT_PLAYOUTS:
        return options_count(v, 1, UINT64_MAX, &o->lim.playouts);
    case OPT_TIME:
        return options_real(v, 0.001, 1e7, &o->lim.time);
    case OPT_NODES:
        return options_count(v, 1, UINT64_MAX, &o->lim.nodes);
    case OPT_SEED:
        return options_count(v, 0, UINT64_MAX, &o->cfg.seed);
    case OPT_THREADS:
        if (!options_count(v, 1, BANYAN_MAX_THREADS, &u))
            return false;
        o->cfg.threads = (int)u;
        return true;
    case OPT_PARALLEL:
        if (w < 0)
            return false;
        o->cfg.parallel = w == 0 ? BANYAN_PARALLEL_TREE : BANYAN_PARALLEL_ROOT;
        return true;
    case OPT_MEMORY:
        return options_parse_size(v, &o->cfg.memory) && o->cfg.memory > 0;
    case OPT_C:
        return options_real(v, 1e-6, 1e6, &o->cfg.c);
    case OPT_SELECT:
        if (w < 0)
            return false;
        o->cfg.select = w == 0 ? BANYAN_SELECT_UCT : BANYAN_SELECT_PUCT;
        return true;
    case OPT_FINAL:
        if (w < 0)
            return false;
        o->cfg.final = w == 0   ? BANYAN_FINAL_VISITS
                       : w == 1 ? BANYAN_FINAL_VALUE
                                : BANYAN_FINAL_LCB;
        return true;
    case OPT_EXPAND:
        if (!options_count(v, 1, 999999, &u))
            return false;
        o->cfg.expand_visits = (uint32_t)u;
        return true;
    case OPT_LEAF:
        if (w < 0)
            return false;
        o->cfg.leaf = w == 0 ? BANYAN_LEAF_ROLLOUT : w == 1 ? BANYAN_LEAF_EVAL : BANYAN_LEAF_CUTOFF;
        return true;
    case OPT_CUTOFF:
        if (!options_count(v, 1, 1000, &u))
            return false;
        o->cfg.cutoff = (int)u;
        return true;
    case OPT_SOLVE:
        return options_count(v, 1, UINT64_MAX, &o->cfg.solve_budget);
    case OPT_REUSE:
    case OPT_RECYCLE:
    case OPT_TRANSPOSITIONS:
        if (w < 0)
            return false;
        if (r->kind == OPT_REUSE)
            o->cfg.fresh_tree = w == 1;
        else if (r->kind == OPT_RECYCLE)
            o->cfg.no_recycle = w == 1;
        else {
            o->cfg.transpositions = w != 1;
            o->cfg.graph = w == 2;
        }
        return true;
    case OPT_RAVE:
        if (!strcmp(v, "off")) {
            o->cfg.rave = -1;
            return true;
        }
        return options_real(v, 1, 1e9, &o->cfg.rave);
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
    case OPT_BATCH:
        if (!options_count(v, 1, BANYAN_MAX_BATCH, &u))
            return false;
        o->cfg.batch = (int)u;
        return true;
    case OPT_MAX_MIX:
        return options_real(v, 0, 1, &o->cfg.max_mix);
    case OPT_ADAPTIVE:
        if (w < 0)
            return false;
        o->cfg.adaptive = w == 0 ? 1 : -1;
        return true;
    case OPT_FPU:
        if (w == 1) {
            o->cfg.fpu = BANYAN_FPU_INFINITE;
            return true;
        }
        o->cfg.fpu = BANYAN_FPU_PARENT;
        return options_real(v, 0, 1, &o->cfg.fpu_value);
    case OPT_WIDENING:
        if (w == 1) {
            o->cfg.widening = -1;
            return true;
        }
        return options_real(v, 0.01, 1000, &o->cfg.widening);
    case OPT_OPP_WIDENING:
        if (w == 1) {
            o->cfg.widening_opponent = -1;
            return true;
        }
        return options_real(v, 0.01, 1000, &o->cfg.widening_opponent);
    case OPT_RESIGN:
        if (!strcmp(v, "off")) {
            o->resign = -1;
            return true;
        }
        return options_real(v, 1e-9, 1, &o->resign);
    case OPT_NET:
        if (!*v || strlen(v) >= sizeof o->net)
            return false;
        snprintf(o->net, sizeof o->net, "%s", v);
        return true;
    }
    return false;
}

int options_set(options *o, const char *name, const char *value, unsigned place, char *err,
                size_t len)
{
    const struct options_row *r = options_find(name, place);
    options tmp = *o;
    if (!r) {
        snprintf(err, len, "unknown option %s", name ? name : "(none)");
        return BANYAN_EINVAL;
    }
    if (r->arg && (!value || !options_apply(&tmp, r, value))) {
        snprintf(err, len, "bad value for %s: \"%s\" (%s expected)", name, value ? value : "",
                 r->arg);
        return BANYAN_EINVAL;
    }
    if (!r->arg)
        options_apply(&tmp, r, "");
    *o = tmp;
    return BANYAN_OK;
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

void options_help(FILE *f, unsigned place, const char *prefix)
{
    for (size_t i = 0; i < OPTIONS_N; i++) {
        const struct options_row *r = &options_rows[i];
        char syntax[64];
        if (!(r->places & place))
            continue;
        snprintf(syntax, sizeof syntax, "%s%s%s%s", prefix, r->name,
                 r->arg ? (prefix[0] ? " " : "=") : "", r->arg ? r->arg : "");
        fprintf(f, "  %-24s%s%s%s%s%s\n", syntax, strlen(syntax) < 24 ? " " : "\n" OPTIONS_INDENT,
                r->help, r->def[0] ? " (default: " : "", r->def, r->def[0] ? ")" : "");
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
