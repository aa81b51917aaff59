/* csv — fields of a CSV file as spreadsheets read them: quoted where needed,
 * and a value a spreadsheet could run as a formula defused with a leading '. */
#ifndef CLT_CSV_H
#define CLT_CSV_H

/* Whether a spreadsheet could take s for a formula: it starts with = @ tab
 * or CR, or with + or - followed by anything but letters, digits, spaces,
 * dots, dashes, underscores and non-ASCII text (a student called -rf stays
 * -rf; -1+1 and +cmd|' ' are defused). */
int csv_formula_like(const char *s);
/* Appends s to *out (util_sappend) as one field. */
void csv_field(char **out, const char *s);

#endif
