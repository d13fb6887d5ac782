/*
 * match.c - `banyan match`: a referee that plays two players against each
 * other and says with error bars which is stronger.
 *
 * Games are numbered; game i plays opening i / 2 with the first player A
 * when i is even and B when it is odd, so every opening is played twice with
 * colours swapped. Worker threads (-j) take the next number; each game owns
 * its players (a fresh engine or process per game). The referee keeps the
 * position itself and checks every move; an illegal move, a crash, a hang
 * or a lost clock loses the game and is recorded as such. Results go to a
 * file line by line as games end, so a match started again with the same
 * file skips the games already played. The final table gives wins, draws
 * and losses per colour, the score, the Elo difference with its 95%
 * interval and the likelihood of superiority; --sprt stops once decided.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "banyan.h"
#include "cli.h"
#include "dist.h"
#include "farm.h"
#include "os.h"
#include "player.h"
#include "stats.h"

#define MATCH_MAX_GAMES    100000
#define MATCH_MAX_OPENINGS 10000
#define MATCH_SPRT_GAMES   20000   /* Cap of an SPRT without --games. */
#define MATCH_MAX_JOBS     64      /* Games played at once, most (-j). */
#define MATCH_OPENING_MAX  64      /* Moves of one opening, most. */
#define MATCH_MAX_PLIES    1000000 /* Longest --draw-after. */

/* Message tags under mpirun, from DIST_TAG_MATCH on (farm.h takes four). */
enum { MATCH_TAG_SETUP, MATCH_TAG_READY, MATCH_TAG_GO, MATCH_TAG_FARM };

typedef struct match_opts {
    const banyan_game *g;
    char params[256];
    player_spec players[2]; /* A and B. */
    int games;              /* 0: two per opening, or 10. */
    const char *openings_file;
    int random_plies;
    int jobs;
    banyan_limits lim;      /* Per-move limits for internal players without their own. */
    double tc_main, tc_inc; /* Total time control in seconds; main 0 = none. */
    double move_timeout;    /* Longest wait for an external player's answer. */
    double resign;          /* Internal players resign below this value; 0 = never. */
    int resign_moves;
    int draw_after;  /* Plies; 0 = never. */
    bool turn_limit; /* A move over its per-move time loses on time. */
    bool sprt;
    double elo0, elo1, alpha, beta;
    const char *records;        /* Directory for game records. */
    const char *records_format; /* "txt", "sgf" or "psq"; NULL: sgf where the game has an SGF
                                   number, else txt. */
    const char *log_dir;        /* Directory for the lines exchanged with external players. */
    const char *results;        /* Results file, for resuming. */
    uint64_t seed;
} match_opts;

/* One opening: moves from the start position. */
typedef struct match_opening {
    banyan_move moves[MATCH_OPENING_MAX];
    int n;
} match_opening;

typedef struct match_game {
    int result;      /* +1: A won, 0: draw, -1: B won. */
    int a_first;     /* A played first. */
    char reason[64]; /* How it ended. */
    int errors[2];   /* ERROR lines of A's and B's brains, skipped (player.h). */
    int plies;
    bool done;
} match_game;

typedef struct match {
    match_opts o;
    match_opening *openings;
    int n_openings;
    match_game *games;
    pthread_mutex_t lock;
    int next;     /* Next game to start. */
    int finished; /* Games finished, resumed ones included. */
    bool stop;    /* SPRT decided: start no more games. */
    FILE *results;
    bool tty;
    double start;
    char sprt_verdict[96];
    bool told[2]; /* A's and B's failure to start was said. */
    long torn;    /* The results file's length without its unfinished last line, or -1. */
} match;

static double match_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- Openings ---- */

/* Parses one opening line: moves separated by spaces or commas; a word
 * that is not one move may be a run of one-character moves ("4453"). */
static bool match_parse_opening(const banyan_game *g, const char *params, char *line,
                                match_opening *out, char *err, size_t errlen)
{
    unsigned char s[1 << 16];
    out->n = 0;
    if (g->state_size > sizeof s || g->setup(s, params) != BANYAN_OK) {
        snprintf(err, errlen, "bad game parameters");
        return false;
    }
    for (char *w = strtok(line, " ,\t\r\n"); w; w = strtok(NULL, " ,\t\r\n")) {
        char one[2] = {0, 0};
        size_t len = strlen(w), k = 0;
        banyan_move m;
        bool whole = banyan_game_parse(g, s, 0, w, &m) == BANYAN_OK;
        do {
            if (!whole) {
                one[0] = w[k];
                if (banyan_game_parse(g, s, 0, one, &m) != BANYAN_OK) {
                    snprintf(err, errlen, "\"%s\" is not a move", w);
                    return false;
                }
            }
            if (!banyan_game_is_legal(g, s, m) ||
                out->n == (int)(sizeof out->moves / sizeof out->moves[0])) {
                snprintf(err, errlen, "\"%s\" is not legal there", w);
                return false;
            }
            out->moves[out->n++] = m;
            g->play(s, m);
        } while (!whole && ++k < len);
    }
    return true;
}

static bool match_load_openings(match *M, char *err, size_t errlen)
{
    char line[4096];
    M->openings = calloc(MATCH_MAX_OPENINGS, sizeof *M->openings);
    if (!M->openings)
        return false;
    if (!M->o.openings_file) {
        M->n_openings = 1; /* The start position. */
        return true;
    }
    FILE *f = fopen(M->o.openings_file, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", M->o.openings_file);
        return false;
    }
    int line_no = 0;
    while (fgets(line, sizeof line, f) && M->n_openings < MATCH_MAX_OPENINGS) {
        char msg[128];
        line_no++;
        char *t = line;
        while (isspace((unsigned char)*t))
            t++;
        if (!*t || *t == '#')
            continue;
        if (!match_parse_opening(M->o.g, M->o.params, t, &M->openings[M->n_openings], msg,
                                 sizeof msg)) {
            snprintf(err, errlen, "%s:%d: %s", M->o.openings_file, line_no, msg);
            fclose(f);
            return false;
        }
        M->n_openings++;
    }
    fclose(f);
    if (M->n_openings == 0) {
        snprintf(err, errlen, "%s has no openings", M->o.openings_file);
        return false;
    }
    return true;
}

