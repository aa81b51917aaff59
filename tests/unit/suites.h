/* suites — every Check suite of the unit tests; main.c runs those linked in. */
#ifndef CLT_TEST_SUITES_H
#define CLT_TEST_SUITES_H
#include <check.h>

/* Path of the source tree's lessons/ folder, for tests that read the course. */
#ifndef CLT_TEST_ROOT
#define CLT_TEST_ROOT "."
#endif

Suite *core_suite(void);
Suite *surf_suite(void);
Suite *engine_suite(void);
Suite *bytes_suite(void);
Suite *scan_suite(void);
Suite *integral_suite(void);
Suite *tui_suite(void);
Suite *gpumodel_suite(void);
Suite *verdict_suite(void);
Suite *wproto_suite(void);
Suite *srcpolicy_suite(void);
Suite *limits_suite(void);
Suite *progress_suite(void);
Suite *config_suite(void);
Suite *uiapp_suite(void);
Suite *gmdraw_suite(void);
Suite *peers_suite(void);
Suite *unpack_suite(void);
Suite *predict_suite(void);
Suite *runcache_suite(void);
Suite *gmsample_suite(void);
Suite *similarity_suite(void);
Suite *html_suite(void);
Suite *kcomment_suite(void);

#endif
