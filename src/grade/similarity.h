/* similarity — how alike a class's kernels are beyond what the course gives
 * everyone: each file cut into fingerprints (hashes of runs of tokens, with
 * comments, layout and the names chosen left out), those of the starting
 * file and those that much of the class holds set aside, and every pair of
 * students scored by the fingerprints they share, with the lines that hold
 * them. */
#ifndef CLT_SIMILARITY_H
#define CLT_SIMILARITY_H
#include <stdint.h>

/* Tokens a fingerprint covers: about a line and a half of a kernel. */
#define SIM_TOKENS 12

/* One run of SIM_TOKENS tokens: its hash and the lines it spans. */
typedef struct {
    uint64_t hash;
    int first_line, last_line;
} sim_print;

/* One file's fingerprints, sorted by hash (a hash may occur more than once). */
typedef struct {
    sim_print *prints;
    int n;
} sim_prints;

/* The fingerprints of OpenCL C source. Comments, spaces and line breaks do
 * not count; an identifier counts as "a name" unless the language or its
 * built-ins give it (get_global_id, barrier, float4, __local...), so that
 * renaming variables changes nothing; numbers and operators count as written.
 * A file of fewer than SIM_TOKENS tokens has none. Returns 0, or -1 (out of memory). */
int sim_fingerprint(const char *src, sim_prints *out);
void sim_prints_free(sim_prints *p);

/* How much of a's own code b holds: *own, the distinct fingerprints of a
 * that none of the n_aside sets holds (a starting file, a reference); *held,
 * how many of those b holds too. */
void sim_share(const sim_prints *a, const sim_prints *b, const sim_prints *aside, int n_aside, int *own, int *held);

/* Lines first..last of a file. */
typedef struct {
    int first, last;
} sim_range;

/* What two students' copies of one file share. */
typedef struct {
    int file;                   /* index among the class's files */
    int shared;                 /* fingerprints both hold (set aside: the starting file's, the common ones) */
    int smaller;                /* the fewer of the two copies' own fingerprints */
    sim_range *a_lines, *b_lines; /* the lines those fingerprints cover in each copy, in order, merged */
    int n_a, n_b;
} sim_file_match;

/* Two students (a < b, indexes in the class) and what they share over all files. */
typedef struct {
    int a, b;
    int shared, smaller;        /* summed over the files both handed in */
    double score;               /* shared / smaller: 1 when the smaller side's own code is all in the other */
    sim_file_match *files;      /* the files that share any fingerprint, most shared first */
    int n_files;
} sim_pair;

/* A class: the fingerprints of each student's copy of each file, at
 * files[student * n_files + file] (n = 0: not handed in). */
typedef struct {
    int n_students, n_files;
    sim_prints *files;
} sim_class;

/* Scores every pair of students. Set aside first, file by file: the
 * fingerprints of the starting file (starting[f]; n = 0 for none) and those
 * that more than common_fraction of the students who handed the file in hold
 * (at least 3 of them): what a class writes alike when the answer is short.
 * Keeps the pairs that share at least min_shared fingerprints, closest first
 * (by score, then by fingerprints shared). Returns how many, with *out, or
 * -1 (out of memory). */
int sim_compare(const sim_class *c, const sim_prints *starting, double common_fraction, int min_shared,
                sim_pair **out);
void sim_pairs_free(sim_pair *pairs, int n);

#endif
