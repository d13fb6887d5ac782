/*
 * learn_loop.c - `banyan learn`: the learning loop in one command. From a
 * random network, each generation (1) plays --games-per-gen self-play games
 * with the best network, (2) trains a candidate from the best on the newest
 * records and (3) plays a gate match, candidate against best; the candidate
 * becomes the best when it scores --gate-score. Self-play and training are
 * learn.c's; this file drives them and keeps the run's folder:
 *
 *   DIR/state          the finished generations (text), replaced whole:
 *                      written to state.tmp, then renamed
 *   DIR/net-NNNN.net   generation N's network: 0 the random one, then each
 *                      candidate (the state says which one is the best)
 *   DIR/games-NNNN.sp  generation N's self-play records (selfplay's format)
 *   DIR/train-NNNN.ck  the training checkpoint while generation N trains
 *   DIR/lock           locked while a run works in DIR
 *
 * Resuming: a game counts once it is whole in the records, where games are
 * appended one at a time in their numbers' order. A run started again reads
 * the state, counts the games of the generation under way in its records
 * (a game cut short by the stop is cut off) and plays on from there;
 * training resumes from its checkpoint, and the gate, short and
 * reproducible, is played again. Game k of generation n has its seed from
 * (--seed, n, k), so a game played again is the same game.
 *
 * Under mpirun with N > 1 ranks, rank 0 trains, gates and writes, and the
 * other ranks play: rank 0 sends each one the best network's file bytes
 * with a checksum, then game numbers, twice its --jobs at a time; each
 * finished game comes back as its record's bytes and is written in the
 * numbers' order, so that the records are a one-rank run's byte for byte.
 * The ranks that play wait while rank 0 trains and gates: playing ahead
 * with the network of the generation before would make other records than
 * one rank makes. MPI calls are made by each rank's main thread only; its
 * threads take game numbers from a queue and leave finished games in an
 * outbox. Every rank sends a heartbeat each second, and a rank silent for
 * --rank-timeout seconds stops the run, named (dist_fail).
 *
 * A test hook: with BANYAN_TEST_FAULT=net-bytes in its environment, rank 0
 * damages the network it sends after taking its checksum (the receivers
 * must refuse it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist.h"
#include "learn.h"
#include "os.h"

#define LOOP_TAG_CTRL   (DIST_TAG_LEARN + 0) /* Rank 0 to players: network, games, end. */
#define LOOP_TAG_GAME   (DIST_TAG_LEARN + 1) /* Players to rank 0: a finished game. */
#define LOOP_TAG_BEAT   (DIST_TAG_LEARN + 2) /* Both ways: a heartbeat. */
#define LOOP_BEAT       1.0                  /* Seconds between heartbeats. */
#define LOOP_GATE_PLIES 2                    /* Random plies opening each pair of gate games. */
#define LOOP_GAME_HEAD  20                   /* A game message's bytes before its record. */
#define LOOP_DEAL       64                   /* Game numbers in an order at most. */
#define LOOP_PATH       1100                 /* Bytes of a path in DIR. */
#define LOOP_STATE_HEAD "banyan learn state 1"

/* What each seed is drawn for. */
enum { LOOP_SEED_PLAY = 1, LOOP_SEED_TRAIN, LOOP_SEED_GATE };

/* Rank 0's run. */
typedef struct loop {
    learn_opts *o;
    char rules[128];
    char state[LOOP_PATH]; /* DIR/state */
    long done, best;       /* Generations finished; the best network's generation. */
    char *history;         /* The state's lines of the finished generations. */
    size_t n_history;      /* Their bytes. */
    int ranks;
    double *heard;    /* When each rank was last heard from. */
    double next_beat; /* When rank 0 sends its next heartbeat. */
    double next_tick; /* When loop_tick next looks at the messages. */
} loop;

/* The seed of what generation n draws for `what`, from the run's seed. */
static uint64_t loop_seed(uint64_t run, long n, uint64_t what)
{
    return banyan_mix64(banyan_mix64(run * 0x9e3779b97f4a7c15ULL + (uint64_t)n) ^ what);
}

static void loop_nap(double seconds)
{
    struct timespec ts = {0, (long)(seconds * 1e9)};
    nanosleep(&ts, NULL);
}

static void loop_put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t loop_get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* FNV-1a over the bytes: the checksum of a network on its way. */
static uint64_t loop_checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* DIR/stem-NNNN.ext into out. */
static void loop_file(const loop *L, char *out, const char *stem, long n, const char *ext)
{
    snprintf(out, LOOP_PATH, "%s/%s-%04ld.%s", L->o->dir, stem, n, ext);
}

/* ---- the run's folder ---- */

/* Writes path through path.tmp, renamed when whole: the state, or a
 * records file (df's games, or none when df is NULL). Returns 0, or -1
 * after saying why. */
