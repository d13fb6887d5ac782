/*
 * gomoku_children.c - Gomoku's evaluation judged on sibling positions: the
 * children of a position that the search weighs against each other
 * (`make build/release/gomoku-children`).
 *
 *     gomoku-children list K [LO HI] < LABELS > CHILDREN
 *     gomoku-children rank [FIRST LAST] < CHILD_LABELS
 *
 * list: reads tools/label_gomoku.py's lines "ID EVAL MOVES" (15x15
 * freestyle) and, for each position its label rates between LO and HI
 * for the player to move (defaults 0.1 and 0.9; a win or loss seen is
 * left out), writes the K children with the largest priors (the game's
 * candidates and priors, default parameters) as lines "IDcJ MOVES CHILD",
 * J = 0 for the largest: positions for `tools/label_gomoku.py --positions`.
 * Its IDs keep the record's name, so that tools/fit_patterns.c holds a
 * child out with its record.
 *
 * rank: reads those children labelled (lines "IDcJ EVAL MOVES", each
 * parent's children together, J = 0 first) and measures how the
 * evaluation in use orders the children of each parent (of the records
 * named game-N with FIRST <= N <= LAST, default all) by the label's win
 * probability for the parent's mover: the mean of that probability for
 * the child the evaluation rates best (a one-ply search's choice), for
 * the child of the largest prior, for the best child and over all
 * children, and how often the evaluation orders a pair of children as the
 * labels do (pairs whose labels differ by more than 0.02). A fit is
 * judged by building it in (fit-patterns writes games/gomoku/weights.c).
 * docs/journal/2026-12-05-sibling-order.md has the data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"

#define MAX_KIDS 32

static const banyan_game *g = &banyan_game_gomoku;

/* A label's win probability for the player to move (+Mn / -Mn: 0.99 /
 * 0.01, as tools/fit_patterns.c takes them). */
static double label_p(const char *ev)
{
    if (ev[0] && ev[1] == 'M')
        return ev[0] == '+' ? 0.99 : 0.01;
    return 1 / (1 + exp(-atof(ev) / 200));
}

/* Plays the rest of a line (strtok_r's save) into s from the empty board,
 * appending the moves to text (size cap) when given; false on a bad or
 * illegal move, or a move after the end. */
static bool play_rest(unsigned char *s, char **save, char *text, size_t cap)
{
    char *tok;
    double r[8];
    g->setup(s, "");
    while ((tok = strtok_r(NULL, " \t\r\n", save))) {
        banyan_move m;
        if (g->outcome(s, r) || g->notation->parse_move(s, tok, &m) != BANYAN_OK ||
            !banyan_game_is_legal(g, s, m))
            return false;
        g->play(s, m);
        if (text && strlen(text) + strlen(tok) + 2 < cap)
            strcat(strcat(text, " "), tok);
    }
    return true;
}

static int list(int k, double lo, double hi)
{
    static char line[1 << 16], moves[1 << 16];
    unsigned char s[4096];
    banyan_move mv[BANYAN_MAX_MOVES];
    float pr[BANYAN_MAX_MOVES];
    double r[8];
    while (fgets(line, sizeof line, stdin)) {
        char *save = NULL, *id = strtok_r(line, " \t\r\n", &save);
        char *ev = strtok_r(NULL, " \t\r\n", &save);
        moves[0] = 0;
        if (!id || !ev || ev[1] == 'M' || label_p(ev) < lo || label_p(ev) > hi ||
            !play_rest(s, &save, moves, sizeof moves) || g->outcome(s, r))
            continue;
        int n = g->tactics->candidates(s, mv);
        if (n < 2)
            continue;
        g->priors(s, mv, n, pr);
        for (int j = 0; j < k && j < n; j++) {
            int b = -1;
            for (int i = 0; i < n; i++)
                if (pr[i] >= 0 && (b < 0 || pr[i] > pr[b]))
                    b = i;
            char text[16];
            g->notation->format_move(s, mv[b], text, sizeof text);
            pr[b] = -1;
            printf("%sc%d%s %s\n", id, j, moves, text);
        }
    }
    return 0;
}

/* The totals of rank over the parents. */
typedef struct totals {
    double pick, prior, best, mean, pairs, agree, parents;
} totals;

/* Adds one parent's n children: label[] and eval[] for the parent's mover. */
static void add_parent(totals *t, const double *label, const double *eval, int n)
{
    int pick = 0, best = 0;
    double mean = 0;
    for (int i = 0; i < n; i++) {
        pick = eval[i] > eval[pick] ? i : pick;
        best = label[i] > label[best] ? i : best;
        mean += label[i] / n;
    }
    t->pick += label[pick], t->prior += label[0], t->best += label[best], t->mean += mean;
    t->parents++;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (fabs(label[i] - label[j]) > 0.02) {
                t->pairs++;
                t->agree += (label[i] > label[j]) == (eval[i] > eval[j]);
            }
}

static int rank(long first, long last)
{
    static char line[1 << 16];
    char parent[256] = "", name[256];
    unsigned char s[4096];
    double label[MAX_KIDS], eval[MAX_KIDS], r[8];
    int n = 0;
    bool whole = false; /* The parent's children from J = 0 on, none skipped. */
    totals t = {0};
    for (bool more = true; more;) {
        char *save = NULL, *id = NULL, *ev = NULL, *c = NULL;
        more = fgets(line, sizeof line, stdin) != NULL;
        if (more) {
            id = strtok_r(line, " \t\r\n", &save);
            ev = strtok_r(NULL, " \t\r\n", &save);
            if (!id || !ev || !(c = strrchr(id, 'c')) || (size_t)(c - id) >= sizeof name)
                continue;
            memcpy(name, id, (size_t)(c - id));
            name[c - id] = 0;
        }
        if (!more || strcmp(name, parent)) {
            long game = -1;
            sscanf(parent, "game-%ld", &game);
            if (whole && n >= 2 && (first < 0 || (game >= first && game <= last)))
                add_parent(&t, label, eval, n);
            if (!more)
                break;
            strcpy(parent, name);
            n = 0;
            whole = true;
        }
        if (atoi(c + 1) != n || n == MAX_KIDS || !play_rest(s, &save, NULL, 0)) {
            whole = false;
            continue;
        }
        int mover = !g->to_move(s); /* The parent's player to move. */
        if (!g->outcome(s, r))
            g->evaluate(s, r, NULL, 0, NULL);
        label[n] = 1 - label_p(ev);
        eval[n++] = r[mover];
    }
    if (t.parents == 0) {
        fprintf(stderr, "gomoku-children: no parents with two children or more\n");
        return 1;
    }
    printf("parents %.0f: the evaluation's pick %.4f, the prior's %.4f, the best %.4f, all %.4f; "
           "pairs ordered as the labels %.4f of %.0f\n",
           t.parents, t.pick / t.parents, t.prior / t.parents, t.best / t.parents,
           t.mean / t.parents, t.agree / t.pairs, t.pairs);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "list") && atoi(argv[2]) > 0 && atoi(argv[2]) <= MAX_KIDS)
        return list(atoi(argv[2]), argc > 3 ? atof(argv[3]) : 0.1, argc > 4 ? atof(argv[4]) : 0.9);
    if (argc >= 2 && !strcmp(argv[1], "rank"))
        return rank(argc > 3 ? atol(argv[2]) : -1, argc > 3 ? atol(argv[3]) : -1);
    fprintf(stderr, "usage: gomoku-children list K [LO HI] < LABELS\n"
                    "       gomoku-children rank [FIRST LAST] < CHILD_LABELS\n");
    return 2;
}
