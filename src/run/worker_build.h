/* worker_build — the worker's build modes: WK_BUILD compiles many kernel
 * files in one process, each into a cache folder of its own, so that the
 * runtime's compiler and its built-in library load once, not once a file;
 * WK_BINARY compiles one and hands back the device compiler's binary. */
#ifndef CLT_WORKER_BUILD_H
#define CLT_WORKER_BUILD_H
#include "run/wproto.h"

/* The options every build of a chapter's kernel gets, here and in a run:
 * the runtime's cache knows a program by its text and options together. */
void worker_build_options(const lesson *l, char *buf, size_t len);

/* In the worker: builds each of wr's sources with its options, a W_BUILT
 * record each, then hands back each one's compiled program (W_CACHEFILE,
 * named under its index). It stops after the first file built when the
 * runtime kept nothing of it (a runtime without a program cache gains
 * nothing from building ahead). Nothing of the sources runs. Returns 0, or
 * -1 with a W_MESSAGE when it could not start. */
int worker_build(const wproto_request *wr, int fd, int pfd);

/* In the worker (WK_BINARY): builds the request's one source with its
 * options on the device (NVIDIA's with -cl-nv-verbose, whose log then says
 * each kernel's registers), and hands back W_DEVICE, W_BUILDLOG, W_BUILT
 * and the program binary (W_BINARY, when it is at most
 * WORKER_BINARY_BYTES). Nothing of the source runs. Returns 0, or -1 with a
 * W_MESSAGE when it could not start. */
int worker_binary(const wproto_request *wr, int fd, int pfd);

#endif
