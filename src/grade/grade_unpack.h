/* grade_unpack — unpacks a .zip or .tar.gz handed in by a student into a fresh folder,
 * refusing what could escape it or fill the disk (libarchive reads, we write). */
#ifndef CLT_GRADE_UNPACK_H
#define CLT_GRADE_UNPACK_H
#include <stddef.h>

typedef enum { UNPACK_NONE, UNPACK_ZIP, UNPACK_TAR_GZ } unpack_kind;

typedef struct {
    long long max_bytes;   /* what all the files may hold together, unpacked */
    int max_entries;       /* files and folders */
} unpack_limits;

/* 64 MiB and 2000 entries: far above an exercises/ folder, far below a disk. */
void unpack_limits_default(unpack_limits *l);

/* The archive kind a file name says (.zip, .tar.gz, .tgz, any case), else UNPACK_NONE. */
unpack_kind unpack_kind_of(const char *name);

/* name without its archive extension into buf ("ada.tar.gz" -> "ada"). */
void unpack_stem(const char *name, char *buf, size_t len);

/* The kernel files (*.cl) an archive holds, read from its headers alone
 * (at most max_entries entries are looked at); -1 when it cannot be read. */
int unpack_count_kernels(const char *archive, int max_entries);

/* Unpacks archive into dest (an empty folder that exists). Every entry must be
 * a regular file or a folder with a relative path, no ".." component and no
 * link (symbolic or hard); files are written with O_EXCL | O_NOFOLLOW, so no
 * entry can replace another; entries under __MACOSX/ (macOS's resource forks)
 * are left out. Returns 0, or -1 with the reason in err (the
 * entry's name and what is wrong with it, or the archive's own error); on -1
 * dest may hold part of the archive, for the caller to remove. */
int unpack_archive(const char *archive, const char *dest, const unpack_limits *lim, char *err, size_t errlen);

#endif
