# ffind --bench [OPTIONS] [PATH]...: the benchmark's options after --bench
function __ffind_bench
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = --bench
end

# ffind -x CMD [ARGS]...: CMD's own completions after CMD
function __ffind_exec_words
    set -l words (commandline -opc)
    set -l at 0
    for i in (seq 2 (count $words))
        if test $at -eq 0
            contains -- $words[$i] -x -X --exec --exec-batch; and set at (math $i + 1)
        else if test "$words[$i]" = ';'
            set at 0
        end
    end
    test $at -gt 0; and test $at -le (count $words); and printf '%s\n' $words[$at..-1]
end

function __ffind_exec
    __ffind_exec_words >/dev/null
end

complete -c ffind -n __ffind_exec -f -a '(__fish_complete_subcommand --commandline (__ffind_exec_words) (commandline -ct | string collect -a))'

complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l and -d 'Another pattern that every result must match too (repeatable)' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l ignore-file -d 'Add an ignore file in .gitignore format (repeatable)' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s d -l max-depth -d 'Descend at most this many levels' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l min-depth -d 'Show only entries at least this many levels below the search path' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l exact-depth -d 'Show only entries exactly this many levels below the search path' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s E -l exclude -d 'Skip entries that match this glob' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l ignore-contain -d 'Skip directories that hold an entry of this name, and everything in them (repeatable)' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s t -l type -d 'Filter by type: f, d, l, x, e, s, p, ...' -r -f -a "f\t'regular files'
file\t'regular files'
d\t'directories'
directory\t'directories'
l\t'symbolic links'
symlink\t'symbolic links'
x\t'files we may execute'
executable\t'files we may execute'
e\t'empty files or directories'
empty\t'empty files or directories'
s\t'sockets'
socket\t'sockets'
p\t'named pipes (FIFOs)'
pipe\t'named pipes (FIFOs)'
b\t'block devices'
block-device\t'block devices'
c\t'character devices'
char-device\t'character devices'"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s e -l extension -d 'Filter by extension: rs, tar.gz, ...' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s S -l size -d 'Filter by size: +1M, -10k, 500b, ...' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l changed-within -d 'Modified within 2weeks, 10h, since a date' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l changed-before -d 'Modified before a date, or longer ago' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s o -l owner -d 'Owned by this user and/or group' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l strip-cwd-prefix -d 'Do not print the "./" prefix for entries of the current directory (the default when no PATH is given). WHEN is always (the default), never or auto, and goes after "=": --strip-cwd-prefix=never' -r -f -a "always\t''
never\t''
auto\t''"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l sort -d 'Print the results sorted: path, depth, none' -r -f -a "path\t'By path, component by component'
depth\t'Shallower entries first, then by path'
none\t'As found, from the first (without --sort, a small search comes sorted, as in fd)'"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l order -d 'Stream depth first, or breadth (nearest first)' -r -f -a "depth\t'As the workers reach them, mostly depth first (the default)'
breadth\t'Nearest first: depth by depth below the search path'"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l max-results -d 'Stop after this many results. Overridden by -1' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l format -d 'Print each result through a template' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l json-fields -d 'With --json: metadata to add to each object, comma-separated: size (bytes), mtime (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user", "group" when known), nlink, inode' -r -f -a "size\t''
mtime\t''
mode\t''
owner\t''
nlink\t''
inode\t''"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l path-separator -d 'Print this instead of "/" between path components (and after directories)' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s c -l color -d 'When to color: auto, always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l hyperlink -d 'Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors are on; the default when given without a value), always, never (the default)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s x -l exec -d 'Run a command for each result' -r -f -a "(__fish_complete_command)"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s X -l exec-batch -d 'Run a command with all the results' -r -f -a "(__fish_complete_command)"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l batch-size -d 'Give each -X command at most this many results (0, the default: as many as fit in a command line)' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l method -d 'The traversal method. All give the same results; they differ in speed' -r -f -a "auto\t'The fastest method for this machine: currently `queue`'
serial\t'One thread reading directories itself'
walkdir\t'The walkdir crate, one thread'
queue\t'A work queue of directories served by --concurrency workers'
rayon\t'Rayon\'s work stealing, one task per directory'
jwalk\t'The jwalk crate'
ignore\t'The ignore crate\'s parallel walker (fd\'s engine)'"
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s j -l concurrency -d 'How many directories are read at once (threads). Default: the number of CPUs, more on network and FUSE file systems. Up to 4096; the rayon, jwalk and ignore methods use at most 64 (their schedulers slow down with more)' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s C -l base-directory -d 'Change the working directory before searching; results are relative to it' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l search-path -d 'More search paths, for patterns that look like paths (repeatable)' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l output -d 'Write the results to FILE instead of standard output (it is created, or emptied first)' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l cache-dir -d 'Where --cache keeps its memo (default: $FFIND_CACHE_DIR, else $XDG_CACHE_HOME/ffind, else ~/.cache/ffind). It must be the user\'s own directory, which no one else may write to, and not a symbolic link; ffind creates it 0700' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l cache-limit -d 'The most the memo may take on disk, in MiB (default 1024); past it, the search paths least recently searched are forgotten first' -r
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l cache-clear -d 'Forget what --cache remembers: everything, or with =PATH what it remembers of PATH and below (given again for more paths). Searches nothing. (Removing the cache directory by hand is as safe.)' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l cache-check -d 'Test whether --cache can be trusted on the file system of PATH (default .): its type, and whether creating, renaming and removing entries in a directory made there change its mtime and ctime (as git update-index --test-untracked-cache). Exit 0 when safe, 1 when not. Searches nothing' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l explain -d 'Say why each PATH is printed or not, instead of searching' -r -F
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s H -l hidden -d 'Search hidden entries too'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s I -l no-ignore -d 'Show entries that ignore files hide'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-ignore-vcs -d 'Show entries that git\'s ignore files would hide'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-ignore-parent -d 'Do not apply the ignore files of the directories above a search path'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-global-ignore-file -d 'Do not read the global ignore file: $XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore), or fd\'s, $XDG_CONFIG_HOME/fd/ignore, when ffind\'s does not exist'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-require-git -d 'Apply git\'s ignore files even outside a git repository'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s u -l unrestricted -d 'Search hidden and ignored entries too'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s s -l case-sensitive -d 'Match case-sensitively'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s i -l ignore-case -d 'Match case-insensitively'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s g -l glob -d 'Treat the pattern as a glob ("*.rs")'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l regex -d 'Treat the pattern as a regular expression (the default; overrides --glob)'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s F -l fixed-strings -d 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l exact -d 'Match the whole file name (with --full-path, the whole path) exactly: like --fixed-strings, the pattern is literal, but it must be all of the name, not a part'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s p -l full-path -d 'Match the full path, not the name'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s L -l follow -d 'Follow symbolic links'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l prune -d 'Do not descend into directories that match the search'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l one-file-system -d 'Do not descend into directories on another file system than the search path\'s'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s 0 -l print0 -d 'Separate results with NUL instead of newline (for xargs -0)'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s a -l absolute-path -d 'Print absolute paths'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s 1 -d 'Stop after the first result (same as --max-results=1)'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s q -l quiet -d 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s l -l list-details -d 'List details, like ls -l'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l json -d 'Print one JSON object per result'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l mpi -d 'Spread the search over the processes of an MPI job, on as many nodes as it has: mpirun -n N ffind --mpi [OPTIONS] [PATTERN] [PATH]... (or srun)'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l cache -d 'Remember directories; reread only those that changed'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-cache -d 'Do not use the directory memo (undoes --cache, in the config file for example)'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l cache-list -d 'List what the memo of --cache holds for this reader (this process\'s user, groups, capabilities and sandbox): each search path, its file\'s size and when it was last used, their total, then what other readers of the user hold, and the total. Searches nothing'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-config -d 'Do not read the config file of default options ($FFIND_CONFIG_PATH, else $XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config)'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-errors -d 'Do not show the errors met on the way: an unreadable directory, a symbolic link loop, an ignore file that cannot be read'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l show-errors -d 'Show file-system errors (the default: unlike fd, ffind always reports them on stderr, and exits with 1 after them); undoes --no-errors'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l no-hints -d 'Give no hints after a search that printed nothing'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -l bench -d 'Time the traversal methods instead'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ffind -n 'not __ffind_bench; and not __ffind_exec' -s V -l version -d 'Print version'
complete -c ffind -n '__ffind_bench' -l methods -d 'The methods to compare, comma-separated (serial, walkdir, queue, rayon, jwalk, ignore), or "all". serial and walkdir use one thread whatever the concurrency: they run once, at concurrency 1, not once per level' -r -f -a "serial\t''
walkdir\t''
queue\t''
rayon\t''
jwalk\t''
ignore\t''
all\t''"
complete -c ffind -n '__ffind_bench' -s j -l concurrency -d 'The concurrency levels (threads) to time each parallel method at, comma-separated. Default: the powers of two up to twice the number of CPUs' -r
complete -c ffind -n '__ffind_bench' -s r -l runs -d 'Timed runs per benchmark' -r
complete -c ffind -n '__ffind_bench' -s w -l warmup -d 'Untimed runs per benchmark before the timed ones, to warm the caches' -r
complete -c ffind -n '__ffind_bench' -l export-json -d 'Write the results as JSON, in hyperfine\'s schema (for its scripts: plot_whisker.py, plot_parametrized.py for a one-method sweep, advanced_statistics.py)' -r -F
complete -c ffind -n '__ffind_bench' -l export-markdown -d 'Write the results as a Markdown table, as hyperfine does' -r -F
complete -c ffind -n '__ffind_bench' -l export-csv -d 'Write the results as CSV, as hyperfine does' -r -F
complete -c ffind -n '__ffind_bench' -l export-svg -d 'Draw the mean time against concurrency, one line per method, as an SVG chart' -r -F
complete -c ffind -n '__ffind_bench' -l and -d 'Another pattern that every result must match too (repeatable)' -r
complete -c ffind -n '__ffind_bench' -l ignore-file -d 'Add an ignore file in .gitignore format (repeatable)' -r -F
complete -c ffind -n '__ffind_bench' -s d -l max-depth -d 'Descend at most this many levels' -r
complete -c ffind -n '__ffind_bench' -l min-depth -d 'Show only entries at least this many levels below the search path' -r
complete -c ffind -n '__ffind_bench' -l exact-depth -d 'Show only entries exactly this many levels below the search path' -r
complete -c ffind -n '__ffind_bench' -s E -l exclude -d 'Skip entries that match this glob' -r
complete -c ffind -n '__ffind_bench' -l ignore-contain -d 'Skip directories that hold an entry of this name, and everything in them (repeatable)' -r
complete -c ffind -n '__ffind_bench' -s t -l type -d 'Filter by type: f, d, l, x, e, s, p, ...' -r -f -a "f\t'regular files'
file\t'regular files'
d\t'directories'
directory\t'directories'
l\t'symbolic links'
symlink\t'symbolic links'
x\t'files we may execute'
executable\t'files we may execute'
e\t'empty files or directories'
empty\t'empty files or directories'
s\t'sockets'
socket\t'sockets'
p\t'named pipes (FIFOs)'
pipe\t'named pipes (FIFOs)'
b\t'block devices'
block-device\t'block devices'
c\t'character devices'
char-device\t'character devices'"
complete -c ffind -n '__ffind_bench' -s e -l extension -d 'Filter by extension: rs, tar.gz, ...' -r
complete -c ffind -n '__ffind_bench' -s S -l size -d 'Filter by size: +1M, -10k, 500b, ...' -r
complete -c ffind -n '__ffind_bench' -l changed-within -d 'Modified within 2weeks, 10h, since a date' -r
complete -c ffind -n '__ffind_bench' -l changed-before -d 'Modified before a date, or longer ago' -r
complete -c ffind -n '__ffind_bench' -s o -l owner -d 'Owned by this user and/or group' -r
complete -c ffind -n '__ffind_bench' -l strip-cwd-prefix -d 'Do not print the "./" prefix for entries of the current directory (the default when no PATH is given). WHEN is always (the default), never or auto, and goes after "=": --strip-cwd-prefix=never' -r -f -a "always\t''
never\t''
auto\t''"
complete -c ffind -n '__ffind_bench' -l sort -d 'Print the results sorted: path, depth, none' -r -f -a "path\t'By path, component by component'
depth\t'Shallower entries first, then by path'
none\t'As found, from the first (without --sort, a small search comes sorted, as in fd)'"
complete -c ffind -n '__ffind_bench' -l order -d 'Stream depth first, or breadth (nearest first)' -r -f -a "depth\t'As the workers reach them, mostly depth first (the default)'
breadth\t'Nearest first: depth by depth below the search path'"
complete -c ffind -n '__ffind_bench' -l max-results -d 'Stop after this many results. Overridden by -1' -r
complete -c ffind -n '__ffind_bench' -l format -d 'Print each result through a template' -r
complete -c ffind -n '__ffind_bench' -l json-fields -d 'With --json: metadata to add to each object, comma-separated: size (bytes), mtime (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user", "group" when known), nlink, inode' -r -f -a "size\t''
mtime\t''
mode\t''
owner\t''
nlink\t''
inode\t''"
complete -c ffind -n '__ffind_bench' -l path-separator -d 'Print this instead of "/" between path components (and after directories)' -r
complete -c ffind -n '__ffind_bench' -s c -l color -d 'When to color: auto, always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ffind -n '__ffind_bench' -l hyperlink -d 'Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors are on; the default when given without a value), always, never (the default)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c ffind -n '__ffind_bench' -l batch-size -d 'Give each -X command at most this many results (0, the default: as many as fit in a command line)' -r
complete -c ffind -n '__ffind_bench' -s C -l base-directory -d 'Change the working directory before searching; results are relative to it' -r -F
complete -c ffind -n '__ffind_bench' -l search-path -d 'More search paths, for patterns that look like paths (repeatable)' -r -F
complete -c ffind -n '__ffind_bench' -l output -d 'Write the results to FILE instead of standard output (it is created, or emptied first)' -r -F
complete -c ffind -n '__ffind_bench' -l cache-dir -d 'Where --cache keeps its memo (default: $FFIND_CACHE_DIR, else $XDG_CACHE_HOME/ffind, else ~/.cache/ffind). It must be the user\'s own directory, which no one else may write to, and not a symbolic link; ffind creates it 0700' -r -F
complete -c ffind -n '__ffind_bench' -l cache-limit -d 'The most the memo may take on disk, in MiB (default 1024); past it, the search paths least recently searched are forgotten first' -r
complete -c ffind -n '__ffind_bench' -l cache-clear -d 'Forget what --cache remembers: everything, or with =PATH what it remembers of PATH and below (given again for more paths). Searches nothing. (Removing the cache directory by hand is as safe.)' -r -F
complete -c ffind -n '__ffind_bench' -l cache-check -d 'Test whether --cache can be trusted on the file system of PATH (default .): its type, and whether creating, renaming and removing entries in a directory made there change its mtime and ctime (as git update-index --test-untracked-cache). Exit 0 when safe, 1 when not. Searches nothing' -r -F
complete -c ffind -n '__ffind_bench' -l explain -d 'Say why each PATH is printed or not, instead of searching' -r -F
complete -c ffind -n '__ffind_bench' -s H -l hidden -d 'Search hidden entries too'
complete -c ffind -n '__ffind_bench' -s I -l no-ignore -d 'Show entries that ignore files hide'
complete -c ffind -n '__ffind_bench' -l no-ignore-vcs -d 'Show entries that git\'s ignore files would hide'
complete -c ffind -n '__ffind_bench' -l no-ignore-parent -d 'Do not apply the ignore files of the directories above a search path'
complete -c ffind -n '__ffind_bench' -l no-global-ignore-file -d 'Do not read the global ignore file: $XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore), or fd\'s, $XDG_CONFIG_HOME/fd/ignore, when ffind\'s does not exist'
complete -c ffind -n '__ffind_bench' -l no-require-git -d 'Apply git\'s ignore files even outside a git repository'
complete -c ffind -n '__ffind_bench' -s u -l unrestricted -d 'Search hidden and ignored entries too'
complete -c ffind -n '__ffind_bench' -s s -l case-sensitive -d 'Match case-sensitively'
complete -c ffind -n '__ffind_bench' -s i -l ignore-case -d 'Match case-insensitively'
complete -c ffind -n '__ffind_bench' -s g -l glob -d 'Treat the pattern as a glob ("*.rs")'
complete -c ffind -n '__ffind_bench' -l regex -d 'Treat the pattern as a regular expression (the default; overrides --glob)'
complete -c ffind -n '__ffind_bench' -s F -l fixed-strings -d 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression'
complete -c ffind -n '__ffind_bench' -l exact -d 'Match the whole file name (with --full-path, the whole path) exactly: like --fixed-strings, the pattern is literal, but it must be all of the name, not a part'
complete -c ffind -n '__ffind_bench' -s p -l full-path -d 'Match the full path, not the name'
complete -c ffind -n '__ffind_bench' -s L -l follow -d 'Follow symbolic links'
complete -c ffind -n '__ffind_bench' -l prune -d 'Do not descend into directories that match the search'
complete -c ffind -n '__ffind_bench' -l one-file-system -d 'Do not descend into directories on another file system than the search path\'s'
complete -c ffind -n '__ffind_bench' -s 0 -l print0 -d 'Separate results with NUL instead of newline (for xargs -0)'
complete -c ffind -n '__ffind_bench' -s a -l absolute-path -d 'Print absolute paths'
complete -c ffind -n '__ffind_bench' -s 1 -d 'Stop after the first result (same as --max-results=1)'
complete -c ffind -n '__ffind_bench' -s q -l quiet -d 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match'
complete -c ffind -n '__ffind_bench' -s l -l list-details -d 'List details, like ls -l'
complete -c ffind -n '__ffind_bench' -l json -d 'Print one JSON object per result'
complete -c ffind -n '__ffind_bench' -l mpi -d 'Spread the search over the processes of an MPI job, on as many nodes as it has: mpirun -n N ffind --mpi [OPTIONS] [PATTERN] [PATH]... (or srun)'
complete -c ffind -n '__ffind_bench' -l cache -d 'Remember directories; reread only those that changed'
complete -c ffind -n '__ffind_bench' -l no-cache -d 'Do not use the directory memo (undoes --cache, in the config file for example)'
complete -c ffind -n '__ffind_bench' -l cache-list -d 'List what the memo of --cache holds for this reader (this process\'s user, groups, capabilities and sandbox): each search path, its file\'s size and when it was last used, their total, then what other readers of the user hold, and the total. Searches nothing'
complete -c ffind -n '__ffind_bench' -l no-config -d 'Do not read the config file of default options ($FFIND_CONFIG_PATH, else $XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config)'
complete -c ffind -n '__ffind_bench' -l no-errors -d 'Do not show the errors met on the way: an unreadable directory, a symbolic link loop, an ignore file that cannot be read'
complete -c ffind -n '__ffind_bench' -l show-errors -d 'Show file-system errors (the default: unlike fd, ffind always reports them on stderr, and exits with 1 after them); undoes --no-errors'
complete -c ffind -n '__ffind_bench' -l no-hints -d 'Give no hints after a search that printed nothing'
complete -c ffind -n '__ffind_bench' -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ffind -n '__ffind_bench' -s V -l version -d 'Print version'
