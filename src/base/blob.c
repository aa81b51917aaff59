/* blob — tagged records a worker writes to a file and the parent reads back. */
#define _DEFAULT_SOURCE
#include "base/blob.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Records are padded to 8 bytes so that their data can be read in place. */
static size_t padded(size_t len) { return (len + 7) & ~(size_t)7; }

int blob_put(int fd, uint32_t tag, const void *data, size_t len) {
    static const char zeros[8];
    uint64_t hdr[2] = {tag, len};
    if (write_all(fd, hdr, sizeof hdr) != 0) return -1;
    if (len && write_all(fd, data, len) != 0) return -1;
    return padded(len) > len ? write_all(fd, zeros, padded(len) - len) : 0;
}

int blob_put_str(int fd, uint32_t tag, const char *s) { return blob_put(fd, tag, s ? s : "", s ? strlen(s) : 0); }

const void *blob_get(const char *blob, size_t blob_len, uint32_t tag, int nth, size_t *len) {
    size_t pos = 0;
    while (pos + 16 <= blob_len) {
        uint64_t hdr[2];
        memcpy(hdr, blob + pos, sizeof hdr);
        pos += 16;
        if (hdr[1] > blob_len - pos) return NULL; /* torn: the worker died mid-write */
        if (hdr[0] == tag && nth-- == 0) {
            if (len) *len = (size_t)hdr[1];
            return blob + pos;
        }
        pos += padded((size_t)hdr[1]);
    }
    return NULL;
}

char *blob_get_str(const char *blob, size_t blob_len, uint32_t tag) { return blob_get_str_at(blob, blob_len, tag, 0); }

char *blob_get_str_at(const char *blob, size_t blob_len, uint32_t tag, int nth) {
    size_t len;
    const char *p = blob_get(blob, blob_len, tag, nth, &len);
    if (!p) return NULL;
    char *s = malloc(len + 1);
    if (!s) return NULL;
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}
