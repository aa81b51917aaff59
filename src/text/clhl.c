/* clhl — OpenCL C syntax highlighting: splits a source line into styled spans
 * (keywords, address spaces, types, built-in functions, comments, ...). */
#include "text/clhl.h"

#include <ctype.h>
#include <string.h>

static const char *const keywords[] = {
    "if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case", "default", "goto",
    "sizeof", "typedef", "struct", "union", "enum", "const", "volatile", "restrict", "static", "inline",
    "extern", "true", "false", NULL};

static const char *const qualifiers[] = {
    "__kernel", "kernel", "__global", "global", "__local", "local", "__constant", "constant", "__private",
    "private", "__read_only", "read_only", "__write_only", "write_only", "__read_write", "read_write",
    "__attribute__", "reqd_work_group_size", "work_group_size_hint", "vec_type_hint", "aligned", "packed",
    "uniform", "pipe", NULL};

static const char *const scalar_types[] = {
    "void", "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
    "half", "unsigned", "signed", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "image2d_t", "image3d_t",
    "image1d_t", "image2d_array_t", "image1d_buffer_t", "sampler_t", "event_t", "cl_mem_fence_flags", NULL};

static const char *const vector_bases[] = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                           "ulong", "float", "double", "half", NULL};

static const char *const builtins[] = {
    "get_global_id", "get_local_id", "get_group_id", "get_global_size", "get_local_size", "get_num_groups",
    "get_work_dim", "get_global_offset", "get_enqueued_local_size", "get_global_linear_id",
    "get_local_linear_id", "barrier", "work_group_barrier", "mem_fence", "read_mem_fence", "write_mem_fence",
    "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "mad", "mad24", "mul24", "fma", "min", "max", "clamp",
    "sqrt", "rsqrt", "dot", "length", "distance", "normalize", "cross", "fabs", "abs", "floor", "ceil", "exp",
    "log", "pow", "sin", "cos", "select", "mix", "step", "hypot", "popcount", "clz", "rotate", "shuffle",
    "async_work_group_copy", "wait_group_events", "prefetch", "printf", "FLT_MAX", "FLT_MIN", "FLT_EPSILON",
    "INT_MAX", "INT_MIN", "UINT_MAX", "NULL", "LOCAL_SIZE", NULL};

static const char *const builtin_prefixes[] = {"atomic_", "atom_", "vload", "vstore", "convert_", "as_",
                                               "native_", "half_", "work_group_", "sub_group_", "read_image",
                                               "write_image", NULL};

static int in_list(const char *const *list, const char *w, size_t len) {
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == len && !strncmp(list[i], w, len)) return 1;
    return 0;
}

static int is_vector_type(const char *w, size_t len) {
    for (int i = 0; vector_bases[i]; i++) {
        size_t bl = strlen(vector_bases[i]);
        if (len <= bl || strncmp(w, vector_bases[i], bl)) continue;
        const char *n = w + bl;
        size_t nl = len - bl;
        if ((nl == 1 && (n[0] == '2' || n[0] == '3' || n[0] == '4' || n[0] == '8')) ||
            (nl == 2 && n[0] == '1' && n[1] == '6'))
            return 1;
    }
    return 0;
}

int clhl_word_style(const char *w, size_t len) {
    if (in_list(keywords, w, len)) return ST_KEYWORD | ST_A_BOLD;
    if (in_list(qualifiers, w, len)) return ST_QUAL | ST_A_BOLD;
    if (in_list(scalar_types, w, len) || is_vector_type(w, len)) return ST_TYPE;
    if (in_list(builtins, w, len)) return ST_BUILTIN;
    for (int i = 0; builtin_prefixes[i]; i++) {
        size_t pl = strlen(builtin_prefixes[i]);
        if (len > pl && !strncmp(w, builtin_prefixes[i], pl)) return ST_BUILTIN;
    }
    return ST_NORMAL;
}

