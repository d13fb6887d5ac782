/*
 * fuzz_share.c - libFuzzer target for the reader of shared statistics
 * (banyan_engine_absorb). The first byte picks how the rest is used: bit
 * 0 clear, as a whole buffer; set, as patches (offset, byte pairs) on a
 * real export of another engine at the same position, so that the checks
 * beyond the header are reached; bit 1 set, the game is Go 9x9, whose
 * exports carry RAVE's statistics too, else Tic-tac-toe. A buffer refused leaves the tree as it
 * was; one taken keeps every root child's visits within the tree's bounds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_SHARE_NODES 64

static banyan_engine *fuzz_share_engine(bool go, uint64_t seed)
{
    banyan_engine *e = NULL;
    banyan_config cfg =
        BANYAN_CONFIG(.seed = seed, .share_nodes = FUZZ_SHARE_NODES, .memory = 1 << 20);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 200);
    banyan_report r = BANYAN_REPORT();
    if (banyan_engine_new(go ? &banyan_game_go : &banyan_game_tictactoe, go ? "size=9" : NULL, &cfg,
                          &e) != BANYAN_OK)
        abort();
    banyan_engine_search(e, &lim, &r);
    return e;
}

/* The sum of the root children's visits. */
static uint64_t fuzz_share_visits(banyan_engine *e)
{
    banyan_report r = BANYAN_REPORT();
    uint64_t n = 0;
    banyan_engine_report(e, &r);
    for (int i = 0; i < r.n_moves; i++)
        n += r.moves[i].visits;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool go = data[0] & 2;
    banyan_engine *a = fuzz_share_engine(go, 1), *b = fuzz_share_engine(go, 2);
    size_t cap = banyan_share_size(FUZZ_SHARE_NODES), len = size - 1;
    unsigned char *buf = malloc(cap > size ? cap : size);
    if (!buf)
        abort();
    if (data[0] & 1) {
        if (banyan_engine_share(a, buf, cap, &len) != BANYAN_OK)
            abort();
        for (size_t i = 1; i + 2 < size; i += 3) {
            size_t at = ((size_t)data[i] << 8 | data[i + 1]) % (len + 1);
            if (at == len)
                len = (len + data[i + 2]) % (cap + 1); /* The length itself. */
            else
                buf[at] ^= data[i + 2];
        }
    } else {
        memcpy(buf, data + 1, len);
    }
    uint64_t before = fuzz_share_visits(b);
    const void *bufs[1] = {buf};
    int rc = banyan_engine_absorb(b, bufs, &len, 1);
    uint64_t after = fuzz_share_visits(b);
    if (rc < 0 ? after != before : rc > 1 || after < before || after > before + 268435455u)
        abort();
    /* A second absorb of the same buffer takes nothing more. */
    if (rc > 0 && (banyan_engine_absorb(b, bufs, &len, 1) != rc || fuzz_share_visits(b) != after))
        abort();
    free(buf);
    banyan_engine_free(a);
    banyan_engine_free(b);
    return 0;
}
