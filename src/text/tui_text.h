/* tui_text — the terminal UI's words in English and Chinese: tui_tr() maps an
 * English string to the current language; the default follows the locale. */
#ifndef CLT_TUI_TEXT_H
#define CLT_TUI_TEXT_H

/* "en" or "zh". */
void tui_text_set_lang(const char *lang);
const char *tui_text_lang(void);
/* The language the environment asks for: LC_ALL, LC_MESSAGES, LANG (zh* is Chinese). */
const char *tui_text_default_lang(void);
/* The translation of en in the current language (en itself when there is none). */
const char *tui_tr(const char *en);
/* How many translations there are, and the i-th pair (for tests). */
int tui_text_count(void);
void tui_text_pair(int i, const char **en, const char **zh);

#endif
