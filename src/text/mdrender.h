/* mdrender — Markdown (CommonMark with GitHub tables) to styled, wrapped
 * lines for the terminal, with OpenCL C highlighting in code blocks. */
#ifndef CLT_MDRENDER_H
#define CLT_MDRENDER_H
#include <stddef.h>
#include "text/stext.h"

/* Heading lines carry tag = MDR_HEADING_TAG + level (1..6). */
#define MDR_HEADING_TAG 1000

/* Renders md into out at the given width. Returns 0, or -1 when md4c
 * refused the text (out then holds it as plain wrapped lines). */
int mdr_render(const char *md, size_t len, int width, st_doc *out);

/* What to add after an inline code span (the course adds the key that does
 * what a command line does: `cltutor check 2` [C]); NULL: nothing. */
typedef const char *(*mdr_code_note)(const char *code, void *user);
/* mdr_render with a note after each inline code span that note() names. */
int mdr_render_notes(const char *md, size_t len, int width, mdr_code_note note, void *user, st_doc *out);

#endif
