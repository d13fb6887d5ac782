/*
 * rules.c - the rules of Gomoku on square boards of 5x5 to 22x22: freestyle
 * (five or more wins), standard (exactly five) and renju (Black may not make
 * 3-3, 4-4 or an overline, and wins only with exactly five). The state, its
 * setup, moves and play, the outcome, renju's forbidden points, the "a1"
 * notation, the hash, the invariants, and the table banyan_game_gomoku that
 * ties in the rollouts (rollout.c), the priors (priors.c), the evaluation
 * (eval.c) and the provers (vcf.c, vct.c, defence.c).
 */
#include "gomoku.h"

#include <stdio.h>
#include <string.h>

#include "point.h"

#define GMK_RENJU_DEPTH 6 /* Nesting of renju's three checks. */

static inline int gmk_to_move(const void *s)
{
    return ((const gmk *)s)->ply & 1;
}

/* Copies the stones of t onto a byte board. */
void gmk_board_load(const gmk *t, gmk_board *g)
{
    int n = t->size;
    memset(g->b, GMK_EDGE, sizeof g->b);
    for (int r = 0; r < n; r++)
        memset(g->b + gmk_bidx(r, 0), 0, (size_t)n);
    for (int col = 0; col < 2; col++)
        for (int wi = 0; wi < GMK_WORDS; wi++)
            for (uint64_t bits = t->stones[col][wi]; bits; bits &= bits - 1) {
                int cell = wi * 64 + bits_low(bits);
                g->b[gmk_bidx(cell / GMK_STRIDE, cell % GMK_STRIDE)] = (uint8_t)(col + 1);
            }
    g->exact[0] = gmk_exact(t->rule, 0);
    g->exact[1] = gmk_exact(t->rule, 1);
    g->renju = t->rule == GMK_RENJU;
    g->size = (uint8_t)n;
}

/* The line words of t's stones (as gmk_board_load's board): the empty
 * cells of each line are its cells on the board less the stones. */
void gmk_lines_load(gmk_lines *L, const gmk *t)
{
    int n = t->size;
    uint32_t all = ((1u << n) - 1) << GMK_PAD;
    memset(L->w, 0, sizeof L->w);
    for (int r = 0; r < n; r++)
        L->w[0][r + GMK_PAD][2] = L->w[1][r + GMK_PAD][2] = all;
    /* Diagonal c - r = d holds the rows lo .. hi, anti-diagonal c + r = d
     * the rows from d - (n - 1) or 0 to d or n - 1; a line's positions are
     * its cells' rows. */
    for (int d = -(n - 1); d <= n - 1; d++) {
        int lo = d < 0 ? -d : 0, hi = d < 0 ? n - 1 : n - 1 - d;
        L->w[2][d + GMK_BW - 1][2] = ((1u << (hi - lo + 1)) - 1) << (lo + GMK_PAD);
    }
    for (int d = 0; d <= 2 * (n - 1); d++) {
        int lo = d > n - 1 ? d - (n - 1) : 0, hi = d < n - 1 ? d : n - 1;
        L->w[3][d + 2 * GMK_PAD][2] = ((1u << (hi - lo + 1)) - 1) << (lo + GMK_PAD);
    }
    for (int col = 0; col < 2; col++)
        for (int wi = 0; wi < GMK_WORDS; wi++)
            for (uint64_t bits = t->stones[col][wi]; bits; bits &= bits - 1) {
                int cell = wi * 64 + bits_low(bits);
                int x = gmk_bidx(cell / GMK_STRIDE, cell % GMK_STRIDE);
                for (int i = 0; i < 4; i++) {
                    int pos;
                    uint32_t *w = gmk_lines_at(L, x, i, &pos), bit = 1u << pos;
                    w[col] |= bit;
                    w[2] &= ~bit;
                }
            }
}

/* Whether Black's stone at p (already on the board) makes a true three
 * along d: one more black stone e turns it into a straight four that holds
 * p, and e is itself not a forbidden point. */
bool gmk_renju_three(uint8_t *b, int p, int d, unsigned own, unsigned emp, int depth)
{
    for (int i = 1; i <= 9; i++) {
        unsigned bit = 1u << i;
        if (!(emp & bit) || !gmk_straight(gmk_fp(own | bit, emp & ~bit, true)))
            continue;
        if (depth >= GMK_RENJU_DEPTH || !gmk_forbidden_at(b, p + (i - 5) * d, depth + 1))
            return true;
    }
    return false;
}

