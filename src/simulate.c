/*
 * simulate.c - the simulation loop, in the steps docs/SEARCH.md numbers:
 * descend from the root by the search's policy (steps 1 and 2), expand
 * the leaf (step 3), value it (step 4: a rollout, the game's evaluation or
 * the evaluator's, in batches for an evaluator), and back the returns up
 * with the proofs (step 5); RAVE's AMAF statistics and the single-player
 * best line on the way.
 *
 * MCTS-Solver: in two-player games a finished game is an exact result. A
 * node whose child wins for the player to move is proven, and so is a node
 * whose children are all proven; proofs climb the path during backup,
 * selection never enters a move proven to lose, and a proven root ends the
 * search.
 */
#include "search.h"

#include <string.h>

#include "util.h"

/* The priors of moves[0 .. n-1] in s into priors: the evaluator's where
 * the config has one (thread names the caller); else the game's
 * evaluation's, where the leaves are evaluated and it gives them; else the
 * game's priors(). Returns false when there are none (uniform). */
bool search_priors(const banyan_engine *e, int thread, const void *s, const banyan_move *moves,
                   int n, float *priors)
{
    const banyan_game *g = e->game;
    if (e->cfg.evaluator) {
        banyan_eval_request req = {s, moves, n, priors, NULL};
        e->cfg.evaluator->evaluate(e->cfg.evaluator->ud, thread, &req, 1);
        return true;
    }
    if (e->cfg.leaf != BANYAN_LEAF_ROLLOUT && g->evaluate(s, NULL, moves, n, priors))
        return true;
    if (!g->priors)
        return false;
    g->priors(s, moves, n, priors);
    return true;
}

/* Sorts the n moves by prior, highest first, keeping the game's order among
 * equal priors so that the tree does not depend on the sort. */
static void search_sort_by_prior(banyan_move *moves, float *priors, int n)
{
    for (int i = 1; i < n; i++) {
        banyan_move m = moves[i];
        float p = priors[i];
        int j = i;
        for (; j > 0 && priors[j - 1] < p; j--) {
            moves[j] = moves[j - 1];
            priors[j] = priors[j - 1];
        }
        moves[j] = m;
        priors[j] = p;
    }
}

/* Root child xi, whose position is w->state, where mover just moved, has
 * just reached n visits: if it is due (budgets.deep_visits, budgets.h) and not
 * yet marked, marks it and runs the game's deep prover there; a win for
 * the opponent to move proves the child lost. Two-player games only.
 * Returns whether it proved the child. */
static bool search_prove_deep(worker *w, uint32_t xi, int mover, uint32_t n)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    node *x = &w->t->nodes[xi];
    double ret[BANYAN_MAX_PLAYERS];
    banyan_move win;
    bool leads = n > w->root_top;
    w->root_top = leads ? n : w->root_top;
    if (n < e->budgets.deep_visits ||
        (!leads && (uint64_t)n * e->budgets.deep_share < tree_visits(&w->t->nodes[w->t->root])) ||
        (atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_MARK) ||
        (atomic_fetch_or_explicit(&x->flags, NODE_MARK, memory_order_relaxed) & NODE_MARK))
        return false;
    if (g->n_players != 2 || tree_proof(x) != BANYAN_UNPROVEN || g->outcome(w->state, ret) ||
        !e->budgets.prove_win_deep(w->state, e->budgets.deep_effort, 0, w->deep, &win))
        return false;
    tree_set_proof(x, g->to_move(w->state) == mover ? BANYAN_PROVEN_WIN : BANYAN_PROVEN_LOSS);
    return true; /* The backup marks the root as having a proven child. */
}

/* A rollout from s that writes its moves (the first SEARCH_RAVE_MOVES) to
 * out and returns how many: the game's playout(), or uniform moves. */
static int search_recorded_rollout(const banyan_game *g, void *s, banyan_rng *rng, banyan_move *out)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n, k = 0;
    if (g->playout)
        return g->playout(s, rng, out, SEARCH_RAVE_MOVES);
    while ((n = g->moves(s, moves)) > 0) {
        banyan_move m = moves[banyan_rng_below(rng, (uint32_t)n)];
        if (k < SEARCH_RAVE_MOVES)
            out[k++] = m;
        g->play(s, m);
    }
    return k;
}

