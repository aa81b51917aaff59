/* blob — tagged records a worker writes to a file and the parent reads back. */
#ifndef CLT_BLOB_H
#define CLT_BLOB_H
#include <stddef.h>
#include <stdint.h>

/* Four-character tags, e.g. BLOB_TAG('O','U','T','P'). */
#define BLOB_TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* A record is this header (tag, length), its data, and zeros to 8 bytes. */
#define BLOB_HEADER_BYTES 16

int blob_put(int fd, uint32_t tag, const void *data, size_t len);
int blob_put_str(int fd, uint32_t tag, const char *s);

/* Finds the nth record with this tag (n from 0); returns its data (8-byte
 * aligned when blob is) or NULL. */
const void *blob_get(const char *blob, size_t blob_len, uint32_t tag, int nth, size_t *len);

/* The (first, or nth) record as a malloc'd, NUL-terminated string, or NULL. */
char *blob_get_str(const char *blob, size_t blob_len, uint32_t tag);
char *blob_get_str_at(const char *blob, size_t blob_len, uint32_t tag, int nth);

#endif
