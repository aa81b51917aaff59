/* srcpolicy — what graded OpenCL C source may not do, decided on the text as the preprocessor sees it. */
#ifndef CLT_SRCPOLICY_H
#define CLT_SRCPOLICY_H
#include "course/catalog.h"
#include <stddef.h>

/* What a finding is about. Names are stable (reports and tests use them). */
#define SRCPOLICY_KINDS(X)                                                                                       \
    X(SP_NONE, "none")                       /* nothing found */                                             \
    X(SP_INCLUDE, "include")                 /* #include: reads another file */                              \
    X(SP_IMPORT, "import")                   /* #import */                                                   \
    X(SP_INCLUDE_NEXT, "include_next")       /* #include_next */                                             \
    X(SP_EMBED, "embed")                     /* #embed (C23): reads a file's bytes */                         \
    X(SP_HAS_INCLUDE, "has_include")         /* __has_include, __has_include_next, __has_embed: tells        \
                                                whether a file exists, anywhere in the file */               \
    X(SP_PRAGMA_OPERATOR, "pragma_operator") /* _Pragma(...): a pragma whose text macros can build */        \
    X(SP_PRAGMA_FILE, "pragma_file")         /* #pragma GCC dependency, #pragma clang module, #pragma        \
                                                clang __debug: pragmas that read files or the compiler */    \
    X(SP_TOKEN_PASTE, "token_paste")         /* ## (or %:%:): builds names this check cannot see */          \
    X(SP_DEVICE_BRANCH, "device_branch")     /* #if/#ifdef/#elif... on what the device defines */            \
    X(SP_DEVICE_MACRO, "device_macro")       /* a macro the device defines, used in code */                  \
    X(SP_BUILTIN_MACRO, "builtin_macro")     /* #define or #undef of a work-item function (get_group_id)  */ \
    X(SP_PRAGMA, "pragma")                   /* a #pragma other than OPENCL ..., unroll and nounroll       \
                                                (push_macro and pop_macro can hide a macro from the check) */ \
    X(SP_INLINE_ASM, "inline_asm")           /* asm, __asm, __asm__: machine code, or a symbol renamed       \
                                                to one of the C library's */                                 \
    X(SP_SYMBOL_ATTRIBUTE, "symbol_attribute") /* __attribute__((alias, weakref, ifunc, symver, section)):   \
                                                binds a name to another symbol or section */

#define SRCPOLICY_ENUM(e, s) e,
typedef enum { SRCPOLICY_KINDS(SRCPOLICY_ENUM) SP_N_KINDS } srcpolicy_kind;
#undef SRCPOLICY_ENUM

/* The checks to make (flags). */
enum {
    SRCPOLICY_FILES = 1,   /* nothing that reads or probes other files: #include and its kin, __has_include,
                              _Pragma, the file-reading #pragmas */
    SRCPOLICY_DEVICE = 2,  /* nothing that depends on the device: no conditional on a macro the device
                              defines (__OPENCL_VERSION__, CL_VERSION_*, cl_* extensions, any __NAME),
                              and no such macro in code; no macro named like a work-item function */
    SRCPOLICY_NATIVE = 4,  /* nothing but OpenCL C: no inline assembly (on a CPU device a kernel is machine
                              code in the grader's worker), no attribute that binds a name to another symbol */
    SRCPOLICY_ALL = 7,
};
/* ## is refused by either check: a pasted name could be any of the above. */

typedef struct {
    srcpolicy_kind kind;
    int line;             /* 1-based, in the file as written (before splices) */
    char name[64];        /* the directive, operator or macro: "include", "__has_include", "__OPENCL_VERSION__" */
    char text[128];       /* the line as the preprocessor sees it, spaces collapsed, shortened:
                             "#if __OPENCL_VERSION__ < 200" */
    char message[768];    /* for people: "DISPLAY:LINE: `TEXT` ...: what to do" */
} srcpolicy_finding;

/* The stable name of a kind ("include", "device_branch", ...). */
const char *srcpolicy_kind_name(srcpolicy_kind k);

/* Checks OpenCL C source (NUL-terminated; a UTF-8 byte-order mark, trigraphs,
 * digraphs, line splices, comments and every kind of white space are read as
 * clang reads them). display names the file in the message. allowed is a
 * NULL-terminated list of macro names the build defines (the chapter's -D
 * options: LOCAL_SIZE, ...), which conditionals may test; NULL for none. A
 * name the file itself #defines or #undefs outside any conditional may be
 * tested after that line too.
 * Returns 1 with the first finding in *f, 0 when the source is acceptable
 * (f->kind is SP_NONE), -1 when out of memory (f->message says so). */
int srcpolicy_check(const char *src, const char *display, const char *const *allowed, unsigned checks,
                    srcpolicy_finding *f);

/* The macro names that build options define (-DNAME, -D NAME, -DNAME=VALUE),
 * for srcpolicy_check's allowed list. The names are copied into buf; names[]
 * gets up to max-1 pointers into it and a terminating NULL. Returns the count. */
int srcpolicy_option_macros(const char *options, char *buf, size_t len, const char **names, int max);

/* srcpolicy_check of every rule, with the macros the chapter's build options define allowed. */
int srcpolicy_check_chapter(const char *src, const char *display, const lesson *l, srcpolicy_finding *f);

#endif
