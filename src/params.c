/*
 * params.c - game parameters: the one table-driven reader of "key=value"
 * text (banyan_params_read), which a game's setup() and the front-ends'
 * check (banyan_params_check) share, and the lookups of a description's
 * table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "config.h"
#include "game.h"
#include "util.h"

BANYAN_API const banyan_param *banyan_game_param(const banyan_game *g, const char *key)
{
    if (!g || !key)
        return NULL;
    for (const banyan_param *p = g->params; p && p->name; p++)
        if (!strcmp(p->name, key))
            return p;
    return NULL;
}

BANYAN_API int banyan_params_value(const banyan_game *g, const char *params, const char *key,
                                   char *out, size_t len)
{
    const banyan_param *p = banyan_game_param(g, key);
    const char *cur = params;
    char k[64], v[256];
    const char *found;
    int rc;
    if (!p || !out || len == 0)
        return BANYAN_EINVAL;
    found = p->def;
    char last[256];
    while ((rc = banyan_params_next(&cur, k, sizeof k, v, sizeof v)) == 1)
        if (!strcmp(k, key)) {
            memcpy(last, v, sizeof last);
            found = last;
        }
    if (strlen(found) >= len)
        return BANYAN_ERANGE;
    memcpy(out, found, strlen(found) + 1);
    return BANYAN_OK;
}

/* The index of word among the '|'-separated choices, or -1. */
static int game_choice(const char *choices, const char *word)
{
    size_t n = strlen(word);
    int i = 0;
    for (const char *c = choices; *c; i++) {
        size_t k = strcspn(c, "|");
        if (k == n && !strncmp(c, word, n))
            return i;
        c += k + (c[k] == '|');
    }
    return -1;
}

/* Whether text is a whole decimal number (an optional sign, digits, an
 * optional fraction) in [lo, hi]: the C library's strtod would take hex,
 * exponents, "inf" and "nan" as well. */
static bool game_is_number(const char *text, long lo, long hi)
{
    const char *t = text + (*text == '-' || *text == '+');
    size_t digits = strspn(t, "0123456789");
    if (!digits)
        return false;
    if (t[digits] == '.' && strspn(t + digits + 1, "0123456789") > 0)
        digits += 1 + strspn(t + digits + 1, "0123456789");
    if (t[digits] || digits > 20)
        return false;
    double v = strtod(text, NULL);
    return v >= (double)lo && v <= (double)hi;
}

/* Writes a sentence into why[len] and returns BANYAN_EINVAL. */
static int game_why(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    if (why && len) {
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return BANYAN_EINVAL;
}

/* Reads text as a value of parameter p into *out: a whole number in
 * [min, max], a decimal number in [min, max], or one of the choices (its
 * index). Returns BANYAN_OK, or BANYAN_EINVAL with a sentence in why[len]. */
static int game_param_parse(const banyan_param *p, const char *text, banyan_value *out, char *why,
                            size_t len)
{
    long n;
    int k;
    switch (p->type) {
    case BANYAN_PARAM_INT:
        if (banyan_parse_int(text, p->min, p->max, &n) != BANYAN_OK)
            return game_why(why, len, "%s must be a whole number from %ld to %ld, not \"%s\"",
                            p->name, p->min, p->max, text);
        out->i = n;
        return BANYAN_OK;
    case BANYAN_PARAM_NUMBER:
        if (!game_is_number(text, p->min, p->max))
            return game_why(why, len, "%s must be a number from %ld to %ld, not \"%s\"", p->name,
                            p->min, p->max, text);
        out->x = strtod(text, NULL);
        return BANYAN_OK;
    case BANYAN_PARAM_CHOICE:
        if (!p->choices || (k = game_choice(p->choices, text)) < 0)
            return game_why(why, len, "%s must be one of %s, not \"%s\"", p->name,
                            p->choices ? p->choices : "", text);
        out->choice = k;
        return BANYAN_OK;
    default:
        return game_why(why, len, "%s has no type", p->name);
    }
}

/* The one reader of parameter strings, behind banyan_params_read() and
 * banyan_params_check(): every pair of params read against table, a value
 * into out[i] for entry i (out NULL: only checked), after the defaults when
 * out is given. A NULL table with any_key accepts every key (a game without
 * a table: the syntax alone is checked); name is the game's, for the
 * sentence in why[len]. */
static int game_params_read(const char *name, const banyan_param *table, bool any_key,
                            const char *params, banyan_value *out, char *why, size_t len)
{
    const char *cur = params;
    char k[64], v[256];
    banyan_value value;
    int rc;
    for (int i = 0; out && table && table[i].name; i++)
        if (!table[i].def ||
            game_param_parse(&table[i], table[i].def, &out[i], why, len) != BANYAN_OK)
            return game_why(why, len, "the default of %s is not one of its values", table[i].name);
    while ((rc = banyan_params_next(&cur, k, sizeof k, v, sizeof v)) == 1) {
        int i = 0;
        while (table && table[i].name && strcmp(table[i].name, k) != 0)
            i++;
        if (!table || !table[i].name) {
            if (any_key && !table)
                continue;
            return game_why(why, len, "%s has no parameter \"%s\"", name, k);
        }
        if (game_param_parse(&table[i], v, &value, why, len) != BANYAN_OK)
            return BANYAN_EINVAL;
        if (out)
            out[i] = value;
    }
    if (rc < 0)
        return game_why(why, len, "parameters are key=value pairs separated by spaces: \"%s\"",
                        params);
    return BANYAN_OK;
}

BANYAN_API int banyan_params_read(const banyan_param *table, const char *params, banyan_value *out)
{
    if (!out)
        return BANYAN_EINVAL;
    return game_params_read("the game", table, false, params, out, NULL, 0);
}

BANYAN_API int banyan_params_check(const banyan_game *g, const char *params, char *why, size_t len)
{
    GAME_NORMAL(g);
    if (why && len)
        why[0] = 0;
    if (!g)
        return game_why(why, len, "no game");
    return game_params_read(g->name, g->params, true, params, NULL, why, len);
}
