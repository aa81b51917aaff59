/* test_config — the lab's settings (/etc/cltutor.conf and the user's file)
 * and the device queue that timing waits in (gpulock). */
#define _DEFAULT_SOURCE
#include "course/config.h"
#include "run/gpulock.h"
#include "suites.h"
#include "base/util.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

static void put_text(const char *path, const char *text) {
    ck_assert_int_eq(util_write_file_atomic(path, text, strlen(text)), 0);
}

START_TEST(config_layers_and_errors) {
    char dir[] = "/tmp/clt-cfg-XXXXXX", sys[128], user[128], err[1600];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(sys, sizeof sys, "%s/system.conf", dir);
    snprintf(user, sizeof user, "%s/user.conf", dir);
    setenv("CLTUTOR_SYSTEM_CONFIG", sys, 1);
    setenv("CLTUTOR_CONFIG", user, 1);
    config c;
    ck_assert_int_eq(config_load(&c, err, sizeof err), 0); /* neither file: the defaults */
    ck_assert_str_eq(c.device, "");
    ck_assert_double_eq(c.budget_s, 1);
    ck_assert_ptr_nonnull(config_queue_dir(&c));
    ck_assert_int_eq(c.solutions_shown, 1);
    put_text(sys, "; the lab\n[device]\ndefault = 1\n[timing]\nbudget_s = 2.5\n[course]\nsolutions = hidden\n");
    put_text(user, "[device]\ndefault = nvidia\n[course]\nsolutions = shown\n[timing]\nqueue = no\n");
    ck_assert_int_eq(config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.device, "nvidia");       /* the learner's file wins ... */
    ck_assert_double_eq(c.budget_s, 2.5);
    ck_assert_ptr_null(config_queue_dir(&c));
    ck_assert_int_eq(c.solutions_shown, 0);     /* ... except to show what the lab hides */
    put_text(user, "[timing]\n\nbudget_s = lots\n");
    ck_assert_int_eq(config_load(&c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "user.conf:3:") && strstr(err, "budget_s") && strstr(err, "seconds"), "%s", err);
    ck_assert_double_eq(c.budget_s, 2.5);       /* the bad value does not stand */
    put_text(user, "[course]\nsolution = hidden\n");
    ck_assert_int_eq(config_load(&c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "user.conf:2:") && strstr(err, "unknown key"), "%s", err);
    put_text(user, "this is not ini\n");
    ck_assert_int_eq(config_load(&c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "user.conf:1:"), "%s", err);
    unsetenv("CLTUTOR_SYSTEM_CONFIG");
    unsetenv("CLTUTOR_CONFIG");
    unlink(sys);
    unlink(user);
    rmdir(dir);
}
END_TEST

/* Settings fail closed: a value of `solutions` other than shown hides them, every line at fault is named,
 * and a lab's file that says [lab] locked = yes cannot be replaced through CLTUTOR_SYSTEM_CONFIG. */