/* ---- One game ---- */

static const char *match_status_name(player_status st)
{
    static const char *const names[] = {"ok", "resign", "illegal move", "crash", "hang"};
    return names[st];
}

/* The extension of the game records: the format --records-format names,
 * else sgf for games with an SGF number and txt for the others. */
static const char *match_record_ext(const match *M)
{
    return M->o.records_format                             ? M->o.records_format
           : (M->o.g->board ? M->o.g->board->sgf_game : 0) ? "sgf"
                                                           : "txt";
}

/* Writes the record of a game to f (record.h) in the format of
 * match_record_ext: SGF, the plain format `banyan play` loads, or .psq,
 * Piskvork's. */
static void match_record(const match *M, record *rec, const match_game *r, FILE *f)
{
    const char *ext = match_record_ext(M);
    record_format fmt = !strcmp(ext, "sgf")   ? RECORD_SGF
                        : !strcmp(ext, "psq") ? RECORD_PSQ
                                              : RECORD_TEXT;
    snprintf(rec->players[0], sizeof rec->players[0], "%.255s",
             M->o.players[r->a_first ? 0 : 1].text);
    snprintf(rec->players[1], sizeof rec->players[1], "%.255s",
             M->o.players[r->a_first ? 1 : 0].text);
    snprintf(rec->result, sizeof rec->result, "%s (%s)",
             r->result == 0                         ? "1/2-1/2"
             : (r->result > 0) == (r->a_first != 0) ? "1-0"
                                                    : "0-1",
             r->reason);
    record_save(rec, f, fmt);
}

/* Writes a game's record, made by match_record, to DIR/game-NNNNN.EXT:
 * whole (a file beside it, then renamed), before its results line. */
static void match_record_file(const match *M, int index, const char *text, size_t len)
{
    char path[1024], part[1040];
    snprintf(path, sizeof path, "%s/game-%05d.%s", M->o.records, index + 1, match_record_ext(M));
    snprintf(part, sizeof part, "%s.part", path);
    FILE *f = fopen(part, "w");
    if (!f)
        return;
    bool ok = fwrite(text, 1, len, f) == len;
    if (fclose(f) == 0 && ok)
        os_rename(part, path);
    else
        remove(part);
}

/* The per-move limits of a player: its own, else the match's; and for an
 * internal player with a clock, a share of what is left (external players
 * manage their own clocks). */
/* The player's own limits, or else the match's: a move's limits as given. */
static banyan_limits match_given_limits(const match *M, const player_spec *spec)
{
    const banyan_limits *own = &spec->eng.lim;
    return own->playouts || own->time > 0 ? *own : M->o.lim;
}

static banyan_limits match_limits(const match *M, const player_spec *spec, double clock)
{
    banyan_limits lim = match_given_limits(M, spec);
    if (spec->kind != PLAYER_INTERNAL)
        return lim;
    if (clock >= 0) {
        /* The engine's own time management on the player's clock. */
        banyan_clock c = {.main_time = clock, .increment = M->o.tc_inc};
        double soft = 0.01, hard = 0.01;
        banyan_time_plan(&c, 0, &soft, &hard);
        lim.time = soft;
        lim.time_max = hard;
        lim.stop_early = true;
        lim.playouts = 0;
    } else if (M->o.turn_limit && lim.time > 0) {
        /* The move must be back within its time, answer included: the
         * search stops earlier (by 10% and 10 ms, as a brain would), since
         * one prover call at the root may run past the search's clock. */
        double t = lim.time * 0.9 - 0.01;
        lim.time = t > lim.time / 2 ? t : lim.time / 2;
    }
    if (!lim.playouts && lim.time <= 0)
        lim.playouts = 10000;
    return lim;
}

/* Says once per player, on stderr, why it could not start (player.h puts
 * the reason in last): a crash at start is most often a wrong command. */
static void match_tell_start(match *M, int who, const player *p)
{
    pthread_mutex_lock(&M->lock);
    if (!M->told[who] && p->last[0])
        fprintf(stderr, "banyan match: %c (%s): %s\n", "AB"[who], M -> o.players[who].text,
                p->last);
    M->told[who] = true;
    pthread_mutex_unlock(&M->lock);
}

/* Why a player could not start (st), for the sentence that stops a match
 * before its first game. */
static const char *match_why_not(const match *M, player_status st, const player *p, char *buf,
                                 size_t len)
{
    if (st == PLAYER_TIMEOUT)
        snprintf(buf, len, "no answer to its first commands within %g s (--move-timeout)",
                 M->o.move_timeout);
    else if (st == PLAYER_CRASH)
        snprintf(buf, len, "%s", p->last[0] ? p->last : "it ended while starting");
    else
        snprintf(buf, len, "it cannot play %s%s%s", M->o.g->name, p->last[0] ? ": " : "", p->last);
    return buf;
}

/* Step 0 of a match: each player is started as for a game (its process,
 * the handshake, the game and the clock) and stopped again, so that a
 * player that cannot play (a command not found, an engine that refuses the
 * game or does not answer) stops the match before its first game instead
 * of forfeiting every one. Returns false after writing why to why[len]. */
static bool match_check_players(const match *M, char *why, size_t len)
{
    for (int k = 0; k < 2; k++) {
        char reason[512];
        player p;
        player_status st =
            player_start(&p, &M->o.players[k], M->o.g, M->o.params, M->o.move_timeout, NULL);
        if (st == PLAYER_OK && M->o.tc_main > 0)
            st = player_time_control(&p, M->o.tc_main, M->o.move_timeout);
        if (st != PLAYER_OK)
            snprintf(why, len, "%c (%s): %s; no game was played", "AB"[k], M -> o.players[k].text,
                     match_why_not(M, st, &p, reason, sizeof reason));
        player_stop(&p);
        if (st != PLAYER_OK)
            return false;
    }
    return true;
}