/* Counts who owns each cell of w->state, a finished rollout's position
 * (config.ownership). */
static void search_count_owners(worker *w)
{
    const banyan_game *g = w->e->game;
    int width, height;
    g->board->board_size(w->state, &width, &height);
    if (width * height > BANYAN_OWNER_CELLS)
        return;
    for (int y = 0, i = 0; y < height; y++)
        for (int x = 0; x < width; x++, i++) {
            int o = g->board->owner(w->state, x, y);
            if (o == 0 || o == 1)
                w->owned[2 * i + o]++;
        }
    w->owned_n++;
}

/* The returns of the leaf position w->state, a game that goes on, by the
 * config's leaf rule: a rollout to the end, the game's evaluation, or a
 * rollout of at most cutoff plies among the candidates and then the
 * evaluation where the game still goes on. The state is played on. */
static void search_leaf(worker *w, double *ret)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    if (e->cfg.leaf == BANYAN_LEAF_ROLLOUT) {
        if (w->rave_moves)
            w->rave_n = search_recorded_rollout(g, w->state, &w->rng, w->rave_moves);
        else if (g->rollout)
            g->rollout(w->state, &w->rng);
        else
            util_default_rollout(g, w->state, &w->rng);
        if (w->owned)
            search_count_owners(w);
        if (NEVER(!g->outcome(w->state, ret)))
            for (int i = 0; i < g->n_players; i++)
                ret[i] = e->reward_lo;
        return;
    }
    if (e->cfg.leaf == BANYAN_LEAF_CUTOFF) {
        banyan_move moves[BANYAN_MAX_MOVES];
        for (int ply = 0; ply < e->cfg.cutoff; ply++) {
            if (g->outcome(w->state, ret))
                return;
            int n = e->budgets.candidates ? e->budgets.candidates(w->state, moves)
                                          : g->moves(w->state, moves);
            if (NEVER(n <= 0))
                break;
            g->play(w->state, moves[banyan_rng_below(&w->rng, (uint32_t)n)]);
        }
        if (g->outcome(w->state, ret))
            return;
    }
    if (e->cfg.evaluator) {
        banyan_eval_request req = {w->state, NULL, 0, NULL, ret};
        e->cfg.evaluator->evaluate(e->cfg.evaluator->ud, w->index, &req, 1);
    } else {
        g->evaluate(w->state, ret, NULL, 0, NULL);
    }
}

/*
 * Expands node xi, whose position is w->state and which is not over: one
 * block of children (the game's candidates, or every legal move), ordered
 * by prior, published with a release store. Before that, below the root
 * (depth > 0), the game's prover may prove a win for the player to move,
 * which makes children unnecessary: the node is proven instead. A game
 * with expand() answers both there in one call.
 */