/* Renju: whether Black playing on the empty point p is forbidden. An exact
 * five comes first and is always allowed; then an overline, two or more
 * fours (a straight four counts once, two fours in one line twice), or two
 * or more true threes are forbidden. Threes are checked recursively, each
 * level with one more stone, down to GMK_RENJU_DEPTH (deeper points are
 * taken as allowed). b is restored before returning. */
int gmk_forbidden_kind(uint8_t *b, int p, int depth)
{
    int runs[4], fours = 0, threes = 0;
    bool over = false;
    unsigned own[4], emp[4];

    for (int i = 0; i < 4; i++) {
        runs[i] = gmk_run(b, p, gmk_dirs[i], 1);
        if (runs[i] == 5)
            return GMK_ALLOWED;
        over |= runs[i] > 5;
    }
    if (over)
        return GMK_OVERLINE;
    for (int i = 0; i < 4; i++) {
        gmk_line(b, p, gmk_dirs[i], 1, &own[i], &emp[i]);
        fours += gmk_fours(gmk_fp(own[i], emp[i], true));
    }
    if (fours >= 2)
        return GMK_FOUR_FOUR;
    b[p] = 1;
    for (int i = 0; i < 4 && threes < 2; i++)
        if (!gmk_fp(own[i], emp[i], true) &&
            gmk_pop5[(own[i] >> 1) & 31] + gmk_pop5[(own[i] >> 6) & 15] >= 3 &&
            gmk_renju_three(b, p, gmk_dirs[i], own[i], emp[i], depth))
            threes++;
    b[p] = 0;
    return threes >= 2 ? GMK_THREE_THREE : GMK_ALLOWED;
}

/* Runs of player who's stones through (r, c) on the bitboard, along (dr, dc). */
static int gmk_count(const gmk *t, int who, int r, int c, int dr, int dc)
{
    int n = 1, size = t->size;
    const uint64_t *b = t->stones[who];
    for (int rr = r + dr, cc = c + dc;
         rr >= 0 && rr < size && cc >= 0 && cc < size && gmk_bit(b, rr * GMK_STRIDE + cc);
         rr += dr, cc += dc)
        n++;
    for (int rr = r - dr, cc = c - dc;
         rr >= 0 && rr < size && cc >= 0 && cc < size && gmk_bit(b, rr * GMK_STRIDE + cc);
         rr -= dr, cc -= dc)
        n++;
    return n;
}

/* Whether player who's stone at (r, c) makes a winning five. A walk on the
 * bitboards, the state's only layout: play checks every move it makes, and
 * building a byte board or line words for that would cost more than the
 * walk. */
static bool gmk_won_at(const gmk *t, int who, int r, int c)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    bool exact = gmk_exact(t->rule, who);
    for (int i = 0; i < 4; i++) {
        int n = gmk_count(t, who, r, c, dr[i], dc[i]);
        if (n == 5 || (n > 5 && !exact))
            return true;
    }
    return false;
}

/* Renju: whether Black, to move in t, has no point that is not forbidden. */
static bool gmk_black_stuck(const gmk *t)
{
    gmk_board g;
    gmk_board_load(t, &g);
    for (int r = 0; r < t->size; r++)
        for (int c = 0; c < t->size; c++) {
            int p = gmk_bidx(r, c);
            if (g.b[p] == 0 && !gmk_forbidden_at(g.b, p, 0))
                return false;
        }
    return true;
}

/* Places player who's stone on (r, c) and brings near, ply, last, winner and
 * stuck up to date. Any empty cell may be played. */
static void gmk_where(gmk *t, int r, int c)
{
    int who = t->ply & 1, size = t->size;
    int i = r * GMK_STRIDE + c;
    gmk_set(t->stones[who], i);
    /* The cells within 2 of (r, c) on the board, row by row, as runs of
     * bits (a run may cross into the next word), less the stones. */
    int lo = c - 2 > 0 ? c - 2 : 0, hi = c + 2 < size - 1 ? c + 2 : size - 1;
    uint64_t run = ((uint64_t)1 << (hi - lo + 1)) - 1;
    for (int rr = r - 2 > 0 ? r - 2 : 0; rr <= r + 2 && rr < size; rr++) {
        int j = rr * GMK_STRIDE + lo;
        t->near[j >> 6] |= run << (j & 63);
        if ((j & 63) + hi - lo >= 64)
            t->near[(j >> 6) + 1] |= run >> (64 - (j & 63));
    }
    for (int wi = 0; wi < GMK_WORDS; wi++)
        t->near[wi] &= ~(t->stones[0][wi] | t->stones[1][wi]);
    t->ply++;
    t->last = (uint16_t)(r * size + c);
    if (gmk_won_at(t, who, r, c))
        t->winner = (uint8_t)who;
    else if (t->rule == GMK_RENJU && who == 1 && t->ply >= 8 && t->ply < size * size)
        t->stuck = gmk_black_stuck(t);
}