static int loop_write(const loop *L, const char *path, const data_file *df)
{
    char tmp[LOOP_PATH + 8], why[256] = "";
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f != NULL;
    if (ok && !df) {
        fprintf(f, "%s\ngame %s\nrules %s\nseed %llu\n", LOOP_STATE_HEAD, L->o->g->name, L->rules,
                (unsigned long long)L->o->seed);
        if (L->n_history)
            fwrite(L->history, 1, L->n_history, f);
        fprintf(f, "generations %ld\nbest %ld\n", L->done, L->best);
    } else if (ok) {
        ok = data_write_header(f, L->o->g->name, L->rules, why, sizeof why) == 0;
        for (int i = 0; ok && i < df->n_games; i++)
            ok = data_write_game(f, &df->games[i], why, sizeof why) == 0;
    }
    ok = ok && fflush(f) == 0 && os_fsync(fileno(f)) == 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok || os_rename(tmp, path) != 0) {
        fprintf(stderr, "banyan learn: cannot write %s: %s\n", f ? path : tmp,
                why[0] ? why : strerror(errno));
        return -1;
    }
    return 0;
}

/* Reads DIR/state into L. Returns 0, 1 when there is none, or -1 after
 * saying why it is refused. */
static int loop_state_read(loop *L, const char *path)
{
    char line[512], game[512] = "", rules[512] = "";
    unsigned long long seed = 0;
    long gens = -1, best = -1, n = 0, lines = 0;
    bool bad = false;
    FILE *f = fopen(path, "r");
    if (!f && errno == ENOENT)
        return 1;
    if (!f) {
        fprintf(stderr, "banyan learn: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (!bad && fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\n");
        bad = line[len] != '\n';
        line[len] = 0;
        if (lines++ == 0)
            bad = bad || strcmp(line, LOOP_STATE_HEAD) != 0;
        else if (!strncmp(line, "game ", 5))
            snprintf(game, sizeof game, "%s", line + 5);
        else if (!strncmp(line, "rules", 5) && (!line[5] || line[5] == ' '))
            snprintf(rules, sizeof rules, "%s", line[5] ? line + 6 : "");
        else if (!strncmp(line, "seed ", 5))
            bad = sscanf(line, "seed %llu", &seed) != 1;
        else if (!strncmp(line, "generations ", 12))
            bad = sscanf(line, "generations %ld", &gens) != 1;
        else if (!strncmp(line, "best ", 5))
            bad = sscanf(line, "best %ld", &best) != 1;
        else if (sscanf(line, "generation %ld:", &n) == 1 && n == L->done + 1) {
            char *h = realloc(L->history, L->n_history + len + 2);
            if (!h)
                break;
            L->history = h;
            L->n_history += (size_t)snprintf(h + L->n_history, len + 2, "%s\n", line);
            L->done = n;
        } else
            bad = true;
    }
    fclose(f);
    if (bad || gens != L->done || best < 0 || best > gens || !game[0]) {
        fprintf(stderr,
                "banyan learn: %s is damaged (line %ld): it is not a state this build wrote\n",
                path, lines);
        return -1;
    }
    if (strcmp(game, L->o->g->name) || strcmp(rules, L->rules) || seed != L->o->seed) {
        fprintf(stderr,
                "banyan learn: %s holds a run of %s (%s) with --seed %llu, not this one of %s "
                "(%s) with --seed %llu\n",
                L->o->dir, game, rules, seed, L->o->g->name, L->rules,
                (unsigned long long)L->o->seed);
        return -1;
    }
    L->best = best;
    return 0;
}

/* Opens generation n's records at path for appending, with the number of
 * games they hold in *count: a new file gets its header first; one cut
 * inside a game by a stopped run is cut back to its whole games. Returns
 * NULL after saying why. */
static FILE *loop_records(const loop *L, const char *path, long *count)
{
    data_file df;
    char why[640];
    *count = 0;
    if (!learn_exists(path)) {
        if (loop_write(L, path, &(data_file){0}) != 0)
            return NULL;
    } else {
        if (data_read(path, &df, why, sizeof why) != 0) {
            fprintf(stderr, "banyan learn: %s\n", why);
            return NULL;
        }
        if (strcmp(df.game, L->o->g->name) || strcmp(df.params, L->rules)) {
            fprintf(stderr, "banyan learn: %s holds games of %s (%s), not %s (%s)\n", path, df.game,
                    df.params, L->o->g->name, L->rules);
            data_file_free(&df);
            return NULL;
        }
        if (df.damaged) {
            fprintf(stderr, "learn: %s; those after it are played again\n", why);
            if (loop_write(L, path, &df) != 0) {
                data_file_free(&df);
                return NULL;
            }
        }
        *count = df.n_games;
        data_file_free(&df);
    }
    FILE *f = fopen(path, "ab");
    if (!f)
        fprintf(stderr, "banyan learn: cannot open %s: %s\n", path, strerror(errno));
    return f;
}