expansion search_expand(worker *w, uint32_t xi, int mover, int depth, uint64_t hash)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    tree *t = w->t;
    node *x = &t->nodes[xi];
    banyan_move moves[BANYAN_MAX_MOVES];
    float priors[BANYAN_MAX_MOVES];
    bool graph = t->graph && depth >= SEARCH_TT_DEPTH;

    if ((atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_EXPANDING) ||
        (atomic_fetch_or_explicit(&x->flags, NODE_EXPANDING, memory_order_acq_rel) &
         NODE_EXPANDING))
        return EXPAND_NONE;
    if (graph) {
        /* The position has a block already, owned by a node reached by
         * another order of moves: share it. */
        uint32_t owner = search_graph_find(t, hash);
        uint32_t first = owner && owner != xi
                             ? atomic_load_explicit(&t->nodes[owner].children, memory_order_acquire)
                             : 0;
        if (first && !(first & NODE_BORROWED)) {
            uint8_t f = atomic_load_explicit(&t->nodes[owner].flags, memory_order_relaxed);
            atomic_fetch_or_explicit(&x->flags, f & (NODE_CANDIDATES | NODE_PROVEN_CHILD),
                                     memory_order_relaxed);
            atomic_store_explicit(&x->children, first | NODE_BORROWED, memory_order_release);
            w->transposed++;
            return EXPAND_DONE;
        }
    }
    int n = 0; /* The children, once the game has listed them. */
    if (depth > 0 && e->budgets.prove_win && g->n_players == 2) {
        banyan_move win;
        bool won = e->budgets.expand ? (n = e->budgets.expand(w->state, w->deep, &win, moves)) < 0
                                     : e->budgets.prove_win(w->state, &win);
        if (won) {
            int p = g->to_move(w->state);
            tree_set_proof(x, mover == p ? BANYAN_PROVEN_WIN : BANYAN_PROVEN_LOSS);
            return EXPAND_PROVEN;
        }
    }
    if (depth > 0 && e->budgets.solve && g->n_players == 2) {
        banyan_move best;
        int score,
            r = e->budgets.solve(w->state, e->budgets.solve_node, NULL, w->deep, &best, &score);
        /* A result without its score (Connect Four's opening book) proves
         * nothing here: with every reply proven lost and none known to
         * resist longer, the player facing them would stop searching and
         * play any; unproven, the search finds the one that resists best.
         * The root's solve uses such results. */
        if (r >= BANYAN_SOLVE_WIN && r <= BANYAN_SOLVE_DRAW && score != BANYAN_SOLVE_NO_SCORE) {
            /* r is for the player to move, the proof for the mover. */
            banyan_proof proof = (banyan_proof)r;
            tree_set_proof(x, mover == g->to_move(w->state) ? proof : tree_proof_flip(proof));
            return EXPAND_PROVEN;
        }
    }
    if (n == 0)
        n = e->budgets.candidates ? e->budgets.candidates(w->state, moves)
                                  : g->moves(w->state, moves);
    if (NEVER(n <= 0 || n > BANYAN_MAX_MOVES))
        return EXPAND_NONE;
    for (int i = 0; i < n; i++)
        if (moves[i] >= BANYAN_MOVE_LIMIT) {
            /* The game breaks the contract: say so after the search. The
             * node stays a leaf, its claim given back. */
            atomic_store_explicit(&e->bad_move, moves[i] + 1u, memory_order_relaxed);
            atomic_fetch_and_explicit(&x->flags, (uint8_t)~NODE_EXPANDING, memory_order_relaxed);
            return EXPAND_NONE;
        }
    uint32_t first = tree_take(w->t, (uint32_t)n);
    if (!first)
        return EXPAND_NONE; /* The claim stays: nobody can expand into a full arena. */

    uint8_t uniform = tree_prior_code(1.0f / (float)n);
    bool have_priors = search_priors(e, w->index, w->state, moves, n, priors);
    if (have_priors)
        search_sort_by_prior(moves, priors, n);
    for (int i = 0; i < n; i++) {
        node *c = &w->t->nodes[first + (uint32_t)i];
        atomic_init(&c->stats, 0);
        atomic_init(&c->children, 0);
        c->move = (uint16_t)moves[i];
        c->prior = have_priors ? tree_prior_code(priors[i]) : uniform;
        atomic_init(&c->flags, i == n - 1 ? NODE_LAST : 0);
        if (w->t->amaf)
            atomic_init(&w->t->amaf[first + (uint32_t)i], 0);
        if (w->t->best)
            atomic_init(&w->t->best[first + (uint32_t)i], 0);
    }
    if (e->budgets.candidates)
        atomic_fetch_or_explicit(&x->flags, NODE_CANDIDATES, memory_order_relaxed);
    atomic_store_explicit(&x->children, first, memory_order_release);
    if (graph)
        search_graph_put(t, hash, xi);
    return EXPAND_DONE;
}

/*
 * Tries to prove node path[i], whose child path[i + 1] was just proven (or
 * the root, i = 0, with mover and p given). x is proven when a child wins
 * for the player p to move at x, or when every child is proven, the best
 * one deciding. When the children are the game's candidates, "every child"
 * means every move only if the game has no other legal move there: the
 * position is rebuilt from the root along the path to count them, which is
 * rare (only when every candidate is proven). Two-player games only, where
 * a value for one player is 1 minus the value for the other.
 */
