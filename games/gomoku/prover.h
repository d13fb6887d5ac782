/*
 * prover.h - what the threat provers share, private to vcf.c, vct.c and
 * defence.c: the line words read and written in place, the VCF's and the
 * VCT's workspaces, and the thread's deep memory that holds the VCT's and
 * the quiet positions. Both provers search the byte board in place, with
 * its line words beside it (what a move makes is read from them through
 * the line-pattern tables); a win is reported only when certain, so every
 * proof becomes a solver win.
 */
#ifndef BANYAN_GOMOKU_PROVER_H
#define BANYAN_GOMOKU_PROVER_H

#include "gomoku.h"

#define GMK_VCF_DEPTH   32 /* Longest VCF, in attacker moves. */
#define GMK_VCF_TT_BITS 11 /* Log2 of the VCF's table of failed positions. */
#define GMK_VCT_DEPTH   32 /* Longest VCT, in attacker moves. */

/* Sets cell x to value val (0 .. 3) in the line words. */
static inline void gmk_lines_set(gmk_lines *L, int x, int val)
{
    for (int i = 0; i < 4; i++) {
        int pos;
        uint32_t *w = gmk_lines_at(L, x, i, &pos), bit = 1u << pos;
        w[0] = (w[0] & ~bit) | (val == 1 ? bit : 0);
        w[1] = (w[1] & ~bit) | (val == 2 ? bit : 0);
        w[2] = (w[2] & ~bit) | (val == 0 ? bit : 0);
    }
}

/* gmk_line's masks (own with x counted as own, emp without x) of colour
 * col along gmk_dirs[i] through x, from the line words. */
static inline void gmk_lines_masks(gmk_lines *L, int x, int i, int col, unsigned *own,
                                   unsigned *emp)
{
    int pos;
    const uint32_t *w = gmk_lines_at(L, x, i, &pos);
    unsigned sh = (unsigned)pos - 5;
    *own = ((w[col - 1] >> sh) & 0x7ff) | 1u << 5;
    *emp = (w[2] >> sh) & 0x7ff & ~(1u << 5);
}

/* The GMK_LS_ bits of both colours (colour 1's in the low nibble) for the
 * empty cell at position pos of line w, from the tables gen_tables.c
 * writes; exact[] as gmk_board's. */
static inline unsigned gmk_lines_rate(const uint32_t *w, int pos, const uint8_t *exact)
{
    unsigned sh = (unsigned)pos - 5, emp = 2u * gmk_ls_base3[(w[2] >> sh) & 0x7ff];
    unsigned c1 = gmk_ls_table[gmk_ls_base3[(w[0] >> sh) & 0x7ff] + emp];
    unsigned c2 = gmk_ls_table[gmk_ls_base3[(w[1] >> sh) & 0x7ff] + emp];
    return ((c1 >> (exact[0] ? 4 : 0)) & 15) | ((c2 >> (exact[1] ? 4 : 0)) & 15) << 4;
}

/* The empty cells (bits of the 11-cell masks own and emp, centre bit 5
 * counted as own) that would complete a four through the centre: those of
 * each window of five holding the centre, three or more own stones and no
 * other. A stone there makes the centre's stone a four. */
static inline unsigned gmk_four_cells(unsigned own, unsigned emp)
{
    unsigned cells = 0;
    for (int s = 1; s <= 5; s++) {
        unsigned w = 0x1fu << s;
        if (!(w & ~(own | emp)) && gmk_pop5[(own >> s) & 31] >= 3)
            cells |= w & emp;
    }
    return cells;
}

/* ---- vcf.c ---- */

/* A VCF's winning line, in byte board cells. */
typedef struct gmk_vcf_line {
    int n;                  /* Attacker moves: 0 when a five is there to make. */
    int att[GMK_VCF_DEPTH]; /* The attacker's moves, in order. */
    int def[GMK_VCF_DEPTH]; /* The defender's forced reply to each; -1 after the last. */
    int n_fives;            /* The five points the last move leaves (or those on the board). */
    int fives[8];
} gmk_vcf_line;

/* The solver's workspace. */
typedef struct gmk_vcf {
    gmk_board g;                /* The position, moves played on it in place. */
    gmk_lines L;                /* Its line words, kept with it. */
    uint32_t stamp[GMK_BCELLS]; /* Node that last listed a cell. */
    uint16_t list[GMK_VCF_DEPTH + 1][GMK_MAX * GMK_MAX]; /* Four-making moves per level. */
    uint32_t nodes;                                      /* Attacker moves tried so far. */
    uint32_t budget;                                     /* Bound on nodes. */
    uint32_t node_id;                                    /* Stamp of the current node. */
    uint64_t key;                      /* The stones placed so far, hashed (0 at the start). */
    bool tt_on;                        /* Whether tt is in use in this call (used cleared). */
    uint64_t tt[1 << GMK_VCF_TT_BITS]; /* Keys of failed positions, where used says. */
    uint64_t used[(1 << GMK_VCF_TT_BITS) / 64]; /* tt's slots written in this call. */
    int att;                                    /* Attacker: 0 or 1. */
    int first;                                  /* The winning first move, a byte board cell. */
    gmk_vcf_line line;                          /* The winning line, written on the way back up. */
} gmk_vcf;

/* Sets v up for a VCF of player att on t (vcf.c says how); returns the
 * number of level 0's four-making moves. */
