/*
 * test_params.c - the one reader of game parameters, banyan_params_read():
 * defaults, values of each type, separators and repeated keys, and every
 * way a text or a table is refused; banyan_params_check(), which reads
 * through it, with its sentences; and the setup() of each game built on it
 * accepting exactly the texts the check accepts.
 */
#include <string.h>

#include "banyan_game.h"
#include "t.h"

enum { PT_SIZE, PT_KOMI, PT_MODE, PT_N };

static const banyan_param pt_table[] = {
    {"size", BANYAN_PARAM_INT, 5, 19, NULL, "9", 0, "a whole number", NULL},
    {"komi", BANYAN_PARAM_NUMBER, -10, 10, NULL, "6.5", 0, "a number", NULL},
    {"mode", BANYAN_PARAM_CHOICE, 0, 0, "on|off|auto", "auto", 0, "a word", NULL},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};

/* Reads text against pt_table into v, which holds sentinels first. */
static int pt_read(const char *text, banyan_value *v)
{
    for (int i = 0; i < PT_N; i++)
        memset(&v[i], 0x5a, sizeof v[i]);
    return banyan_params_read(pt_table, text, v);
}

void test_params_read(void)
{
    banyan_value v[PT_N];
    /* Every default, from NULL, "" and separators alone. */
    static const char *const empty[] = {NULL, "", " ", ", ,\t"};
    for (int i = 0; i < 4; i++) {
        T_EQ(pt_read(empty[i], v), BANYAN_OK);
        T_EQ(v[PT_SIZE].i, 9);
        T_NEAR(v[PT_KOMI].x, 6.5, 0);
        T_EQ(v[PT_MODE].choice, 2);
    }
    /* Each type, separated by spaces, commas or tabs, in any order. */
    T_EQ(pt_read("mode=on,size=19\tkomi=-0.5", v), BANYAN_OK);
    T_EQ(v[PT_SIZE].i, 19);
    T_NEAR(v[PT_KOMI].x, -0.5, 0);
    T_EQ(v[PT_MODE].choice, 0);
    T_EQ(pt_read("size=+5 komi=10 mode=off", v), BANYAN_OK);
    T_EQ(v[PT_SIZE].i, 5);
    T_NEAR(v[PT_KOMI].x, 10, 0);
    T_EQ(v[PT_MODE].choice, 1);
    /* The last of a repeated key counts; the others keep their defaults. */
    T_EQ(pt_read("size=7 size=11", v), BANYAN_OK);
    T_EQ(v[PT_SIZE].i, 11);
    T_NEAR(v[PT_KOMI].x, 6.5, 0);
    T_EQ(v[PT_MODE].choice, 2);
    T_EQ(pt_read("komi=-10 komi=+3.25", v), BANYAN_OK);
    T_NEAR(v[PT_KOMI].x, 3.25, 0);
    /* A table without entries takes the empty text. */
    T_EQ(banyan_params_read(NULL, "", v), BANYAN_OK);
    T_EQ(banyan_params_read(pt_table + PT_N, " ", v), BANYAN_OK);
}

