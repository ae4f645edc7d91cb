/* A program run inside a sandbox, for tests/integration/cache_sandbox.rs: the restrictions
 * named on the command line, in order, then exec of the program after `--`.
 *
 *   sandbox [RESTRICTION...] -- PROGRAM ARG...
 *
 * nnp: no_new_privs (needed by the seccomp ones for a process without CAP_SYS_ADMIN).
 * landlock DIR...: a Landlock domain that handles listing directories only
 *   (LANDLOCK_ACCESS_FS_READ_DIR), allowed beneath each DIR (absolute paths).
 * seccomp-allow: a seccomp filter that allows every call.
 * seccomp-deny-getdents: one that fails getdents64 (and getdents) with EPERM.
 * seccomp-deny-nofollow-dirs: one that judges flags: openat with both O_DIRECTORY and
 *   O_NOFOLLOW fails with EACCES (a directory opened by a path that may be a link passes).
 * notify-deny-below DIR: a supervisor in user space (seccomp's user notification, as path
 *   sandboxes do it): open, openat and openat2 of DIR or a path below it (resolved from the
 *   caller's directory descriptor or working directory) fail with EACCES. This process
 *   stays the supervisor and runs the rest as its child.
 * notify-getdents-after N: a supervisor that counts: the first N getdents64 calls pass,
 *   every later one fails with EACCES.
 * userns [UID_MAP GID_MAP] [same FILE]: a new user namespace ("INNER OUTER COUNT" maps
 *   written by this process, which runs the rest as its child; without maps every id reads
 *   as the overflow id inside, as after `unshare -U`); with `same FILE`, one numbered as the
 *   namespace FILE names (written there by the first), as the kernel numbers them again.
 * bpf-lsm-deny DIR: a BPF LSM program on file_open (bpf_lsm.h) failing every open of DIR
 *   by this process and what it execs with EACCES; needs root.
 * become UID: drop to user and group UID with no supplementary groups (after bpf-lsm-deny).
 * A supervisor or a namespace must come last but for nnp and the plain filters before it.
 * Exits 3 when the kernel has no Landlock, seccomp filters or BPF LSM, 1 on any other
 * failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/audit.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <grp.h>

#if defined(__x86_64__)
#define COMPAT_ARCH AUDIT_ARCH_I386
#define COMPAT_GETDENTS64 220
#define COMPAT_GETDENTS 141
#else
/* No second ABI filtered here: an arch no program has. */
#define COMPAT_ARCH 0
#define COMPAT_GETDENTS64 0
#define COMPAT_GETDENTS 0
#endif

static int fail(const char *what, int code) {
    fprintf(stderr, "sandbox: %s: %s\n", what, strerror(errno));
    return code;
}

#include "bpf_lsm.h"

static int seccomp(int deny) {
    struct sock_filter allow_all[] = {
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    /* The filter sees the system call numbers of the calling program's ABI: an i686 build on
     * an x86_64 kernel makes i386 calls, numbered apart (getdents64 220, getdents 141). */
    struct sock_filter deny_getdents[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_ARCH, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_GETDENTS64, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_GETDENTS, 5, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getdents64, 2, 0),
#ifdef SYS_getdents
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getdents, 1, 0),
#else
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getdents64, 1, 0),
#endif
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog prog;
    if (deny) {
        prog.len = sizeof deny_getdents / sizeof deny_getdents[0];
        prog.filter = deny_getdents;
    } else {
        prog.len = sizeof allow_all / sizeof allow_all[0];
        prog.filter = allow_all;
    }
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        return fail("seccomp", errno == EINVAL ? 3 : 1);
    return 0;
}

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define NATIVE_ARCH AUDIT_ARCH_I386
#else
#define NATIVE_ARCH 0
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* The low 32 bits of the system call's argument i (little-endian machines). */
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i))

static int install(struct sock_filter *filter, unsigned short len, unsigned flags) {
    struct sock_fprog prog = {.len = len, .filter = filter};
    int r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
    if (r < 0)
        return -(errno == EINVAL || errno == ENOSYS ? 3 : 1);
    return r;
}

