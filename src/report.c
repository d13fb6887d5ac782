/*
 * report.c - what a search found: the root's children merged over the
 * trees, ranked by the final-move rule (banyan_config.final, banyan_lcb),
 * each with its principal variation and the distance of its proof.
 */
#include "search.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* Lists the root's children in the order of the first tree whose root is
 * expanded, each summed over every tree. Trees expand the same root alike,
 * so a move is looked for at the same index first. Returns how many. */
int search_root_children(const banyan_engine *e, root_child *out)
{
    int ref = 0, n = 0;
    uint32_t first = 0;
    while (ref < e->n_trees && !(first = search_root_block(&e->trees[ref], &n)))
        ref++;
    for (int i = 0; i < n; i++) {
        const node *c = &e->trees[ref].nodes[first + (uint32_t)i];
        out[i] = (root_child){tree_move(c), tree_prior(c), 0, 0, BANYAN_UNPROVEN, NULL, 0, 0};
    }
    for (int k = ref; k < e->n_trees; k++) {
        const tree *t = &e->trees[k];
        int m;
        uint32_t f = search_root_block(t, &m);
        for (int i = 0; f && i < n; i++) {
            int j = i < m && tree_move(&t->nodes[f + (uint32_t)i]) == out[i].move ? i : 0;
            while (j < m && tree_move(&t->nodes[f + (uint32_t)j]) != out[i].move)
                j++;
            if (j == m)
                continue;
            const node *c = &t->nodes[f + (uint32_t)j];
            uint64_t st = tree_stats(c);
            uint32_t v = tree_stats_visits(st);
            banyan_proof proof = tree_proof(c);
            out[i].value += tree_stats_value(st);
            if (proof != BANYAN_UNPROVEN)
                out[i].proof = proof;
            if (!out[i].pv_tree || v > out[i].pv_visits) {
                out[i].pv_tree = t;
                out[i].pv_node = f + (uint32_t)j;
                out[i].pv_visits = v;
            }
            out[i].visits += v;
        }
    }
    return n;
}

/* Nodes in all the trees. */
uint64_t search_nodes(const banyan_engine *e)
{
    uint64_t n = 0;
    for (int k = 0; k < e->n_trees; k++)
        n += tree_size(&e->trees[k]);
    return n;
}

/* Whether the game's exact solver solved the current root: e->exact holds
 * its answer for this position. */
static bool search_exact(const banyan_engine *e)
{
    return e->exact.result != BANYAN_SOLVE_UNKNOWN &&
           e->exact.hash == banyan_game_hash(e->game, e->root_state);
}

/* Final-move order: proven wins first, then unproven moves by the
 * configured rule (proven draws among them), then proven losses by visits
 * (the most visited is the one the search found hardest to refute, the
 * best try against a fallible opponent), and last the moves never
 * visited, about which the search knows nothing (under widening, those the
 * priors rated lowest). The move's index breaks ties, so sorting is
 * deterministic. */
#define SEARCH_LCB_Z 2.0 /* Standard errors below the mean of the final rule's bound. */

static int search_rank(const banyan_move_stats *s)
{
    return s->proof == BANYAN_PROVEN_WIN                 ? 0
           : s->proof == BANYAN_PROVEN_LOSS              ? 2
           : s->visits || s->proof == BANYAN_PROVEN_DRAW ? 1
                                                         : 3;
}

/* The normal approximation that Wilson's bound replaced gave a move whose
 * few rollouts all won a bound of 1, and it was played. */
BANYAN_API double banyan_lcb(double value, uint32_t visits)
{
    if (!visits)
        return -1;
    double m = value, n = visits, z2 = SEARCH_LCB_Z * SEARCH_LCB_Z;
    double spread = SEARCH_LCB_Z * sqrt(m * (1 - m) / n + z2 / (4 * n * n));
    return (m + z2 / (2 * n) - spread) / (1 + z2 / n);
}

/* The lower confidence bound ranks only the children with at least
 * 1/SEARCH_LCB_SHARE of the most visited one's visits: a bound of a few
 * visits says little (a child seen once at 95% would be played). */
#define SEARCH_LCB_SHARE 10

