complete -c ffind -l and -d 'Another pattern that every result must match too (repeatable)' -r
complete -c ffind -l ignore-file -d 'Add an ignore file in .gitignore format (repeatable)' -r -F
complete -c ffind -s d -l max-depth -d 'Descend at most this many levels below the search path (its entries are at level 1)' -r
complete -c ffind -l min-depth -d 'Show only entries at least this many levels below the search path' -r
complete -c ffind -l exact-depth -d 'Show only entries exactly this many levels below the search path' -r
complete -c ffind -s E -l exclude -d 'Exclude entries that match this glob, and everything below them (repeatable)' -r
complete -c ffind -l ignore-contain -d 'Skip directories that hold an entry of this name, and everything in them (repeatable)' -r
complete -c ffind -s t -l type -d 'Filter by type (repeatable): f/file, d/dir/directory, l/symlink, x/executable, e/empty, s/socket, p/pipe, b/block-device, c/char-device' -r -f -a "f\t''
file\t''
d\t''
dir\t''
directory\t''
l\t''
symlink\t''
x\t''
executable\t''
e\t''
empty\t''
s\t''
socket\t''
p\t''
pipe\t''
b\t''
block-device\t''
c\t''
char-device\t''"
complete -c ffind -s e -l extension -d 'Filter by extension (repeatable, case-insensitive; "tar.gz" and ".rs" work)' -r
complete -c ffind -s S -l size -d 'Filter by size: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of 1000) and ki, mi, gi, ti (powers of 1024), e.g. +1M, -10k, 500b (repeatable)' -r
complete -c ffind -l changed-within -d 'Only entries modified within this duration ("2weeks", "10h", "1d 2h") or since this date ("2024-06-01", "2024-06-01 12:00:00", "@1717200000")' -r
complete -c ffind -l changed-before -d 'Only entries modified before this date, or longer ago than this duration' -r
complete -c ffind -s o -l owner -d 'Only entries owned by this user and/or group: "user", "user:group", ":group", ids accepted; "!" negates a part ("!root", ":!wheel")' -r
complete -c ffind -l strip-cwd-prefix -d 'Do not print the "./" prefix for entries of the current directory (the default when no PATH is given). WHEN is always (the default), never or auto, and goes after "=": --strip-cwd-prefix=never' -r -f -a "always\t''
never\t''
auto\t''"
complete -c ffind -l sort -d 'Print the results sorted: by path, or by depth (fewer components in the printed path first, then by path)' -r -f -a "path\t'By path, component by component'
depth\t'Shallower entries first, then by path'
none\t'As found, from the first (without --sort, a small search comes sorted, as in fd)'"
complete -c ffind -l order -d 'The order results stream in: depth (the default: each directory\'s subtree as the workers reach it, mostly depth first) or breadth (nearest first: every entry at one depth below its search path before any deeper one)' -r -f -a "depth\t'As the workers reach them, mostly depth first (the default)'
breadth\t'Nearest first: depth by depth below the search path'"
complete -c ffind -l max-buffer-time -d 'How long results are held before they stream, in milliseconds (default 100; 0: they stream from the start): a search that ends within it, with at most 1,000 results, prints them sorted by path, as fd does (fd\'s hidden option of the same name)' -r
complete -c ffind -l max-results -d 'Stop after this many results. Overridden by -1' -r
complete -c ffind -l format -d 'Print each result through a template instead of as its path: {} the path, {/} its file name, {//} its parent directory, {.} the path without extension, {/.} the file name without extension; {{ and }} are literal braces' -r
complete -c ffind -l json-fields -d 'With --json: metadata to add to each object, comma-separated: size (bytes), mtime (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user", "group" when known), nlink, inode' -r -f -a "size\t''
mtime\t''
mode\t''
owner\t''
nlink\t''
inode\t''"
complete -c ffind -l path-separator -d 'Print this instead of "/" between path components (and after directories)' -r
complete -c ffind -s c -l color -d 'When to color results: auto (on a terminal, unless NO_COLOR is set and not empty), always, never. Colors come from LS_COLORS, or fd\'s default theme when it is not set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ffind -l hyperlink -d 'Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors are on; the default when given without a value), always, never (the default)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ffind -s x -l exec -d 'Run a command for each result, -j at a time: every argument after -x, up to a lone \';\', is part of it (put -x last, or end it with \\;)' -r
complete -c ffind -s X -l exec-batch -d 'Run a command once with all the results as arguments (more than once when they do not fit in one command line, or with --batch-size): every argument after -X, up to a lone \';\', is part of it' -r
complete -c ffind -l batch-size -d 'Give each -X command at most this many results (0, the default: as many as fit in a command line)' -r
complete -c ffind -l method -d 'The traversal method. All give the same results; they differ in speed' -r -f -a "auto\t'The fastest method for this machine: currently `queue`'
serial\t'One thread reading directories itself, depth first'
walkdir\t'The walkdir crate, one thread'
queue\t'A work queue of directories served by --concurrency workers'
rayon\t'Rayon\'s work stealing, one task per directory'
jwalk\t'The jwalk crate'
ignore\t'The ignore crate\'s parallel walker (fd\'s engine)'"
complete -c ffind -s j -l concurrency -d 'How many directories are read at once (threads). Default: the number of CPUs, more on network and FUSE file systems. Up to 4096; the rayon, jwalk and ignore methods use at most 64 (their schedulers slow down with more)' -r
complete -c ffind -s C -l base-directory -d 'Change the working directory before searching; results are relative to it' -r -F
complete -c ffind -l search-path -d 'More search paths, for patterns that look like paths (repeatable)' -r -F
complete -c ffind -l output -d 'Write the results to FILE instead of standard output (it is created, or emptied first)' -r -F
complete -c ffind -l gen-completions -d 'Print a shell completion script for SHELL and exit' -r -f -a "bash\t''
elvish\t''
fish\t''
powershell\t''
zsh\t''"
complete -c ffind -s H -l hidden -d 'Include hidden files and directories (names starting with a dot)'
complete -c ffind -l no-hidden -d 'Skip hidden files and directories (the default; overrides --hidden)'
complete -c ffind -s I -l no-ignore -d 'Show entries that ignore files would hide'
complete -c ffind -l ignore -d 'Respect ignore files (the default; overrides --no-ignore)'
complete -c ffind -l no-ignore-vcs -d 'Show entries that git\'s ignore files would hide'
complete -c ffind -l ignore-vcs -d 'Respect git\'s ignore files (the default; overrides --no-ignore-vcs)'
complete -c ffind -l no-ignore-parent -d 'Do not apply the ignore files of the directories above a search path'
complete -c ffind -l ignore-parent -d 'Apply the ignore files above a search path (the default; overrides --no-ignore-parent)'
complete -c ffind -l no-global-ignore-file -d 'Do not read the global ignore file: $XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore), or fd\'s, $XDG_CONFIG_HOME/fd/ignore, when ffind\'s does not exist'
complete -c ffind -l no-require-git -d 'Apply git\'s ignore files even outside a git repository'
complete -c ffind -l require-git -d 'Apply .gitignore files only inside a git work tree (the default)'
complete -c ffind -s u -l unrestricted -d 'Unrestricted: search hidden and ignored entries too (an alias for -HI; may be repeated, as -uu, for fd compatibility)'
complete -c ffind -s s -l case-sensitive -d 'Match case-sensitively'
complete -c ffind -s i -l ignore-case -d 'Match case-insensitively, even when a pattern holds an uppercase letter'
complete -c ffind -s g -l glob -d 'Treat the pattern as a glob ("*.rs") rather than a regular expression'
complete -c ffind -l regex -d 'Treat the pattern as a regular expression (the default; overrides --glob)'
complete -c ffind -s F -l fixed-strings -d 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression'
complete -c ffind -l exact -d 'Match the whole file name (with --full-path, the whole path) exactly: like --fixed-strings, the pattern is literal, but it must be all of the name, not a part'
complete -c ffind -s p -l full-path -d 'Match the pattern against the full absolute path, not just the file name'
complete -c ffind -s L -l follow -d 'Follow symbolic links: list what they point to and descend into linked directories'
complete -c ffind -l no-follow -d 'Do not follow symbolic links (the default; overrides --follow)'
complete -c ffind -l prune -d 'Do not descend into directories that match the search'
complete -c ffind -l one-file-system -d 'Do not descend into directories on another file system than the search path\'s'
complete -c ffind -s 0 -l print0 -d 'Separate results with NUL instead of newline (for xargs -0)'
complete -c ffind -s a -l absolute-path -d 'Print absolute paths. Overridden by --relative-path'
complete -c ffind -l relative-path -d 'Print paths as given, relative to the working directory (the default; overrides -a)'
complete -c ffind -s 1 -d 'Stop after the first result (same as --max-results=1)'
complete -c ffind -s q -l quiet -d 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match'
complete -c ffind -s l -l list-details -d 'List results with details, like \'ls -l\': mode, links, owner, group, size (1024-based units, as ls -h), modification time, path, and "-> target" for symbolic links'
complete -c ffind -l json -d 'Print one JSON object per result and line (NDJSON), for scripts'
complete -c ffind -l mpi -d 'Spread the search over the processes of an MPI job, on as many nodes as it has: mpirun -n N ffind --mpi [OPTIONS] [PATTERN] [PATH]... (or srun)'
complete -c ffind -l no-config -d 'Do not read the config file of default options ($FFIND_CONFIG_PATH, else $XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config)'
complete -c ffind -l no-errors -d 'Do not show the errors met on the way: an unreadable directory, a symbolic link loop, an ignore file that cannot be read'
complete -c ffind -l show-errors -d 'Show file-system errors (the default: unlike fd, ffind always reports them on stderr, and exits with 1 after them); undoes --no-errors'
complete -c ffind -l gen-man -d 'Print the manual page (roff, for doc/ffind.1) and exit'
complete -c ffind -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ffind -s V -l version -d 'Print version'
