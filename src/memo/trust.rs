//! Which file systems' directory times the memo trusts (docs/CACHE.md, "Where it is not
//! used"): local ones that update a directory's mtime and ctime on every create, remove and
//! rename, with fine timestamps, and whose `stat` answers from the file system itself.
//! Everything else is searched without the memo: network file systems (NFS, SMB/CIFS, Ceph,
//! AFS, Lustre: attribute caches answer `stat` for up to a minute without asking the
//! server, other clients' changes come stamped by other clocks), FUSE and 9P (the server
//! decides what mtime says, and the kernel caches it), FAT, exFAT and NTFS drivers
//! (2-second or coarser times, no ctime of their own), and the kernel's own (proc, sysfs),
//! whose directories change without their times.
//!
//! On macOS and the BSDs the file system's type is the name `statfs` gives (`f_fstypename`),
//! which `fs::fs_magic` turns into the Linux number of the same file system: APFS, UFS/FFS and
//! ZFS (and tmpfs) are trusted there, for the same reasons; HFS+, FAT, exFAT, NTFS, NFS, SMB
//! and FUSE (macFUSE, FreeBSD's fusefs) are not, and a type Linux has no number for is not
//! either.

/// The `statfs` magic numbers of the trusted file systems, with their names.
const TRUSTED: [(i64, &str); 14] = [
    (0xEF53, "ext2/3/4"),
    (0x5846_5342, "XFS"),
    (0x9123_683E, "btrfs"),
    (0x0102_1994, "tmpfs"),
    (0x8584_58f6, "ramfs"),
    (0xF2F5_2010, "F2FS"),
    (0x2FC1_2FC1, "ZFS"),
    (0xCA45_1A4E, "bcachefs"),
    (0x794C_7630, "overlayfs"),
    (0x3153_464A, "JFS"),
    (0x5265_4973, "ReiserFS"),
    (0x3434, "NILFS"),
    // Named so by macOS and the BSDs (and Linux's own drivers, when they read them).
    (0x4253_584E, "APFS"),
    (0x0001_1954, "UFS"),
];

/// Names of untrusted file systems, for the message.
const OTHERS: [(i64, &str); 16] = [
    (0x6969, "NFS"),
    (0x517B, "SMB"),
    (0xFE53_4D42, "SMB2"),
    (0xFF53_4D42, "CIFS"),
    (0x6573_5546, "FUSE"),
    (0x0102_1997, "9P"),
    (0x4D44, "FAT"),
    (0x2011_BAB0, "exFAT"),
    (0x5346_544E, "NTFS"),
    (0x00C3_6400, "Ceph"),
    (0x5346_414F, "AFS"),
    (0x0BD0_0BD0, "Lustre"),
    (0x9FA0, "proc"),
    (0x6265_6572, "sysfs"),
    (0x482B, "HFS+"),
    (0x9660, "ISO 9660"),
];

/// The kernel's own file systems, never worth remembering: their directories change without
/// their times, and nobody searches them to find their files again. Searched without the
/// memo and without a word (a search of `/` with `--cache` in the config file said 13
/// warnings every time).
const KERNEL: [i64; 20] = [
    0x9FA0,      // proc
    0x6265_6572, // sysfs
    0x0027_E0EB, // cgroup
    0x6367_7270, // cgroup2
    0x1CD1,      // devpts
    0x6462_6720, // debugfs
    0x7472_6163, // tracefs
    0x7363_6673, // securityfs
    0xCAFE_4A11, // bpf
    0x6165_676C, // pstore
    0x6265_6570, // configfs
    0x1980_0202, // mqueue
    0x9584_58F6, // hugetlbfs
    0x0187,      // autofs
    0x4249_4E4D, // binfmt_misc
    0xDE5E_81E4, // efivarfs
    0xF97C_FF8C, // selinuxfs
    0x6E73_6673, // nsfs
    0x6573_5543, // fusectl
    0x6759_6969, // rpc_pipefs
];

/// Whether the file system of `statfs` magic `magic` is the kernel's own (see [`KERNEL`]).
pub fn kernel_own(magic: i64) -> bool {
    KERNEL.contains(&magic)
}

/// Whether the file system of `statfs` magic `magic` is trusted.
pub fn trusted(magic: i64) -> bool {
    TRUSTED.iter().any(|(m, _)| *m == magic)
}

/// The name of the file system of magic `magic`.
pub fn name(magic: i64) -> String {
    TRUSTED
        .iter()
        .chain(OTHERS.iter())
        .find(|(m, _)| *m == magic)
        .map_or_else(
            || "a file system ffind does not know".into(),
            |(_, n)| (*n).into(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apfs_ufs_and_zfs_are_trusted_hfs_plus_is_not() {
        // The numbers fs::fs_magic gives for statfs's "apfs", "ufs" and "zfs" on macOS and
        // the BSDs, and for "hfs".
        for (magic, fs) in [
            (0x4253_584E, "APFS"),
            (0x0001_1954, "UFS"),
            (0x2FC1_2FC1, "ZFS"),
        ] {
            assert!(trusted(magic), "{fs}");
            assert_eq!(name(magic), fs);
        }
        assert!(!trusted(0x482B));
        assert_eq!(name(0x482B), "HFS+");
    }
}
