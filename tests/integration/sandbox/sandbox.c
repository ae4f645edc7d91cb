/* A program run inside a sandbox, for tests/integration/cache_sandbox.rs: the restrictions
 * named on the command line, in order, then exec of the program after `--`.
 *
 *   sandbox [nnp] [landlock DIR...] [seccomp-allow | seccomp-deny-getdents] -- PROGRAM ARG...
 *
 * nnp: no_new_privs (needed by the others for a process without CAP_SYS_ADMIN).
 * landlock DIR...: a Landlock domain that handles listing directories only
 *   (LANDLOCK_ACCESS_FS_READ_DIR), allowed beneath each DIR (absolute paths).
 * seccomp-allow: a seccomp filter that allows every call.
 * seccomp-deny-getdents: one that fails getdents64 (and getdents) with EPERM.
 * Exits 3 when the kernel has no Landlock or seccomp filters, 1 on any other failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/audit.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

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