/* Plays game `index` and fills *r; with --records, writes its record to
 * records. Returns whether it wrote one. */
static bool match_play(match *M, int index, match_game *r, FILE *records)
{
    const match_opts *o = &M->o;
    const banyan_game *g = o->g;
    record rec;
    char err[256];
    player p[2];
    FILE *logs[2] = {NULL, NULL}; /* --log: the lines exchanged with each side. */
    int n = 0, low[2] = {0, 0};
    double clock[2] = {-1, -1};
    memset(r, 0, sizeof *r);
    memset(p, 0, sizeof p);
    r->a_first = index % 2 == 0;
    const player_spec *spec[2] = {&o->players[r->a_first ? 0 : 1], &o->players[r->a_first ? 1 : 0]};
    int loser = -1; /* Side that lost by forfeit. */
    snprintf(r->reason, sizeof r->reason, "normal");
    if (record_init(&rec, g, o->params, NULL, err, sizeof err) != BANYAN_OK) {
        snprintf(r->reason, sizeof r->reason, "no game");
        return false;
    }
    const void *s = record_state(&rec); /* The position, kept by the record. */
    double timeout = o->move_timeout;

    /* Step 1. Start both players. Internal players get a seed of their own
     * per game (their seed plus the game number): deterministic engines
     * would otherwise play the same game again and again. */
    player_spec seeded[2];
    for (int side = 0; side < 2; side++) {
        seeded[side] = *spec[side];
        uint64_t seed = spec[side]->eng.cfg.seed;
        seeded[side].eng.cfg.seed = (seed ? seed : 1) + (uint64_t)index;
        spec[side] = &seeded[side];
        int who = (side == 0) == (r->a_first != 0) ? 0 : 1;
        if (o->log_dir && spec[side]->kind != PLAYER_INTERNAL) {
            char path[1024];
            snprintf(path, sizeof path, "%s/game-%05d-%c.log", o->log_dir, index + 1, "AB"[who]);
            logs[side] = fopen(path, "w");
            if (logs[side])
                fprintf(logs[side], "# %s, game %d, %s\n", o->players[who].text, index + 1,
                        side == 0 ? "first" : "second");
        }
        player_status st = player_start(&p[side], spec[side], g, o->params, timeout, logs[side]);
        if (st == PLAYER_OK && o->tc_main > 0)
            st = player_time_control(&p[side], o->tc_main, timeout);
        if (st != PLAYER_OK) {
            loser = side;
            snprintf(r->reason, sizeof r->reason, "%s at start", match_status_name(st));
            match_tell_start(M, (side == 0) == (r->a_first != 0) ? 0 : 1, &p[side]);
            goto end;
        }
    }

    /* Step 2. The opening, then the random plies (the same for both games
     * of a pair: the generator is seeded by the pair). */
    const match_opening *op = &M->openings[(index / 2) % M->n_openings];
    banyan_rng rng;
    banyan_rng_seed(&rng, o->seed, (uint64_t)(index / 2));
    for (int i = 0; i < op->n + o->random_plies; i++) {
        banyan_move m, legal[BANYAN_MAX_MOVES];
        int k = g->moves(s, legal);
        if (k == 0)
            break;
        m = i < op->n ? op->moves[i] : legal[banyan_rng_below(&rng, (uint32_t)k)];
        for (int side = 0; side < 2; side++) {
            player_status st = player_play(&p[side], s, m, timeout);
            if (st != PLAYER_OK) {
                loser = side;
                snprintf(r->reason, sizeof r->reason, "%s in the opening", match_status_name(st));
                goto end;
            }
        }
        if (record_push(&rec, m, -1, "opening") != BANYAN_OK)
            goto end;
        s = record_state(&rec);
        n++;
    }
    if (o->tc_main > 0)
        clock[0] = clock[1] = o->tc_main;

    /* Step 3. Moves until the game ends, a forfeit or adjudication. */
    banyan_move legal[BANYAN_MAX_MOVES];
    while (g->moves(s, legal) > 0) {
        int side = g->to_move(s) % 2;
        banyan_move m;
        double value;
        if (o->draw_after && n >= o->draw_after) {
            snprintf(r->reason, sizeof r->reason, "draw by move limit");
            r->result = 0;
            goto stop;
        }
        banyan_limits lim = match_limits(M, spec[side], clock[side]);
        /* The per-move time as given, before any clock plan or margin. */
        double turn = match_given_limits(M, spec[side]).time;
        double t0 = match_now();
        double wait = clock[side] >= 0 ? clock[side] + timeout : timeout + lim.time;
        player_status st = player_genmove(&p[side], &rec, &lim, clock[side], wait, &m, &value);
        double spent = match_now() - t0;
        if (st != PLAYER_OK) {
            loser = side;
            snprintf(r->reason, sizeof r->reason, "%s", match_status_name(st));
            goto end;
        }
        if (record_repeats(&rec, m)) {
            loser = side;
            snprintf(r->reason, sizeof r->reason, "illegal move (it repeats an earlier position)");
            goto end;
        }
        if (o->turn_limit && turn > 0 && spent > turn) {
            loser = side;
            snprintf(r->reason, sizeof r->reason, "time forfeit (%.3f s for %.3f)", spent, turn);
            goto end;
        }
        if (clock[side] >= 0) {
            clock[side] -= spent;
            if (clock[side] < 0) {
                loser = side;
                snprintf(r->reason, sizeof r->reason, "time forfeit");
                goto end;
            }
            clock[side] += o->tc_inc;
        }
        /* Resignation of internal players, after several low values. */
        low[side] = value >= 0 && value < o->resign ? low[side] + 1 : 0;
        if (o->resign > 0 && low[side] >= o->resign_moves) {
            loser = side;
            snprintf(r->reason, sizeof r->reason, "resigned");
            goto end;
        }
        st = player_play(&p[1 - side], s, m, timeout);
        if (st != PLAYER_OK) {
            loser = 1 - side;
            snprintf(r->reason, sizeof r->reason, "%s", match_status_name(st));
            goto end;
        }
        char eval[48] = "";
        if (value >= 0) /* The mover's own estimate, where it gives one. */
            snprintf(eval, sizeof eval, "value %.3f", value);
        if (record_push(&rec, m, spent, eval[0] ? eval : NULL) != BANYAN_OK) {
            snprintf(r->reason, sizeof r->reason, "out of memory");
            goto end;
        }
        s = record_state(&rec);
        n++;
    }
end:
    if (loser >= 0) {
        int winner_side = 1 - loser;
        bool a_won = (winner_side == 0) == (r->a_first != 0);
        r->result = a_won ? 1 : -1;
    } else {
        double ret[BANYAN_MAX_PLAYERS];
        if (g->outcome(s, ret)) {
            double first = ret[0], second = ret[1];
            int first_result = first > second ? 1 : first < second ? -1 : 0;
            r->result = r->a_first ? first_result : -first_result;
        } else {
            r->result = 0;
            snprintf(r->reason, sizeof r->reason, "draw by game length");
        }
    }
stop:
    r->plies = n;
    for (int side = 0; side < 2; side++) {
        r->errors[(side == 0) == (r->a_first != 0) ? 0 : 1] += p[side].errors;
        player_stop(&p[side]);
        if (logs[side])
            fclose(logs[side]);
    }
    if (records)
        match_record(M, &rec, r, records);
    record_free(&rec);
    return records != NULL;
}

