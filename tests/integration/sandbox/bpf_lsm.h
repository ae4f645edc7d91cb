/* The sandbox helper's BPF LSM restriction (included by sandbox.c): a program on the LSM hook
 * file_open, loaded and attached by this process, that fails with EACCES every open of one
 * directory (by inode number) made by this process or what it execs (by thread group id,
 * which exec keeps). What a BPF LSM program refuses is invisible to the process it judges:
 * /proc/self/status shows nothing of it. No libbpf: the program is a dozen instructions, and
 * the hook's BTF id and the offsets of file.f_inode and inode.i_ino are read from the
 * kernel's own BTF (/sys/kernel/btf/vmlinux). The program stays attached while its link is
 * open: the link's descriptor is left open across exec, so it lasts as long as the command. */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <sys/stat.h>

static long bpf_call(int cmd, union bpf_attr *attr) {
    return syscall(SYS_bpf, cmd, attr, sizeof *attr);
}

/* The kernel's BTF, read whole; NULL when the kernel has none. */
static char *btf_read(size_t *size) {
    int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 22, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len == cap)
            buf = realloc(buf, cap *= 2);
        ssize_t n = read(fd, buf + len, cap - len);
        if (n <= 0)
            break;
        len += n;
    }
    close(fd);
    *size = len;
    return buf;
}

/* The bytes that follow a type's header, by kind. */
static size_t btf_extra(const struct btf_type *t) {
    unsigned vlen = BTF_INFO_VLEN(t->info);
    switch (BTF_INFO_KIND(t->info)) {
    case BTF_KIND_INT: return 4;
    case BTF_KIND_ARRAY: return sizeof(struct btf_array);
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION: return vlen * sizeof(struct btf_member);
    case BTF_KIND_ENUM: return vlen * sizeof(struct btf_enum);
    case BTF_KIND_FUNC_PROTO: return vlen * sizeof(struct btf_param);
    case BTF_KIND_VAR: return sizeof(struct btf_var);
    case BTF_KIND_DATASEC: return vlen * sizeof(struct btf_var_secinfo);
    case BTF_KIND_DECL_TAG: return sizeof(struct btf_decl_tag);
    case BTF_KIND_ENUM64: return vlen * 12;
    default: return 0;
    }
}

struct btf_index {
    const char *strings;
    const struct btf_type **types; /* by id; types[0] is void */
    unsigned count;
};

static int btf_index(const char *buf, size_t size, struct btf_index *ix) {
    const struct btf_header *h = (const void *)buf;
    if (size < sizeof *h || h->magic != BTF_MAGIC)
        return -1;
    const char *at = buf + h->hdr_len + h->type_off, *end = at + h->type_len;
    ix->strings = buf + h->hdr_len + h->str_off;
    ix->types = calloc(1 << 20, sizeof *ix->types);
    ix->count = 1;
    while (at < end && ix->count < (1 << 20)) {
        const struct btf_type *t = (const void *)at;
        ix->types[ix->count++] = t;
        at += sizeof *t + btf_extra(t);
    }
    return 0;
}

static unsigned btf_find(const struct btf_index *ix, int kind, const char *name) {
    for (unsigned id = 1; id < ix->count; id++) {
        const struct btf_type *t = ix->types[id];
        if ((int)BTF_INFO_KIND(t->info) == kind && strcmp(ix->strings + t->name_off, name) == 0 &&
            (kind != BTF_KIND_STRUCT || BTF_INFO_VLEN(t->info) > 0))
            return id;
    }
    return 0;
}

/* The byte offset of member `name` of struct `id`, looking into anonymous structs and unions;
 * -1 when it has none. */
static long btf_member(const struct btf_index *ix, unsigned id, const char *name) {
    const struct btf_type *t = ix->types[id];
    int kind = BTF_INFO_KIND(t->info);
    if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
        return -1;
    const struct btf_member *m = (const void *)(t + 1);
    for (unsigned i = 0; i < BTF_INFO_VLEN(t->info); i++) {
        long bits = BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
        if (m[i].name_off == 0) {
            long inner = btf_member(ix, m[i].type, name);
            if (inner >= 0)
                return bits / 8 + inner;
        } else if (strcmp(ix->strings + m[i].name_off, name) == 0) {
            return bits / 8;
        }
    }
    return -1;
}

