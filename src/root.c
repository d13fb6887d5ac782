/*
 * root.c - the root's work outside the simulations: before them, the game's
 * exact solver, its provers and its deeper defence on the root, and the
 * Dirichlet noise; after them, the final check of the move to play and the
 * ownership of the cells. Their efforts come from engine.budgets
 * (budgets.h).
 */
#include "search.h"

#include <math.h>
#include <string.h>

#include "util.h"

/* Whether t's root, if proven, shows the moves that its proof rests on. A
 * kept root that a prover or an opening book proved as a deeper node
 * carries the proof without its reasons: a win for the player now to move
 * may have no child proven to win, and a loss (the previous move won) may
 * have children never looked at. The search would stop at once, with no
 * winning move to play or, for a lost root, no search at all to choose the
 * most stubborn defence (a book proves the win of the side that follows it,
 * and the other side must still be searched). Such a tree is started
 * afresh: search_prove_root() finds a win again, and a lost root is
 * searched as any other. */
bool search_root_explained(const tree *t)
{
    banyan_proof p = tree_proof(&t->nodes[t->root]);
    int n;
    uint32_t first = search_root_block(t, &n);
    if (p == BANYAN_UNPROVEN)
        return true;
    if (!n)
        return false;
    /* The previous mover's loss: a move of ours wins. His draw: a move of
     * ours draws. His win: every move of ours is proven to lose. */
    banyan_proof need = p == BANYAN_PROVEN_LOSS   ? BANYAN_PROVEN_WIN
                        : p == BANYAN_PROVEN_DRAW ? BANYAN_PROVEN_DRAW
                                                  : BANYAN_PROVEN_LOSS;
    int found = 0;
    for (int i = 0; i < n; i++)
        found += tree_proof(&t->nodes[first + (uint32_t)i]) == need;
    return p == BANYAN_PROVEN_WIN ? found == n : found > 0;
}

/* Tree k's root, expanded first if it is not (a kept root already is), with
 * its owner's state set to the root position: the first of its *n
 * children. */
uint32_t search_expand_root(banyan_engine *e, int k, int *n)
{
    worker *w = &e->workers[k]; /* The owner of tree k. */
    tree *t = w->t;
    node *root = &t->nodes[t->root];
    memcpy(w->state, e->root_state, e->game->state_size);
    if (!atomic_load_explicit(&root->children, memory_order_acquire))
        search_expand(w, t->root, search_root_mover(e), 0, 0);
    return tree_children(t->nodes, root, n);
}

/* A draw from Gamma(alpha, 1): Marsaglia and Tsang's method, boosted by
 * U^(1/alpha) for alpha < 1; normal draws by Box and Muller. */
static double search_gamma(banyan_rng *r, double alpha)
{
    double boost = 1;
    if (alpha < 1) {
        boost = pow(1.0 - (double)(banyan_rng_next(r) >> 11) * 0x1p-53, 1.0 / alpha);
        alpha += 1;
    }
    double d = alpha - 1.0 / 3, c = 1 / sqrt(9 * d);
    for (;;) {
        double u1 = 1.0 - (double)(banyan_rng_next(r) >> 11) * 0x1p-53; /* (0, 1] */
        double u2 = (double)(banyan_rng_next(r) >> 11) * 0x1p-53;
        double z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
        double v = 1 + c * z;
        if (v <= 0)
            continue;
        v = v * v * v;
        double u = 1.0 - (double)(banyan_rng_next(r) >> 11) * 0x1p-53;
        if (log(u) < 0.5 * z * z + d - d * v + d * log(v))
            return boost * d * v;
    }
}

/* Mixes Dirichlet noise (config.noise_alpha, noise_share) into the priors
 * of tree k's root children, as AlphaZero's self-play does so that moves
 * the network rates low are still tried. The draws come from the tree
 * owner's generator, so a seed reproduces them. The children keep their
 * order (under widening, the noise reorders nothing). */
static void search_noise_root(banyan_engine *e, int k)
{
    int n;
    uint32_t first = search_expand_root(e, k, &n);
    double draw[BANYAN_MAX_MOVES], sum = 0;
    banyan_rng *r = &e->workers[k].rng;
    if (!first || n < 2)
        return;
    for (int i = 0; i < n; i++)
        sum += draw[i] = search_gamma(r, e->cfg.noise_alpha);
    for (int i = 0; i < n && sum > 0; i++) {
        node *c = &e->trees[k].nodes[first + (uint32_t)i];
        double p = (1 - e->cfg.noise_share) * tree_prior(c) + e->cfg.noise_share * draw[i] / sum;
        c->prior = tree_prior_code((float)p);
    }
}

/* Gives child (a node index) of tree k's root the proof, which the
 * game's provers found outside the simulations, and lets it climb. */
