/*
 * options.c - the engine's configuration by name: one table maps each
 * option's name to its field of banyan_config and the syntax of its value,
 * as the program's command line writes them ("c" "1.2", "memory" "64M",
 * "rave" "off"). banyan_config_set() is for callers through a foreign-
 * function interface, and the front-ends' own table (proto/options.c)
 * reads every search setting through it, so that the names, the ranges and
 * the sentences saying what a value must be are written once, here.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"

/* How a row's value is read, each by one case of config_apply. */
typedef enum config_kind {
    CONFIG_SEED,
    CONFIG_THREADS,
    CONFIG_PARALLEL,
    CONFIG_MEMORY,
    CONFIG_C,
    CONFIG_SELECT,
    CONFIG_FINAL,
    CONFIG_FPU,
    CONFIG_WIDENING,
    CONFIG_OPP_WIDENING,
    CONFIG_EXPAND,
    CONFIG_LEAF,
    CONFIG_CUTOFF,
    CONFIG_SOLVE,
    CONFIG_REUSE,
    CONFIG_RECYCLE,
    CONFIG_TRANSPOSITIONS,
    CONFIG_RAVE,
    CONFIG_MAX_MIX,
    CONFIG_ADAPTIVE,
    CONFIG_BATCH,
    CONFIG_SHARE
} config_kind;

/* The end of field m of banyan_config: a row writes nothing beyond the end
 * of its last field, which the caller's config must hold. */
#define CONFIG_END(m) (offsetof(banyan_config, m) + sizeof(((banyan_config *)0)->m))

#define CONFIG_SIZE_MAX 1e15 /* Bytes of the largest memory read. */

static const struct config_row {
    const char *name;   /* The option's name, as the command line writes it. */
    const char *words;  /* The words it takes, '|'-separated, or NULL. */
    config_kind kind;   /* How the value is read. */
    size_t end;         /* The end of the last field it writes. */
    const char *expect; /* What a value must be, for an error. */
} config_rows[] = {
    {"seed", NULL, CONFIG_SEED, CONFIG_END(seed), "a whole number from 0 to 18446744073709551615"},
    {"threads", NULL, CONFIG_THREADS, CONFIG_END(threads), "a whole number from 1 to 64"},
    {"memory", NULL, CONFIG_MEMORY, CONFIG_END(memory),
     "a size in bytes from 1 to 1e+15, with an optional K, M or G"},
    {"parallel", "tree|root", CONFIG_PARALLEL, CONFIG_END(parallel), "one of tree|root"},
    {"c", NULL, CONFIG_C, CONFIG_END(c), "a number from 1e-06 to 1000000"},
    {"select", "uct|puct", CONFIG_SELECT, CONFIG_END(select), "one of uct|puct"},
    {"final", "visits|value|lcb", CONFIG_FINAL, CONFIG_END(final), "one of visits|value|lcb"},
    {"fpu", "R|infinite", CONFIG_FPU, CONFIG_END(fpu_value), "a number from 0 to 1, or infinite"},
    {"widening", "W|off", CONFIG_WIDENING, CONFIG_END(widening),
     "a number from 0.01 to 1000, or off"},
    {"opponent-widening", "W|off", CONFIG_OPP_WIDENING, CONFIG_END(widening_opponent),
     "a number from 0.01 to 1000, or off"},
    {"expand", NULL, CONFIG_EXPAND, CONFIG_END(expand_visits), "a whole number from 1 to 999999"},
    {"leaf", "rollout|eval|cutoff", CONFIG_LEAF, CONFIG_END(leaf), "one of rollout|eval|cutoff"},
    {"cutoff", NULL, CONFIG_CUTOFF, CONFIG_END(cutoff), "a whole number from 1 to 1000"},
    {"solve", NULL, CONFIG_SOLVE, CONFIG_END(solve_budget),
     "a whole number from 1 to 18446744073709551615"},
    {"reuse", "on|off", CONFIG_REUSE, CONFIG_END(fresh_tree), "one of on|off"},
    {"recycle", "on|off", CONFIG_RECYCLE, CONFIG_END(no_recycle), "one of on|off"},
    {"transpositions", "on|off|graph", CONFIG_TRANSPOSITIONS, CONFIG_END(graph),
     "one of on|off|graph"},
    {"rave", "K|off", CONFIG_RAVE, CONFIG_END(rave), "a number from 1 to 1000000000, or off"},
    {"max-mix", NULL, CONFIG_MAX_MIX, CONFIG_END(max_mix), "a number from 0 to 1"},
    {"adaptive", "on|off", CONFIG_ADAPTIVE, CONFIG_END(adaptive), "one of on|off"},
    {"batch", NULL, CONFIG_BATCH, CONFIG_END(batch), "a whole number from 1 to 256"},
    {"share-nodes", NULL, CONFIG_SHARE, CONFIG_END(share_nodes),
     "a whole number from 0 to 1048576"},
};

