/* codefrag: the pieces of code a sentence quotes (a call, an index, a declaration), and whether a source already has them */
#ifndef CLT_CODEFRAG_H
#define CLT_CODEFRAG_H

#include <stddef.h>

/* The next fragment of code in text from *pos: an identifier followed by one
 * or more bracketed groups, "descriptors[k * n + d]", "barrier(CLK_LOCAL_MEM_FENCE)",
 * "hist[32][33]". Copies it without white space into out; returns 0 when
 * there is no other. Fragments shorter than min_len are skipped. */
int codefrag_next(const char *text, size_t *pos, size_t min_len, char *out, size_t outlen);

/* Whether source holds frag, white space ignored. */
int codefrag_in_source(const char *frag, const char *source);

#endif