static void search_prove_root_child(banyan_engine *e, int k, uint32_t child, banyan_proof proof)
{
    worker *w = &e->workers[k]; /* The owner of tree k. */
    tree *t = w->t;
    tree_set_proof(&t->nodes[child], proof);
    atomic_fetch_or_explicit(&t->nodes[t->root].flags, NODE_PROVEN_CHILD, memory_order_release);
    search_prove(w, &(step){t->root, search_root_mover(e)}, 0, search_root_mover(e),
                 e->root_player);
}

/* Gives the root's child for move m the proof in every tree, each root
 * expanded first if it is not. */
static void search_prove_root_move(banyan_engine *e, banyan_move m, banyan_proof proof)
{
    for (int k = 0; k < e->n_trees; k++) {
        int n;
        uint32_t first = search_expand_root(e, k, &n);
        for (int i = 0; i < n; i++)
            if (tree_move(&e->trees[k].nodes[first + (uint32_t)i]) == m)
                search_prove_root_child(e, k, first + (uint32_t)i, proof);
    }
}

/* The effort of the game's deep prover on the root under the limits u
 * (budgets.root_*). */
static uint32_t search_root_effort(const banyan_engine *e, const banyan_limits *u)
{
    const search_budgets *b = &e->budgets;
    double scaled = u->time > 0 ? u->time * b->root_per_second : b->root_effort;
    return scaled < b->root_min   ? b->root_min
           : scaled > b->root_max ? b->root_max
                                  : (uint32_t)scaled;
}

/* The game's prover on the root, before any simulation: a proven win needs
 * no search. The root of each tree is expanded (without the prover) and the
 * winning child marked, so the report plays it. */
static void search_prove_root(banyan_engine *e, uint32_t effort, double seconds)
{
    const banyan_game *g = e->game;
    const tree *t0 = &e->trees[0];
    banyan_move win;
    if (!e->budgets.prove_win || g->n_players != 2 ||
        tree_proof(&t0->nodes[t0->root]) != BANYAN_UNPROVEN ||
        !(e->budgets.prove_win(e->root_state, &win) ||
          (e->budgets.prove_win_deep &&
           e->budgets.prove_win_deep(e->root_state, effort, seconds, e->workers[0].deep, &win))))
        return;
    search_prove_root_move(e, win, BANYAN_PROVEN_WIN);
}

/* The positions the game's exact solver may visit on the root (and on each
 * root child) before the search: the config's, or by the limits. */
static uint64_t search_solve_budget(const banyan_engine *e, const banyan_limits *u)
{
    if (e->cfg.solve_budget)
        return e->cfg.solve_budget;
    const search_budgets *b = &e->budgets;
    double scaled = u->time > 0 ? u->time * b->solve_per_second : (double)b->solve_root;
    return scaled < (double)b->solve_root_min   ? b->solve_root_min
           : scaled > (double)b->solve_root_max ? b->solve_root_max
                                                : (uint64_t)scaled;
}

/* The game's solver on s with up to budget positions, in calls of
 * budgets.solve_slice positions and doubling, until it answers with a score,
 * the budget is spent or banyan_engine_stop() is called. A result without
 * its score gets one more call, with the whole budget, for the score (the
 * sizes between would repeat the result); then the last answer. */
static int search_solve_sliced(banyan_engine *e, const void *s, uint64_t budget, double deadline,
                               banyan_move *best, int *score)
{
    uint64_t slice = e->budgets.solve_slice, b = budget < slice ? budget : slice;
    int known = BANYAN_SOLVE_UNKNOWN;
    for (;;) {
        banyan_move m;
        int sc, r = e->budgets.solve(s, b, &e->stop, e->workers[0].deep, &m, &sc);
        if (r >= BANYAN_SOLVE_WIN && r <= BANYAN_SOLVE_DRAW) {
            known = r;
            *best = m;
            *score = sc;
            if (sc != BANYAN_SOLVE_NO_SCORE)
                return r;
        }
        if (b >= budget || atomic_load_explicit(&e->stop, memory_order_relaxed) ||
            (deadline > 0 && util_now() >= deadline))
            return known;
        b = b > budget / 2 || known != BANYAN_SOLVE_UNKNOWN ? budget : 2 * b;
    }
}

/* Solves each root child after the root (see search_solve_root): proven in
 * every tree, and scored beside the root's best move, best. */