static void gmk_play(void *s, banyan_move m)
{
    gmk *t = s;
    gmk_where(t, (int)m / t->size, (int)m % t->size);
}

/* Empties the board of t, whose parameters are set. */
static void gmk_reset(gmk *t)
{
    memset(t->stones, 0, sizeof t->stones);
    memset(t->near, 0, sizeof t->near);
    t->ply = 0;
    t->last = GMK_NO_CELL;
    t->winner = GMK_NOBODY;
    t->stuck = 0;
}

/* Parameters size, rule, candidates, rollout, priors and prover (the
 * table gmk_params, read by banyan_params_read), in any order; the last of
 * a repeated key counts. The search aids' choices are
 * the engine's and the plain baseline's (the others once offered,
 * rollouts near the stones, a VCF without the VCT, the threat or the
 * learned priors alone, were measured and not kept). */
static int gmk_setup(void *s, const char *params)
{
    gmk *t = s;
    banyan_value v[GMK_N_PARAMS];
    if (banyan_params_read(banyan_game_gomoku.params, params, v) != BANYAN_OK)
        return BANYAN_EINVAL;
    memset(t, 0, sizeof *t); /* Also the padding, so equal positions have equal bytes. */
    /* Each choice's words are in the order of its enum (gomoku.h). */
    t->size = (uint8_t)v[GMK_P_SIZE].i;
    t->rule = (uint8_t)v[GMK_P_RULE].choice;
    t->cands = (uint8_t)v[GMK_P_CANDIDATES].choice;
    t->rollout = (uint8_t)v[GMK_P_ROLLOUT].choice;
    t->priors = (uint8_t)v[GMK_P_PRIORS].choice;
    t->prover = (uint8_t)v[GMK_P_PROVER].choice;
    gmk_reset(t);
    return BANYAN_OK;
}

/* Lists in ascending cell order the empty cells that Black may take (under
 * renju, not the forbidden points) among every empty cell, or with near_only
 * among the cells within distance 2 of a stone (the centre on an empty
 * board), falling back to every empty cell when all near ones are
 * forbidden. */
static int gmk_list(const gmk *t, banyan_move *out, bool near_only)
{
    int n = 0, size = t->size;
    bool all = !near_only || t->ply == 0;
    bool check = t->rule == GMK_RENJU && (t->ply & 1) == 0 && t->ply >= 8;
    gmk_board g;

    if (gmk_is_over(t))
        return 0;
    if (t->ply == 0 && near_only) {
        out[0] = (banyan_move)((size / 2) * size + size / 2);
        return 1;
    }
    if (check)
        gmk_board_load(t, &g);
    for (int pass = 0; pass < 2 && n == 0; pass++) {
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int i = r * GMK_STRIDE + c;
                if (all ? gmk_bit(t->stones[0], i) || gmk_bit(t->stones[1], i)
                        : !gmk_bit(t->near, i))
                    continue;
                if (check && gmk_forbidden_at(g.b, gmk_bidx(r, c), 0))
                    continue;
                out[n++] = (banyan_move)(r * size + c);
            }
        all = true;
    }
    return n;
}

/* Why m is not legal: occupied, or forbidden to renju's Black and why. */
static int gmk_explain(const void *s, banyan_move m, char *buf, size_t len)
{
    static const char *const why[] = {"", "an overline", "a double four", "a double three"};
    const gmk *t = s;
    int r = (int)(m / (banyan_move)t->size), c = (int)(m % (banyan_move)t->size);
    gmk_board g;
    if (m >= (banyan_move)(t->size * t->size))
        return 0;
    if (gmk_bit(t->stones[0], r * GMK_STRIDE + c) || gmk_bit(t->stones[1], r * GMK_STRIDE + c))
        return snprintf(buf, len, "is occupied");
    if (t->rule != GMK_RENJU || (t->ply & 1) != 0)
        return 0;
    gmk_board_load(t, &g);
    int kind = gmk_forbidden_kind(g.b, gmk_bidx(r, c), 0);
    return kind == GMK_ALLOWED ? 0 : snprintf(buf, len, "is forbidden for Black (%s)", why[kind]);
}