START_TEST(config_fails_closed) {
    char dir[] = "/tmp/clt-cfg-XXXXXX", lab[128], other[128], user[128], err[1600];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(lab, sizeof lab, "%s/etc.conf", dir);
    snprintf(other, sizeof other, "%s/mine.conf", dir);
    snprintf(user, sizeof user, "%s/user.conf", dir);
    setenv("CLTUTOR_CONFIG", user, 1);
    unsetenv("CLTUTOR_SYSTEM_CONFIG");
    config c;
    const char *const hide[] = {"Hidden", "hide", "HIDDEN", "no", "shwon"};
    for (size_t i = 0; i < sizeof hide / sizeof *hide; i++) {
        char text[128];
        snprintf(text, sizeof text, "[course]\nsolutions = %s\n", hide[i]);
        put_text(lab, text);
        int rc = config_load_lab(&c, lab, err, sizeof err);
        ck_assert_msg(c.solutions_shown == 0, "solutions = %s showed them", hide[i]);
        ck_assert_str_eq(c.solutions_hidden_by, lab);
        /* "Hidden" and "HIDDEN" are "hidden" in another case: accepted; the others are reported */
        ck_assert_int_eq(rc, strcasecmp(hide[i], "hidden") ? -1 : 0);
        if (rc) ck_assert_msg(strstr(err, "etc.conf:2:") && strstr(err, "hidden until"), "%s", err);
    }
    put_text(lab, "[timing]\nbudget_s = lots\nqueue = maybe\n[course]\nsolution = shown\n");
    ck_assert_int_eq(config_load_lab(&c, lab, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "etc.conf:2:") && strstr(err, "etc.conf:3:") && strstr(err, "etc.conf:5:"), "%s", err);
    put_text(user, "[device]\ndefault = nothing-here\nbad line\n");
    ck_assert_int_eq(config_load_lab(&c, lab, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "etc.conf:5:") && strstr(err, "user.conf:3:"), "both files' faults: %s", err);
    unlink(user);
    /* the environment stands in for an unlocked lab file, not for a locked one */
    put_text(lab, "[lab]\nlocked = no\n[course]\nsolutions = hidden\n");
    put_text(other, "[course]\nsolutions = shown\n");
    setenv("CLTUTOR_SYSTEM_CONFIG", other, 1);
    ck_assert_int_eq(config_load_lab(&c, lab, err, sizeof err), 0);
    ck_assert_int_eq(c.solutions_shown, 1);
    ck_assert_str_eq(c.ignored_system_config, "");
    put_text(lab, "[lab]\nlocked = yes\n[course]\nsolutions = hidden\n");
    ck_assert_int_eq(config_load_lab(&c, lab, err, sizeof err), 0);
    ck_assert_int_eq(c.solutions_shown, 0);
    ck_assert_str_eq(c.ignored_system_config, other);
    unsetenv("CLTUTOR_SYSTEM_CONFIG");
    unsetenv("CLTUTOR_CONFIG");
    unlink(lab);
    unlink(other);
    rmdir(dir);
}
END_TEST

START_TEST(gpulock_first_come_first_served) {
    char dir[] = "/tmp/clt-q-XXXXXX", err[512], key[128], cmd[96];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    gpulock_key("Portable Computing Language", "cpu / one", key, sizeof key);
    ck_assert(strchr(key, '/') == NULL && strchr(key, ' ') == NULL);
    gpulock a, b, c;
    int ahead;
    ck_assert_int_eq(gpulock_enqueue(&a, dir, key, err, sizeof err), 0);
    ck_assert_int_eq(gpulock_enqueue(&b, dir, key, err, sizeof err), 0);
    ck_assert_int_eq(gpulock_try(&b, &ahead), 0); /* a came first */
    ck_assert_int_eq(ahead, 1);
    ck_assert_int_eq(gpulock_try(&a, &ahead), 1);
    ck_assert_int_eq(gpulock_enqueue(&c, dir, key, err, sizeof err), 0);
    ck_assert_int_eq(gpulock_try(&c, &ahead), 0);
    ck_assert_int_eq(ahead, 2);                    /* the holder and b */
    gpulock_release(&a);
    ck_assert_int_eq(gpulock_try(&c, &ahead), 0);  /* b before c, still */
    ck_assert_int_eq(ahead, 1);
    ck_assert_int_eq(gpulock_try(&b, &ahead), 1);
    /* a waiter that dies frees its place: c's wait ends with b */
    pid_t pid = fork();
    if (pid == 0) {
        gpulock d;
        _exit(gpulock_enqueue(&d, dir, key, err, sizeof err) == 0 ? 0 : 1); /* exits holding a ticket */
    }
    int st;
    waitpid(pid, &st, 0);
    gpulock_release(&b);
    ck_assert_int_eq(gpulock_try(&c, &ahead), 1);
    gpulock_release(&c);
    gpulock_release(&c); /* twice is harmless */
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *config_suite(void) {
    Suite *s = suite_create("config");
    TCase *t = tcase_create("config");
    tcase_add_test(t, config_layers_and_errors);
    tcase_add_test(t, config_fails_closed);
    tcase_add_test(t, gpulock_first_come_first_served);
    suite_add_tcase(s, t);
    return s;
}
