/*
 * floor: ffind's speed reference, the least work any listing of a whole tree must do on Linux.
 *
 *   floor [-p] [-s] [-j N] ROOT
 *
 * Per directory: open(2) by its full path, getdents64(2) into a 64 KiB buffer until it is empty,
 * close(2). The kind of each entry comes from d_type (an fstatat(2) only where the file system
 * leaves it DT_UNKNOWN); nothing is allocated per entry, only per directory queued.
 *   -p    print every path below ROOT, one per line (otherwise only the count at the end)
 *   -s    also fstatat(2) every entry, without following links: the floor of a search that
 *         needs metadata (--size, --changed-within, --owner, -l)
 *   -j N  N threads share one stack of directories still to read (default 1)
 *
 * Paths are built in full, so the floor stops at PATH_MAX (the `deep` tree): it is a reference
 * for speed, not for correctness. It is not part of ffind; benches/peers.py builds it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef DT_DIR
#define DT_UNKNOWN 0
#define DT_DIR 4
#endif

enum { DENTS_BUF = 64 * 1024, OUT_BUF = 256 * 1024, MAX_THREADS = 1024 };

struct dent64 {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* The directories still to read: a stack shared by every thread. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t more;
    char **paths;
    size_t len, cap;
    int busy; /* threads reading a directory: the walk ends when none is and the stack is empty */
} todo = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0};

static pthread_mutex_t stdout_lock = PTHREAD_MUTEX_INITIALIZER;
static int opt_print, opt_stat;
static unsigned long long entries_seen;

static void die(const char *what) {
    perror(what);
    exit(2);
}

/* Called with todo.lock held. */
static void todo_push(char *path) {
    if (todo.len == todo.cap) {
        todo.cap = todo.cap ? 2 * todo.cap : 4096;
        todo.paths = realloc(todo.paths, todo.cap * sizeof *todo.paths);
        if (!todo.paths) die("realloc");
    }
    todo.paths[todo.len++] = path;
}

/* The next directory to read, or NULL once the walk is over. Marks the caller busy. */
static char *todo_take(void) {
    pthread_mutex_lock(&todo.lock);
    while (todo.len == 0 && todo.busy > 0) pthread_cond_wait(&todo.more, &todo.lock);
    char *path = NULL;
    if (todo.len > 0) {
        path = todo.paths[--todo.len];
        todo.busy++;
    } else {
        pthread_cond_broadcast(&todo.more); /* nothing left and nobody busy: wake the rest */
    }
    pthread_mutex_unlock(&todo.lock);
    return path;
}

struct out {
    char *buf;
    size_t len;
};

static void out_flush(struct out *o) {
    if (o->len == 0) return;
    pthread_mutex_lock(&stdout_lock);
    fwrite(o->buf, 1, o->len, stdout);
    pthread_mutex_unlock(&stdout_lock);
    o->len = 0;
}

static void out_line(struct out *o, const char *dir, size_t dir_len, const char *name, size_t name_len) {
    if (o->len + dir_len + name_len + 2 > OUT_BUF) out_flush(o);
    memcpy(o->buf + o->len, dir, dir_len);
    o->len += dir_len;
    o->buf[o->len++] = '/';
    memcpy(o->buf + o->len, name, name_len);
    o->len += name_len;
    o->buf[o->len++] = '\n';
}

static int is_dot_or_dotdot(const char *n) {
    return n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0));
}

/* Reads one directory; returns how many entries it had and queues its subdirectories. */
static unsigned long long read_dir(const char *dir, char *dents, struct out *o) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return 0;
    size_t dir_len = strlen(dir);
    unsigned long long seen = 0;
    char *subdirs[64];
    size_t nsub = 0;
    long got;
    while ((got = syscall(SYS_getdents64, fd, dents, DENTS_BUF)) > 0) {
        for (long at = 0; at < got;) {
            struct dent64 *d = (struct dent64 *)(dents + at);
            at += d->reclen;
            if (is_dot_or_dotdot(d->name)) continue;
            size_t name_len = strlen(d->name);
            seen++;
            if (opt_print) out_line(o, dir, dir_len, d->name, name_len);
            int is_dir = d->type == DT_DIR;
            if (opt_stat || d->type == DT_UNKNOWN) {
                struct stat st;
                if (fstatat(fd, d->name, &st, AT_SYMLINK_NOFOLLOW) == 0) is_dir = S_ISDIR(st.st_mode);
            }
            if (!is_dir) continue;
            char *child = malloc(dir_len + name_len + 2);
            if (!child) die("malloc");
            memcpy(child, dir, dir_len);
            child[dir_len] = '/';
            memcpy(child + dir_len + 1, d->name, name_len + 1);
            subdirs[nsub++] = child;
            if (nsub == sizeof subdirs / sizeof *subdirs) { /* hand them over in batches */
                pthread_mutex_lock(&todo.lock);
                for (size_t i = 0; i < nsub; i++) todo_push(subdirs[i]);
                pthread_cond_broadcast(&todo.more);
                pthread_mutex_unlock(&todo.lock);
                nsub = 0;
            }
        }
    }
    close(fd);
    pthread_mutex_lock(&todo.lock);
    for (size_t i = 0; i < nsub; i++) todo_push(subdirs[i]);
    todo.busy--;
    pthread_cond_broadcast(&todo.more);
    pthread_mutex_unlock(&todo.lock);
    return seen;
}

static void *walker(void *unused) {
    (void)unused;
    char *dents = malloc(DENTS_BUF);
    struct out o = {malloc(OUT_BUF), 0};
    if (!dents || !o.buf) die("malloc");
    unsigned long long seen = 0;
    char *dir;
    while ((dir = todo_take()) != NULL) {
        seen += read_dir(dir, dents, &o);
        free(dir);
    }
    out_flush(&o);
    pthread_mutex_lock(&stdout_lock);
    entries_seen += seen;
    pthread_mutex_unlock(&stdout_lock);
    free(dents);
    free(o.buf);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = 1, c;
    while ((c = getopt(argc, argv, "psj:")) != -1) {
        switch (c) {
        case 'p': opt_print = 1; break;
        case 's': opt_stat = 1; break;
        case 'j': threads = atoi(optarg); break;
        default: goto usage;
        }
    }
    if (optind + 1 != argc || threads < 1 || threads > MAX_THREADS) goto usage;

    size_t root_len = strlen(argv[optind]);
    while (root_len > 1 && argv[optind][root_len - 1] == '/') argv[optind][--root_len] = 0;
    char *root = strdup(argv[optind]);
    if (!root) die("strdup");
    todo_push(root);

    pthread_t tid[MAX_THREADS];
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[i], NULL, walker, NULL) != 0) die("pthread_create");
    walker(NULL);
    for (int i = 1; i < threads; i++) pthread_join(tid[i], NULL);

    if (!opt_print) printf("%llu\n", entries_seen);
    return fflush(stdout) == 0 ? 0 : 1;

usage:
    fprintf(stderr, "usage: floor [-p] [-s] [-j N] ROOT\n");
    return 2;
}