/* Every legal move: any empty point, but a forbidden one for renju's Black. */
static int gmk_moves(const void *s, banyan_move *out)
{
    return gmk_list(s, out, false);
}

/* The moves the search considers: the near cells unless candidates=all,
 * narrowed by the threats (defence.c, gmk_defend) unless prover=off: a five
 * to make, else the blocks of the opponent's five, else, when the opponent
 * would win by continuous fours were the mover to pass, the moves that
 * stop it. prover=off (the textbook baseline) keeps the plain list. */
static int gmk_candidates_in(const gmk *t, banyan_move *out, void *mem)
{
    return gmk_defend(t, out, gmk_list(t, out, t->cands == GMK_CAND_NEAR), mem);
}

static int gmk_candidates(const void *s, banyan_move *out)
{
    return gmk_candidates_in(s, out, NULL);
}

/* prove_win and candidates for an expansion, with the quiet positions of
 * the thread's deep memory: no VCF to look for where the parent's
 * defence showed there is none (defence.c). */
static int gmk_expand(const void *s, void *mem, banyan_move *win, banyan_move *out)
{
    const gmk *t = s;
    if (!gmk_quiet(t, mem) && gmk_prove_win(t, win))
        return -1;
    return gmk_candidates_in(t, out, mem);
}

/* A draw on a full board; under renju, Black to move with only forbidden
 * points loses (playing one would lose). */
static bool gmk_outcome(const void *s, double *returns)
{
    const gmk *t = s;
    if (!gmk_is_over(t))
        return false;
    int winner = t->stuck ? 1 : t->winner;
    returns[0] = winner == 0 ? 1.0 : winner == 1 ? 0.0 : 0.5;
    returns[1] = 1.0 - returns[0];
    return true;
}

/*
 * Notation: a column letter (a .. v) and a row number from the bottom.
 */

static int gmk_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    const gmk *t = s;
    return point_format(m, t->size, t->size, buf, len);
}

static int gmk_parse_move(const void *s, const char *str, banyan_move *out)
{
    const gmk *t = s;
    return point_parse_move(str, t->size, t->size, out);
}

/* A move list such as "h8 i9 h9" or "h8,i9,h9", Black first, played on a
 * copy from the empty board. Any empty point may be played (the candidate
 * restriction is the search's, not a rule), except a point forbidden to
 * Black under renju. */
static int gmk_load(void *s, const char *text)
{
    gmk t;
    const char *p = text;
    int cell, rc;

    if (!text)
        return BANYAN_EINVAL;
    memcpy(&t, s, sizeof t);
    gmk_reset(&t);
    while ((rc = point_next(&p, t.size, t.size, &cell)) == 1) {
        int r = cell / t.size, c = cell % t.size, i = r * GMK_STRIDE + c;
        if (gmk_is_over(&t) || gmk_bit(t.stones[0], i) || gmk_bit(t.stones[1], i))
            return BANYAN_EILLEGAL;
        if (t.rule == GMK_RENJU && (t.ply & 1) == 0) {
            gmk_board g;
            gmk_board_load(&t, &g);
            if (gmk_forbidden_at(g.b, gmk_bidx(r, c), 0))
                return BANYAN_EILLEGAL;
        }
        gmk_where(&t, r, c);
    }
    if (rc < 0)
        return rc;
    memcpy(s, &t, sizeof t);
    return BANYAN_OK;
}

/* The stones and the parameters; the rest follows from them (last move
 * aside, which does not change the position). The rollout and the prover
 * enter twice their values: the codes they had before a choice between
 * the two of each was removed, so that every position keeps its hash (and
 * a search its table's layout). */
uint64_t gmk_hash(const void *s)
{
    const gmk *t = s;
    uint64_t h =
        banyan_mix64((uint64_t)t->size | (uint64_t)t->rule << 8 | (uint64_t)t->cands << 16 |
                     (uint64_t)(2 * t->rollout) << 24 | (uint64_t)(2 * t->prover) << 32);
    for (int i = 0; i < GMK_WORDS; i++) {
        h = banyan_mix64(h ^ t->stones[0][i]);
        h = banyan_mix64(h ^ t->stones[1][i] ^ 0x9e3779b97f4a7c15ULL);
    }
    return h;
}

/* Whether player who has a winning five anywhere, by a slow full scan. */
static bool gmk_has_five(const gmk *t, int who)
{
    for (int r = 0; r < t->size; r++)
        for (int c = 0; c < t->size; c++)
            if (gmk_bit(t->stones[who], r * GMK_STRIDE + c) && gmk_won_at(t, who, r, c))
                return true;
    return false;
}

