/* main — runs every unit-test suite; a suite listed here and missing fails the build. */
#include "suites.h"
#include <stdlib.h>

int main(void) {
    Suite *(*const makers[])(void) = {core_suite,     surf_suite,    engine_suite, bytes_suite,
                                      scan_suite,     integral_suite, tui_suite,   gpumodel_suite,
                                      verdict_suite,  wproto_suite,  srcpolicy_suite, limits_suite,   progress_suite,
                                      config_suite,   uiapp_suite,   gmdraw_suite,  peers_suite,    unpack_suite,
                                      predict_suite,  runcache_suite, gmsample_suite, similarity_suite, html_suite,
                                      kcomment_suite};
    SRunner *sr = NULL;
    for (size_t i = 0; i < sizeof makers / sizeof makers[0]; i++) {
        if (!sr) sr = srunner_create(makers[i]());
        else srunner_add_suite(sr, makers[i]());
    }
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
