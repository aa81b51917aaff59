/* peers — the libraries a learner would call instead (PyTorch, NPP, CUB), timed on the same GPU by bench/peers.py */
#ifndef CLT_PEERS_H
#define CLT_PEERS_H

#include <stddef.h>

#define PEERS_MAX 8

typedef enum { PEER_PASS, PEER_ABSENT, PEER_WRONG, PEER_ERROR } peer_status;

typedef struct {
    char name[64];       /* "torch.bincount" */
    char problem[32];    /* the problem it does: "bytes", "scan", "integral" */
    char size[64];
    char input[16];      /* the input kind it ran on ("equal"); "": the problem's default */
    peer_status status;
    double median_ms;
    int runs;
    char version[64];    /* "torch 2.4.0" */
    char message[256];   /* why it is absent or failed */
} bench_peer;

/* The sizes to time the peers at, as the chapters' bench sizes give them ("" skips none: the script's default). */
typedef struct {
    char bytes[32];      /* a count of bytes */
    char bytes_inputs[64]; /* their input kinds, "uniform,equal" ("": the script's default) */
    char scan[32];       /* a count of uint32 */
    char integral[32];   /* WxH */
} peers_sizes;

/* Runs `python3 script` with the sizes (limit_s seconds at most) and reads its
 * JSON lines. Returns the number of peers read, or -1 with err (no python3,
 * no script, a crash, the limit reached). */
int peers_measure(const char *script, const peers_sizes *sizes, double budget_s, double limit_s, bench_peer *out,
                  int max, char *err, size_t errlen);

const char *peer_status_name(peer_status s);

#endif