/* openat with O_DIRECTORY and O_NOFOLLOW both set fails with EACCES. */
static int seccomp_nofollow_dirs(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(2)),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, O_DIRECTORY | O_NOFOLLOW),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_DIRECTORY | O_NOFOLLOW, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
    };
    int r = install(filter, sizeof filter / sizeof filter[0], 0);
    if (r < 0)
        return fail("seccomp", -r);
    return 0;
}

/* A filter handing the calls numbered a, b and c to a supervisor: its listener. */
static int notify_filter(int a, int b, int c) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, a, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, b, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, c, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
    };
    return install(filter, sizeof filter / sizeof filter[0], SECCOMP_FILTER_FLAG_NEW_LISTENER);
}

/* One message carrying a descriptor (SCM_RIGHTS) beside one byte: the buffers of both ends. */
struct fd_message {
    char byte;
    struct iovec iov;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    struct msghdr msg;
};

static void fd_message_init(struct fd_message *m) {
    memset(m, 0, sizeof *m);
    m->iov.iov_base = &m->byte;
    m->iov.iov_len = 1;
    m->msg.msg_iov = &m->iov;
    m->msg.msg_iovlen = 1;
    m->msg.msg_control = m->u.buf;
    m->msg.msg_controllen = sizeof m->u.buf;
}

static void send_fd(int sock, int fd) {
    struct fd_message m;
    fd_message_init(&m);
    struct cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    if (sendmsg(sock, &m.msg, 0) != 1)
        _exit(fail("sendmsg", 1));
}

static int recv_fd(int sock) {
    struct fd_message m;
    fd_message_init(&m);
    if (recvmsg(sock, &m.msg, 0) != 1)
        return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m.msg);
    if (!c || c->cmsg_type != SCM_RIGHTS)
        return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof(int));
    return fd;
}

/* The string at address `at` of process `pid`, read a page at a time (a page past it may be
 * unmapped). */
static int read_string(pid_t pid, unsigned long long at, char *out, size_t size) {
    char mem[64];
    snprintf(mem, sizeof mem, "/proc/%d/mem", pid);
    int fd = open(mem, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got + 1 < size) {
        size_t room = 4096 - ((at + got) % 4096);
        if (room > size - 1 - got)
            room = size - 1 - got;
        ssize_t n = pread(fd, out + got, room, (off_t)(at + got));
        if (n <= 0)
            break;
        if (memchr(out + got, 0, n)) {
            got += n;
            close(fd);
            out[size - 1] = 0;
            return 0;
        }
        got += n;
    }
    close(fd);
    return -1;
}

/* The absolute path that open's `path`, relative to the descriptor `dirfd` of process `pid`,
 * names. */
static int resolve(pid_t pid, int dirfd, const char *path, char *out, size_t size) {
    if (path[0] == '/') {
        snprintf(out, size, "%s", path);
        return 0;
    }
    char link[64], base[4096];
    if (dirfd == AT_FDCWD)
        snprintf(link, sizeof link, "/proc/%d/cwd", pid);
    else
        snprintf(link, sizeof link, "/proc/%d/fd/%d", pid, dirfd);
    ssize_t n = readlink(link, base, sizeof base - 1);
    if (n < 0)
        return -1;
    base[n] = 0;
    snprintf(out, size, "%s/%s", base, path);
    return 0;
}

/* Whether `path` is `dir` or below it. */
static int below(const char *path, const char *dir) {
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == 0 || path[n] == '/');
}

/* Forks: the child installs the filter handing calls a, b and c to this process, sends its
 * listener here and goes on (returns 0); this process answers each call (EACCES where
 * `deny_below` names the path's directory, or past `allowed` calls), and when the child is
 * gone exits with its status. */