/* A file read whole into memory from malloc(), or NULL after saying why. */
static unsigned char *loop_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        fclose(f);
        *len = (size_t)n;
        return buf;
    }
    fprintf(stderr, "banyan learn: cannot read %s: %s\n", path, strerror(errno ? errno : EIO));
    free(buf);
    if (f)
        fclose(f);
    return NULL;
}

/* ---- messages between the ranks ---- */

/* Rank 0's housekeeping while it trains, gates or gathers games: takes the
 * heartbeats, sends its own each second, and stops the run when a rank has
 * been silent for dist_timeout() seconds. Cheap between its looks. */
static void loop_tick(void *arg)
{
    loop *L = arg;
    double now = cli_now();
    int src;
    if (L->ranks < 2 || now < L->next_tick)
        return;
    L->next_tick = now + 0.05;
    while (dist_poll(DIST_ANY, LOOP_TAG_BEAT, &src, NULL)) {
        free(dist_recv(src, LOOP_TAG_BEAT, NULL, NULL, dist_timeout()));
        L->heard[src] = now;
    }
    if (now >= L->next_beat) {
        for (int r = 1; r < L->ranks; r++)
            dist_send(r, LOOP_TAG_BEAT, "b", 1);
        L->next_beat = now + LOOP_BEAT;
    }
    for (int r = 1; r < L->ranks; r++)
        if (now - L->heard[r] > dist_timeout()) {
            fprintf(stderr, "\n"); /* After a progress line. */
            dist_fail("rank %d sent nothing for %.0f s: it hung or died", r, dist_timeout());
        }
}

/* Gives each playing rank game numbers up to twice its --jobs ahead, in
 * order, never LEARN_RING or more past the next game to write. An order
 * holds at most LOOP_DEAL numbers, so that it is small enough for MPI to
 * send at once (eagerly) while the rank may be sending a game. */
static void loop_deal(const loop *L, long gen, long games, long written, long first, long *next,
                      int *owner, long *given)
{
    unsigned char msg[9 + 8 * LOOP_DEAL];
    msg[0] = 'W';
    loop_put64(msg + 1, (uint64_t)gen);
    for (int r = 1; r < L->ranks; r++) {
        size_t len = 9;
        while (given[r] < 2 * L->o->jobs && *next < games && *next < written + LEARN_RING) {
            loop_put64(msg + len, (uint64_t)*next);
            owner[*next - first] = r;
            given[r]++;
            (*next)++;
            len += 8;
            if (len == sizeof msg) {
                dist_send(r, LOOP_TAG_CTRL, msg, len);
                len = 9;
            }
        }
        if (len > 9)
            dist_send(r, LOOP_TAG_CTRL, msg, len);
    }
}

/* Takes the game message m[len] from rank src: checks that it is a game
 * that rank was given and a sound record, then hands it to the writer. */
static void loop_take(learn_selfplay *sp, const char *head, size_t head_len, long gen, int src,
                      const unsigned char *m, size_t len, int *owner, long *given)
{
    long first = sp->first, games = sp->o->games;
    if (len < LOOP_GAME_HEAD)
        dist_fail("rank %d sent a game message of %zu bytes", src, len);
    uint64_t g = loop_get64(m), k = loop_get64(m + 8);
    if (g != (uint64_t)gen || k < (uint64_t)first || k >= (uint64_t)games ||
        owner[k - (uint64_t)first] != src)
        dist_fail("rank %d sent game %llu of generation %llu, which it was not given", src,
                  (unsigned long long)k, (unsigned long long)g);
    /* The record behind a records header: data.c's reader checks it. */
    char *file = malloc(head_len + len - LOOP_GAME_HEAD);
    data_file df;
    char why[512];
    if (!file)
        dist_fail("out of memory");
    memcpy(file, head, head_len);
    memcpy(file + head_len, m + LOOP_GAME_HEAD, len - LOOP_GAME_HEAD);
    int rc = data_read_mem(file, head_len + len - LOOP_GAME_HEAD, &df, why, sizeof why);
    free(file);
    if (rc != 0 || df.damaged || df.n_games != 1 || m[16] > 2 || m[17] > 1 || m[18] > 1 ||
        m[19] > 1)
        dist_fail("rank %d sent game %llu damaged: %s", src, (unsigned long long)k,
                  why[0] ? why : "its record or its outcome is not sound");
    learn_outcome oc = {m[16] - 1, m[17], {m[18], m[19]}};
    owner[k - (uint64_t)first] = 0;
    given[src]--;
    data_game gm = df.games[0];
    df.n_games = 0; /* gm's arrays go to the writer. */
    data_file_free(&df);
    if (learn_selfplay_put(sp, (long)k, &gm, &oc) != 0)
        sp->status = 1;
}

/* Rank 0 under MPI: the games first .. games - 1 of generation gen, played
 * by the other ranks with the network at net, written into f in order.
 * Returns 0, or 1 after saying why. */
