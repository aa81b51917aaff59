/* i18n — the program's words in the learner's language, through GNU
 * gettext: _("text") in the source, po/LANG.po for the translations. The
 * language is the process's (gettext keeps it there): the environment's at
 * the start (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), and the course's switch. */
#ifndef CLT_I18N_H
#define CLT_I18N_H
#include <libintl.h>

#define CLT_TEXT_DOMAIN "cltutor"
/* A message for people; "" stays "" (gettext would give the catalogue's header). */
#define _(s) i18n_tr(s)
/* Marks a string for translation where it is defined; _() translates it where it is shown. */
#define N_(s) s
/* The singular or plural form for n, in the learner's language ("%d run", "%d runs"). */
#define P_(singular, plural, n) i18n_ntr(singular, plural, n)

/* Finds the translations (beside the program in a build, in
 * PREFIX/share/locale when installed, else localedir) and takes the
 * environment's language. exe_dir: the program's folder, or NULL. */
void i18n_init(const char *exe_dir, const char *localedir);
/* "en" or "zh": switches every later _() (the course's L key). */
void i18n_set_lang(const char *lang);
const char *i18n_lang(void);
/* The language the environment asks for: LANGUAGE, then LC_ALL,
 * LC_MESSAGES, LANG (zh... is Chinese, anything else English). */
const char *i18n_env_lang(void);
/* In a child process about to run another program (the editor): the
 * environment's own LANGUAGE back. */
void i18n_restore_env(void);
const char *i18n_tr(const char *msgid);
const char *i18n_ntr(const char *singular, const char *plural, unsigned long long n);
/* The translation of msgid in the catalogue's context (msgctxt), or msgid itself (the same pointer) when there is none. */
const char *i18n_ctr(const char *context, const char *msgid);
/* The folder the translations were found in ("" none). */
const char *i18n_dir(void);

#endif