static int search_compare(const banyan_move_stats *a, const banyan_move_stats *b, banyan_final rule,
                          uint32_t lcb_floor)
{
    int ra = search_rank(a), rb = search_rank(b);
    if (ra != rb)
        return ra - rb;
    /* Among moves the game's solver scored, the higher score (the larger
     * margin, or the quicker win and the longer loss); a scored win before
     * one that is not. */
    if (ra == 0 && a->exact != b->exact)
        return a->exact ? -1 : 1;
    if (ra != 1 && a->exact && b->exact && a->score != b->score)
        return a->score > b->score ? -1 : 1;
    /* Among proven wins the quickest, among proven losses the longest, where
     * the tree knows how far (an unknown distance counts as far). */
    int pa = a->proof_plies ? a->proof_plies : INT_MAX,
        pb = b->proof_plies ? b->proof_plies : INT_MAX;
    if (ra == 0 && pa != pb)
        return pa < pb ? -1 : 1;
    if (ra == 2 && pa != pb && a->proof_plies && b->proof_plies)
        return pa > pb ? -1 : 1;
    double ka, kb;
    if (ra != 1 || rule == BANYAN_FINAL_VISITS) {
        ka = a->visits;
        kb = b->visits;
        if (ka == kb) {
            ka = a->value;
            kb = b->value;
        }
    } else if (rule == BANYAN_FINAL_VALUE) {
        ka = a->visits ? a->value : -1;
        kb = b->visits ? b->value : -1;
    } else if (a->visits >= lcb_floor && b->visits >= lcb_floor) {
        ka = banyan_lcb(a->value, a->visits);
        kb = banyan_lcb(b->value, b->visits);
    } else {
        ka = a->visits >= lcb_floor ? UINT32_MAX : a->visits;
        kb = b->visits >= lcb_floor ? UINT32_MAX : b->visits;
    }
    return ka == kb ? 0 : ka > kb ? -1 : 1;
}

/* Fills s->pv with the most visited path from node ci of tree t, as long
 * as it means something: a child seen fewer than SEARCH_PV_MIN_VISITS times
 * was picked by a tie among untried moves, so the line ends before it. */
#define SEARCH_PV_MIN_VISITS 2
static void search_pv(const tree *t, uint32_t ci, banyan_move_stats *s)
{
    const node *nodes = t->nodes;
    s->pv_len = 0;
    while (ci && s->pv_len < BANYAN_MAX_PV) {
        const node *x = &nodes[ci];
        s->pv[s->pv_len++] = tree_move(x);
        int k;
        uint32_t first = tree_children(nodes, x, &k);
        uint32_t best = 0, best_n = 0;
        for (int i = 0; i < k; i++) {
            uint32_t n = tree_visits(&nodes[first + (uint32_t)i]);
            if (n > best_n) {
                best_n = n;
                best = first + (uint32_t)i;
            }
        }
        ci = best_n >= SEARCH_PV_MIN_VISITS ? best : 0;
    }
}

/* Plies from node xi, proven won or lost for the player who moved into it,
 * to the end of the game: the winner's quickest, the loser's longest, along
 * the proofs the tree holds; 0 for a node where the game ends, -1 where a
 * proof rests on something else (a prover's win found at expansion). */
static int search_plies(const node *nodes, uint32_t xi)
{
    const node *x = &nodes[xi];
    banyan_proof p = tree_proof(x);
    int k, best = -1;
    uint32_t first = tree_children(nodes, x, &k);
    if (p != BANYAN_PROVEN_WIN && p != BANYAN_PROVEN_LOSS)
        return -1;
    if (k == 0)
        return atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_TERMINAL ? 0 : -1;
    for (int i = 0; i < k; i++) {
        const node *c = &nodes[first + (uint32_t)i];
        /* x won: every reply loses, and the longest counts. x lost: the
         * opponent's quickest winning reply counts. */
        if (p == BANYAN_PROVEN_LOSS && tree_proof(c) != BANYAN_PROVEN_WIN)
            continue;
        int d = search_plies(nodes, first + (uint32_t)i);
        if (p == BANYAN_PROVEN_WIN && d < 0)
            return -1;
        if (d >= 0 && (best < 0 || (p == BANYAN_PROVEN_WIN ? d > best : d < best)))
            best = d;
    }
    return best < 0 ? -1 : best + 1;
}

