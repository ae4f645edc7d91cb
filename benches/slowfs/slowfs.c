// slowfs: a read-only FUSE passthrough that sleeps before answering every request.
//
// It models the "every operation is slow" case of the speed target (a network or FUSE file
// system where each lookup, getattr, opendir, readdir, open and read costs a round trip), so
// the harness can check that more directories in flight than cores keeps helping. It is a
// benchmark fixture, not part of ffind.
//
//   usage: slowfs SOURCE MOUNTPOINT [-o delay_us=N] [-o max_threads=N] [FUSE options]
//
// Kernel caching is switched off (entry, attribute and negative timeouts 0, no readdirplus,
// no page cache for files) so that every run pays the delay, warm or not. The high-level
// libfuse API fills a whole directory on the first READDIR request and serves the rest of
// that open directory from its own buffer: one delay per directory listing, not per 4 KiB.
// Requests run on up to max_threads daemon threads (libfuse's -o max_threads, default 10
// in libfuse; benches/slowfs.sh passes a large value), so N concurrent readers see ~N
// requests served at once, like a remote server with spare capacity.
#define FUSE_USE_VERSION 35
#define _GNU_SOURCE
#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

static struct options {
  unsigned delay_us;
} options = {.delay_us = 1000};

static const struct fuse_opt option_spec[] = {
    {"delay_us=%u", offsetof(struct options, delay_us), 1},
    FUSE_OPT_END,
};

/// The source tree, opened once; every path is resolved relative to it.
static int source_fd = -1;

/// One round trip's worth of latency.
static void slow(void) {
  if (options.delay_us == 0) return;
  struct timespec ts = {.tv_sec = options.delay_us / 1000000,
                        .tv_nsec = (long)(options.delay_us % 1000000) * 1000};
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
  }
}

/// FUSE paths start with '/': make them relative to source_fd.
static const char *rel(const char *path) {
  while (*path == '/') path++;
  return *path ? path : ".";
}

static void *slow_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
  cfg->use_ino = 1;
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  cfg->kernel_cache = 0;
  cfg->direct_io = 0;
  // Plain READDIR: readdirplus would hand the kernel attributes it then cannot cache anyway.
  conn->want &= ~FUSE_CAP_READDIRPLUS;
  return NULL;
}

static int slow_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  slow();
  int r = fi ? fstat((int)fi->fh, st) : fstatat(source_fd, rel(path), st, AT_SYMLINK_NOFOLLOW);
  return r == -1 ? -errno : 0;
}

static int slow_access(const char *path, int mask) {
  slow();
  return faccessat(source_fd, rel(path), mask, 0) == -1 ? -errno : 0;
}

static int slow_readlink(const char *path, char *buf, size_t size) {
  slow();
  ssize_t n = readlinkat(source_fd, rel(path), buf, size - 1);
  if (n == -1) return -errno;
  buf[n] = '\0';
  return 0;
}

static int slow_opendir(const char *path, struct fuse_file_info *fi) {
  slow();
  int fd = openat(source_fd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd == -1) return -errno;
  DIR *dir = fdopendir(fd);
  if (!dir) {
    int e = errno;
    close(fd);
    return -e;
  }
  fi->fh = (uint64_t)(uintptr_t)dir;
  return 0;
}

static int slow_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
                        struct fuse_file_info *fi, enum fuse_readdir_flags flags) {
  (void)path;
  (void)offset;
  (void)flags;
  slow();
  DIR *dir = (DIR *)(uintptr_t)fi->fh;
  rewinddir(dir);
  struct dirent *d;
  errno = 0;
  while ((d = readdir(dir)) != NULL) {
    struct stat st;
    memset(&st, 0, sizeof st);
    st.st_ino = d->d_ino;
    st.st_mode = (mode_t)d->d_type << 12;
    // Offset 0: libfuse buffers the whole listing and pages it out to the kernel itself.
    if (fill(buf, d->d_name, &st, 0, 0)) break;
  }
  return errno ? -errno : 0;
}

static int slow_releasedir(const char *path, struct fuse_file_info *fi) {
  (void)path;
  slow();
  closedir((DIR *)(uintptr_t)fi->fh);
  return 0;
}

static int slow_open(const char *path, struct fuse_file_info *fi) {
  slow();
  if ((fi->flags & O_ACCMODE) != O_RDONLY) return -EROFS;
  int fd = openat(source_fd, rel(path), O_RDONLY | O_CLOEXEC);
  if (fd == -1) return -errno;
  fi->fh = (uint64_t)fd;
  return 0;
}

static int slow_read(const char *path, char *buf, size_t size, off_t offset,
                     struct fuse_file_info *fi) {
  (void)path;
  slow();
  ssize_t n = pread((int)fi->fh, buf, size, offset);
  return n == -1 ? -errno : (int)n;
}

static int slow_release(const char *path, struct fuse_file_info *fi) {
  (void)path;
  slow();
  close((int)fi->fh);
  return 0;
}

static int slow_statfs(const char *path, struct statvfs *st) {
  (void)path;
  slow();
  return fstatvfs(source_fd, st) == -1 ? -errno : 0;
}

static const struct fuse_operations slow_ops = {
    .init = slow_init,
    .getattr = slow_getattr,
    .access = slow_access,
    .readlink = slow_readlink,
    .opendir = slow_opendir,
    .readdir = slow_readdir,
    .releasedir = slow_releasedir,
    .open = slow_open,
    .read = slow_read,
    .release = slow_release,
    .statfs = slow_statfs,
};

int main(int argc, char *argv[]) {
  // The first non-option argument is the source tree; the rest goes to libfuse.
  int src = 0;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-') {
      if (strcmp(argv[i], "-o") == 0) i++;
      continue;
    }
    src = i;
    break;
  }
  if (!src) {
    fprintf(stderr, "usage: %s SOURCE MOUNTPOINT [-o delay_us=N] [FUSE options]\n", argv[0]);
    return 2;
  }
  source_fd = open(argv[src], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (source_fd == -1) {
    fprintf(stderr, "slowfs: %s: %s\n", argv[src], strerror(errno));
    return 1;
  }
  for (int i = src; i < argc; i++) argv[i] = argv[i + 1];  // argv[argc] is NULL
  argc--;

  struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
  if (fuse_opt_parse(&args, &options, option_spec, NULL) == -1) return 2;
  int ret = fuse_main(args.argc, args.argv, &slow_ops, NULL);
  fuse_opt_free_args(&args);
  return ret;
}