#define CONFIG_N (sizeof config_rows / sizeof config_rows[0])

static const struct config_row *config_find(const char *name)
{
    for (size_t i = 0; name && i < CONFIG_N; i++)
        if (!strcmp(config_rows[i].name, name))
            return &config_rows[i];
    return NULL;
}

/* Whether text is written with the characters of a decimal number only (no
 * "0x", "inf", "nan" or spaces, which strtod would also read). */
static bool config_is_decimal(const char *text)
{
    return *text && strspn(text, "0123456789.eE+-") == strlen(text);
}

/* A byte count with an optional K, M or G suffix (binary) and an optional
 * trailing B or iB: "256M", "1.5G", "65536". */
static bool config_size(const char *text, size_t *out)
{
    static const char units[] = "kmg";
    char *end;
    if (!isdigit((unsigned char)*text) && *text != '.')
        return false;
    errno = 0;
    double v = strtod(text, &end), mult = 1;
    if (end == text || errno || !(v >= 0) ||
        (size_t)(end - text) != strspn(text, "0123456789.eE+-"))
        return false; /* Decimal only: not "0x10M", which strtod reads. */
    const char *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
    if (u) {
        mult = (double)(1ULL << (10 * (u - units + 1)));
        end++;
    }
    if (!strcasecmp(end, "b") || (u && !strcasecmp(end, "ib")))
        end += strlen(end);
    if (*end || v * mult > CONFIG_SIZE_MAX)
        return false;
    *out = (size_t)(v * mult);
    return true;
}

/* A whole decimal count in [lo, hi]. A number too large for any count is
 * out of range like any other, never taken as the largest one. */