static int supervise(int a, int b, int c, const char *deny_below, long allowed) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return fail("socketpair", 1);
    pid_t child = fork();
    if (child < 0)
        return fail("fork", 1);
    if (child == 0) {
        close(sv[0]);
        int listener = notify_filter(a, b, c);
        if (listener < 0)
            _exit(fail("seccomp user notification", -listener));
        send_fd(sv[1], listener);
        close(listener);
        close(sv[1]);
        return 0;
    }
    close(sv[1]);
    int listener = recv_fd(sv[0]);
    close(sv[0]);
    if (listener >= 0) {
        struct seccomp_notif_sizes sizes;
        if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
            return fail("SECCOMP_GET_NOTIF_SIZES", 1);
        struct seccomp_notif *req = calloc(1, sizes.seccomp_notif);
        struct seccomp_notif_resp *resp = calloc(1, sizes.seccomp_notif_resp);
        long calls = 0;
        for (;;) {
            struct pollfd p = {.fd = listener, .events = POLLIN};
            if (poll(&p, 1, -1) < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            if (!(p.revents & POLLIN))
                break;
            memset(req, 0, sizes.seccomp_notif);
            if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
                if (errno == EINTR || errno == ENOENT)
                    continue;
                break;
            }
            int deny = 0;
            if (deny_below) {
                int open_call = req->data.nr != SYS_openat && req->data.nr != SYS_openat2;
                int dirfd = open_call ? AT_FDCWD : (int)req->data.args[0];
                unsigned long long at = req->data.args[open_call ? 0 : 1];
                char path[4096], full[8192];
                if (read_string(req->pid, at, path, sizeof path) == 0 &&
                    resolve(req->pid, dirfd, path, full, sizeof full) == 0)
                    deny = below(full, deny_below);
            } else {
                deny = ++calls > allowed;
            }
            memset(resp, 0, sizes.seccomp_notif_resp);
            resp->id = req->id;
            if (deny)
                resp->error = -EACCES;
            else
                resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
            /* ENOENT: the caller is gone (a thread of a program that exited). */
            ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
        }
    }
    int status;
    if (waitpid(child, &status, 0) != child)
        return fail("waitpid", 1);
    if (listener < 0)
        return 1;
    exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

static void write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        exit(fail(path, 1));
    close(fd);
}

/* The inode of process `pid`'s user namespace, as "user:[N]". */
static int namespace_of(pid_t pid, char *out, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/%d/ns/user", pid);
    ssize_t n = readlink(link, out, size - 1);
    if (n < 0)
        return -1;
    out[n] = 0;
    return 0;
}

/* Forks: the child enters a new user namespace and goes on (returns 0) once this process has
 * written its maps (none when uid_map is NULL); this process exits with the child's status.
 * With `same`: the namespace's inode number is written to that file when it does not exist,
 * and else a namespace is made again (the kernel hands a number out again once its namespace
 * is gone) until it has the number the file holds, for 5 s at most. */
static int user_namespace(const char *uid_map, const char *gid_map, const char *same) {
    char want[64] = "";
    if (same) {
        FILE *f = fopen(same, "r");
        if (f) {
            if (!fgets(want, sizeof want, f))
                want[0] = 0;
            fclose(f);
        }
    }
    for (int attempt = 0;; attempt++) {
        int ready[2], go[2];
        if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0)
            return fail("pipe", 1);
        pid_t child = fork();
        if (child < 0)
            return fail("fork", 1);
        char byte = 0;
        if (child == 0) {
            close(ready[0]);
            close(go[1]);
            if (unshare(CLONE_NEWUSER) != 0)
                _exit(fail("unshare(CLONE_NEWUSER)", errno == EPERM || errno == EINVAL ? 3 : 1));
            if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1)
                _exit(1);
            return 0;
        }
        close(ready[1]);
        close(go[0]);
        int status;
        if (read(ready[0], &byte, 1) != 1) {
            waitpid(child, &status, 0);
            exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
        }
        close(ready[0]);
        char have[64];
        if (namespace_of(child, have, sizeof have) != 0)
            return fail("/proc/PID/ns/user", 1);
        /* Other namespaces made meanwhile (tests running beside this one) may hold the
         * number: after 5 s, the namespace made goes on unnumbered (what is tested holds
         * either way; the number makes the two alike to everything /proc shows). */
        if (want[0] && strcmp(want, have) != 0 && attempt < 250) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            close(go[1]);
            usleep(20000);
            continue;
        }
        if (same && !want[0]) {
            FILE *f = fopen(same, "w");
            if (!f || fputs(have, f) < 0 || fclose(f) != 0)
                return fail(same, 1);
        }
        if (uid_map) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/uid_map", child);
            write_file(path, uid_map);
            snprintf(path, sizeof path, "/proc/%d/gid_map", child);
            write_file(path, gid_map);
        }
        if (write(go[1], &byte, 1) != 1)
            return fail("pipe", 1);
        if (waitpid(child, &status, 0) != child)
            return fail("waitpid", 1);
        exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    }
}