/* ---- Results, progress and the table ---- */

/* x rounded to a multiple of unit, never -0: what printf shows, so that a
 * small negative figure does not print as "-0". */
static double match_shown(double x, double unit)
{
    return round(x / unit) * unit + 0.0;
}

static void match_tally(const match *M, int wld[2][3])
{
    memset(wld, 0, 6 * sizeof(int));
    for (int i = 0; i < M->o.games; i++) {
        const match_game *r = &M->games[i];
        if (r->done)
            wld[r->a_first ? 0 : 1][r->result > 0 ? 0 : r->result == 0 ? 1 : 2]++;
    }
}

static void match_progress(match *M)
{
    int t[2][3];
    match_tally(M, t);
    int w = t[0][0] + t[1][0], d = t[0][1] + t[1][1], l = t[0][2] + t[1][2];
    stats_result s = stats_compute(w, d, l);
    printf("%s[%d/%d] A %d wins, %d draws, %d losses: score %.1f%%, Elo %+.0f%s",
           M->tty ? "\r" : "", M->finished, M->o.games, w, d, l, 100 * s.score,
           match_shown(s.elo, 1), M->tty ? "   " : "\n");
    fflush(stdout);
}

/* The identity of the match, the first line of its results file: what
 * decides the games played (game, parameters, players, openings, random
 * plies and their seed, limits and clock), but not how many are asked for,
 * so that a match can be resumed for more games. */
static void match_identity(const match *M, char *out, size_t len)
{
    const match_opts *o = &M->o;
    snprintf(out, len,
             "# match game=%s params=\"%s\" A=\"%s\" B=\"%s\" openings=\"%s\" (%d) "
             "random-plies=%d seed=%llu playouts=%llu time=%g tc=%g+%g draw-after=%d resign=%g/%d",
             o->g->name, o->params, o->players[0].text, o->players[1].text,
             o->openings_file ? o->openings_file : "", M->n_openings, o->random_plies,
             (unsigned long long)o->seed, (unsigned long long)o->lim.playouts, o->lim.time,
             o->tc_main, o->tc_inc, o->draw_after, o->resign, o->resign_moves);
}

/* Reads a results file of an interrupted match: its finished games count
 * and will not be played again. A file that holds games must name this
 * match on its first line (match_identity); one of another match is
 * refused. A last line without its newline is not read, and M->torn says
 * where it begins (match_create cuts it off). Returns false after saying
 * why. */
static bool match_resume(match *M)
{
    char line[4096], identity[4096];
    bool first = true;
    FILE *f = fopen(M->o.results, "r");
    if (!f)
        return true;
    match_identity(M, identity, sizeof identity);
    for (long at = 0; fgets(line, sizeof line, f); at = ftell(f)) {
        if (!strchr(line, '\n') && feof(f)) {
            M->torn = at;
            break;
        }
        line[strcspn(line, "\r\n")] = 0;
        if (first && line[0] && strcmp(line, identity) != 0) {
            fprintf(stderr,
                    "banyan match: %s holds the results of another match; give this one a "
                    "file of its own\n  that file: %.300s\n  this match: %.300s\n",
                    M->o.results, line[0] == '#' ? line : "(no identity line)", identity);
            fclose(f);
            return false;
        }
        first = first && !line[0];
        int index, a_first, result, plies;
        char reason[64];
        if (line[0] == '#' ||
            sscanf(line, "%d %d %d %d %63[^\n]", &index, &a_first, &result, &plies, reason) != 5 ||
            index < 1 || index > M->o.games || result < -1 || result > 1)
            continue;
        match_game *r = &M->games[index - 1];
        if (r->done)
            continue;
        r->done = true;
        r->a_first = a_first != 0;
        r->result = result;
        r->plies = plies;
        snprintf(r->reason, sizeof r->reason, "%s", reason);
        M->finished++;
    }
    fclose(f);
    return true;
}

