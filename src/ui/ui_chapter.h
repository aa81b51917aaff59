/* ui_chapter — the course's controller for the open chapter (ui_chapter.c),
 * and what its files share: for src/ui only. */
#ifndef CLT_UI_CHAPTER_H
#define CLT_UI_CHAPTER_H
#include "ui/ui_app.h"

void ui_chapter_open(ui_app *a, int index);
void ui_chapter_close(ui_app *a);
/* Reads the kernel file again (and highlights it). */
void ui_chapter_load_kernel(ui_app *a);
/* The lesson's text in the current language (English where it is missing). */
void ui_chapter_load_lesson(ui_app *a);
void ui_chapter_count_failures(ui_app *a);
/* Every tab is built again at the next frame. */
void ui_chapter_mark_dirty(ui_app *a);
/* Starts a run of the kernel now (stopping one under way), or an analysis. */
void ui_chapter_start_run(ui_app *a);
void ui_chapter_start_analysis(ui_app *a);
/* Every visible test, the race check and the technique, in the background. */
void ui_chapter_start_verdict(ui_app *a);
/* Shows file k of the chapter in the kernel pane: 0 its kernel, k its k-th find-the-bug listing. */
void ui_chapter_show_file(ui_app *a, int k);
/* A finished job of the chapter's. */
void ui_chapter_finish_run(ui_app *a, tui_job *job);
void ui_chapter_finish_analysis(ui_app *a, tui_job *job);
void ui_chapter_finish_verdict(ui_app *a, tui_job *job);

/* ui_app.c, for the chapter: */
/* Saves progress; when it cannot, the status line says where and why. */
void ui_app_save_progress(ui_app *a);
/* The --device spec runs use now (NULL: the built-in default). */
const char *ui_device_spec(const ui_app *a, char *buf, size_t len);
/* Takes in the finished jobs. */
void ui_app_handle_jobs(ui_app *a);

#endif