static void search_solve_root_children(banyan_engine *e, banyan_move best, uint64_t budget,
                                       double deadline)
{
    const banyan_game *g = e->game;
    worker *w0 = &e->workers[0];
    tree *t0 = &e->trees[0];
    int n;
    uint32_t first = search_expand_root(e, 0, &n);
    for (int i = 0; i < n; i++) {
        banyan_move m = tree_move(&t0->nodes[first + (uint32_t)i]), reply;
        double ret[BANYAN_MAX_PLAYERS];
        int child_score;
        banyan_proof proof;
        memcpy(w0->state, e->root_state, g->state_size);
        g->play(w0->state, m);
        if (g->outcome(w0->state, ret)) {
            proof = tree_proof_of(search_norm(e, ret[e->root_player]));
        } else {
            int cr = search_solve_sliced(e, w0->state, budget, deadline, &reply, &child_score);
            if (cr == BANYAN_SOLVE_UNKNOWN)
                continue;
            proof = tree_proof_flip((banyan_proof)cr); /* For the player making m. */
            if (m != best && child_score != BANYAN_SOLVE_NO_SCORE) {
                e->exact.move[e->exact.n] = m;
                e->exact.score[e->exact.n++] = -child_score;
            }
        }
        search_prove_root_move(e, m, proof);
    }
}

/*
 * The game's exact solver on the root, before any simulation. When it
 * solves the root, each root child is solved too (the solver's table makes
 * that cheap) and proven in every tree, with its exact score kept for the
 * report, and the root itself is proven: the search stops at once, and the
 * report plays the solver's best move, the largest margin among wins. A
 * child the solver could not finish keeps no proof; a child where the game
 * ends is proven by its outcome, and scored only when it is the best move.
 */
static void search_solve_root(banyan_engine *e, uint64_t budget, double deadline)
{
    const banyan_game *g = e->game;
    tree *t0 = &e->trees[0];
    banyan_move best;
    int score;
    /* A root proven already keeps what solved it (a second search of the
     * same position: search_exact() checks that it is the same). */
    if (!e->budgets.solve || g->n_players != 2 ||
        tree_proof(&t0->nodes[t0->root]) != BANYAN_UNPROVEN)
        return;
    e->exact.result = BANYAN_SOLVE_UNKNOWN;
    e->exact.n = 0;
    int r = search_solve_sliced(e, e->root_state, budget, deadline, &best, &score);
    if (r == BANYAN_SOLVE_UNKNOWN || !banyan_game_is_legal(g, e->root_state, best) ||
        (r == BANYAN_SOLVE_LOSS && score == BANYAN_SOLVE_NO_SCORE))
        return;
    e->exact.result = r;
    e->exact.hash = banyan_game_hash(g, e->root_state);
    e->exact.move[e->exact.n] = best;
    e->exact.score[e->exact.n++] = score;

    /* A result without its score proves the best move only: the others
     * would cost as much again, for nothing the move played needs. */
    if (score == BANYAN_SOLVE_NO_SCORE)
        search_prove_root_move(e, best, (banyan_proof)r);
    else
        search_solve_root_children(e, best, budget, deadline);
    for (int k = 0; k < e->n_trees; k++)
        tree_set_proof(&e->trees[k].nodes[e->trees[k].root], tree_proof_flip((banyan_proof)r));
}

/* The effort of one try of the final check: the root's, or under a time
 * limit what the time left now allows at budgets.verify_per_second
 * positions a second, never below budgets.deep_effort; and the seconds
 * that bound it, the time left (at least a millisecond). A try
 * on a sound move spends all of its effort; one that refutes its move
 * stops early and leaves the rest to the next. */
static uint32_t search_verify_effort(const banyan_engine *e, const banyan_limits *u,
                                     const limits *L, double *seconds)
{
    const search_budgets *b = &e->budgets;
    uint32_t effort = search_root_effort(e, u);
    *seconds = 0;
    if (u->time > 0) {
        double left = L->start + u->time - util_now(), fit = left * b->verify_per_second;
        *seconds = left > 1e-3 ? left : 1e-3; /* (0 would be no bound.) */
        effort = fit < b->deep_effort ? b->deep_effort : fit < effort ? (uint32_t)fit : effort;
    }
    return effort;
}

/* The move the search would play, checked before it is played: the
 * opponent's provers, with the root's effort, on the position after it (a
 * root child gets budgets.deep_effort during the search, once). A move they
 * refute is proven lost in every tree, and the next best is checked, up to
 * budgets.verify_tries moves. In Gomoku this catches the quiet move after
 * which the opponent wins by threats that the smaller effort missed (a lost
 * game against Rapfi began so); under a time limit it spends the time the
 * simulations left (budgets.verify_share of it). Two-player games with a
 * deep prover. */
