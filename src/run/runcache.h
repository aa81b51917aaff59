/* runcache — results of runs that always come out the same (the GPU model's
 * simulations), kept on disk as JSON and found again by a SHA-256 of
 * everything that decides them: the kernel text, the chapter's parameters,
 * size, seed, the programs that ran it. Timed runs are never kept. Only the
 * parent process reads and writes it; a worker never sees it. */
#ifndef CLT_RUNCACHE_H
#define CLT_RUNCACHE_H
#include <stddef.h>
#include <stdint.h>
#include <cJSON.h>
#include <nettle/sha2.h>

#include "run/engine.h"

/* Where the results go: $CLTUTOR_RESULT_CACHE (the word "off" keeps none),
 * else $XDG_CACHE_HOME/cltutor/results, else ~/.cache/cltutor/results.
 * Returns 0, or -1 when nothing is to be kept. */
int runcache_folder(char *buf, size_t len);

/* A key under construction: each part is named and its length counted, so
 * that no two different lists of parts hash alike. */
typedef struct {
    struct sha256_ctx ctx;
    int unreadable;          /* a part named a file that could not be read: the key is unusable */
    char hex[2 * SHA256_DIGEST_SIZE + 1];
} runcache_key;

/* what: the kind of result and the version of its format ("gpumodel 1"). */
void runcache_key_init(runcache_key *k, const char *what);
void runcache_key_bytes(runcache_key *k, const char *name, const void *data, size_t len);
void runcache_key_str(runcache_key *k, const char *name, const char *value); /* NULL as "" */
void runcache_key_u64(runcache_key *k, const char *name, uint64_t value);
/* A program or library by its file's identity (device, inode, size, time
 * of its last change: a rebuild or an upgrade changes it), read without
 * reading the file on every run; marks the key unusable when it is missing. */
void runcache_key_file(runcache_key *k, const char *name, const char *path);
/* The chapter's identity and parameters: what a kernel is run with. */
void runcache_key_lesson(runcache_key *k, const lesson *l);
/* Ends the key (k->hex). Returns 0, or -1 when it is unusable. */
int runcache_key_done(runcache_key *k);

/* Begins the key of a run of rq: the kernel's text (not its path), the
 * chapter, size and seed, the language of the messages, and the cltutor
 * programs (this one and the worker). -1 when the run cannot be kept: a file the grader's source
 * policy refuses (it may read other files or branch on the device). */
int runcache_key_run(runcache_key *k, const char *what, const engine_request *rq);
/* Adds the OpenCL runtimes a worker would load: the ICD loader's vendor
 * files and the libraries they name, and the runtimes' settings in the
 * environment. */
void runcache_key_opencl(runcache_key *k);

/* The result kept under the key, or NULL (none, or not readable as JSON). */
cJSON *runcache_get(const runcache_key *k);
/* Keeps value under the key (written whole or not at all). Returns 0 or -1. */
int runcache_put(const runcache_key *k, const cJSON *value);

/* What a cached run keeps of its engine report, and the report again from
 * it. The kernel's name in messages (display) is kept as a mark and given
 * back as the asker's name for it. from_json returns 0, or -1 when the JSON
 * lacks a field (the entry is then not used). */
/* The golden answer of pi (a problem with golden_words), kept under the
 * lesson, size, input and seed and this program: recalled into pi (0, or
 * -1: not kept), or kept after golden ran. */
int runcache_golden_recall(prob_instance *pi);
void runcache_golden_keep(const prob_instance *pi);
/* pi's golden answer, recalled, else computed (not timed) and kept. */
void runcache_golden_answer(prob_instance *pi);

cJSON *runcache_report_json(const engine_report *r, const char *display);
int runcache_report_from_json(const cJSON *j, const char *display, engine_report *r);

#endif
