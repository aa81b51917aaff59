/* ui_view — the terminal's drawing of the course (ui_draw.c): colours and
 * one frame, from the documents ui_frame_prepare built. */
#ifndef CLT_UI_VIEW_H
#define CLT_UI_VIEW_H
#include "ui/ui_app.h"

void ui_colors_init(ui_app *a);
/* Draws the whole screen; reads the state, changes nothing in it. */
void ui_draw(const ui_app *a);

#endif