static int loop_gather(loop *L, const learn_opts *p, long gen, FILE *f, const char *path,
                       const char *net, long first)
{
    size_t len, head_len = 0;
    unsigned char *bytes = loop_slurp(net, &len);
    char *head = NULL;
    if (!bytes)
        return 1;
    unsigned char *msg = malloc(17 + len);
    if (!msg)
        dist_fail("out of memory for a network of %zu bytes", len);
    msg[0] = 'N';
    loop_put64(msg + 1, (uint64_t)gen);
    loop_put64(msg + 9, loop_checksum(bytes, len));
    memcpy(msg + 17, bytes, len);
    free(bytes);
    const char *fault = getenv("BANYAN_TEST_FAULT");
    if (fault && !strcmp(fault, "net-bytes") && len)
        msg[17 + len / 2] ^= 0x10;
    dist_send_all(LOOP_TAG_CTRL, msg, 17 + len);
    free(msg);

    /* A records header, to read each game received behind. */
    char why[256];
    os_mem mem;
    FILE *m = os_mem_open(&mem, &head, &head_len);
    if (!m)
        dist_fail("cannot make a records header in memory");
    bool made = data_write_header(m, p->g->name, L->rules, why, sizeof why) == 0;
    if (os_mem_close(&mem) != 0 || !made)
        dist_fail("cannot make a records header in memory");
    learn_selfplay sp;
    learn_selfplay_init(&sp, p, NULL, f, path, first);
    int *owner = calloc((size_t)(p->games - first), sizeof *owner);
    long *given = calloc((size_t)L->ranks, sizeof *given), next = first;
    if (!owner || !given)
        dist_fail("out of memory");
    loop_deal(L, gen, p->games, sp.written, first, &next, owner, given);
    while (sp.written < p->games && !sp.status) {
        int src;
        bool got = false;
        loop_tick(L);
        while (!sp.status && dist_poll(DIST_ANY, LOOP_TAG_GAME, &src, NULL)) {
            unsigned char *g = dist_recv(src, LOOP_TAG_GAME, NULL, &len, dist_timeout());
            L->heard[src] = cli_now();
            loop_take(&sp, head, head_len, gen, src, g, len, owner, given);
            free(g);
            got = true;
        }
        if (got)
            loop_deal(L, gen, p->games, sp.written, first, &next, owner, given);
        else
            loop_nap(0.001);
    }
    if (sp.done)
        fprintf(stderr, "\n");
    learn_selfplay_summary(&sp);
    int status = sp.status;
    learn_selfplay_destroy(&sp);
    free(owner);
    free(given);
    free(head);
    return status;
}

/* ---- the ranks that play ---- */

/* A finished game on its way to rank 0. */
typedef struct loop_msg {
    struct loop_msg *next;
    size_t len;
    char *bytes; /* From open_memstream. */
} loop_msg;

/* A rank that plays: the network of the generation under way, the game
 * numbers given and not yet taken, and the finished games not yet sent. */
typedef struct loop_player {
    learn_opts p; /* The options, with the generation's seed. */
    nn_net net;
    long gen;
    pthread_mutex_t lock; /* The queue, the outbox, stop and failed. */
    pthread_cond_t work;  /* Signalled when numbers come or the threads must stop. */
    long *queue;          /* Game numbers to play: queue[head .. n_queue). */
    size_t head, n_queue, cap;
    loop_msg *out, **out_end; /* The outbox, oldest first. */
    bool stop, failed;
    pthread_t threads[256];
    int n_threads;
} loop_player;

/* Game k's message: its generation, number and outcome, then its record. */
static loop_msg *loop_game_msg(long gen, long k, const data_game *gm, const learn_outcome *oc)
{
    loop_msg *msg = calloc(1, sizeof *msg);
    unsigned char head[LOOP_GAME_HEAD];
    char why[256];
    os_mem mem;
    FILE *f = msg ? os_mem_open(&mem, &msg->bytes, &msg->len) : NULL;
    if (!f) {
        free(msg);
        return NULL;
    }
    loop_put64(head, (uint64_t)gen);
    loop_put64(head + 8, (uint64_t)k);
    head[16] = (unsigned char)(oc->resigner + 1);
    head[17] = oc->check;
    head[18] = oc->wants[0];
    head[19] = oc->wants[1];
    bool ok = fwrite(head, 1, sizeof head, f) == sizeof head &&
              data_write_game(f, gm, why, sizeof why) == 0;
    if (os_mem_close(&mem) != 0 || !ok) {
        fprintf(stderr, "banyan learn: game %ld: %s\n", k, ok ? "out of memory" : why);
        free(msg->bytes);
        free(msg);
        return NULL;
    }
    return msg;
}

