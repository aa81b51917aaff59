/* main — cltutor's entry point. */
#define _DEFAULT_SOURCE
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