int gmk_vcf_init(gmk_vcf *v, const gmk *t, int att, int *afp, int *n_afp, int *dfp, int *n_dfp);

/* The attacker to move at level lv of v, with n four-making moves listed
 * and the defender's five points dfp[0 .. n_dfp - 1]: whether a VCF is
 * proven (its line in v->line). */
bool gmk_vcf_search(gmk_vcf *v, int lv, int n, const int *dfp, int n_dfp);

/* Whether colour col playing at empty p makes at least one four. */
bool gmk_vcf_makes_four(gmk_vcf *v, int p, int col);

/* An immediate five, else a VCF, for player att of t, the other player
 * taken to pass; the first move into *out. */
bool gmk_vcf_for(const gmk *t, int att, banyan_move *out);

/* ---- vct.c ---- */

/* Saved cells: 40 a stone, and at most 2 * GMK_VCT_DEPTH stones are on the
 * board at once (an attacker's and a defender's move per level). */
#define GMK_VCT_UNDO ((2 * GMK_VCT_DEPTH + 2) * 40)

/* Positions already solved, attacker to move: positions recur, a threat
 * sequence being found in many orders. An entry holds a position's full
 * 64-bit hash and either GMK_VCT_WON or what was left when the attacker
 * found no win there (moves in the high byte, threes in the low one): no
 * win with fewer left either. Wins rest on the hash alone: two positions
 * of one call sharing 64 bits is a chance of about 2^-64 a probe. The
 * table lives in the engine's per-thread memory (mem_size) and is never
 * cleared: an entry counts only in the call that wrote it (its gen). On
 * the positions where Rapfi won against Banyan, 2^18 entries found a
 * fifth more wins at 10^5 to 10^6 positions than 2^12 did, in the same
 * time. */
#define GMK_VCT_TT  (1u << 18) /* Entries: 6 MiB. */
#define GMK_VCT_WON 0xffff     /* An entry's left: a proven win. */

typedef struct gmk_vct_entry {
    uint64_t hash; /* The position's hash. */
    uint32_t left; /* GMK_VCT_WON, or the moves and threes left at a failure;
                    * in the proof-number search, the proof number. */
    uint32_t dn;   /* The proof-number search's disproof number. */
    uint32_t gen;  /* The call that wrote it (gmk_vct.gen); 0: empty. */
} gmk_vct_entry;

/* The solver's workspace. */
typedef struct gmk_vct {
    gmk_vct_entry tt[GMK_VCT_TT];      /* Solved positions, by hash (see GMK_VCT_TT). */
    uint64_t hash;                     /* Zobrist hash of the stones placed since the root. */
    gmk_board g;                       /* The position, moves played on it in place. */
    uint16_t cells[GMK_MAX * GMK_MAX]; /* The region: cells within distance 2 of a stone. */
    uint8_t in_region[GMK_BCELLS];     /* Whether a cell is listed. */
    uint32_t stamp[GMK_BCELLS];        /* Defence candidates already listed. */
    uint32_t st[GMK_BCELLS];           /* GMK_VS_ bits of each empty cell in the region. */
    gmk_lines L;                       /* The board's line words. */
    uint32_t undo_st[GMK_VCT_UNDO];    /* Saved st[] values, for gmk_vct_unplace. */
    uint16_t undo_at[GMK_VCT_UNDO];    /* Their cells. */
    uint16_t fives[GMK_MAX * GMK_MAX + GMK_VCT_UNDO]; /* Every five point, and some old ones. */
    int n_fives;
    int n_undo;
    int n_cells;
    uint32_t nodes;  /* Positions visited so far. */
    uint32_t budget; /* Bound on nodes. */
    uint32_t cap;    /* Bound on budget: the call's effort, or nodes once out of time. */
    double deadline; /* gmk_clock() time at which the call stops; 0: none. */
    uint32_t stamp_id;
    uint32_t gen;   /* This call's number, never 0; the table's entries of others are void. */
    int att;        /* Attacker: 0 or 1. */
    int first;      /* The winning first move, a byte board cell. */
    int max_threes; /* Open threes allowed on a line of play. */
    int max_depth;  /* Attacker moves allowed on a line, at most GMK_VCT_DEPTH. */
} gmk_vct;

/* A VCT within effort positions for player att of t (the other player, when
 * to move, taken to pass), and before gmk_clock() reaches deadline (0: no
 * time bound), with the positions visited in *used; freestyle and
 * standard rules only. v is the thread's deep memory's. With shortest, a
 * win found is shortened. */
bool gmk_vct_for(const gmk *t, int att, uint32_t effort, double deadline, bool shortest, gmk_vct *v,
                 uint32_t *used, banyan_move *out);

/* The deadline of a call given seconds (0: none), and whether it has
 * passed. */
double gmk_deadline(double seconds);
bool gmk_past(double deadline);

/* ---- The deep memory ---- */

/* The thread's deep memory (the game table's mem_size): the VCT's
 * workspace, and after it the quiet positions of defence.c. */
#define GMK_QUIET (1u << 12)

typedef struct gmk_deep {
    gmk_vct vct;               /* prove_win_deep's and candidates_deep's. */
    uint64_t quiet[GMK_QUIET]; /* Quiet positions. */
} gmk_deep;

_Static_assert(sizeof(gmk_deep) <= GMK_DEEP_SIZE, "GMK_DEEP_SIZE holds the deep memory");

#endif /* BANYAN_GOMOKU_PROVER_H */
