//! The ground floor: what ffind asks of the operating system, and the path bytes every floor
//! above builds and shows. It imports nothing of ffind; everything else may stand on it.
//!
//! - [`Dir`]: a directory descriptor, opened relative to its parent (`openat`), beneath a root
//!   without following links (`openat2` on Linux, one component at a time with `O_NOFOLLOW`
//!   elsewhere and with `--features portable`), or piece by piece past `PATH_MAX`; `fstatat`
//!   (`statx` on 32-bit Linux, whose `stat` keeps 32-bit times: `statx.rs`); the careful read
//!   of small files ([`read_small_file`]: never a FIFO or a device, never past a limit)
//!   (`dir.rs`).
//! - [`Listing`]: a directory's entries into a reused buffer, names borrowed (`listing.rs`): by
//!   raw `getdents64` on Linux; by the C library's `readdir` on macOS and the BSDs, and on Linux
//!   built with `--features portable` (`readdir.rs`, on `stream.rs`); by
//!   `GetFileInformationByHandleEx` on Windows (`windows.rs`, which also holds Windows' `Dir`:
//!   a handle, with everything below it opened relative to it by `NtCreateFile`).
//! - [`Kind`] and [`Stat`]: what an entry is, and its metadata (`kind.rs`).
//! - The descriptor budget and [`DirSlot`], a descriptor shared by the threads that open
//!   subdirectories relative to it (`budget.rs`).
//! - [`reader_identity`]: everything the kernel consults to decide what this process may
//!   read (ids, groups, capabilities, user namespace, security labels), for the memo
//!   (`identity.rs`).
//! - [`ClockReading`]: the realtime clock, with where it stood against the time since boot,
//!   which tells how far it was set back since (`clock.rs`), for the memo's racy rule.
//! - [`Mapped`]: a file mapped read-only, how the directory memo (`--cache`) reads its files
//!   (`mapped.rs`).
//! - [`mount_type`]: a file system's type as the mount table names it (`mounts.rs`).
//! - What the system says of the process: its threads' block reads, its groups, a device's
//!   numbers (`system.rs`).
//! - [`os_str`], [`os_path`], [`os_string`]: path bytes as the system's strings (WTF-8 on
//!   Windows); [`Fault`]: a system error by what it means; what a walker crate's entry says of
//!   the system (its inode, its hidden mark) (`native.rs`).
//! - [`packed`]: names packed as the directory memo keeps a listing, checked once and then
//!   handed out as C strings.
//! - [`path`]: joining a directory's path and a name; [`escape`]: the display form of path
//!   bytes on a terminal and in messages; [`xdg`]: where configuration files live; [`text`]:
//!   a text file written in UTF-16 where UTF-8 was expected.
//!
//! Every `unsafe` block of the project is here and in `exec/sys/`, each with a comment saying
//! why it is sound (`tests/integration/house.rs` holds the rule): `--mpi`'s sends too
//! ([`sends`], with the `mpi` feature). This is also the seam where each
//! system's reader plugs in (the Linux one, the POSIX one; an io_uring reader would too): the
//! walk above sees only [`Dir`], [`Listing`] and [`DirSlot`], and what differs between systems
//! is chosen here by `cfg`, so that no floor above names a system.

mod budget;
mod clock;
#[cfg(unix)]
mod dir;
mod dirent;
pub mod escape;
pub mod help;
mod identity;
mod kind;
mod listing;
mod mapped;
mod mounts;
mod native;
pub mod packed;
pub mod path;
#[cfg(all(unix, any(not(target_os = "linux"), feature = "portable")))]
mod readdir;
#[cfg(feature = "mpi")]
pub mod sends;
#[cfg(all(target_os = "linux", target_pointer_width = "32"))]
mod statx;
#[cfg(all(unix, any(not(target_os = "linux"), feature = "portable")))]
mod stream;
mod system;
pub mod text;
#[cfg(windows)]
mod windows;
/// Windows' `Dir` and its reads stand where `dir.rs` does on Unix.
#[cfg(windows)]
use windows as dir;
pub mod xdg;

pub use budget::{
    fd_budget, fd_slots_left, give_fd_slot, grow_fd_table, raise_fd_limit, set_fd_budget,
    take_fd_slot, DirInUse, DirSlot, Evicted,
};
pub use clock::{BootClock, ClockReading};
pub use dir::{
    fs_magic, is_gone, is_slow_filesystem, own_stat, raw_stat_path, read_small_file, stat_path, Dir,
};
pub use dirent::Listed;
pub use identity::{reader_identity, supervised};
pub use kind::{FullStat, Kind, Stat};
pub use listing::{Listing, FDS_PER_READ};
pub use mapped::{lock_exclusive, Mapped};
pub use mounts::mount_type;
pub use native::{
    hidden_of_entry, marked_hidden, os_path, os_string, Fault, ListedEntry, MARKS_HIDDEN,
};
#[cfg(any(test, feature = "testing"))]
pub use native::{names_not_utf8, symlink};
pub use system::{address_space_limit, blocks_read, device_numbers, one_allocator_arena};

// What the system is and lacks, its users, its console, and the memo's private files: asked
// by the floors above instead of naming a system (`host.rs`, `users.rs`, `console.rs`,
// `private.rs`).
mod console;
mod host;
pub mod private;
mod users;
pub use console::{die_of, enable_ansi_colors, text_output, Endings, CATCH_ENDINGS};
#[cfg(any(test, feature = "testing"))]
pub use host::PARENT_BY_HANDLE;
pub use host::{
    default_separator, device_of, is_null_device, is_separator, pattern_separator, CURRENT_DIR,
    HAS_MEMO, HAS_MPI, SEPARATOR, SYSTEM,
};
pub use users::{effective_uid, group_id, group_name, link_host, user_id, user_name, HAS_OWNERS};

// Opening a file to write without waiting on a FIFO (`open.rs`).
mod open;
pub use open::open_without_waiting;