#define INSN(c, d, s, o, i) ((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})

/* Loads and attaches the program refusing opens of `dir` by this thread group; returns the
 * link's descriptor, or -1 after saying why (errno kept). */
static int bpf_lsm_deny(const char *dir) {
    struct stat st;
    if (stat(dir, &st) != 0)
        return -1;
    size_t size = 0;
    char *buf = btf_read(&size);
    struct btf_index ix;
    if (buf == NULL || btf_index(buf, size, &ix) != 0) {
        errno = ENOTSUP;
        fprintf(stderr, "sandbox: no kernel BTF\n");
        return -1;
    }
    unsigned hook = btf_find(&ix, BTF_KIND_FUNC, "bpf_lsm_file_open");
    unsigned file = btf_find(&ix, BTF_KIND_STRUCT, "file");
    unsigned inode = btf_find(&ix, BTF_KIND_STRUCT, "inode");
    long f_inode = file ? btf_member(&ix, file, "f_inode") : -1;
    long i_ino = inode ? btf_member(&ix, inode, "i_ino") : -1;
    if (!hook || f_inode < 0 || i_ino < 0) {
        errno = ENOTSUP;
        fprintf(stderr, "sandbox: the kernel's BTF has no bpf_lsm_file_open, file.f_inode or inode.i_ino\n");
        return -1;
    }
    unsigned long long ino = st.st_ino;
    struct bpf_insn prog[] = {
        /* r6 = the struct file * (the hook's first argument) */
        INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_6, BPF_REG_1, 0, 0),
        /* r0 = bpf_get_current_pid_tgid() >> 32: the thread group id */
        INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid),
        INSN(BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_0, 0, 0, 32),
        INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, getpid()),
        INSN(BPF_JMP | BPF_JNE | BPF_X, BPF_REG_0, BPF_REG_1, 7, 0),
        /* r3 = file->f_inode->i_ino */
        INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_2, BPF_REG_6, f_inode, 0),
        INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_2, i_ino, 0),
        /* r4 = the directory's inode number (a 64-bit immediate: two instructions) */
        INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_4, 0, 0, (int)(unsigned)ino),
        INSN(0, 0, 0, 0, (int)(unsigned)(ino >> 32)),
        INSN(BPF_JMP | BPF_JNE | BPF_X, BPF_REG_3, BPF_REG_4, 2, 0),
        INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, -EACCES),
        INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
        INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
        INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
    };
    static char log[1 << 16];
    union bpf_attr load;
    memset(&load, 0, sizeof load);
    load.prog_type = BPF_PROG_TYPE_LSM;
    load.expected_attach_type = BPF_LSM_MAC;
    load.insns = (unsigned long)prog;
    load.insn_cnt = sizeof prog / sizeof prog[0];
    load.license = (unsigned long)"GPL";
    load.attach_btf_id = hook;
    load.log_buf = (unsigned long)log;
    load.log_size = sizeof log;
    load.log_level = 1;
    int fd = bpf_call(BPF_PROG_LOAD, &load);
    if (fd < 0) {
        int e = errno;
        fprintf(stderr, "sandbox: BPF_PROG_LOAD: %s\n%s", strerror(e), log);
        errno = e;
        return -1;
    }
    union bpf_attr attach;
    memset(&attach, 0, sizeof attach);
    attach.raw_tracepoint.prog_fd = fd;
    int link = bpf_call(BPF_RAW_TRACEPOINT_OPEN, &attach);
    if (link < 0)
        return fail("BPF_RAW_TRACEPOINT_OPEN", 0), -1;
    close(fd);
    free(ix.types);
    free(buf);
    return link;
}
