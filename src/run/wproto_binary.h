/* wproto_binary — a kernel compiled by the device's own OpenCL compiler in
 * a confined worker (WK_BINARY), its program binary handed back: NVIDIA's
 * driver gives PTX, what its GPU will run. Nothing of the kernel runs. */
#ifndef CLT_WPROTO_BINARY_H
#define CLT_WPROTO_BINARY_H
#include <stddef.h>

#include "course/catalog.h"
#include "run/engine.h"

typedef struct {
    engine_device device;        /* the device whose compiler built it */
    int built;                   /* the build succeeded */
    char *binary;                /* the program binary with a NUL after it; NULL: none handed back */
    size_t len;                  /* its bytes, without that NUL */
    char *log;                   /* the build log, naming the kernel file as display does; NULL: none */
} wproto_binary_result;

/* Builds kernel_path with the chapter's build options on the device of
 * device_spec (NULL: the default). Returns 0 with out filled, built or not;
 * 69 when the spec names no device or none opens (err says which); -1 with
 * err when the file cannot be read or no worker could start. */
int wproto_binary(const lesson *l, const char *kernel_path, const char *display, const char *device_spec,
                  wproto_binary_result *out, char *err, size_t errlen);
void wproto_binary_free(wproto_binary_result *r);

#endif