static void *loop_player_thread(void *arg)
{
    loop_player *P = arg;
    net_evaluator *ev;
    char why[256];
    bool ok = net_evaluator_new(&P->net, P->p.g, P->p.params, 1, 0, &ev, why, sizeof why) == 0;
    if (!ok)
        fprintf(stderr, "banyan learn: %s\n", why);
    while (ok) {
        pthread_mutex_lock(&P->lock);
        while (P->head == P->n_queue && !P->stop)
            pthread_cond_wait(&P->work, &P->lock);
        long k = P->stop ? -1 : P->queue[P->head++];
        pthread_mutex_unlock(&P->lock);
        if (k < 0)
            break;
        data_game gm;
        learn_outcome oc;
        loop_msg *msg = NULL;
        ok = learn_game(&P->p, ev, k, &gm, &oc) == 0 && (msg = loop_game_msg(P->gen, k, &gm, &oc));
        data_game_free(&gm);
        pthread_mutex_lock(&P->lock);
        if (msg) {
            *P->out_end = msg;
            P->out_end = &msg->next;
        }
        pthread_mutex_unlock(&P->lock);
    }
    if (ok)
        net_evaluator_free(ev);
    pthread_mutex_lock(&P->lock);
    P->failed = P->failed || !ok;
    pthread_mutex_unlock(&P->lock);
    return NULL;
}

/* Stops the threads (idle: rank 0 sends orders only when every game given
 * has come back) and frees the network. */
static void loop_player_stop(loop_player *P)
{
    pthread_mutex_lock(&P->lock);
    P->stop = true;
    pthread_cond_broadcast(&P->work);
    pthread_mutex_unlock(&P->lock);
    for (int i = 0; i < P->n_threads; i++)
        pthread_join(P->threads[i], NULL);
    P->n_threads = 0;
    P->stop = false;
    nn_free(&P->net);
}

/* Carries out rank 0's order m[len]. Returns false at the end of the run. */
static bool loop_player_order(loop_player *P, const learn_opts *o, const unsigned char *m,
                              size_t len)
{
    char why[512], detail[256];
    if (len == 1 && m[0] == 'Q')
        return false;
    if (len >= 17 && m[0] == 'N') {
        /* The network of a generation: checked before use. */
        uint64_t sum = loop_get64(m + 9), got = loop_checksum(m + 17, len - 17);
        nn_meta meta;
        loop_player_stop(P);
        if (sum != got)
            dist_fail("the network for generation %llu from rank 0 fails its checksum (sent "
                      "%016llx, received %016llx): it was damaged on the way",
                      (unsigned long long)loop_get64(m + 1), (unsigned long long)sum,
                      (unsigned long long)got);
        if (nn_load_mem(m + 17, len - 17, &P->net, &meta, why, sizeof why) != 0)
            dist_fail("the network from rank 0: %s", why);
        if (net_check_game(&meta, o->g, o->params, detail, sizeof detail))
            dist_fail("the network from rank 0: %s", detail);
        P->gen = (long)loop_get64(m + 1);
        P->p = *o;
        P->p.seed = loop_seed(o->seed, P->gen, LOOP_SEED_PLAY);
        P->head = P->n_queue = 0;
        for (long i = 0; i < o->jobs; i++)
            if (pthread_create(&P->threads[P->n_threads], NULL, loop_player_thread, P) == 0)
                P->n_threads++;
        if (!P->n_threads)
            dist_fail("cannot start a thread to play");
        return true;
    }
    if (len >= 9 && (len - 9) % 8 == 0 && m[0] == 'W' && P->n_threads &&
        loop_get64(m + 1) == (uint64_t)P->gen) {
        size_t n = (len - 9) / 8;
        pthread_mutex_lock(&P->lock);
        if (P->n_queue + n > P->cap) {
            size_t cap = 2 * (P->n_queue + n);
            long *q = realloc(P->queue, cap * sizeof *q);
            if (!q)
                dist_fail("out of memory");
            P->queue = q;
            P->cap = cap;
        }
        for (size_t i = 0; i < n; i++)
            P->queue[P->n_queue++] = (long)loop_get64(m + 9 + 8 * i);
        pthread_cond_broadcast(&P->work);
        pthread_mutex_unlock(&P->lock);
        return true;
    }
    dist_fail("rank 0 sent an order this rank does not read (%zu bytes)", len);
}

/* A rank other than 0: plays the games rank 0 gives until it says the run
 * is over. */
