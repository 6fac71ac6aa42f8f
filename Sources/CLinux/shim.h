// Linux calls the C library declares only for _GNU_SOURCE, which Swift's Glibc module is built
// without. Nothing to link: they are in the C library itself.
#if defined(__linux__)

// Renames `oldpath` to `newpath` as `renameat` does, with `flags` (glibc 2.28, Linux 3.15).
extern int renameat2(
    int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

#ifndef RENAME_EXCHANGE
// The two names swap files in one step; both must exist.
#define RENAME_EXCHANGE (1 << 1)
#endif

#endif
