/* exitcode — the program's exit statuses, one definition for every layer
 * (the command line, the engine's mapping of a run's outcome, grading). */
#ifndef CLT_EXITCODE_H
#define CLT_EXITCODE_H

/* Exit statuses of the command line (also in the man page, EXIT STATUS). */
enum {
    EXIT_CORRECT = 0,
    EXIT_WRONG = 1,
    EXIT_BUILD = 2,
    EXIT_CRASH = 3,
    EXIT_USAGE = 64,
    EXIT_NO_DEVICE = 69,
};

#endif