static int loop_player_run(const learn_opts *o)
{
    loop_player P;
    memset(&P, 0, sizeof P);
    pthread_mutex_init(&P.lock, NULL);
    pthread_cond_init(&P.work, NULL);
    P.out_end = &P.out;
    double heard = cli_now(), sent = heard;
    for (;;) {
        size_t len;
        bool on = true;
        while (on && dist_poll(0, LOOP_TAG_CTRL, NULL, NULL)) {
            unsigned char *m = dist_recv(0, LOOP_TAG_CTRL, NULL, &len, dist_timeout());
            heard = cli_now();
            on = loop_player_order(&P, o, m, len);
            free(m);
        }
        if (!on)
            break; /* Rank 0 takes nothing more. */
        while (dist_poll(0, LOOP_TAG_BEAT, NULL, NULL)) {
            free(dist_recv(0, LOOP_TAG_BEAT, NULL, NULL, dist_timeout()));
            heard = cli_now();
        }
        pthread_mutex_lock(&P.lock);
        loop_msg *out = P.out;
        bool failed = P.failed;
        P.out = NULL;
        P.out_end = &P.out;
        pthread_mutex_unlock(&P.lock);
        while (out) {
            loop_msg *next = out->next;
            dist_send(0, LOOP_TAG_GAME, out->bytes, out->len);
            sent = cli_now();
            free(out->bytes);
            free(out);
            out = next;
        }
        if (failed)
            dist_fail("a game could not be played (see above)");
        double now = cli_now();
        if (now - sent >= LOOP_BEAT) {
            dist_send(0, LOOP_TAG_BEAT, "b", 1);
            sent = now;
        }
        if (now - heard > dist_timeout())
            dist_fail("rank 0 sent nothing for %.0f s: it hung or died", dist_timeout());
        loop_nap(0.001);
    }
    loop_player_stop(&P);
    while (P.out) {
        loop_msg *next = P.out->next;
        free(P.out->bytes);
        free(P.out);
        P.out = next;
    }
    free(P.queue);
    pthread_cond_destroy(&P.work);
    pthread_mutex_destroy(&P.lock);
    return 0;
}

/* ---- the gate ---- */

typedef struct loop_gate {
    const learn_opts *o;
    const nn_net *nets[2]; /* The candidate, the best. */
    uint64_t seed;
    _Atomic long next;  /* The next game to play. */
    _Atomic int active; /* Threads still playing. */
    _Atomic bool failed;
    int *points; /* Each game's half points for the candidate: 0, 1 or 2. */
} loop_gate;

/* Plays gate game k: the candidate moves first in even games, and each
 * pair of games opens with the same random plies. Returns 0, or -1 after
 * saying why. */
static int loop_gate_game(loop_gate *G, net_evaluator *ev[2], long k)
{
    const banyan_game *g = G->o->g;
    int cand = (int)(k % 2);
    banyan_engine *e[2] = {NULL, NULL};
    banyan_limits lim;
    banyan_report rep = BANYAN_REPORT();
    banyan_rng rng;
    double ret[BANYAN_MAX_PLAYERS], lo = g->reward_min, hi = g->reward_max;
    int rc = -1;
    if (lo == 0 && hi == 0)
        hi = 1;
    for (int p = 0; p < 2; p++)
        if (!(e[p] = learn_engine(G->o, ev[p != cand], false,
                                  banyan_mix64(G->seed + 2 * (uint64_t)k + (uint64_t)p), &lim,
                                  "banyan learn")))
            goto out;
    banyan_rng_seed(&rng, G->seed, (uint64_t)(k / 2));
    for (int ply = 0; !g->outcome(banyan_engine_state(e[0]), ret); ply++) {
        banyan_move m, legal[BANYAN_MAX_MOVES];
        if (ply < LOOP_GATE_PLIES) {
            int n = g->moves(banyan_engine_state(e[0]), legal);
            m = legal[banyan_rng_below(&rng, (uint32_t)n)];
        } else {
            banyan_engine *mover = e[g->to_move(banyan_engine_state(e[0]))];
            if (banyan_engine_search(mover, &lim, &rep) != BANYAN_OK) {
                fprintf(stderr, "banyan learn: %s\n", banyan_errmsg(mover));
                goto out;
            }
            m = rep.best;
        }
        if (banyan_engine_play(e[0], m) != BANYAN_OK || banyan_engine_play(e[1], m) != BANYAN_OK)
            goto out;
    }
    double score = (ret[cand] - lo) / (hi - lo);
    G->points[k] = score > 0.75 ? 2 : score >= 0.25 ? 1 : 0;
    rc = 0;
out:
    banyan_engine_free(e[0]);
    banyan_engine_free(e[1]);
    return rc;
}

static void *loop_gate_thread(void *arg)
{
    loop_gate *G = arg;
    net_evaluator *ev[2] = {NULL, NULL};
    char why[256];
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++)
        if (net_evaluator_new(G->nets[i], G->o->g, G->o->params, 1, 0, &ev[i], why, sizeof why)) {
            fprintf(stderr, "banyan learn: %s\n", why);
            ok = false;
        }
    while (ok && !atomic_load(&G->failed)) {
        long k = atomic_fetch_add(&G->next, 1);
        if (k >= G->o->gate_games)
            break;
        ok = loop_gate_game(G, ev, k) == 0;
    }
    if (!ok)
        atomic_store(&G->failed, true);
    for (int i = 0; i < 2; i++)
        if (ev[i])
            net_evaluator_free(ev[i]);
    atomic_fetch_sub(&G->active, 1);
    return NULL;
}