/* Whether the SPRT is decided; writes the verdict. */
static bool match_sprt_decided(match *M)
{
    int t[2][3];
    double lower, upper;
    if (!M->o.sprt)
        return false;
    match_tally(M, t);
    double llr =
        stats_llr(t[0][0] + t[1][0], t[0][1] + t[1][1], t[0][2] + t[1][2], M->o.elo0, M->o.elo1);
    stats_sprt_bounds(M->o.alpha, M->o.beta, &lower, &upper);
    if (llr >= upper)
        snprintf(M->sprt_verdict, sizeof M->sprt_verdict, "H1 accepted (LLR %.2f >= %.2f)", llr,
                 upper);
    else if (llr <= lower)
        snprintf(M->sprt_verdict, sizeof M->sprt_verdict, "H0 accepted (LLR %.2f <= %.2f)", llr,
                 lower);
    else
        snprintf(M->sprt_verdict, sizeof M->sprt_verdict, "undecided (LLR %.2f in [%.2f, %.2f])",
                 llr, lower, upper);
    return llr >= upper || llr <= lower;
}

/* ---- Games spread over threads and ranks (farm.h) ---- */

/* A game's result as it travels from the thread or rank that played it to
 * the referee, followed by its record's text (with --records). */
typedef struct match_wire {
    match_game game;
    int32_t index;
    int32_t recorded; /* The record follows (it may be empty). */
} match_wire;

/* The next game to play, or -1: none left, or the SPRT is decided. */
static int match_next(void *ctx)
{
    match *M = ctx;
    while (M->next < M->o.games && M->games[M->next].done)
        M->next++;
    return M->stop || M->next >= M->o.games ? -1 : M->next++;
}

/* Plays a game: its result and record, as a match_wire and the text. */
static void *match_run(void *ctx, int index, size_t *len)
{
    match *M = ctx;
    match_game r;
    match_wire w;
    char *text = NULL;
    size_t n = 0;
    os_mem mem;
    FILE *f = M->o.records ? os_mem_open(&mem, &text, &n) : NULL;
    if (M->o.records && !f)
        return NULL;
    bool recorded = match_play(M, index, &r, f);
    if (f && os_mem_close(&mem) != 0) {
        free(text);
        return NULL;
    }
    memset(&w, 0, sizeof w);
    w.game = r;
    w.index = index;
    w.recorded = recorded;
    unsigned char *out = malloc(sizeof w + n);
    if (out) {
        memcpy(out, &w, sizeof w);
        if (n)
            memcpy(out + sizeof w, text, n);
        *len = sizeof w + n;
    }
    free(text);
    return out;
}

/* A game's result reaches the referee: the results file, the record, the
 * progress line and the SPRT. */
static void match_done(void *ctx, int index, int rank, const void *data, size_t len)
{
    match *M = ctx;
    match_wire w;
    if (len < sizeof w)
        dist_fail("rank %d sent a result of %zu bytes, not a game's", rank, len);
    memcpy(&w, data, sizeof w);
    w.game.reason[sizeof w.game.reason - 1] = 0;
    w.game.done = true;
    w.game.a_first = w.game.a_first != 0;
    if (w.index != index || w.game.result < -1 || w.game.result > 1 || M->games[index].done)
        dist_fail("rank %d sent a result that is not game %d's", rank, index + 1);
    match_game *r = &M->games[index];
    *r = w.game;
    M->finished++;
    if (w.recorded)
        match_record_file(M, index, (const char *)data + sizeof w, len - sizeof w);
    if (M->results) {
        /* One line, written whole: a run killed at any moment leaves whole
         * lines only, each after its game's record. */
        char line[128];
        snprintf(line, sizeof line, "%d %d %d %d %s\n", index + 1, r->a_first, r->result, r->plies,
                 r->reason);
        fputs(line, M->results);
        fflush(M->results);
    }
    match_progress(M);
    /* Once decided, the verdict stands: games still being played when it
     * came are counted in the table, but do not undo it. */
    if (!M->stop && match_sprt_decided(M)) {
        size_t n = strlen(M->sprt_verdict);
        snprintf(M->sprt_verdict + n, sizeof M->sprt_verdict - n, " after %d games", M->finished);
        M->stop = true;
    }
}

/* Plays the games left: -j at once on each rank. */
static void match_games(match *M)
{
    farm f = {.threads = M->o.jobs,
              .tag = DIST_TAG_MATCH + MATCH_TAG_FARM,
              .ctx = M,
              .next = match_next,
              .run = match_run,
              .done = match_done};
    farm_run(&f);
}

static void match_table(match *M)
{
    int t[2][3];
    match_tally(M, t);
    int w = t[0][0] + t[1][0], d = t[0][1] + t[1][1], l = t[0][2] + t[1][2];
    stats_result s = stats_compute(w, d, l);
    const char *kinds[] = {"illegal move", "crash", "hang", "time forfeit", "resigned"};
    printf("%s\nA: %s\nB: %s\ngame: %s %s\n\n", M->tty ? "" : "", M->o.players[0].text,
           M->o.players[1].text, M->o.g->name, M->o.params);
    printf("               wins  draws  losses\n");
    printf("A first     %7d %6d %7d\n", t[0][0], t[0][1], t[0][2]);
    printf("A second    %7d %6d %7d\n", t[1][0], t[1][1], t[1][2]);
    printf("A total     %7d %6d %7d\n\n", w, d, l);
    printf("games %d, score %.1f%%, Elo %+.1f [%+.1f, %+.1f] (95%%), LOS %.1f%%\n", s.games,
           100 * s.score, match_shown(s.elo, 0.1), match_shown(s.elo_lo, 0.1),
           match_shown(s.elo_hi, 0.1), 100 * s.los);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int a = 0, b = 0;
        for (int i = 0; i < M->o.games; i++) {
            const match_game *r = &M->games[i];
            if (r->done && strstr(r->reason, kinds[k])) {
                /* The side that lost is the one that forfeited. */
                if (r->result < 0)
                    a++;
                else
                    b++;
            }
        }
        if (a || b)
            printf("%s: A %d, B %d\n", kinds[k], a, b);
    }
    int errors[2] = {0, 0};
    for (int i = 0; i < M->o.games; i++)
        for (int k = 0; k < 2; k++)
            errors[k] += M->games[i].done ? M->games[i].errors[k] : 0;
    if (errors[0] || errors[1])
        printf("ERROR lines from brains (skipped, not moves): A %d, B %d\n", errors[0], errors[1]);
    if (M->o.sprt)
        printf("SPRT elo0 %g elo1 %g alpha %g beta %g: %s\n", M->o.elo0, M->o.elo1, M->o.alpha,
               M->o.beta, M->sprt_verdict);
    printf("time %.1f s\n", match_now() - M->start);
}