bool search_prove(worker *w, const step *path, int i, int mover, int p)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    node *nodes = w->t->nodes;
    node *x = &nodes[path[i].node];
    int n;
    uint32_t first = tree_children(nodes, x, &n);
    double best = -1;
    bool all = true;
    if (!first || (e->analysing && path[i].node == w->t->root))
        return false; /* An analysis goes on past a proof of the root. */
    for (int k = 0; k < n && best < 1.0; k++) {
        banyan_proof proof = tree_proof(&nodes[first + k]);
        if (proof == BANYAN_UNPROVEN)
            all = false;
        else if (tree_proof_value(proof) > best)
            best = tree_proof_value(proof);
    }
    if (best < 1.0 && !all)
        return false;
    if (best < 1.0 && (atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_CANDIDATES)) {
        banyan_move legal[BANYAN_MAX_MOVES];
        memcpy(w->scratch, e->root_state, g->state_size);
        for (int k = 1; k <= i; k++) {
            g->play(w->scratch, tree_move(&nodes[path[k].node]));
            GAME_CHECK(g, w->scratch);
        }
        if (g->moves(w->scratch, legal) > n)
            return false;
    }
    tree_set_proof(x, tree_proof_of(mover == p ? best : 1.0 - best));
    return true;
}

/* Marks node x terminal and, in two-player games, proven with the exact
 * value v for the player who moved into it. Returns whether it is proven. */
static bool search_mark_terminal(const banyan_engine *e, node *x, double v)
{
    uint8_t bits = NODE_TERMINAL;
    banyan_proof proof = BANYAN_UNPROVEN;
    if (e->game->n_players == 2)
        proof = tree_proof_of(v);
    bits |= (uint8_t)proof;
    atomic_fetch_or_explicit(&x->flags, bits, memory_order_release);
    return proof != BANYAN_UNPROVEN;
}

/* One simulation on its way: the path from the root, what is known of the
 * leaf, and its returns once evaluated. A worker holds one, or config.batch
 * of them when an evaluator takes leaves in batches. */
struct search_sim {
    int depth;
    bool proving;
    bool pending; /* The leaf waits for its evaluation, */
    bool rolled;  /* Its leaf's rollout moves are in worker.rave_moves. */
    int dup;      /* or for that of sims[dup] of the same batch, at the same leaf. */
    unsigned char *state;
    double ret[BANYAN_MAX_PLAYERS];
    step path[BANYAN_MAX_DEPTH + 2];
    uint64_t hashes[BANYAN_MAX_DEPTH + 2]; /* With transpositions: the hash of each position
                                              SEARCH_TT_DEPTH plies or more down. */
};

size_t search_sim_size(void)
{
    return sizeof(search_sim);
}

void search_sims_init(worker *w, int n, size_t state_size)
{
    for (int i = 0; i < n; i++)
        w->sims[i].state = w->states + (size_t)i * state_size;
    w->state = w->states;
}

/* Steps 1 to 3 of a simulation, and step 4 where the leaf's value needs no
 * evaluation: S->pending tells whether it waits for one. The position is
 * played on S->state, which w->state points to meanwhile. */