void test_params_read_errors(void)
{
    banyan_value v[PT_N];
    char long_key[80], long_val[300];
    memset(long_key, 'k', sizeof long_key);
    memcpy(long_key + sizeof long_key - 3, "=1", 3);
    memcpy(long_val, "size=", 5);
    memset(long_val + 5, '0', sizeof long_val - 7);
    memcpy(long_val + sizeof long_val - 2, "9", 2);
    static const char *const bad[] = {
        /* Malformed pairs. */
        "size", "=9", "size=", "size =9", "size= 9", "size=9 komi",
        /* Keys the table lacks, in any case. */
        "colour=1", "Size=9", "sizes=9", "siz=9",
        /* Whole numbers: not one, or out of range. */
        "size=x", "size=9x", "size=9.0", "size=0x9", "size=4", "size=20", "size=-9", "size=+",
        "size=99999999999999999999999",
        /* Numbers: not decimal, or out of range. */
        "komi=x", "komi=1e1", "komi=0x1", "komi=inf", "komi=nan", "komi=.5", "komi=7.", "komi=-",
        "komi=1.5.5", "komi=10.5", "komi=-10.01", "komi=100000000000000000000.5",
        /* Choices: only the whole word, in its case. */
        "mode=of", "mode=offf", "mode=ON", "mode=on|off", "mode=|",
        /* A bad pair after good ones. */
        "size=9 mode=on komi=x", "size=9,,mode"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (pt_read(bad[i], v) != BANYAN_EINVAL)
            T_FAIL_AT("\"%s\" was read", bad[i]);
    T_EQ(pt_read(long_key, v), BANYAN_EINVAL);
    T_EQ(pt_read(long_val, v), BANYAN_EINVAL);
    long_val[sizeof long_val - 60] = 0;        /* A long value that fits: "size=000...0". */
    T_EQ(pt_read(long_val, v), BANYAN_EINVAL); /* 0 is out of range. */
    /* No room for the values, and a table without entries given a key. */
    T_EQ(banyan_params_read(pt_table, "", NULL), BANYAN_EINVAL);
    T_EQ(banyan_params_read(NULL, "size=9", v), BANYAN_EINVAL);
    /* Tables whose default is not one of the values, or that has no type. */
    static const banyan_param bad_tables[][2] = {
        {{"n", BANYAN_PARAM_INT, 1, 3, NULL, "4", 0, "", NULL},
         {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL}},
        {{"n", BANYAN_PARAM_INT, 1, 3, NULL, NULL, 0, "", NULL},
         {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL}},
        {{"x", BANYAN_PARAM_NUMBER, 0, 1, NULL, "1e0", 0, "", NULL},
         {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL}},
        {{"c", BANYAN_PARAM_CHOICE, 0, 0, "a|b", "c", 0, "", NULL},
         {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL}},
        {{"c", BANYAN_PARAM_CHOICE, 0, 0, NULL, "a", 0, "", NULL},
         {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL}},
        {{"t", 0, 0, 1, NULL, "0", 0, "", NULL}, {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL}},
    };
    for (size_t i = 0; i < sizeof bad_tables / sizeof bad_tables[0]; i++)
        if (banyan_params_read(bad_tables[i], "", v) != BANYAN_EINVAL)
            T_FAIL_AT("table %zu was read", i);
}

/* banyan_params_check reads the same way and says why in a sentence. */
void test_params_check(void)
{
    static const struct {
        const banyan_game *g;
        const char *text, *why;
    } cases[] = {
        {&banyan_game_tictactoe, "m=7,n=6 k=4", ""},
        {&banyan_game_tictactoe, "q=1", "tictactoe has no parameter \"q\""},
        {&banyan_game_tictactoe, "m=0", "m must be a whole number from 1 to 19, not \"0\""},
        {&banyan_game_go, "komi=1e1", "komi must be a number from -150 to 150, not \"1e1\""},
        {&banyan_game_morpion, "rule=5x", "rule must be one of 5t|5d, not \"5x\""},
        {&banyan_game_othello, "solver",
         "parameters are key=value pairs separated by spaces: \"solver\""},
    };
    char why[160];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = banyan_params_check(cases[i].g, cases[i].text, why, sizeof why);
        T_EQ(rc, cases[i].why[0] ? BANYAN_EINVAL : BANYAN_OK);
        T_STR(why, cases[i].why);
    }
    T_EQ(banyan_params_check(NULL, "", why, sizeof why), BANYAN_EINVAL);
    T_STR(why, "no game");
    /* A game without a table: any key, the syntax alone checked. */
    banyan_game bare = banyan_game_tictactoe;
    bare.params = NULL;
    T_EQ(banyan_params_check(&bare, "anything=1", why, sizeof why), BANYAN_OK);
    T_EQ(banyan_params_check(&bare, "anything", why, sizeof why), BANYAN_EINVAL);
}

/* The setup() of each game that reads through banyan_params_read accepts
 * what banyan_params_check accepts, no more and no less, where no rule of
 * the game joins two parameters. */
void test_params_setup(void)
{
    static const struct {
        const banyan_game *g;
        const char *text;
    } cases[] = {
        {&banyan_game_tictactoe, "m=0000000000000004 n=4 k=3"},
        {&banyan_game_tictactoe, "m=4,n=4,k=+3"},
        {&banyan_game_tictactoe, "m=20"},
        {&banyan_game_connect4, "solver=off,book=on"},
        {&banyan_game_connect4, "book=of"},
        {&banyan_game_othello, "rollout=uniform priors=off solver=off"},
        {&banyan_game_othello, "priors=mobilityx"},
        {&banyan_game_go, "size=09 komi=-6.5 playouts=light"},
        {&banyan_game_go, "komi=1e1"},
        {&banyan_game_go, "komi=0x10"},
        {&banyan_game_go, "komi=7."},
        {&banyan_game_go, "komi=150.5"},
        {&banyan_game_morpion, "rule=5d"},
        {&banyan_game_morpion, "rule=5D"},
        {&banyan_game_gomoku, "size=0000000000000000019 rule=renju,prover=off"},
        {&banyan_game_gomoku, "priors=threats"},
        {&banyan_game_gomoku, "rollout=near"},
        {&banyan_game_gomoku, "size=4"},
    };
    static unsigned char s[1 << 16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const banyan_game *g = cases[i].g;
        T_TRUE(g->state_size <= sizeof s);
        int setup = g->setup(s, cases[i].text), check = banyan_params_check(g, cases[i].text, 0, 0);
        if (setup != check)
            T_FAIL_AT("%s \"%s\": setup %d, check %d", g->name, cases[i].text, setup, check);
    }
    /* The rules that join parameters stay the game's own. */
    T_EQ(banyan_game_tictactoe.setup(s, "m=3 n=3 k=4"), BANYAN_EINVAL);
    T_EQ(banyan_game_go.setup(s, "size=10 handicap=5"), BANYAN_EINVAL);
}
