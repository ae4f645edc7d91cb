//! The method table: every traversal method, one line each, with what it can do and its
//! `--method` help. Everything else that lists methods is made from it: the enum the command
//! line parses into ([`Method`]), the dispatch and the methods' modules (`walk/mod.rs`),
//! `--method`'s values and help, what `--order`, `-j` and `--cache` say of the methods, the
//! benchmark's `--methods`, and `ffind --list-methods` (hidden), which the tests and
//! `benches/suites.py` read.
//!
//! It is data, no walk code: it stands on the configuration's floor
//! (`tests/integration/layers.rs`), so that the command line and the configuration can name a
//! method while the methods and the dispatch stand above them.

/// The table, handed to the macro `$then`, which makes something of it: [`Method`] and
/// [`TABLE`] here, the dispatch in `walk/mod.rs`. One line a method: its variant, its file
/// under `walk/` (which is also its `--method` name, and whose `walk` function walks), its
/// capabilities ([`Capability`]) and its `--method` help.
///
/// Adding a method: a file `walk/NAME.rs` with `pub fn walk(walk: &Walk<'static>)`, and a
/// line here (CONTRIBUTING.md).
macro_rules! each_method {
    ($then:ident) => {
        $then! {
            Serial  serial  [Breadth, OwnReader]                  "One thread reading directories itself";
            Walkdir walkdir []                                    "The walkdir crate, one thread";
            Queue   queue   [Parallel, Breadth, OwnReader]        "A work queue of directories served by --concurrency workers";
            Rayon   rayon   [Parallel, Breadth, OwnReader, Stealing] "Rayon's work stealing, one task per directory";
            Jwalk   jwalk   [Parallel, Stealing]                  "The jwalk crate";
            Ignore  ignore  [Parallel, Stealing]                  "The ignore crate's parallel walker (fd's engine)";
        }
    };
}
pub(crate) use each_method;

/// The method `--method auto` stands for.
pub const AUTO: Method = Method::Queue;

/// What a method can do, as the table declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// Walks with `--concurrency` threads (the others use one, whatever `-j` says).
    Parallel,
    /// Can walk breadth first (`--order breadth`): it schedules directories itself. The walker
    /// crates walk depth first only (walkdir and jwalk have no other order; the ignore crate's
    /// workers keep LIFO deques, on purpose).
    Breadth,
    /// Reads directories with ffind's own reader (`walk/scan.rs`), where the directory memo
    /// plugs in: so it takes `--cache`. The others read by path through their crate.
    OwnReader,
    /// A work-stealing pool, which uses at most `walk::threads::STEALING_MAX` threads (its
    /// scheduler slows down with more).
    Stealing,
}

impl Capability {
    /// Every capability, in the order `--list-methods` prints them.
    pub const ALL: [Capability; 4] = [
        Capability::Parallel,
        Capability::Breadth,
        Capability::OwnReader,
        Capability::Stealing,
    ];

    /// Its name in `ffind --list-methods`.
    pub fn name(self) -> &'static str {
        match self {
            Capability::Parallel => "parallel",
            Capability::Breadth => "breadth",
            Capability::OwnReader => "own-reader",
            Capability::Stealing => "stealing",
        }
    }
}

/// One line of the table.
#[derive(Debug)]
pub struct Row {
    pub method: Method,
    /// Its `--method` name (its file's name under `walk/`).
    pub name: &'static str,
    pub capabilities: &'static [Capability],
    /// Its `--method` help.
    pub help: &'static str,
}

macro_rules! declare {
    ($($variant:ident $file:ident [$($capability:ident),*] $help:literal;)*) => {
        /// A traversal method (`--method`; `auto` is [`AUTO`]). Its line in the table says
        /// the rest.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Method {
            $($variant,)*
        }

        /// Every method's line, in the order `--method` lists them.
        pub const TABLE: &[Row] = &[$(Row {
            method: Method::$variant,
            name: stringify!($file),
            capabilities: &[$(Capability::$capability),*],
            help: $help,
        }),*];
    };
}
each_method!(declare);

impl Method {
    /// Every method, in the order `--method` lists them.
    pub fn all() -> impl Iterator<Item = Method> {
        TABLE.iter().map(|row| row.method)
    }

    /// Its line in the table.
    pub fn row(self) -> &'static Row {
        // The table is made from the same list as the enum, in the same order.
        &TABLE[self as usize]
    }

    /// The name `--method` takes.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The method named `name`, if any.
    pub fn named(name: &str) -> Option<Method> {
        Method::all().find(|m| m.name() == name)
    }

    /// Whether the table says it can do `capability`.
    pub fn can(self, capability: Capability) -> bool {
        self.row().capabilities.contains(&capability)
    }

    /// Whether `--concurrency` changes anything for this method.
    pub fn is_parallel(self) -> bool {
        self.can(Capability::Parallel)
    }

    /// Whether it can walk breadth first (`--order breadth`).
    pub fn walks_breadth_first(self) -> bool {
        self.can(Capability::Breadth)
    }

    /// Whether it takes `--cache`: the memo plugs into ffind's own reader.
    pub fn takes_cache(self) -> bool {
        self.can(Capability::OwnReader)
    }
}

/// The names of the methods that can (`true`) or cannot do `capability`, as prose joined by
/// `last` ("and", "or"): "serial, queue and rayon".
pub fn names_where(capability: Capability, can: bool, last: &str) -> String {
    let names: Vec<&str> = Method::all()
        .filter(|m| m.can(capability) == can)
        .map(Method::name)
        .collect();
    match names.split_last() {
        Some((one, [])) => (*one).to_owned(),
        Some((one, rest)) => format!("{} {last} {one}", rest.join(", ")),
        None => String::new(),
    }
}

/// `ffind --list-methods`: one line a method, its name then its capabilities, tab-separated
/// (`auto` and what it stands for last). What the tests and `benches/suites.py` read.
pub fn listing() -> String {
    let mut out = String::new();
    for row in TABLE {
        out.push_str(row.name);
        for capability in Capability::ALL {
            if row.method.can(capability) {
                out.push('\t');
                out.push_str(capability.name());
            }
        }
        out.push('\n');
    }
    out.push_str("auto\t");
    out.push_str(AUTO.name());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_enums_order() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.method as usize, i);
            assert_eq!(Method::named(row.name), Some(row.method));
        }
        assert_eq!(Method::named("auto"), None);
    }

    #[test]
    fn prose_lists_name_the_methods_that_can() {
        // Taken from the table, so that a new method's line is all it needs.
        for capability in Capability::ALL {
            for can in [true, false] {
                let want: Vec<&str> = TABLE
                    .iter()
                    .filter(|row| row.capabilities.contains(&capability) == can)
                    .map(|row| row.name)
                    .collect();
                let prose = names_where(capability, can, "or");
                let listed = match prose.rsplit_once(" or ") {
                    Some((head, last)) => {
                        let mut names: Vec<&str> = head.split(", ").collect();
                        names.push(last);
                        names
                    }
                    None if prose.is_empty() => vec![],
                    None => vec![prose.as_str()],
                };
                assert_eq!(listed, want, "{capability:?} {can}: {prose:?}");
            }
        }
    }
}