static void search_descend(worker *w, search_sim *S, int before)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    tree *t = w->t;
    node *nodes = t->nodes;
    step *path = S->path;
    uint64_t *hashes = S->hashes;
    double *ret = S->ret;
    double exact = -1;
    bool proving = false;
    int depth = 0;
    uint32_t xi = t->root;

    /* Step 1. Start from a private copy of the root position. On a shared
     * tree the root's statistics, which every simulation of every thread
     * would write, are gathered per thread and added in chunks: the root's
     * own value decides nothing, and its visits only scale exploration. */
    w->state = S->state;
    memcpy(w->state, e->root_state, g->state_size);
    path[0] = (step){xi, search_root_mover(e)};
    if (e->shared)
        w->root_stats++;
    else
        search_add_visit(e, &nodes[xi]);

    /* Step 2. Select: walk down expanded nodes, adding a virtual visit to
     * each, until a leaf or a proven node. */
    for (;;) {
        node *x = &nodes[xi];
        banyan_proof proof = tree_proof(x);
        if (proof != BANYAN_UNPROVEN) {
            /* In a graph the node may have been proven on another
             * parent's path: this one's parent tries a proof too (as it
             * does after the deep prover proved a root child, below). */
            exact = tree_proof_value(proof);
            proving = proving || (t->graph && depth > 0);
            break;
        }
        if (!atomic_load_explicit(&x->children, memory_order_acquire) || depth >= BANYAN_MAX_DEPTH)
            break;
        int p = g->to_move(w->state);
        xi = e->policy(e, t, x, p);
        g->play(w->state, tree_move(&nodes[xi]));
        path[++depth] = (step){xi, p};
        if (t->tt && depth >= SEARCH_TT_DEPTH)
            hashes[depth] = g->hash(w->state);
        uint32_t n = search_add_visit(e, &nodes[xi]);
        if (depth == 1 && e->budgets.prove_win_deep)
            proving = search_prove_deep(w, xi, p, n); /* Read at the top of the loop. */
    }

    /* Step 3. At a leaf: score a finished game exactly; otherwise expand
     * once the leaf has enough visits, and step into its first choice. In
     * a batch, a leaf that an earlier simulation of the batch reached and
     * that waits for its evaluation is neither expanded (its priors are not
     * known yet) nor evaluated twice: this simulation takes its value. */
    S->dup = -1;
    for (int i = 0; i < before && exact < 0; i++)
        if (w->sims[i].pending && w->sims[i].dup < 0 &&
            w->sims[i].path[w->sims[i].depth].node == xi)
            S->dup = i;
    if (S->dup >= 0) {
        /* Valued with sims[dup], below. */
    } else if (exact < 0 && g->outcome(w->state, ret)) {
        exact = search_norm(e, ret[path[depth].mover]);
        proving = search_mark_terminal(e, &nodes[xi], exact);
    } else if (exact < 0 && depth < BANYAN_MAX_DEPTH &&
               (depth == 0 || tree_visits(&nodes[xi]) > e->cfg.expand_visits)) {
        /* The root is proven, if at all, before the search (search_run). */
        expansion grown = search_expand(w, xi, path[depth].mover, depth,
                                        depth >= SEARCH_TT_DEPTH ? hashes[depth] : 0);
        if (grown == EXPAND_PROVEN) {
            exact = tree_proof_value(tree_proof(&nodes[xi]));
            proving = true;
        } else if (grown == EXPAND_DONE) {
            int p = g->to_move(w->state);
            xi = e->policy(e, t, &nodes[xi], p);
            g->play(w->state, tree_move(&nodes[xi]));
            path[++depth] = (step){xi, p};
            if (t->tt && depth >= SEARCH_TT_DEPTH)
                hashes[depth] = g->hash(w->state);
            search_add_visit(e, &nodes[xi]);
            if (g->outcome(w->state, ret)) {
                exact = search_norm(e, ret[p]);
                proving = search_mark_terminal(e, &nodes[xi], exact);
            }
        }
    }
    if (depth > w->max_depth)
        w->max_depth = depth;

    /* Step 4 where no evaluation is needed. A proven node carries one exact
     * value, which in a two-player zero-sum game fixes both returns; so
     * does the mean of a position the table holds from another path. */
    double known;
    S->depth = depth;
    S->proving = proving;
    S->pending = false;
    if (S->dup >= 0) {
        S->pending = true;
    } else if (exact < 0 && t->tt && !t->graph && depth >= SEARCH_TT_DEPTH &&
               search_tt_mean(t, hashes[depth], tree_visits(&nodes[xi]), &known)) {
        int m = path[depth].mover;
        ret[m] = known;
        ret[!m] = 1.0 - known;
        w->transposed++;
    } else if (exact < 0) {
        S->pending = true;
    } else {
        int m = path[depth].mover;
        for (int i = 0; i < g->n_players; i++)
            ret[i] = i == m ? exact : 1.0 - exact;
    }
}

/* Adds v VALUE_ONE units and a visit to an AMAF entry. */
static inline void search_add_amaf(const banyan_engine *e, _Atomic uint64_t *a, uint32_t v)
{
    uint64_t add = ((uint64_t)v << NODE_VISIT_BITS) + 1;
    if (e->shared)
        atomic_fetch_add_explicit(a, add, memory_order_relaxed);
    else
        atomic_store_explicit(a, atomic_load_explicit(a, memory_order_relaxed) + add,
                              memory_order_relaxed);
}

