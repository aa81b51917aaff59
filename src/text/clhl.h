/* clhl — OpenCL C syntax highlighting: splits a source line into styled spans
 * (keywords, address spaces, types, built-in functions, comments, ...). */
#ifndef CLT_CLHL_H
#define CLT_CLHL_H
#include <stddef.h>
#include "text/stext.h"

/* Appends one line of OpenCL C to out, tabs expanded to tab_width. *state
 * carries an open block comment from line to line (start with 0). */
void clhl_line(st_line *out, const char *text, size_t len, int *state, int tab_width);

/* The style of an identifier (ST_NORMAL when it is nothing special). */
int clhl_word_style(const char *word, size_t len);

#endif