/* ---- The command line ---- */

static void match_usage(FILE *f)
{
    fprintf(f, "usage: banyan match --game G [--param k=v ...] A B [options]\n"
               "  A, B              banyan:key=value,... (an engine in this process, keys below),\n"
               "                    gtp[@DIR]:COMMAND LINE (a GTP program) or\n"
               "                    gomocup[@DIR]:COMMAND LINE (a Gomocup brain: games with X,Y)\n"
               "  --games N         games to play (default: two per opening, at least 10)\n"
               "  --openings FILE   one opening per line, moves in the game's notation\n"
               "  --random-plies K  random moves after the opening (the same in both games)\n"
               "  -j, --jobs N      games played at once (default 1)\n"
               "  --playouts N, --time S   per move, for internal players without their own\n"
               "  --tc MAIN[+INC]   total time control in seconds, with increment\n"
               "  --move-timeout S  longest wait for an external player's answer (default 30)\n"
               "  --resign V        internal players resign when their value stays below V\n"
               "  --draw-after N    adjudicate a draw after N plies\n"
               "  --turn-limit      a move over its per-move time (--time, or the player's\n"
               "                    time=) loses on time, as in Gomocup\n"
               "  --sprt E0,E1,A,B  stop when the SPRT of elo0 E0 against elo1 E1 is decided\n"
               "                    (without --games: at most 20000 games)\n"
               "  --records DIR     write each game to DIR/game-NNNNN.sgf (games with an SGF\n"
               "                    number) or .txt, with the time of each move\n"
               "  --records-format txt|sgf|psq   the records' format instead (psq: Piskvork's,\n"
               "                    for games with X,Y moves)\n"
               "  --results FILE    results game by game; a match run again resumes from it\n"
               "  --log DIR         every line exchanged with external players, time-stamped,\n"
               "                    in DIR/game-NNNNN-A.log and -B.log\n"
               "  --seed S          seed of the random opening plies\n"
               "  --rank-timeout S  under mpirun: a rank silent for S seconds ends the match\n"
               "                    (default 10)\n"
               "keys of banyan:key=value players:\n");
    options_help(f, OPTIONS_PLAYER, OPTIONS_IN_MATCH, "");
}

/* A number in [lo, hi], whole when whole is set; on failure, what is
 * expected into want[len]. */
static bool match_number(const char *s, double lo, double hi, bool whole, double *out, char *want,
                         size_t len)
{
    char *end = NULL;
    long n;
    double v = NAN;
    if (whole && banyan_parse_int(s, (long)lo, (long)hi, &n) == BANYAN_OK)
        v = (double)n;
    else if (!whole && strspn(s, "0123456789.eE+-") == strlen(s))
        v = strtod(s, &end);
    if (!(v >= lo && v <= hi) || (end && *end)) {
        snprintf(want, len, "a %s from %.15g to %.15g", whole ? "whole number" : "number", lo, hi);
        return false;
    }
    *out = v;
    return true;
}

