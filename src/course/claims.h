/* claims: sentences a lesson must not state: a source outside the repository, or variant kernels said to be lost */
#ifndef CLT_CLAIMS_H
#define CLT_CLAIMS_H

#include <stddef.h>

/* The names of chapter's variant kernels under data/bench/variants (files "NN-*.cl"), comma-separated and
 * sorted, into buf; returns how many there are (0 without the folder). */
int claims_chapter_variants(const char *data, int chapter, char *buf, size_t len);

/* Checks one Markdown lesson: appends a line "NAME:LINE: why" to *notes for each sentence that names the
 * project's design notes, and, when variants is not empty, for each that says the chapter's variant kernels
 * are not kept. Returns the number of such sentences. */
int claims_check_lesson(const char *name, const char *md, size_t len, const char *variants, char **notes);

#endif