/* Plays the gate of generation n, the candidate at cand against the best
 * at best, with --jobs threads (rank 0's main thread ticking under MPI,
 * else playing too); its wins, draws and losses in res. Returns 0, or 1
 * after saying why. */
static int loop_gate_play(loop *L, long n, const char *cand, const char *best, long res[3])
{
    learn_opts q = *L->o;
    nn_net nets[2];
    nn_meta meta;
    loop_gate G;
    memset(res, 0, 3 * sizeof *res);
    q.net = cand;
    if (learn_load_net(&q, &nets[0], &meta, "banyan learn") != 0)
        return 1;
    q.net = best;
    if (learn_load_net(&q, &nets[1], &meta, "banyan learn") != 0) {
        nn_free(&nets[0]);
        return 1;
    }
    memset(&G, 0, sizeof G);
    G.o = L->o;
    G.nets[0] = &nets[0];
    G.nets[1] = &nets[1];
    G.seed = loop_seed(L->o->seed, n, LOOP_SEED_GATE);
    G.points = calloc((size_t)L->o->gate_games + 1, sizeof *G.points);
    atomic_init(&G.next, 0);
    atomic_init(&G.failed, G.points == NULL);
    bool ticking = L->ranks > 1;
    pthread_t threads[256];
    int started = 0;
    long want = ticking ? L->o->jobs : L->o->jobs - 1;
    atomic_init(&G.active, (int)want + !ticking);
    for (long i = 0; i < want && G.points; i++)
        if (pthread_create(&threads[started], NULL, loop_gate_thread, &G) == 0)
            started++;
    atomic_fetch_sub(&G.active, (int)want - started);
    if (ticking && !started) {
        fprintf(stderr, "banyan learn: cannot start a thread for the gate\n");
        atomic_store(&G.failed, true);
    }
    if (!ticking)
        loop_gate_thread(&G);
    while (atomic_load(&G.active) > 0) {
        loop_tick(L);
        loop_nap(0.005);
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    for (long k = 0; G.points && k < L->o->gate_games; k++)
        res[2 - G.points[k]]++;
    free(G.points);
    nn_free(&nets[0]);
    nn_free(&nets[1]);
    return atomic_load(&G.failed) ? 1 : 0;
}

/* ---- rank 0: the generations ---- */

/* Generation n: self-play, training and the gate; then the state says so.
 * Returns 0, or 1 after saying why. */
static int loop_generation(loop *L, long n)
{
    const learn_opts *o = L->o;
    char records[LOOP_PATH], best[LOOP_PATH], cand[LOOP_PATH], ck[LOOP_PATH];
    long have, res[3] = {0, 0, 0};
    int status = 0;
    loop_file(L, records, "games", n, "sp");
    loop_file(L, best, "net", L->best, "net");
    loop_file(L, cand, "net", n, "net");
    loop_file(L, ck, "train", n, "ck");

    /* 1. Self-play with the best network, from the games in the records. */
    FILE *f = loop_records(L, records, &have);
    if (!f)
        return 1;
    printf("learn: generation %ld of %ld: %ld self-play games with net-%04ld", n, o->generations,
           o->games, L->best);
    if (have)
        printf(" (%ld in the records already)", have);
    printf("\n");
    fflush(stdout);
    learn_opts p = *o;
    p.seed = loop_seed(o->seed, n, LOOP_SEED_PLAY);
    p.net = best;
    if (have < o->games && L->ranks > 1) {
        status = loop_gather(L, &p, n, f, records, best, have);
    } else if (have < o->games) {
        nn_net net;
        nn_meta meta;
        learn_selfplay sp;
        if (learn_load_net(&p, &net, &meta, "banyan learn") != 0) {
            fclose(f);
            return 1;
        }
        learn_selfplay_init(&sp, &p, &net, f, records, have);
        status = learn_selfplay_run(&sp);
        learn_selfplay_summary(&sp);
        learn_selfplay_destroy(&sp);
        nn_free(&net);
    }
    if (fclose(f) != 0 && !status) {
        fprintf(stderr, "banyan learn: %s: %s\n", records, strerror(errno));
        status = 1;
    }
    if (status)
        return status;

    /* 2. A candidate trained from the best on the newest records (unless a
     *    stopped run trained it already: networks are written whole). */
    if (!learn_exists(cand)) {
        char(*data)[LOOP_PATH] = calloc((size_t)o->files, sizeof *data);
        if (!data)
            return 1;
        p.n_data = 0;
        for (long m = n - o->files + 1 > 1 ? n - o->files + 1 : 1; m <= n; m++) {
            loop_file(L, data[p.n_data], "games", m, "sp");
            p.data[p.n_data] = data[p.n_data];
            p.n_data++;
        }
        p.out = cand;
        p.checkpoint = ck;
        p.generation = n;
        p.seed = loop_seed(o->seed, n, LOOP_SEED_TRAIN);
        status = learn_train(&p, L->rules, loop_tick, L);
        free(data);
        if (status)
            return status;
    }
    remove(ck); /* Left by a run stopped after it wrote the candidate. */

    /* 3. The gate, and the state. */
    if (o->gate_games && loop_gate_play(L, n, cand, best, res) != 0)
        return 1;
    double score =
        o->gate_games ? ((double)res[0] + 0.5 * (double)res[1]) / (double)o->gate_games : 1;
    bool accepted = !o->gate_games || score >= o->gate_score;
    char line[256];
    int len = snprintf(line, sizeof line,
                       "generation %ld: %ld games; net-%04ld against net-%04ld, %ld gate games "
                       "+%ld =%ld -%ld, %.1f%%: %s\n",
                       n, have > o->games ? have : o->games, n, L->best, o->gate_games, res[0],
                       res[1], res[2], 100 * score, accepted ? "accepted" : "rejected");
    char *h = realloc(L->history, L->n_history + (size_t)len + 1);
    if (!h)
        return 1;
    memcpy(h + L->n_history, line, (size_t)len + 1);
    L->history = h;
    L->n_history += (size_t)len;
    L->done = n;
    L->best = accepted ? n : L->best;
    if (loop_write(L, L->state, NULL) != 0)
        return 1;
    printf("learn: %s", line);
    fflush(stdout);
    return 0;
}

/* Locks DIR/lock for this run: returns the open file (closing it unlocks),
 * or -1 after saying why. */
static int loop_lock(const char *dir)
{
    char path[LOOP_PATH];
    snprintf(path, sizeof path, "%s/lock", dir);
    int fd = os_lock_file(path);
    if (fd >= 0)
        return fd;
    if (fd == -2)
        fprintf(stderr, "banyan learn: another run is working in %s\n", dir);
    else
        fprintf(stderr, "banyan learn: cannot lock %s: %s\n", path, strerror(errno));
    return -1;
}

/* Rank 0: the run, from where DIR's state says it is. */
static int loop_lead(learn_opts *o, const char *rules)
{
    char net0[LOOP_PATH];
    loop L;
    int status = 1, fd = -1, rc;
    memset(&L, 0, sizeof L);
    L.o = o;
    snprintf(L.rules, sizeof L.rules, "%s", rules);
    L.ranks = dist_ranks();
    L.heard = calloc((size_t)L.ranks, sizeof *L.heard);
    for (int r = 0; L.heard && r < L.ranks; r++)
        L.heard[r] = cli_now();
    if (!L.heard || strlen(o->dir) > LOOP_PATH - 32) {
        fprintf(stderr, "banyan learn: the folder's name is too long\n");
        goto out;
    }
    if (os_mkdir(o->dir) != 0 && errno != EEXIST) {
        fprintf(stderr, "banyan learn: cannot make %s: %s\n", o->dir, strerror(errno));
        goto out;
    }
    if ((fd = loop_lock(o->dir)) < 0)
        goto out;
    snprintf(L.state, sizeof L.state, "%s/state", o->dir);
    loop_file(&L, net0, "net", 0, "net");
    if ((rc = loop_state_read(&L, L.state)) < 0)
        goto out;
    if (rc > 0) {
        /* A new run: generation 0 is a random network, unless DIR has one. */
        learn_opts p = *o;
        p.init = p.net = net0;
        if (learn_exists(net0)) {
            nn_net net;
            nn_meta meta;
            if (learn_load_net(&p, &net, &meta, "banyan learn") != 0)
                goto out;
            nn_free(&net);
        } else if (learn_init(&p, rules) != 0)
            goto out;
        if (loop_write(&L, L.state, NULL) != 0)
            goto out;
    }
    printf("learn: %s: %ld of %ld generations done, the best network net-%04ld, %d rank%s\n",
           o->dir, L.done, o->generations, L.best, L.ranks, L.ranks > 1 ? "s" : "");
    fflush(stdout);
    status = 0;
    for (long n = L.done + 1; n <= o->generations && !status; n++)
        status = loop_generation(&L, n);
    if (!status)
        printf("learn: %ld of %ld generations done; the best network is %s/net-%04ld.net\n", L.done,
               o->generations, o->dir, L.best);
out:
    /* The end of the run, for the ranks that play. */
    for (int r = 1; r < L.ranks; r++)
        dist_send(r, LOOP_TAG_CTRL, "Q", 1);
    if (fd >= 0)
        close(fd);
    free(L.heard);
    free(L.history);
    return status;
}

int cli_learn(int argc, char **argv)
{
    learn_opts o;
    char rules[128];
    int rc = learn_start(argc, argv, &o, LEARN_LOOP, rules, sizeof rules);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!o.dir) {
        fprintf(stderr, "banyan learn: name the run's folder with --dir DIR (see --help)\n");
        return 2;
    }
    dist_set_timeout(o.rank_timeout);
    return dist_rank() == 0 ? loop_lead(&o, rules) : loop_player_run(&o);
}