static bool match_parse(int argc, char **argv, match_opts *o)
{
    int n_players = 0;
    char err[256];
    double v;
    memset(o, 0, sizeof *o);
    o->lim = BANYAN_LIMITS();
    o->jobs = 1;
    o->move_timeout = 30;
    o->resign_moves = 3;
    o->seed = 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        char want[96] = "";
        bool ok = true;
        if (a[0] != '-') {
            if (n_players == 2 || !player_parse(a, &o->players[n_players], err, sizeof err)) {
                fprintf(stderr, "banyan match: %s\n",
                        n_players == 2 ? "more than two players" : err);
                return false;
            }
            n_players++;
            continue;
        }
        if (!strcmp(a, "--turn-limit")) {
            o->turn_limit = true; /* The one option without a value. */
            continue;
        }
        if (!val) {
            fprintf(stderr, "banyan match: %s needs a value\n", a);
            return false;
        }
        if (!strcmp(a, "--game")) {
            ok = (o->g = banyan_game_find(val)) != NULL;
            snprintf(want, sizeof want, "banyan games lists the games");
        } else if (!strcmp(a, "--param")) {
            size_t len = strlen(o->params);
            ok = strchr(val, '=') && len + strlen(val) + 2 < sizeof o->params;
            if (ok)
                snprintf(o->params + len, sizeof o->params - len, "%s%s", len ? " " : "", val);
            snprintf(want, sizeof want, "key=value expected");
        } else if (!strcmp(a, "--games")) {
            if ((ok = match_number(val, 1, MATCH_MAX_GAMES, true, &v, want, sizeof want)))
                o->games = (int)v;
        } else if (!strcmp(a, "--openings")) {
            o->openings_file = val;
        } else if (!strcmp(a, "--random-plies")) {
            if ((ok = match_number(val, 0, 100, true, &v, want, sizeof want)))
                o->random_plies = (int)v;
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            if ((ok = match_number(val, 1, MATCH_MAX_JOBS, true, &v, want, sizeof want)))
                o->jobs = (int)v;
        } else if (!strcmp(a, "--playouts")) {
            if ((ok = match_number(val, 1, 1e12, true, &v, want, sizeof want)))
                o->lim.playouts = (uint64_t)v;
        } else if (!strcmp(a, "--time")) {
            ok = match_number(val, 0.001, 1e6, false, &o->lim.time, want, sizeof want);
        } else if (!strcmp(a, "--tc")) {
            char *plus;
            o->tc_main = strtod(val, &plus);
            o->tc_inc = *plus == '+' ? strtod(plus + 1, &plus) : 0;
            ok = !*plus && strspn(val, "0123456789.+") == strlen(val) && o->tc_main > 0 &&
                 o->tc_main <= 1e6 && o->tc_inc >= 0 && o->tc_inc <= 1e6;
            snprintf(want, sizeof want, "MAIN or MAIN+INC in seconds, up to 1e+06 each");
        } else if (!strcmp(a, "--move-timeout")) {
            ok = match_number(val, 0.01, 1e6, false, &o->move_timeout, want, sizeof want);
        } else if (!strcmp(a, "--resign")) {
            ok = match_number(val, 0, 1, false, &o->resign, want, sizeof want);
        } else if (!strcmp(a, "--draw-after")) {
            if ((ok = match_number(val, 1, MATCH_MAX_PLIES, true, &v, want, sizeof want)))
                o->draw_after = (int)v;
        } else if (!strcmp(a, "--sprt")) {
            ok = sscanf(val, "%lf,%lf,%lf,%lf", &o->elo0, &o->elo1, &o->alpha, &o->beta) == 4 &&
                 o->elo1 > o->elo0 && o->alpha > 0 && o->alpha < 0.5 && o->beta > 0 &&
                 o->beta < 0.5;
            o->sprt = ok;
            snprintf(want, sizeof want, "E0,E1,A,B with E0 < E1 and A, B between 0 and 0.5");
        } else if (!strcmp(a, "--records")) {
            o->records = val;
        } else if (!strcmp(a, "--records-format")) {
            ok = !strcmp(o->records_format = val, "txt") || !strcmp(val, "sgf") ||
                 !strcmp(val, "psq");
            snprintf(want, sizeof want, "txt, sgf or psq");
        } else if (!strcmp(a, "--log")) {
            o->log_dir = val;
        } else if (!strcmp(a, "--results")) {
            o->results = val;
        } else if (!strcmp(a, "--rank-timeout")) {
            if ((ok = match_number(val, 1, 1e6, false, &v, want, sizeof want)))
                dist_set_timeout(v);
        } else if (!strcmp(a, "--seed")) {
            if ((ok = match_number(val, 0, 1e18, true, &v, want, sizeof want)))
                o->seed = (uint64_t)v;
        } else {
            fprintf(stderr, "banyan match: unknown option %s (see banyan match --help)\n", a);
            return false;
        }
        if (!ok) {
            fprintf(stderr, "banyan match: bad value for %s: \"%s\" (%s)\n", a, val, want);
            return false;
        }
        i++;
    }
    if (!o->g || n_players != 2) {
        fprintf(stderr, "banyan match: %s (see banyan match --help)\n",
                !o->g ? "name the game with --game" : "name two players, A and B");
        return false;
    }
    const char *rf = o->records_format;
    if (rf &&
        ((!strcmp(rf, "sgf") && !(o->g->board ? o->g->board->sgf_game : 0)) ||
         (!strcmp(rf, "psq") && !((o->g->board ? o->g->board->coords : 0) & BANYAN_COORDS_XY)))) {
        fprintf(stderr, "banyan match: %s has no %s records\n", o->g->name, rf);
        return false;
    }
    /* Internal players default to a smaller arena: several run at once. */
    for (int k = 0; k < 2; k++)
        if (o->players[k].kind == PLAYER_INTERNAL && !o->players[k].eng.cfg.memory)
            o->players[k].eng.cfg.memory = (size_t)64 << 20;
    return true;
}

/* ---- The match, on one rank or several ---- */

/* Reads the command line, the openings and the results of an interrupted
 * match (rank 0). Returns 0, or the exit status after saying why. */
static int match_prepare(match *M, int argc, char **argv)
{
    char err[512];
    if (!match_parse(argc, argv, &M->o))
        return 2;
    if (!match_load_openings(M, err, sizeof err)) {
        fprintf(stderr, "banyan match: %s\n", err);
        return 1;
    }
    if (!M->o.games && M->o.sprt) {
        /* An SPRT runs until it is decided, within a cap that is said. */
        M->o.games = MATCH_SPRT_GAMES;
        printf("SPRT: until decided, at most %d games (--games sets the cap)\n", M->o.games);
    }
    if (!M->o.games)
        M->o.games = M->n_openings * 2 > 10 ? M->n_openings * 2 : 10;
    M->games = calloc((size_t)M->o.games, sizeof *M->games);
    if (!M->games)
        return 1;
    /* Under mpirun rank 0's output is a terminal of the launcher's, whatever
     * it is at the other end: a line per game there. */
    M->tty = os_is_terminal(STDOUT_FILENO) && dist_ranks() == 1;
    M->start = match_now();
    if (M->o.results && !match_resume(M))
        return 2;
    if (M->finished)
        printf("resuming: %d of %d games already played\n", M->finished, M->o.games);
    if (match_sprt_decided(M))
        M->stop = true;
    return 0;
}

/* Creates what the match writes: the folders of --log and --records, and
 * the results file, which begins with the match's identity (an unfinished
 * last line, which no run of this program leaves, is cut off). */
static bool match_create(match *M)
{
    if (M->o.log_dir && os_mkdir(M->o.log_dir) != 0 && errno != EEXIST) {
        fprintf(stderr, "banyan match: cannot create %s\n", M->o.log_dir);
        return false;
    }
    if (M->o.records && os_mkdir(M->o.records) != 0 && errno != EEXIST) {
        fprintf(stderr, "banyan match: cannot create %s\n", M->o.records);
        return false;
    }
    if (M->o.results) {
        char identity[4096];
        if (M->torn >= 0 && truncate(M->o.results, M->torn) == 0)
            fprintf(stderr, "banyan match: %s: its unfinished last line was cut off\n",
                    M->o.results);
        M->results = fopen(M->o.results, "a");
        if (!M->results) {
            fprintf(stderr, "banyan match: cannot write %s\n", M->o.results);
            return false;
        }
        match_identity(M, identity, sizeof identity);
        if (ftell(M->results) == 0)
            fprintf(M->results, "%s\n", identity);
    }
    return true;
}

