/* kcomment-pot — the comments of the exercise files as a gettext template:
 * `kcomment-pot FILE...` prints one message (context "exercise comment") a
 * comment, with the file and line it comes from; `make pot` merges them into
 * po/cltutor.pot beside the program's messages (msguniq joins repeats). */
#include "text/kcomment.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

/* msgid as a PO string: one quoted piece a line. */
static void po_string(const char *s) {
    printf("msgid \"\"\n\"");
    for (; *s; s++) {
        if (*s == '\n') printf("\\n\"\n\"");
        else if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if (*s == '\t') printf("\\t");
        else putchar(*s);
    }
    printf("\"\n");
}

static void entry(void *file, const char *msgid, int line) {
    printf("\n#: %s:%d\nmsgctxt \"%s\"\n", (const char *)file, line, KCOMMENT_CONTEXT);
    po_string(msgid);
    printf("msgstr \"\"\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: kcomment-pot FILE.cl...\n");
        return 2;
    }
    printf("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n");
    for (int i = 1; i < argc; i++) {
        char *text = util_read_file(argv[i], NULL);
        if (!text || kcomment_each(text, entry, argv[i]) != 0) {
            fprintf(stderr, "kcomment-pot: %s: cannot read it\n", argv[i]);
            free(text);
            return 1;
        }
        free(text);
    }
    return 0;
}
