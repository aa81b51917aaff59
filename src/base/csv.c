/* csv — fields of a CSV file as spreadsheets read them */
#include "base/csv.h"

#include "base/util.h"

#include <ctype.h>
#include <string.h>

int csv_formula_like(const char *s) {
    if (!s[0]) return 0;
    if (strchr("=@\t\r", s[0])) return 1;
    if (s[0] != '+' && s[0] != '-') return 0;
    for (const char *p = s + 1; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr(" ._-", *p) && !((unsigned char)*p & 0x80)) return 1;
    return 0;
}

void csv_field(char **out, const char *s) {
    int lead = csv_formula_like(s);
    if (!lead && !strpbrk(s, ",\"\n\r")) {
        util_sappend(out, "%s", s);
        return;
    }
    util_sappend(out, "\"%s", lead ? "'" : "");
    for (const char *p = s; *p; p++) util_sappend(out, *p == '"' ? "\"\"" : "%c", *p);
    util_sappend(out, "\"");
}
