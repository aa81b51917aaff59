/* kcomment — the comments of an OpenCL C text as messages to translate, and
 * the text with each comment replaced by its translation in the same shape.
 * The exercise files are written once, in English; their comments reach the
 * catalogue (po/) as messages of the context KCOMMENT_CONTEXT, one a comment,
 * and a learner in another language gets them translated when the file is
 * put in the workspace. The code is never touched. */
#ifndef CLT_KCOMMENT_H
#define CLT_KCOMMENT_H

#define KCOMMENT_CONTEXT "exercise comment"

/* A comment as a message: the lines of its text without the comment's
 * opening and closing marks and "*" margins, joined by newlines. line: where
 * it starts (1-based). */
typedef void (*kcomment_each_fn)(void *ctx, const char *msgid, int line);
/* Calls each for every comment of src that holds a letter. Returns -1 when out of memory. */
int kcomment_each(const char *src, kcomment_each_fn each, void *ctx);

/* The translation of msgid, or msgid itself when there is none. */
typedef const char *(*kcomment_tr_fn)(void *ctx, const char *msgid);
/* src with every comment tr translates written in the translation: the same
 * opening, margin and closing, the code around it as it was. A comment on a
 * line that continues a macro ("\" at its end) keeps to one line. Returns a
 * malloc'd text, or NULL when out of memory. */
char *kcomment_translate(const char *src, kcomment_tr_fn tr, void *ctx);

#endif