static bool config_count(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = isdigit((unsigned char)*text) ? strtoull(text, &end, 10) : 0;
    if (!isdigit((unsigned char)*text) || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A whole number in [lo, hi], which int holds, into *out. */
static bool config_int(const char *text, int lo, int hi, int *out)
{
    uint64_t u;
    if (!config_count(text, (uint64_t)lo, (uint64_t)hi, &u))
        return false;
    *out = (int)u;
    return true;
}

/* A decimal number in [lo, hi]. */
static bool config_real(const char *text, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = config_is_decimal(text) ? strtod(text, &end) : NAN;
    if (!config_is_decimal(text) || *end || errno || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

/* The index of word among the '|'-separated words of list, or -1. */
static int config_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    int i = 0;
    for (const char *c = list; list && *c; i++) {
        size_t k = strcspn(c, "|");
        if (k == n && !strncmp(c, word, n))
            return i;
        c += k + (c[k] == '|');
    }
    return -1;
}

/* A number in [lo, hi], or the word off for -1 (none). */
static bool config_real_off(const char *v, int w, double lo, double hi, double *out)
{
    if (w == 1) {
        *out = -1;
        return true;
    }
    return config_real(v, lo, hi, out);
}

/* Reads v into c as r says; false for a bad value. */
static bool config_apply(banyan_config *c, const struct config_row *r, const char *v)
{
    int w = config_word(r->words, v), n;
    switch (r->kind) {
    case CONFIG_SEED:
        return config_count(v, 0, UINT64_MAX, &c->seed);
    case CONFIG_THREADS:
        return config_int(v, 1, BANYAN_MAX_THREADS, &c->threads);
    case CONFIG_MEMORY:
        return config_size(v, &c->memory) && c->memory > 0;
    case CONFIG_PARALLEL:
        c->parallel = w == 0 ? BANYAN_PARALLEL_TREE : BANYAN_PARALLEL_ROOT;
        return w >= 0;
    case CONFIG_C:
        return config_real(v, 1e-6, 1e6, &c->c);
    case CONFIG_SELECT:
        c->select = w == 0 ? BANYAN_SELECT_UCT : BANYAN_SELECT_PUCT;
        return w >= 0;
    case CONFIG_FINAL:
        c->final = w == 0 ? BANYAN_FINAL_VISITS : w == 1 ? BANYAN_FINAL_VALUE : BANYAN_FINAL_LCB;
        return w >= 0;
    case CONFIG_FPU:
        c->fpu = w == 1 ? BANYAN_FPU_INFINITE : BANYAN_FPU_PARENT;
        return w == 1 || config_real(v, 0, 1, &c->fpu_value);
    case CONFIG_WIDENING:
        return config_real_off(v, w, 0.01, 1000, &c->widening);
    case CONFIG_OPP_WIDENING:
        return config_real_off(v, w, 0.01, 1000, &c->widening_opponent);
    case CONFIG_EXPAND:
        if (!config_int(v, 1, 999999, &n))
            return false;
        c->expand_visits = (uint32_t)n;
        return true;
    case CONFIG_LEAF:
        c->leaf = w == 0 ? BANYAN_LEAF_ROLLOUT : w == 1 ? BANYAN_LEAF_EVAL : BANYAN_LEAF_CUTOFF;
        return w >= 0;
    case CONFIG_CUTOFF:
        return config_int(v, 1, 1000, &c->cutoff);
    case CONFIG_SOLVE:
        return config_count(v, 1, UINT64_MAX, &c->solve_budget);
    case CONFIG_REUSE:
        c->fresh_tree = w == 1;
        return w >= 0;
    case CONFIG_RECYCLE:
        c->no_recycle = w == 1;
        return w >= 0;
    case CONFIG_TRANSPOSITIONS:
        c->transpositions = w != 1;
        c->graph = w == 2;
        return w >= 0;
    case CONFIG_RAVE:
        return config_real_off(v, w, 1, 1e9, &c->rave);
    case CONFIG_MAX_MIX:
        return config_real(v, 0, 1, &c->max_mix);
    case CONFIG_ADAPTIVE:
        c->adaptive = w == 0 ? 1 : -1;
        return w >= 0;
    case CONFIG_BATCH:
        return config_int(v, 1, BANYAN_MAX_BATCH, &c->batch);
    case CONFIG_SHARE:
        return config_int(v, 0, BANYAN_SHARE_NODES_MAX, &c->share_nodes);
    }
    return false;
}

BANYAN_API int banyan_config_set(banyan_config *cfg, const char *name, const char *value)
{
    const struct config_row *r = config_find(name);
    banyan_config c;
    if (!cfg || !r || !value || !engine_size_ok(cfg->size, ENGINE_CONFIG_FIRST, sizeof c) ||
        r->end > cfg->size)
        return BANYAN_EINVAL;
    /* On a copy, so that a refused value leaves the config as it was. */
    engine_copy_in(&c, cfg, sizeof c);
    if (!config_apply(&c, r, value))
        return BANYAN_EINVAL;
    c.size = cfg->size;
    memcpy(cfg, &c, cfg->size);
    return BANYAN_OK;
}

BANYAN_API const char *banyan_config_option(int i)
{
    return i >= 0 && (size_t)i < CONFIG_N ? config_rows[i].name : NULL;
}

BANYAN_API const char *banyan_config_expects(const char *name)
{
    const struct config_row *r = config_find(name);
    return r ? r->expect : NULL;
}