/* Under mpirun, rank 0 reads the command line, the openings and the results
 * file, and tells the other ranks (which read the same command line) in a
 * match_setup followed by the openings; each then starts the players once
 * (match_check_players) and answers with why they cannot play, or nothing;
 * rank 0 creates the files and says whether the games begin. */

typedef struct match_setup {
    int32_t status;     /* Not 0: the match ends with this exit status. */
    int32_t play;       /* Games are left to play. */
    int32_t n_openings; /* The openings that follow. */
    char identity[4096];
} match_setup;

static void match_send_setup(const match *M, int status, bool play)
{
    size_t n = status ? 0 : (size_t)M->n_openings,
           len = sizeof(match_setup) + n * sizeof(match_opening);
    match_setup *s = calloc(1, len);
    if (!s)
        dist_fail("out of memory");
    s->status = status;
    s->play = play;
    s->n_openings = (int32_t)n;
    if (!status) {
        match_identity(M, s->identity, sizeof s->identity);
        memcpy(s + 1, M->openings, n * sizeof(match_opening));
    }
    dist_send_all(DIST_TAG_MATCH + MATCH_TAG_SETUP, s, len);
    free(s);
}

/* The longest a rank may take to start and stop both players. */
static double match_check_time(const match *M)
{
    return dist_timeout() + 8 * M->o.move_timeout;
}

/* Rank 0: the players start here and on every rank; then the files are
 * created and the games begin. Returns false after saying why not. */
static bool match_ready(match *M)
{
    char why[2048];
    bool ok = match_check_players(M, why, sizeof why);
    if (!ok)
        fprintf(stderr, "banyan match: %s\n", why);
    for (int r = 1; r < dist_ranks(); r++) {
        size_t len = 0;
        char *msg = dist_recv(r, DIST_TAG_MATCH + MATCH_TAG_READY, NULL, &len, match_check_time(M));
        if (msg && ok)
            fprintf(stderr, "banyan match: rank %d: %.*s\n", r, (int)strnlen(msg, len), msg);
        ok = ok && !msg;
        free(msg);
    }
    ok = ok && match_create(M);
    int32_t go = ok;
    dist_send_all(DIST_TAG_MATCH + MATCH_TAG_GO, &go, sizeof go);
    return ok;
}

/* A rank other than 0: the setup from rank 0, the players checked, and the
 * games it is given. Returns the match's exit status. */
static int match_follow(match *M, int argc, char **argv)
{
    char why[2048] = "", identity[4096];
    size_t len = 0;
    /* The same command line as rank 0's (what is wrong with it, rank 0
     * says: this rank's messages go nowhere, dist.h). */
    bool parsed = match_parse(argc, argv, &M->o);
    match_setup *s = dist_recv(0, DIST_TAG_MATCH + MATCH_TAG_SETUP, NULL, &len, dist_timeout());
    if (!s || len < sizeof *s || s->n_openings < 0 || s->n_openings > MATCH_MAX_OPENINGS ||
        len != sizeof *s + (size_t)s->n_openings * sizeof(match_opening))
        dist_fail("rank 0 sent a setup of %zu bytes, not a match's", len);
    int status = s->status;
    if (status || !s->play) {
        free(s);
        return status;
    }
    M->n_openings = s->n_openings;
    M->openings = malloc((size_t)s->n_openings * sizeof(match_opening) + 1);
    if (!M->openings)
        dist_fail("out of memory");
    memcpy(M->openings, s + 1, (size_t)s->n_openings * sizeof(match_opening));
    s->identity[sizeof s->identity - 1] = 0;
    if (parsed)
        match_identity(M, identity, sizeof identity);
    if (!parsed || strcmp(identity, s->identity) != 0)
        snprintf(why, sizeof why, "its command line is not rank 0's");
    else
        match_check_players(M, why, sizeof why);
    free(s);
    dist_send(0, DIST_TAG_MATCH + MATCH_TAG_READY, why, why[0] ? strlen(why) + 1 : 0);
    int32_t *go = dist_recv(0, DIST_TAG_MATCH + MATCH_TAG_GO, NULL, &len, match_check_time(M));
    bool play = go && len == sizeof *go && *go;
    free(go);
    if (!play)
        return 1;
    /* The lines exchanged with external players are kept where they play. */
    if (M->o.log_dir && os_mkdir(M->o.log_dir) != 0 && errno != EEXIST)
        dist_fail("cannot create %s", M->o.log_dir);
    match_games(M);
    free(M->openings);
    return 0;
}

int cli_match(int argc, char **argv)
{
    static match M;
    if (cli_wants_help(argc, argv, 2)) {
        match_usage(stdout);
        return 0;
    }
    os_ignore_broken_pipe(); /* A dead engine's pipe must not end the referee. */
    pthread_mutex_init(&M.lock, NULL);
    M.torn = -1;
    if (dist_rank() > 0)
        return match_follow(&M, argc, argv);
    int status = match_prepare(&M, argc, argv);
    bool play = !status && !M.stop && M.finished < M.o.games;
    if (dist_ranks() > 1)
        match_send_setup(&M, status, play);
    if (status)
        return status;
    /* Nothing is created before the players are known to start. */
    if (play ? !match_ready(&M) : !match_create(&M))
        return 1;
    if (play)
        match_games(&M);
    if (M.tty)
        printf("\n");
    match_table(&M);
    if (M.results)
        fclose(M.results);
    free(M.games);
    free(M.openings);
    return 0;
}
