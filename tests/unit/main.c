/* main — runs every unit-test suite that is linked in. */
#include "suites.h"
#include <stdlib.h>

/* Weak so that a suite still being written does not break the build. */
#pragma weak bytes_suite
#pragma weak scan_suite
#pragma weak integral_suite
#pragma weak tui_suite
#pragma weak gpumodel_suite

int main(void) {
    Suite *(*const makers[])(void) = {core_suite,     surf_suite,    engine_suite, bytes_suite,
                                      scan_suite,     integral_suite, tui_suite,   gpumodel_suite,
                                      verdict_suite,  wproto_suite,  srcpolicy_suite, limits_suite,   progress_suite,
                                      config_suite};
    SRunner *sr = NULL;
    for (size_t i = 0; i < sizeof makers / sizeof makers[0]; i++) {
        if (!makers[i]) continue;
        if (!sr) sr = srunner_create(makers[i]());
        else srunner_add_suite(sr, makers[i]());
    }
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
