/* cli — the command line: list, devices, run, check. */
#ifndef CLT_CLI_H
#define CLT_CLI_H

#define CLT_VERSION "0.1.0"

/* Exit statuses of the command line (also in docs/cli.md). */
enum {
    EXIT_CORRECT = 0,
    EXIT_WRONG = 1,
    EXIT_BUILD = 2,
    EXIT_CRASH = 3,
    EXIT_USAGE = 64,
    EXIT_NO_DEVICE = 69,
};

int cli_main(int argc, char **argv);

#endif
