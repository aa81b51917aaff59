/* i18n — gettext set up for cltutor, and the language switch. The state
 * below is the process's language, which gettext itself keeps per process. */
#define _GNU_SOURCE
#include "text/i18n.h"
#include "base/util.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern int _nl_msg_cat_cntr; /* glibc: bumped to make gettext look at LANGUAGE again (the gettext manual's way) */

static struct {
    char lang[4];            /* "en" or "zh" */
    int started;
    int had_language;        /* the environment's LANGUAGE, to give back to other programs */
    char language[256];
    char dir[1200];          /* where the .mo files are */
} state = {"en", 0, 0, "", ""};

static int has_catalog(const char *dir) {
    char mo[1400];
    if (snprintf(mo, sizeof mo, "%s/zh_CN/LC_MESSAGES/" CLT_TEXT_DOMAIN ".mo", dir) >= (int)sizeof mo) return 0;
    return access(mo, R_OK) == 0;
}

/* The environment's own LANGUAGE, before this module first sets it. */
static void keep_env(void) {
    if (state.started++) return;
    const char *env = getenv("LANGUAGE");
    state.had_language = env != NULL;
    snprintf(state.language, sizeof state.language, "%s", env ? env : "");
}

void i18n_init(const char *exe_dir, const char *localedir) {
    keep_env();
    char cand[2][sizeof state.dir] = {"", ""};
    if (exe_dir && *exe_dir) {
        util_pathf(cand[0], sizeof cand[0], "%s/locale", exe_dir);          /* build/cltutor in a checkout */
        util_pathf(cand[1], sizeof cand[1], "%s/../share/locale", exe_dir); /* PREFIX/bin/cltutor */
    }
    const char *dir = localedir;
    for (int i = 0; i < 2; i++)
        if (cand[i][0] && has_catalog(cand[i])) {
            dir = cand[i];
            break;
        }
    if (!dir || !has_catalog(dir) || util_pathf(state.dir, sizeof state.dir, "%s", dir) != 0) state.dir[0] = '\0';
    bindtextdomain(CLT_TEXT_DOMAIN, dir ? dir : ".");
    bind_textdomain_codeset(CLT_TEXT_DOMAIN, "UTF-8"); /* Chinese even where the terminal's locale is plain C */
    bind_textdomain_codeset("libc", "UTF-8");          /* strerror's words too, not "??????" */
    textdomain(CLT_TEXT_DOMAIN);
    i18n_set_lang(i18n_env_lang());
}

void i18n_set_lang(const char *lang) {
    keep_env();
    int zh = lang && !strcmp(lang, "zh");
    snprintf(state.lang, sizeof state.lang, "%s", zh ? "zh" : "en");
    /* gettext ignores LANGUAGE in the plain C locale: a machine without the
     * zh_CN locale still gets Chinese through C.UTF-8 */
    const char *cur = setlocale(LC_MESSAGES, NULL);
    if (zh && (!cur || !strcmp(cur, "C") || !strcmp(cur, "POSIX"))) setlocale(LC_MESSAGES, "C.UTF-8");
    util_env_lock();
    setenv("LANGUAGE", zh ? "zh_CN" : "en", 1);
    util_env_unlock();
    ++_nl_msg_cat_cntr;
}

const char *i18n_lang(void) { return state.lang; }

const char *i18n_env_lang(void) {
    /* LANGUAGE as it was before i18n_set_lang set it */
    if (state.had_language && state.language[0]) return !strncmp(state.language, "zh", 2) ? "zh" : "en";
    const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return !strncmp(v, "zh", 2) ? "zh" : "en";
    }
    return "en";
}

void i18n_restore_env(void) {
    util_env_lock();
    if (state.had_language) setenv("LANGUAGE", state.language, 1);
    else unsetenv("LANGUAGE");
    util_env_unlock();
}

const char *i18n_tr(const char *msgid) {
    if (!msgid || !*msgid || strcmp(state.lang, "zh")) return msgid;
    return gettext(msgid);
}

const char *i18n_ntr(const char *singular, const char *plural, unsigned long long n) {
    if (strcmp(state.lang, "zh")) return n == 1 ? singular : plural;
    return ngettext(singular, plural, (unsigned long)n);
}

const char *i18n_ctr(const char *context, const char *msgid) {
    if (!msgid || !*msgid || strcmp(state.lang, "zh")) return msgid;
    size_t cl = strlen(context), ml = strlen(msgid);
    char *key = malloc(cl + ml + 2); /* gettext's key for a message in a context: "context\004msgid" */
    if (!key) return msgid;
    memcpy(key, context, cl);
    key[cl] = '\004';
    memcpy(key + cl + 1, msgid, ml + 1);
    const char *t = gettext(key);
    const char *r = t == key ? msgid : t;
    free(key);
    return r;
}

const char *i18n_dir(void) { return state.dir; }