void search_report(banyan_engine *e, banyan_report *out)
{
    root_child *c = e->report.children;
    int n = search_root_children(e, c);
    banyan_move_stats *st = e->report.stats;
    banyan_move moves[BANYAN_MAX_MOVES];
    float priors[BANYAN_MAX_MOVES];
    bool exact = search_exact(e);

    /* The game's priors as it gives them (the tree keeps them to 4.5%). */
    for (int i = 0; i < n; i++) {
        moves[i] = c[i].move;
        priors[i] = 1.0f / (float)n;
    }
    if (n > 0)
        search_priors(e, 0, e->root_state, moves, n, priors);
    memset(out, 0, sizeof *out);
    if (e->solo.line_len > 0) {
        out->line = e->solo.line;
        out->line_len = e->solo.line_len;
        out->line_return = e->solo.line_return;
    }
    if (e->owner.width > 0) {
        out->ownership = e->owner.cells;
        out->owner_width = e->owner.width;
        out->owner_height = e->owner.height;
    }
    for (int i = 0; i < n; i++) {
        st[i].move = c[i].move;
        st[i].visits = c[i].visits;
        st[i].proof = c[i].proof;
        st[i].value = st[i].proof ? tree_proof_value(st[i].proof) : search_child_mean(&c[i]);
        st[i].prior = priors[i];
        search_pv(c[i].pv_tree, c[i].pv_node, &st[i]);
        int plies = st[i].proof == BANYAN_PROVEN_WIN || st[i].proof == BANYAN_PROVEN_LOSS
                        ? search_plies(c[i].pv_tree->nodes, c[i].pv_node)
                        : -1;
        st[i].proof_plies = plies < 0 ? 0 : plies + 1;
        st[i].exact = false;
        st[i].score = 0;
        for (int j = 0; exact && j < e->exact.n; j++)
            if (e->exact.move[j] == st[i].move && e->exact.score[j] != BANYAN_SOLVE_NO_SCORE) {
                st[i].exact = true;
                st[i].score = e->exact.score[j];
            }
    }
    /* Insertion sort by the final-move rule: stable, so the game's move order
     * breaks every remaining tie. On a root the game's solver solved, its
     * best move goes first (the solver's order, where scores tie). */
    uint32_t most = 0;
    for (int i = 0; i < n; i++)
        if (search_rank(&st[i]) == 1 && st[i].visits > most)
            most = st[i].visits;
    uint32_t lcb_floor = most / SEARCH_LCB_SHARE > 1 ? most / SEARCH_LCB_SHARE : 1;
    for (int i = 1; i < n; i++) {
        banyan_move_stats s = st[i];
        int j = i;
        for (; j > 0 && search_compare(&st[j - 1], &s, e->cfg.final, lcb_floor) > 0; j--)
            st[j] = st[j - 1];
        st[j] = s;
    }
    for (int i = 1; exact && i < n; i++)
        if (st[i].move == e->exact.move[0]) {
            banyan_move_stats s = st[i];
            memmove(&st[1], &st[0], (size_t)i * sizeof *st);
            st[0] = s;
        }

    out->n_moves = n;
    out->moves = st;
    out->nodes = search_nodes(e);
    out->node_capacity = 0;
    for (int k = 0; k < e->n_trees; k++) {
        out->node_capacity += e->trees[k].capacity - 1;
        out->tree_full |= atomic_load_explicit(&e->trees[k].full, memory_order_relaxed);
    }
    out->best = BANYAN_MOVE_NONE;
    if (n > 0) {
        out->best = st[0].move;
        out->value = st[0].value;
        /* The root is proven for the player to move when one move wins, or
         * when every move is proven (then the best one decides). */
        bool all = true;
        for (int i = 0; i < n; i++)
            all = all && st[i].proof != BANYAN_UNPROVEN;
        if (st[0].proof == BANYAN_PROVEN_WIN || all)
            out->proof = st[0].proof;
        if (exact)
            out->proof = (banyan_proof)e->exact.result;
    } else {
        if (e->game->moves(e->root_state, moves) > 0) {
            out->best = moves[0]; /* Never searched: any legal move. */
            out->value = 0.5;
        }
    }
}