/* Parameters in range, stones on the board and never twice, alternating
 * counts, a winner exactly when the last mover has a five (and the loser
 * none), and, while the game goes on, near exactly the empty cells within
 * distance 2 of a stone. */
static bool gmk_is_valid(const void *s)
{
    const gmk *t = s;
    int n = t->size, count[2] = {0, 0};
    if (n < GMK_MIN || n > GMK_MAX || t->rule > GMK_RENJU || t->cands > GMK_CAND_ALL ||
        t->rollout > GMK_RO_UNIFORM || t->prover > GMK_PROVER_OFF || t->priors > GMK_PRIORS_OFF ||
        t->winner > GMK_NOBODY || t->stuck > 1 || t->pad)
        return false;
    for (int i = 0; i < GMK_WORDS; i++) {
        if (t->stones[0][i] & t->stones[1][i])
            return false;
        count[0] += bits_count(t->stones[0][i]);
        count[1] += bits_count(t->stones[1][i]);
    }
    int on_board[2] = {0, 0};
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int who = 0; who < 2; who++)
                on_board[who] += gmk_bit(t->stones[who], r * GMK_STRIDE + c);
    if (on_board[0] != count[0] || on_board[1] != count[1])
        return false;
    if ((count[0] != count[1] && count[0] != count[1] + 1) || t->ply != count[0] + count[1])
        return false;
    bool five[2] = {gmk_has_five(t, 0), gmk_has_five(t, 1)};
    if (t->winner == GMK_NOBODY) {
        if (five[0] || five[1])
            return false;
    } else {
        int mover = (t->ply - 1) & 1;
        if (t->ply == 0 || t->winner != mover || !five[mover] || five[!mover])
            return false;
    }
    if (gmk_is_over(t))
        return true;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int i = r * GMK_STRIDE + c;
            bool empty = !gmk_bit(t->stones[0], i) && !gmk_bit(t->stones[1], i), close = false;
            for (int rr = r - 2; rr <= r + 2; rr++)
                for (int cc = c - 2; cc <= c + 2; cc++)
                    if (rr >= 0 && rr < n && cc >= 0 && cc < n &&
                        (gmk_bit(t->stones[0], rr * GMK_STRIDE + cc) ||
                         gmk_bit(t->stones[1], rr * GMK_STRIDE + cc)))
                        close = true;
            if (gmk_bit(t->near, i) != (empty && close))
                return false;
        }
    for (int i = 0; i < GMK_WORDS; i++)
        for (int b = 0; b < 64; b++) {
            int cell = i * 64 + b;
            if (((t->near[i] >> b) & 1) && (cell % GMK_STRIDE >= n || cell / GMK_STRIDE >= n))
                return false;
        }
    return true;
}

/* ---- The description ---- */

static const banyan_param gmk_params[] = {
    {"size", BANYAN_PARAM_INT, GMK_MIN, GMK_MAX, NULL, "15", BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT,
     "side of the square board", NULL},
    {"rule", BANYAN_PARAM_CHOICE, 0, 0, "freestyle|standard|renju", "freestyle", BANYAN_ROLE_RULE,
     "five or more wins; exactly five; renju (Black: exactly five, no 3-3, 4-4, overline)", NULL},
    {"candidates", BANYAN_PARAM_CHOICE, 0, 0, "near|all", "near", 0,
     "moves the search considers: within 2 of a stone, or every empty point", "all"},
    {"rollout", BANYAN_PARAM_CHOICE, 0, 0, "heuristic|uniform", "heuristic", 0,
     "rollout policy: threat-aware, or uniform", "uniform"},
    {"priors", BANYAN_PARAM_CHOICE, 0, 0, "mixed|off", "mixed", 0,
     "priors: threats and learned patterns combined, or uniform", "off"},
    {"prover", BANYAN_PARAM_CHOICE, 0, 0, "vct|off", "vct", 0,
     "solvers the search calls: fours and threats with open threes, or none", "off"},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};
_Static_assert(sizeof gmk_params / sizeof gmk_params[0] == GMK_N_PARAMS + 1,
               "one value a parameter");

/* Append only: any change to a search (a position with playouts) changes
 * the bench signature; rollout-only entries (no playouts) do not count
 * in it. */
