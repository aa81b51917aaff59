/* version — the program's version, for every layer that shows it. */
#ifndef CLT_VERSION_H
#define CLT_VERSION_H
#define CLT_VERSION "0.1.0"
#endif
