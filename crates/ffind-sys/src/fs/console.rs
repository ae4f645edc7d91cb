//! What ffind needs of the terminal it writes to, on each system: escape sequences switched on
//! (a Windows console shows them only once asked to), the signals that end a process at a
//! terminal, caught so that colours are ended first (`output/interrupted.rs`), and results as
//! text the system's readers take.

use std::io::{self, Write};

/// Whether escape sequences written to stdout are shown as colours: always on Unix. On
/// Windows, as fd does (nu-ansi-term's `enable_ansi_support`): the console's virtual-terminal
/// processing switched on (Windows 10 1511 and later), or `TERM` set (mintty, MSYS2, Cygwin
/// and other terminals that read escape sequences themselves).
pub fn enable_ansi_colors() -> bool {
    #[cfg(unix)]
    {
        true
    }
    #[cfg(windows)]
    {
        use windows_sys::Win32::System::Console::{
            GetConsoleMode, GetStdHandle, SetConsoleMode, ENABLE_VIRTUAL_TERMINAL_PROCESSING,
            STD_OUTPUT_HANDLE,
        };
        // SAFETY: the standard output's handle (or null, or INVALID_HANDLE_VALUE, which both
        // calls refuse); `mode` is a valid place for the console mode.
        let vt = unsafe {
            let out = GetStdHandle(STD_OUTPUT_HANDLE);
            let mut mode = 0;
            GetConsoleMode(out, &mut mode) != 0
                && (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0
                    || SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0)
        };
        vt || std::env::var_os("TERM").is_some()
    }
}

/// The writer of the results (stdout, `--output`'s file), as text of this system: the bytes
/// as they are on Unix. On Windows, names are WTF-8, and a name that is not valid Unicode (a
/// lone surrogate, which NTFS allows) would make the console writer fail and be no UTF-8 to
/// any reader: it is written with U+FFFD in its place, as fd writes `to_string_lossy`. (On a
/// console such a name is escaped before it gets here: `\xED\xA0\x80`.)
pub fn text_output(out: Box<dyn Write + Send>) -> Box<dyn Write + Send> {
    #[cfg(unix)]
    {
        out
    }
    #[cfg(windows)]
    {
        Box::new(Lossy {
            out,
            held: Vec::new(),
        })
    }
}

/// A writer that replaces WTF-8's surrogates (`ED A0..BF xx`) with U+FFFD (`EF BF BD`), the
/// same length: a surrogate cut by a write's end is held until the next write.
#[cfg_attr(unix, allow(dead_code))]
struct Lossy {
    out: Box<dyn Write + Send>,
    /// The start of a surrogate the last write ended in (one or two bytes).
    held: Vec<u8>,
}

#[cfg_attr(unix, allow(dead_code))]
impl Lossy {
    /// Where the bytes of `buf` that may start a surrogate cut short begin.
    fn cut(buf: &[u8]) -> usize {
        match buf {
            [.., 0xED] => buf.len() - 1,
            [.., 0xED, b] if (0xA0..=0xBF).contains(b) => buf.len() - 2,
            _ => buf.len(),
        }
    }
}

impl Write for Lossy {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut text = std::mem::take(&mut self.held);
        text.extend_from_slice(buf);
        let end = Self::cut(&text);
        self.held = text[end..].to_vec();
        text.truncate(end);
        let mut i = 0;
        while let Some(at) = memchr::memchr(0xED, &text[i..]) {
            let at = i + at;
            if text.get(at + 1).is_some_and(|b| (0xA0..=0xBF).contains(b)) && at + 2 < text.len() {
                text[at..at + 3].copy_from_slice("\u{FFFD}".as_bytes());
                i = at + 3;
            } else {
                i = at + 1;
            }
        }
        self.out.write_all(&text)
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.held.is_empty() {
            let held = std::mem::take(&mut self.held);
            self.out.write_all(&held)?;
        }
        self.out.flush()
    }
}

/// Whether the signals that end a process at a terminal must be caught by every search, not
/// only one whose colors need ending: on Windows, where a Ctrl-C ends the process from the
/// console's thread while the walk's threads still read, which Wine's process exit waits on
/// for ever now and then (`.ci/wine/ctrl_c.py` found 2 of 16 so); caught, the walk is stopped
/// and its threads end first. On Unix the signal ends every thread at once.
pub const CATCH_ENDINGS: bool = cfg!(windows);