int main(int argc, char **argv) {
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "nnp") == 0) {
            if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
                return fail("no_new_privs", 1);
        } else if (strcmp(argv[i], "landlock") == 0) {
            struct landlock_ruleset_attr attr = {.handled_access_fs = LANDLOCK_ACCESS_FS_READ_DIR};
            int ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
            if (ruleset < 0)
                return fail("landlock_create_ruleset", errno == ENOSYS || errno == EOPNOTSUPP ? 3 : 1);
            while (i + 1 < argc && argv[i + 1][0] == '/') {
                i++;
                struct landlock_path_beneath_attr beneath = {
                    .allowed_access = LANDLOCK_ACCESS_FS_READ_DIR,
                    .parent_fd = open(argv[i], O_PATH | O_CLOEXEC),
                };
                if (beneath.parent_fd < 0)
                    return fail(argv[i], 1);
                if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0)
                    return fail("landlock_add_rule", 1);
                close(beneath.parent_fd);
            }
            if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
                return fail("landlock_restrict_self", 1);
            close(ruleset);
        } else if (strcmp(argv[i], "seccomp-allow") == 0) {
            int r = seccomp(0);
            if (r)
                return r;
        } else if (strcmp(argv[i], "seccomp-deny-getdents") == 0) {
            int r = seccomp(1);
            if (r)
                return r;
        } else if (strcmp(argv[i], "seccomp-deny-nofollow-dirs") == 0) {
            int r = seccomp_nofollow_dirs();
            if (r)
                return r;
        } else if (strcmp(argv[i], "notify-deny-below") == 0 && i + 1 < argc) {
            const char *dir = argv[++i];
#ifdef SYS_open
            int r = supervise(SYS_open, SYS_openat, SYS_openat2, dir, 0);
#else
            int r = supervise(SYS_openat, SYS_openat2, SYS_openat2, dir, 0);
#endif
            if (r)
                return r;
        } else if (strcmp(argv[i], "notify-getdents-after") == 0 && i + 1 < argc) {
            long allowed = strtol(argv[++i], NULL, 10);
            int r = supervise(SYS_getdents64, SYS_getdents64, SYS_getdents64, NULL, allowed);
            if (r)
                return r;
        } else if (strcmp(argv[i], "bpf-lsm-deny") == 0 && i + 1 < argc) {
            const char *dir = argv[++i];
            int link = bpf_lsm_deny(dir);
            if (link < 0)
                return 3;
            /* Kept open across exec: the program lasts as long as the command. */
            if (fcntl(link, F_SETFD, 0) != 0)
                return fail("fcntl", 1);
            /* The kernel calls the program only where the BPF LSM is active. */
            int probe = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (probe >= 0 || errno != EACCES) {
                fprintf(stderr, "sandbox: the BPF LSM is not active in this kernel\n");
                return 3;
            }
        } else if (strcmp(argv[i], "become") == 0 && i + 1 < argc) {
            unsigned id = strtoul(argv[++i], NULL, 10);
            if (setgroups(0, NULL) != 0 || setgid(id) != 0 || setuid(id) != 0)
                return fail("become", 1);
        } else if (strcmp(argv[i], "userns") == 0) {
            const char *uid_map = NULL, *gid_map = NULL, *same = NULL;
            if (i + 2 < argc && strcmp(argv[i + 1], "--") != 0 && strcmp(argv[i + 1], "same") != 0) {
                uid_map = argv[++i];
                gid_map = argv[++i];
            }
            if (i + 2 < argc && strcmp(argv[i + 1], "same") == 0) {
                i++;
                same = argv[++i];
            }
            int r = user_namespace(uid_map, gid_map, same);
            if (r)
                return r;
        } else {
            fprintf(stderr, "sandbox: unknown restriction %s\n", argv[i]);
            return 1;
        }
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "sandbox: no program after --\n");
        return 1;
    }
    execv(argv[i + 1], argv + i + 1);
    return fail(argv[i + 1], 1);
}