void search_verify_best(banyan_engine *e, const banyan_limits *u, const limits *L)
{
    const banyan_game *g = e->game;
    worker *w0 = &e->workers[0];
    banyan_report rep;
    if (!e->budgets.prove_win_deep || g->n_players != 2)
        return;
    for (int tries = 0; tries < e->budgets.verify_tries; tries++) {
        double ret[BANYAN_MAX_PLAYERS];
        banyan_move win;
        search_report(e, &rep);
        if (rep.proof != BANYAN_UNPROVEN || rep.n_moves == 0 ||
            rep.moves[0].proof != BANYAN_UNPROVEN || rep.moves[0].visits == 0)
            return;
        banyan_move m = rep.moves[0].move;
        memcpy(w0->state, e->root_state, g->state_size);
        g->play(w0->state, m);
        if (g->outcome(w0->state, ret))
            return;
        double seconds;
        uint32_t effort = search_verify_effort(e, u, L, &seconds);
        if (!(e->budgets.prove_win && e->budgets.prove_win(w0->state, &win)) &&
            !e->budgets.prove_win_deep(w0->state, effort, seconds, w0->deep, &win))
            return;
        search_prove_root_move(e, m, BANYAN_PROVEN_LOSS);
    }
}

/* The game's deeper look at the root's candidates, before any simulation:
 * the moves it drops are proven lost (the game proves each), so that the
 * search spends nothing on them, and widening passes them by. Each tree's
 * root is expanded first if it is not (a kept root already is). */
static void search_defend_root(banyan_engine *e, uint32_t effort, double seconds)
{
    const banyan_game *g = e->game;
    const tree *t0 = &e->trees[0];
    banyan_move keep[BANYAN_MAX_MOVES];
    if (!e->budgets.candidates_deep || g->n_players != 2 ||
        tree_proof(&t0->nodes[t0->root]) != BANYAN_UNPROVEN)
        return;
    int nk = e->budgets.candidates_deep(e->root_state, effort, seconds, e->workers[0].deep, keep);
    if (nk <= 0 || nk > BANYAN_MAX_MOVES)
        return;
    for (int k = 0; k < e->n_trees; k++) {
        int n;
        uint32_t first = search_expand_root(e, k, &n);
        for (uint32_t c = first; c < first + (uint32_t)n; c++) {
            int j = 0;
            while (j < nk && keep[j] != tree_move(&e->trees[k].nodes[c]))
                j++;
            if (j == nk && tree_proof(&e->trees[k].nodes[c]) == BANYAN_UNPROVEN)
                search_prove_root_child(e, k, c, BANYAN_PROVEN_LOSS);
        }
    }
}

/* The ownership of the root's cells over this search's finished
 * simulations (config.ownership), into e->owner.cells. */
void search_ownership(banyan_engine *e)
{
    int width = 0, height = 0;
    uint64_t n = 0;
    e->game->board->board_size(e->root_state, &width, &height);
    e->owner.width = e->owner.height = 0;
    if (width * height > BANYAN_OWNER_CELLS)
        return;
    for (int i = 0; i < e->cfg.threads; i++)
        n += e->workers[i].owned_n;
    for (int c = 0; c < width * height; c++) {
        int64_t d = 0;
        for (int i = 0; i < e->cfg.threads; i++)
            d += (int64_t)e->workers[i].owned[2 * c] - e->workers[i].owned[2 * c + 1];
        e->owner.cells[c] = n ? (float)((double)d / (double)n) : 0.0f;
    }
    e->owner.width = width;
    e->owner.height = height;
}

/* For an analysis (banyan_limits.analyse): where a root provers proved at
 * once still has moves without a proof, takes the root's proof off so that
 * the search goes on to value them, and returns it (to be put back once
 * the search ends); else BANYAN_UNPROVEN. The selection then passes over
 * the root's winning child, and search_prove() leaves the root alone. */
static banyan_proof search_analyse_root(banyan_engine *e)
{
    tree *t0 = &e->trees[0];
    banyan_proof p = tree_proof(&t0->nodes[t0->root]);
    if (p == BANYAN_UNPROVEN || search_all_proven(t0))
        return BANYAN_UNPROVEN;
    for (int k = 0; k < e->n_trees; k++)
        tree_clear_proof(&e->trees[k].nodes[e->trees[k].root]);
    e->analysing = true;
    return p;
}

banyan_proof search_root_before(banyan_engine *e, const banyan_limits *u, double start)
{
    const search_budgets *b = &e->budgets;
    search_solve_root(e, search_solve_budget(e, u),
                      u->time > 0 ? start + u->time * b->solve_time_share : 0);
    search_prove_root(e, search_root_effort(e, u), u->time * b->root_time_share);
    search_defend_root(e, search_root_effort(e, u), u->time * b->defend_time_share);
    banyan_proof analysing = u->analyse ? search_analyse_root(e) : BANYAN_UNPROVEN;
    if (e->cfg.noise_alpha > 0 && !e->root_noised)
        for (int k = 0; k < e->n_trees; k++)
            search_noise_root(e, k);
    e->root_noised = true;
    /* A shared root is expanded before the threads start: otherwise
     * the threads that find it claimed by the first would each settle
     * for a simulation of the root alone, hundreds of them when the
     * expanding thread is descheduled on a loaded machine. */
    if (e->shared)
        search_expand_root(e, 0, &(int){0});
    return analysing;
}