const banyan_bench games_bench_gomoku[] = {
    {"", "", 3000, 40000},
    {"", "h8 i9 h9 i10 h10", 3000, 0},
    {"rule=renju", "h8 i9 j8 j9 i8 k10", 3000, 0},
    {"size=19 rule=standard", "k10 l11 j9", 3000, 0},
    {"", "c8 b8 d5 f5 a11 g8 c6 b7 d6 e6 d4 d7 c5 c7 e7 b4 e3", 3000, 0},
    {"rollout=uniform candidates=all", "", 0, 200000},
    {NULL, NULL, 0, 0},
};

static void gmk_board_size(const void *s, int *width, int *height)
{
    const gmk *t = s;
    *width = *height = t->size;
}

/* Move r * size + c is column c of row r, rows counted from the bottom. */
static int gmk_move_place(const void *s, banyan_move m, int *x, int *y)
{
    const gmk *t = s;
    return point_place(m, t->size, t->size, x, y);
}

static int gmk_place_to_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    const gmk *t = s;
    return point_place_move(kind, x, y, t->size, t->size, out);
}

static int gmk_piece(const void *s, int x, int y)
{
    const gmk *t = s;
    banyan_move m;
    if (point_place_move(BANYAN_PLACE_CELL, x, y, t->size, t->size, &m) != BANYAN_OK)
        return -1;
    int i = (int)(m / t->size) * GMK_STRIDE + (int)(m % t->size);
    return gmk_bit(t->stones[0], i) ? 0 : gmk_bit(t->stones[1], i) ? 1 : -1;
}

/* The winner's five (exactly five where the rule asks for it); none when
 * renju's Black lost by having only forbidden points. */
static int gmk_win_line(const void *s, int *x, int *y, int max)
{
    const gmk *t = s;
    if (t->winner == GMK_NOBODY)
        return 0;
    return point_win_line(s, gmk_piece, t->size, t->size, t->winner, 5,
                          gmk_exact(t->rule, t->winner), x, y, max);
}

static const banyan_tactics gomoku_tactics = {
    BANYAN_TACTICS_INIT,
    .prove_win = gmk_prove_win,
    .candidates = gmk_candidates,
    .prove_win_deep = gmk_prove_win_deep,
    .candidates_deep = gmk_candidates_deep,
    .mem_size = GMK_DEEP_SIZE,
    /* The budgets the engine's defaults were measured with, on this game's
     * VCT (src/budgets.h): 10,000 positions about 1.7 ms, 200,000 about
     * 40 ms; the shares of a timed search's time for the root's provers
     * (docs/journal/2026-12-04-provers-clock.md) and the final check. */
    .deep_visits = 64,
    .deep_share = 32,
    .deep_effort = 10000,
    .root_effort = 200000,
    .root_per_second = 400000.0,
    .root_min = 50000,
    .root_max = 500000,
    .root_time_share = 0.6,
    .defend_time_share = 0.35,
    .verify_tries = 3,
    .verify_share = 0.07,
    .verify_per_second = 2500000.0,
    .expand = gmk_expand,
};

static const banyan_notation gomoku_notation = {
    BANYAN_NOTATION_INIT,
    .format_move = gmk_format_move,
    .parse_move = gmk_parse_move,
    .load = gmk_load,
    .print = NULL, /* The library draws the board from piece(). */
};

static const banyan_board gomoku_board = {
    BANYAN_BOARD_INIT,
    .coords = BANYAN_COORDS_POINT | BANYAN_COORDS_GTP | BANYAN_COORDS_XY | BANYAN_COORDS_SGF,
    .sgf_game = 4,
    .board_size = gmk_board_size,
    .place = gmk_move_place,
    .place_move = gmk_place_to_move,
    .piece = gmk_piece,
    .win_line = gmk_win_line,
};

const banyan_game banyan_game_gomoku = {
    BANYAN_GAME_INIT,
    .name = "gomoku",
    .state_size = sizeof(gmk),
    .n_players = 2,
    .setup = gmk_setup,
    .moves = gmk_moves,
    .play = gmk_play,
    .outcome = gmk_outcome,
    .to_move = gmk_to_move,
    .rollout = gmk_rollout,
    .priors = gmk_priors,
    .hash = gmk_hash,
    .is_valid = gmk_is_valid,
    .title = "Gomoku",
    .params = gmk_params,
    .evaluate = gmk_evaluate,
    .tactics = &gomoku_tactics,
    .notation = &gomoku_notation,
    .player_names = (const char *const[]){"Black", "White"},
    .explain = gmk_explain,
    .board = &gomoku_board,
};