/* RAVE's part of step 5: every child of a node on the path whose move the
 * player to move there played first, later in the simulation, takes that
 * player's return in its AMAF statistics. The moves are walked from the
 * end of the rollout back to the root, each marking its code with the
 * player who played it, so that at each node the marks hold the first
 * player of every move after it. The rollout's players take turns from
 * the leaf's (RAVE is for two players). AMAF counts stop short of the
 * visits' cap. */
static void search_ascend_rave(worker *w, const search_sim *S, const uint32_t *units)
{
    banyan_engine *e = w->e;
    tree *t = w->t;
    node *nodes = t->nodes;
    const step *path = S->path;
    uint32_t stamp = ++w->rave_sim;
    if (BANYAN_UNLIKELY(stamp == 0)) {
        memset(w->rave_stamp, 0, BANYAN_MOVE_LIMIT * sizeof(uint32_t));
        stamp = w->rave_sim = 1;
    }
    int depth = S->depth;
    /* The leaf's player to move: the other one than who moved into it. */
    int p = 1 - path[depth].mover;
    bool rolled = S->rolled;
    for (int j = rolled ? w->rave_n - 1 : -1; j >= 0; j--) {
        banyan_move m = w->rave_moves[j];
        w->rave_stamp[m] = stamp;
        w->rave_who[m] = (uint8_t)(p ^ (j & 1));
    }
    for (int i = depth - 1; i >= 0; i--) {
        const node *child = &nodes[path[i + 1].node];
        int mover = path[i + 1].mover;
        w->rave_stamp[child->move] = stamp;
        w->rave_who[child->move] = (uint8_t)mover;
        uint32_t first = tree_first(&nodes[path[i].node]);
        for (uint32_t ci = first;; ci++) {
            uint16_t m = nodes[ci].move;
            if (w->rave_stamp[m] == stamp && w->rave_who[m] == mover &&
                tree_stats_visits(atomic_load_explicit(&t->amaf[ci], memory_order_relaxed)) <
                    SEARCH_VISITS_MAX)
                search_add_amaf(e, &t->amaf[ci], units[mover]);
            if (atomic_load_explicit(&nodes[ci].flags, memory_order_relaxed) & NODE_LAST)
                break;
        }
    }
}