/// The signals that end a process at a terminal (SIGINT, SIGTERM, SIGHUP, SIGQUIT on Unix;
/// the console's Ctrl-C and Ctrl-Break on Windows), caught: they no longer end ffind until
/// [`die_of`] says so.
pub struct Endings {
    #[cfg(unix)]
    signals: signal_hook::iterator::Signals,
    #[cfg(windows)]
    seen: usize,
}

#[cfg(windows)]
mod caught {
    //! The Windows side of [`super::Endings`]: the console calls its control handler on a
    //! thread of its own for Ctrl-C and Ctrl-Break, which counts the event and wakes the
    //! watching thread. (Not through the C runtime's `signal`: under Wine its console handler
    //! jumped to address 2 on Ctrl-C, a crash every time.)
    use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
    use std::sync::OnceLock;
    use std::thread::Thread;

    use windows_sys::core::BOOL;
    use windows_sys::Win32::System::Console::{CTRL_BREAK_EVENT, CTRL_C_EVENT};

    pub static COUNT: AtomicUsize = AtomicUsize::new(0);
    pub static LAST: AtomicI32 = AtomicI32::new(0);
    pub static WATCHER: OnceLock<Thread> = OnceLock::new();

    pub fn note(sig: i32) {
        LAST.store(sig, Ordering::SeqCst);
        COUNT.fetch_add(1, Ordering::SeqCst);
        if let Some(t) = WATCHER.get() {
            t.unpark();
        }
    }

    /// The console control handler: Ctrl-C as SIGINT, Ctrl-Break as SIGBREAK, handled; any
    /// other event (the console closing) left to the next handler, the system's.
    ///
    /// # Safety
    ///
    /// Called by the system only, as `SetConsoleCtrlHandler`'s handler (it reads no pointer).
    pub unsafe extern "system" fn on_event(event: u32) -> BOOL {
        match event {
            CTRL_C_EVENT => note(signal_hook::consts::SIGINT),
            CTRL_BREAK_EVENT => note(signal_hook::consts::SIGBREAK),
            _ => return 0,
        }
        1
    }
}

impl Endings {
    /// Catches the signals from now on.
    pub fn catch() -> io::Result<Endings> {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
            let signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT])?;
            Ok(Endings { signals })
        }
        #[cfg(windows)]
        {
            use windows_sys::Win32::System::Console::SetConsoleCtrlHandler;
            // SAFETY: the handler is a plain function that lives as long as the process, and
            // only stores to atomics and unparks a thread, on the ordinary thread the console
            // runs it on.
            if unsafe { SetConsoleCtrlHandler(Some(caught::on_event), 1) } == 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(Endings { seen: 0 })
        }
    }

    /// Waits for the first signal: its number (`None` if none can come any more).
    pub fn wait(&mut self) -> Option<i32> {
        #[cfg(unix)]
        {
            self.signals.forever().next()
        }
        #[cfg(windows)]
        {
            use std::sync::atomic::Ordering;
            let _ = caught::WATCHER.set(std::thread::current());
            while caught::COUNT.load(Ordering::SeqCst) == self.seen {
                std::thread::park();
            }
            self.seen = caught::COUNT.load(Ordering::SeqCst);
            Some(caught::LAST.load(Ordering::SeqCst))
        }
    }

    /// Whether another signal came since the last asked for.
    pub fn another(&mut self) -> bool {
        #[cfg(unix)]
        {
            self.signals.pending().next().is_some()
        }
        #[cfg(windows)]
        {
            caught::COUNT.load(std::sync::atomic::Ordering::SeqCst) != self.seen
        }
    }
}

/// Ends the process as signal `sig` would have: by the signal itself on Unix (a shell sees
/// 128 + its number), with exit status 130 for Ctrl-C on Windows (fd's, 128 + SIGINT).
pub fn die_of(sig: i32) -> ! {
    #[cfg(unix)]
    {
        let _ = signal_hook::low_level::emulate_default_handler(sig);
    }
    std::process::exit(128 + sig)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects what a [`Lossy`] writes.
    #[derive(Clone, Default)]
    struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lone_surrogates_become_replacement_characters_even_cut_by_a_write() {
        let sink = Sink::default();
        let mut w = Lossy {
            out: Box::new(sink.clone()),
            held: Vec::new(),
        };
        w.write_all(b"a\xED\xA0\x80b\xED").unwrap();
        w.write_all(b"\xB0").unwrap();
        w.write_all(b"\x80\n\xED\x9F\xBF\n").unwrap();
        w.flush().unwrap();
        assert_eq!(
            *sink.0.lock().unwrap(),
            "a\u{FFFD}b\u{FFFD}\n\u{D7FF}\n".as_bytes()
        );
    }
}