/* Appends text with tabs expanded; col tracks the display column. */
static void add_expanded(st_line *out, int style, const char *t, size_t n, int *col, int tab) {
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '\t' || t[i] == '\r') {
            if (i > start) {
                st_line_add(out, style, t + start, i - start);
                *col += st_width(t + start, i - start);
            }
            if (t[i] == '\t') {
                int spaces = tab - (*col % tab);
                st_line_add(out, style, "        ", (size_t)(spaces > 8 ? 8 : spaces));
                *col += spaces;
            }
            start = i + 1;
        }
    }
    if (n > start) {
        st_line_add(out, style, t + start, n - start);
        *col += st_width(t + start, n - start);
    }
}

void clhl_line(st_line *out, const char *s, size_t len, int *state, int tab) {
    if (tab <= 0) tab = 4;
    int col = 0;
    size_t i = 0;
    if (!out->text) st_line_add(out, ST_NORMAL, "", 0);
    /* a preprocessor line (outside a comment) */
    if (!*state) {
        size_t k = 0;
        while (k < len && (s[k] == ' ' || s[k] == '\t')) k++;
        if (k < len && s[k] == '#') {
            const char *cm = NULL;
            for (size_t j = k; j + 1 < len; j++)
                if (s[j] == '/' && (s[j + 1] == '/' || s[j + 1] == '*')) { cm = s + j; break; }
            size_t end = cm ? (size_t)(cm - s) : len;
            add_expanded(out, ST_PREPROC, s, end, &col, tab);
            if (cm) {
                int in_block = cm[1] == '*';
                add_expanded(out, ST_COMMENT | ST_A_ITALIC, cm, len - end, &col, tab);
                if (in_block) {
                    const char *close = NULL;
                    for (size_t j = end + 2; j + 1 < len; j++)
                        if (s[j] == '*' && s[j + 1] == '/') close = s + j;
                    *state = close ? 0 : 1;
                }
            }
            return;
        }
    }
    while (i < len) {
        if (*state) {
            size_t j = i;
            while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/')) j++;
            if (j + 1 < len) {
                add_expanded(out, ST_COMMENT | ST_A_ITALIC, s + i, j + 2 - i, &col, tab);
                i = j + 2;
                *state = 0;
            } else {
                add_expanded(out, ST_COMMENT | ST_A_ITALIC, s + i, len - i, &col, tab);
                i = len;
            }
            continue;
        }
        char c = s[i];
        if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            add_expanded(out, ST_COMMENT | ST_A_ITALIC, s + i, len - i, &col, tab);
            break;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            *state = 1;
            add_expanded(out, ST_COMMENT | ST_A_ITALIC, s + i, 2, &col, tab);
            i += 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < len && s[j] != c) j += (s[j] == '\\' && j + 1 < len) ? 2 : 1;
            if (j < len) j++;
            add_expanded(out, ST_STRING, s + i, j - i, &col, tab);
            i = j;
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
            size_t j = i + 1;
            while (j < len) {
                char d = s[j];
                if (isalnum((unsigned char)d) || d == '.' || d == '_') j++;
                else if ((d == '+' || d == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' ||
                                                    s[j - 1] == 'P') && !(s[i] == '0' && j > i + 1 && (s[i + 1] == 'x' || s[i + 1] == 'X') && (s[j - 1] == 'e' || s[j - 1] == 'E')))
                    j++;
                else break;
            }
            add_expanded(out, ST_NUMBER, s + i, j - i, &col, tab);
            i = j;
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_') {
            size_t j = i + 1;
            while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '_')) j++;
            add_expanded(out, clhl_word_style(s + i, j - i), s + i, j - i, &col, tab);
            i = j;
            continue;
        }
        /* plain text up to the next interesting character */
        size_t j = i + 1;
        while (j < len && !isalnum((unsigned char)s[j]) && s[j] != '_' && s[j] != '"' && s[j] != '\'' &&
               s[j] != '/' && s[j] != '.')
            j++;
        add_expanded(out, ST_NORMAL, s + i, j - i, &col, tab);
        i = j;
    }
}