/* Raises *a to v, or lowers it with lower set, unless it is there already. */
static inline void search_bound(_Atomic uint32_t *a, uint32_t v, bool lower)
{
    uint32_t old = atomic_load_explicit(a, memory_order_relaxed);
    while ((lower ? v < old : v > old) &&
           !atomic_compare_exchange_weak_explicit(a, &old, v, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

/* Step 5 of simulation S, whose returns S->ret are known (on the [0, 1]
 * scale): back up. Debug builds check the last position the simulation
 * reached, which every move it played led to: once per simulation, since
 * a check after each move would cost more than the search it checks. */
static void search_ascend(worker *w, search_sim *S)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    tree *t = w->t;
    node *nodes = t->nodes;
    const step *path = S->path;
    bool proving = S->proving;
    int depth = S->depth;
    GAME_CHECK(g, S->state);

    /* Every node takes the return of the player who moved into it (its
     * visit was counted on the way down), in VALUE_ONE units. A return
     * between two units is rounded up with probability equal to its
     * fraction, so that means stay unbiased. Proofs climb while each
     * parent can be proven from its children. */
    uint32_t units[BANYAN_MAX_PLAYERS];
    for (int i = 0; i < g->n_players; i++) {
        double u = S->ret[i] * VALUE_ONE;
        units[i] = (uint32_t)u; /* ret is in [0, 1]: the floor. */
        if (BANYAN_UNLIKELY(u > units[i]))
            units[i] += (double)(banyan_rng_next(&w->rng) >> 11) * 0x1p-53 < u - units[i];
    }
    for (int i = depth; i >= 0; i--) {
        node *x = &nodes[path[i].node];
        if (i == 0 && e->shared)
            w->root_stats += (uint64_t)units[path[i].mover] << NODE_VISIT_BITS;
        else
            search_add_value(e, x, units[path[i].mover]);
        if (t->tt && !t->graph && i >= SEARCH_TT_DEPTH)
            search_tt_add(e, t, S->hashes[i], units[path[i].mover]);
        if (proving && i < depth)
            proving = search_prove(w, path, i, path[i].mover, path[i + 1].mover);
        if (proving && i > 0)
            atomic_fetch_or_explicit(&nodes[path[i - 1].node].flags, NODE_PROVEN_CHILD,
                                     memory_order_release);
    }
    if (t->amaf)
        search_ascend_rave(w, S, units);
    if (e->cfg.adaptive > 0) {
        search_bound(&e->solo.seen_lo, units[0], true);
        search_bound(&e->solo.seen_hi, units[0], false);
    }
    for (int i = depth; t->best && i > 0; i--)
        search_bound(&t->best[path[i].node], units[0], false);
}

/* An evaluated leaf's returns, within the game's reward bounds, mapped
 * onto [0, 1] in place. */
static void search_norm_returns(const banyan_engine *e, double *ret)
{
    for (int i = 0; i < e->game->n_players; i++)
        ret[i] = search_norm(e, ret[i]);
}

/* Single-player games (engine.solo.line): the simulation S, just played, becomes
 * the worker's best line when it reached the game's end (a recorded
 * rollout's whole game, or a finished position in the tree) with a return
 * above the best so far. */
static void search_keep_line(worker *w, const search_sim *S)
{
    const banyan_game *g = w->e->game;
    double ret[BANYAN_MAX_PLAYERS];
    int n = S->depth, k = S->rolled ? w->rave_n : 0;
    if (k >= SEARCH_RAVE_MOVES || !g->outcome(w->state, ret) ||
        (w->line_len > 0 && !(ret[0] > w->line_return)))
        return;
    for (int i = 1; i <= n; i++)
        w->line[i - 1] = tree_move(&w->t->nodes[S->path[i].node]);
    memcpy(w->line + n, w->rave_moves, (size_t)k * sizeof *w->line);
    w->line_len = n + k;
    w->line_return = ret[0];
}

/* Makes worker w's best line the engine's where it is better. */
void search_merge_line(banyan_engine *e, const worker *w)
{
    if (w->line_len > 0 && (e->solo.line_len == 0 || w->line_return > e->solo.line_return)) {
        memcpy(e->solo.line, w->line, (size_t)w->line_len * sizeof *e->solo.line);
        e->solo.line_len = w->line_len;
        e->solo.line_return = w->line_return;
    }
}

/* One simulation from the root, written as numbered steps: select, expand
 * (search_descend), evaluate (step 4: the config's leaf rule, unless the
 * leaf's value is already known), back up (search_ascend). */
void search_simulate(worker *w)
{
    search_sim *S = w->sims;
    search_descend(w, S, 0);
    S->rolled = false;
    if (S->pending) {
        search_leaf(w, S->ret);
        search_norm_returns(w->e, S->ret);
        S->rolled = w->rave_moves != NULL;
    }
    if (w->line)
        search_keep_line(w, S);
    search_ascend(w, S);
}

/* Batches for an evaluator (threads.c runs them): simulation i of the
 * batch descends, its path keeping the visits it added (a virtual loss,
 * since their values come later) so that the next ones spread over other
 * leaves. */
void search_batch_descend(worker *w, int i)
{
    search_sim *S = &w->sims[i];
    search_descend(w, S, i);
}

/* Then the evaluator takes every pending leaf of the n simulations in one
 * call, in their order, and each simulation backs up. */
void search_batch_end(worker *w, int n)
{
    banyan_engine *e = w->e;
    banyan_eval_request *req = w->requests;
    int k = 0;
    for (int i = 0; i < n; i++) {
        search_sim *S = &w->sims[i];
        if (S->pending && S->dup < 0)
            req[k++] = (banyan_eval_request){S->state, NULL, 0, NULL, S->ret};
    }
    if (k > 0)
        e->cfg.evaluator->evaluate(e->cfg.evaluator->ud, w->index, req, k);
    for (int i = 0; i < n; i++) {
        search_sim *S = &w->sims[i];
        if (S->pending && S->dup >= 0)
            memcpy(S->ret, w->sims[S->dup].ret, sizeof S->ret); /* Already on [0, 1]. */
        else if (S->pending)
            search_norm_returns(e, S->ret);
        search_ascend(w, S);
    }
    w->state = w->sims[0].state;
}
