using namespace System.Management.Automation
using namespace System.Management.Automation.Language

# ffind's completion (ffind --gen-completions powershell): options, their listed values, and
# after -x/-X a command and its own arguments; paths as PowerShell completes them. Names are
# compared case-sensitively (-ceq, -ccontains, -clike), as ffind reads them: -C is not -c.
Register-ArgumentCompleter -Native -CommandName 'ffind', 'ffind.exe' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $search = @(
        @{ Names = @('--and'); Help = 'Another pattern that every result must match too (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-H', '--hidden'); Help = 'Search hidden entries too'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-I', '--no-ignore'); Help = 'Show entries that ignore files hide'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-ignore-vcs'); Help = 'Show entries that git''s ignore files would hide'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-ignore-parent'); Help = 'Do not apply the ignore files of the directories above a search path'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-global-ignore-file'); Help = 'Do not read the global ignore file: $XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore), or fd''s, $XDG_CONFIG_HOME/fd/ignore, when ffind''s does not exist'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-require-git'); Help = 'Apply git''s ignore files even outside a git repository'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--ignore-file'); Help = 'Add an ignore file in .gitignore format (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-u', '--unrestricted'); Help = 'Search hidden and ignored entries too'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-s', '--case-sensitive'); Help = 'Match case-sensitively'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-i', '--ignore-case'); Help = 'Match case-insensitively'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-g', '--glob'); Help = 'Treat the pattern as a glob ("*.rs")'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--regex'); Help = 'Treat the pattern as a regular expression (the default; overrides --glob)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-F', '--fixed-strings'); Help = 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--exact'); Help = 'Match the whole file name (with --full-path, the whole path) exactly: like --fixed-strings, the pattern is literal, but it must be all of the name, not a part'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-p', '--full-path'); Help = 'Match the full path, not the name'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-L', '--follow'); Help = 'Follow symbolic links'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-d', '--max-depth'); Help = 'Descend at most this many levels'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--min-depth'); Help = 'Show only entries at least this many levels below the search path'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--exact-depth'); Help = 'Show only entries exactly this many levels below the search path'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-E', '--exclude'); Help = 'Skip entries that match this glob'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--ignore-contain'); Help = 'Skip directories that hold an entry of this name, and everything in them (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--prune'); Help = 'Do not descend into directories that match the search'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-t', '--type'); Help = 'Filter by type: f, d, l, x, e, s, p, ...'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'f'; Help = 'regular files' }, @{ Name = 'file'; Help = 'regular files' }, @{ Name = 'd'; Help = 'directories' }, @{ Name = 'directory'; Help = 'directories' }, @{ Name = 'l'; Help = 'symbolic links' }, @{ Name = 'symlink'; Help = 'symbolic links' }, @{ Name = 'x'; Help = 'files we may execute' }, @{ Name = 'executable'; Help = 'files we may execute' }, @{ Name = 'e'; Help = 'empty files or directories' }, @{ Name = 'empty'; Help = 'empty files or directories' }, @{ Name = 's'; Help = 'sockets' }, @{ Name = 'socket'; Help = 'sockets' }, @{ Name = 'p'; Help = 'named pipes (FIFOs)' }, @{ Name = 'pipe'; Help = 'named pipes (FIFOs)' }, @{ Name = 'b'; Help = 'block devices' }, @{ Name = 'block-device'; Help = 'block devices' }, @{ Name = 'c'; Help = 'character devices' }, @{ Name = 'char-device'; Help = 'character devices' }) }
        @{ Names = @('-e', '--extension'); Help = 'Filter by extension: rs, tar.gz, ...'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-S', '--size'); Help = 'Filter by size: +1M, -10k, 500b, ...'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--changed-within'); Help = 'Modified within 2weeks, 10h, since a date'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--changed-before'); Help = 'Modified before a date, or longer ago'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-o', '--owner'); Help = 'Owned by this user and/or group'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--one-file-system'); Help = 'Do not descend into directories on another file system than the search path''s'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-0', '--print0'); Help = 'Separate results with NUL instead of newline (for xargs -0)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-a', '--absolute-path'); Help = 'Print absolute paths'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--strip-cwd-prefix'); Help = 'Do not print the "./" prefix for entries of the current directory (the default when no PATH is given). WHEN is always (the default), never or auto, and goes after "=": --strip-cwd-prefix=never'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @(@{ Name = 'always'; Help = 'always' }, @{ Name = 'never'; Help = 'never' }, @{ Name = 'auto'; Help = 'auto' }) }
        @{ Names = @('--sort'); Help = 'Print the results sorted: path, depth, none'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'path'; Help = 'By path, component by component' }, @{ Name = 'depth'; Help = 'Shallower entries first, then by path' }, @{ Name = 'none'; Help = 'As found, from the first (without --sort, a small search comes sorted, as in fd)' }) }
        @{ Names = @('--order'); Help = 'Stream depth first, or breadth (nearest first)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'depth'; Help = 'As the workers reach them, mostly depth first (the default)' }, @{ Name = 'breadth'; Help = 'Nearest first: depth by depth below the search path' }) }
        @{ Names = @('--max-results'); Help = 'Stop after this many results. Overridden by -1'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-1'); Help = 'Stop after the first result (same as --max-results=1)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-q', '--quiet'); Help = 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--format'); Help = 'Print each result through a template'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-l', '--list-details'); Help = 'List details, like ls -l'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--json'); Help = 'Print one JSON object per result'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--json-fields'); Help = 'With --json: metadata to add to each object, comma-separated: size (bytes), mtime (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user", "group" when known), nlink, inode'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ','; Values = @(@{ Name = 'size'; Help = 'size' }, @{ Name = 'mtime'; Help = 'mtime' }, @{ Name = 'mode'; Help = 'mode' }, @{ Name = 'owner'; Help = 'owner' }, @{ Name = 'nlink'; Help = 'nlink' }, @{ Name = 'inode'; Help = 'inode' }) }
        @{ Names = @('--path-separator'); Help = 'Print this instead of "/" between path components (and after directories)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-c', '--color'); Help = 'When to color: auto, always, never'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'auto'; Help = 'auto' }, @{ Name = 'always'; Help = 'always' }, @{ Name = 'never'; Help = 'never' }) }
        @{ Names = @('--hyperlink'); Help = 'Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors are on; the default when given without a value), always, never (the default)'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @(@{ Name = 'auto'; Help = 'auto' }, @{ Name = 'always'; Help = 'always' }, @{ Name = 'never'; Help = 'never' }) }
        @{ Names = @('-x', '--exec'); Help = 'Run a command for each result'; TakesValue = $true; Command = $true; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-X', '--exec-batch'); Help = 'Run a command with all the results'; TakesValue = $true; Command = $true; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--batch-size'); Help = 'Give each -X command at most this many results (0, the default: as many as fit in a command line)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--method'); Help = 'The traversal method. All give the same results; they differ in speed'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'auto'; Help = 'The fastest method for this machine: currently `queue`' }, @{ Name = 'serial'; Help = 'One thread reading directories itself' }, @{ Name = 'walkdir'; Help = 'The walkdir crate, one thread' }, @{ Name = 'queue'; Help = 'A work queue of directories served by --concurrency workers' }, @{ Name = 'rayon'; Help = 'Rayon''s work stealing, one task per directory' }, @{ Name = 'jwalk'; Help = 'The jwalk crate' }, @{ Name = 'ignore'; Help = 'The ignore crate''s parallel walker (fd''s engine)' }) }
        @{ Names = @('-j', '--concurrency'); Help = 'How many directories are read at once (threads). Default: the number of CPUs, more on network and FUSE file systems. Up to 4096; the rayon, jwalk and ignore methods use at most 64 (their schedulers slow down with more)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-C', '--base-directory'); Help = 'Change the working directory before searching; results are relative to it'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--search-path'); Help = 'More search paths, for patterns that look like paths (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--output'); Help = 'Write the results to FILE instead of standard output (it is created, or emptied first)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--mpi'); Help = 'Spread the search over the processes of an MPI job, on as many nodes as it has: mpirun -n N ffind --mpi [OPTIONS] [PATTERN] [PATH]... (or srun)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache'); Help = 'Remember directories; reread only those that changed'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-cache'); Help = 'Do not use the directory memo (undoes --cache, in the config file for example)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-dir'); Help = 'Where --cache keeps its memo (default: $FFIND_CACHE_DIR, else $XDG_CACHE_HOME/ffind, else ~/.cache/ffind). It must be the user''s own directory, which no one else may write to, and not a symbolic link; ffind creates it 0700'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-limit'); Help = 'The most the memo may take on disk, in MiB (default 1024); past it, the search paths least recently searched are forgotten first'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-list'); Help = 'List what the memo of --cache holds for this reader (this process''s user, groups, capabilities and sandbox): each search path, its file''s size and when it was last used, their total, then what other readers of the user hold, and the total. Searches nothing'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-clear'); Help = 'Forget what --cache remembers: everything, or with =PATH what it remembers of PATH and below (given again for more paths). Searches nothing. (Removing the cache directory by hand is as safe.)'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-check'); Help = 'Test whether --cache can be trusted on the file system of PATH (default .): its type, and whether creating, renaming and removing entries in a directory made there change its mtime and ctime (as git update-index --test-untracked-cache). Exit 0 when safe, 1 when not. Searches nothing'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @() }
        @{ Names = @('--no-config'); Help = 'Do not read the config file of default options ($FFIND_CONFIG_PATH, else $XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-errors'); Help = 'Do not show the errors met on the way: an unreadable directory, a symbolic link loop, an ignore file that cannot be read'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--show-errors'); Help = 'Show file-system errors (the default: unlike fd, ffind always reports them on stderr, and exits with 1 after them); undoes --no-errors'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--explain'); Help = 'Say why each PATH is printed or not, instead of searching'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-hints'); Help = 'Give no hints after a search that printed nothing'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--bench'); Help = 'Time the traversal methods instead'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-h', '--help'); Help = 'Print help (see more with ''--help'')'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-V', '--version'); Help = 'Print version'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
    )
    $bench = @(
        @{ Names = @('--methods'); Help = 'The methods to compare, comma-separated (serial, walkdir, queue, rayon, jwalk, ignore), or "all". serial and walkdir use one thread whatever the concurrency: they run once, at concurrency 1, not once per level'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ','; Values = @(@{ Name = 'serial'; Help = 'serial' }, @{ Name = 'walkdir'; Help = 'walkdir' }, @{ Name = 'queue'; Help = 'queue' }, @{ Name = 'rayon'; Help = 'rayon' }, @{ Name = 'jwalk'; Help = 'jwalk' }, @{ Name = 'ignore'; Help = 'ignore' }, @{ Name = 'all'; Help = 'all' }) }
        @{ Names = @('-j', '--concurrency'); Help = 'The concurrency levels (threads) to time each parallel method at, comma-separated. Default: the powers of two up to twice the number of CPUs'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ','; Values = @() }
        @{ Names = @('-r', '--runs'); Help = 'Timed runs per benchmark'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-w', '--warmup'); Help = 'Untimed runs per benchmark before the timed ones, to warm the caches'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--export-json'); Help = 'Write the results as JSON, in hyperfine''s schema (for its scripts: plot_whisker.py, plot_parametrized.py for a one-method sweep, advanced_statistics.py)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--export-markdown'); Help = 'Write the results as a Markdown table, as hyperfine does'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--export-csv'); Help = 'Write the results as CSV, as hyperfine does'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--export-svg'); Help = 'Draw the mean time against concurrency, one line per method, as an SVG chart'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--and'); Help = 'Another pattern that every result must match too (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-H', '--hidden'); Help = 'Search hidden entries too'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-I', '--no-ignore'); Help = 'Show entries that ignore files hide'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-ignore-vcs'); Help = 'Show entries that git''s ignore files would hide'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-ignore-parent'); Help = 'Do not apply the ignore files of the directories above a search path'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-global-ignore-file'); Help = 'Do not read the global ignore file: $XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore), or fd''s, $XDG_CONFIG_HOME/fd/ignore, when ffind''s does not exist'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-require-git'); Help = 'Apply git''s ignore files even outside a git repository'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--ignore-file'); Help = 'Add an ignore file in .gitignore format (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-u', '--unrestricted'); Help = 'Search hidden and ignored entries too'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-s', '--case-sensitive'); Help = 'Match case-sensitively'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-i', '--ignore-case'); Help = 'Match case-insensitively'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-g', '--glob'); Help = 'Treat the pattern as a glob ("*.rs")'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--regex'); Help = 'Treat the pattern as a regular expression (the default; overrides --glob)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-F', '--fixed-strings'); Help = 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--exact'); Help = 'Match the whole file name (with --full-path, the whole path) exactly: like --fixed-strings, the pattern is literal, but it must be all of the name, not a part'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-p', '--full-path'); Help = 'Match the full path, not the name'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-L', '--follow'); Help = 'Follow symbolic links'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-d', '--max-depth'); Help = 'Descend at most this many levels'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--min-depth'); Help = 'Show only entries at least this many levels below the search path'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--exact-depth'); Help = 'Show only entries exactly this many levels below the search path'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-E', '--exclude'); Help = 'Skip entries that match this glob'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--ignore-contain'); Help = 'Skip directories that hold an entry of this name, and everything in them (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--prune'); Help = 'Do not descend into directories that match the search'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-t', '--type'); Help = 'Filter by type: f, d, l, x, e, s, p, ...'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'f'; Help = 'regular files' }, @{ Name = 'file'; Help = 'regular files' }, @{ Name = 'd'; Help = 'directories' }, @{ Name = 'directory'; Help = 'directories' }, @{ Name = 'l'; Help = 'symbolic links' }, @{ Name = 'symlink'; Help = 'symbolic links' }, @{ Name = 'x'; Help = 'files we may execute' }, @{ Name = 'executable'; Help = 'files we may execute' }, @{ Name = 'e'; Help = 'empty files or directories' }, @{ Name = 'empty'; Help = 'empty files or directories' }, @{ Name = 's'; Help = 'sockets' }, @{ Name = 'socket'; Help = 'sockets' }, @{ Name = 'p'; Help = 'named pipes (FIFOs)' }, @{ Name = 'pipe'; Help = 'named pipes (FIFOs)' }, @{ Name = 'b'; Help = 'block devices' }, @{ Name = 'block-device'; Help = 'block devices' }, @{ Name = 'c'; Help = 'character devices' }, @{ Name = 'char-device'; Help = 'character devices' }) }
        @{ Names = @('-e', '--extension'); Help = 'Filter by extension: rs, tar.gz, ...'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-S', '--size'); Help = 'Filter by size: +1M, -10k, 500b, ...'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--changed-within'); Help = 'Modified within 2weeks, 10h, since a date'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--changed-before'); Help = 'Modified before a date, or longer ago'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-o', '--owner'); Help = 'Owned by this user and/or group'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--one-file-system'); Help = 'Do not descend into directories on another file system than the search path''s'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-0', '--print0'); Help = 'Separate results with NUL instead of newline (for xargs -0)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-a', '--absolute-path'); Help = 'Print absolute paths'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--strip-cwd-prefix'); Help = 'Do not print the "./" prefix for entries of the current directory (the default when no PATH is given). WHEN is always (the default), never or auto, and goes after "=": --strip-cwd-prefix=never'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @(@{ Name = 'always'; Help = 'always' }, @{ Name = 'never'; Help = 'never' }, @{ Name = 'auto'; Help = 'auto' }) }
        @{ Names = @('--sort'); Help = 'Print the results sorted: path, depth, none'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'path'; Help = 'By path, component by component' }, @{ Name = 'depth'; Help = 'Shallower entries first, then by path' }, @{ Name = 'none'; Help = 'As found, from the first (without --sort, a small search comes sorted, as in fd)' }) }
        @{ Names = @('--order'); Help = 'Stream depth first, or breadth (nearest first)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'depth'; Help = 'As the workers reach them, mostly depth first (the default)' }, @{ Name = 'breadth'; Help = 'Nearest first: depth by depth below the search path' }) }
        @{ Names = @('--max-results'); Help = 'Stop after this many results. Overridden by -1'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-1'); Help = 'Stop after the first result (same as --max-results=1)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-q', '--quiet'); Help = 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--format'); Help = 'Print each result through a template'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-l', '--list-details'); Help = 'List details, like ls -l'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--json'); Help = 'Print one JSON object per result'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--json-fields'); Help = 'With --json: metadata to add to each object, comma-separated: size (bytes), mtime (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user", "group" when known), nlink, inode'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ','; Values = @(@{ Name = 'size'; Help = 'size' }, @{ Name = 'mtime'; Help = 'mtime' }, @{ Name = 'mode'; Help = 'mode' }, @{ Name = 'owner'; Help = 'owner' }, @{ Name = 'nlink'; Help = 'nlink' }, @{ Name = 'inode'; Help = 'inode' }) }
        @{ Names = @('--path-separator'); Help = 'Print this instead of "/" between path components (and after directories)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-c', '--color'); Help = 'When to color: auto, always, never'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @(@{ Name = 'auto'; Help = 'auto' }, @{ Name = 'always'; Help = 'always' }, @{ Name = 'never'; Help = 'never' }) }
        @{ Names = @('--hyperlink'); Help = 'Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors are on; the default when given without a value), always, never (the default)'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @(@{ Name = 'auto'; Help = 'auto' }, @{ Name = 'always'; Help = 'always' }, @{ Name = 'never'; Help = 'never' }) }
        @{ Names = @('--batch-size'); Help = 'Give each -X command at most this many results (0, the default: as many as fit in a command line)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-C', '--base-directory'); Help = 'Change the working directory before searching; results are relative to it'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--search-path'); Help = 'More search paths, for patterns that look like paths (repeatable)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--output'); Help = 'Write the results to FILE instead of standard output (it is created, or emptied first)'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--mpi'); Help = 'Spread the search over the processes of an MPI job, on as many nodes as it has: mpirun -n N ffind --mpi [OPTIONS] [PATTERN] [PATH]... (or srun)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache'); Help = 'Remember directories; reread only those that changed'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-cache'); Help = 'Do not use the directory memo (undoes --cache, in the config file for example)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-dir'); Help = 'Where --cache keeps its memo (default: $FFIND_CACHE_DIR, else $XDG_CACHE_HOME/ffind, else ~/.cache/ffind). It must be the user''s own directory, which no one else may write to, and not a symbolic link; ffind creates it 0700'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-limit'); Help = 'The most the memo may take on disk, in MiB (default 1024); past it, the search paths least recently searched are forgotten first'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-list'); Help = 'List what the memo of --cache holds for this reader (this process''s user, groups, capabilities and sandbox): each search path, its file''s size and when it was last used, their total, then what other readers of the user hold, and the total. Searches nothing'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-clear'); Help = 'Forget what --cache remembers: everything, or with =PATH what it remembers of PATH and below (given again for more paths). Searches nothing. (Removing the cache directory by hand is as safe.)'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @() }
        @{ Names = @('--cache-check'); Help = 'Test whether --cache can be trusted on the file system of PATH (default .): its type, and whether creating, renaming and removing entries in a directory made there change its mtime and ctime (as git update-index --test-untracked-cache). Exit 0 when safe, 1 when not. Searches nothing'; TakesValue = $true; Command = $false; EqualsOnly = $true; Delimiter = ''; Values = @() }
        @{ Names = @('--no-config'); Help = 'Do not read the config file of default options ($FFIND_CONFIG_PATH, else $XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config)'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-errors'); Help = 'Do not show the errors met on the way: an unreadable directory, a symbolic link loop, an ignore file that cannot be read'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--show-errors'); Help = 'Show file-system errors (the default: unlike fd, ffind always reports them on stderr, and exits with 1 after them); undoes --no-errors'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--explain'); Help = 'Say why each PATH is printed or not, instead of searching'; TakesValue = $true; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('--no-hints'); Help = 'Give no hints after a search that printed nothing'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-h', '--help'); Help = 'Print help (see more with ''--help'')'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
        @{ Names = @('-V', '--version'); Help = 'Print version'; TakesValue = $false; Command = $false; EqualsOnly = $false; Delimiter = ''; Values = @() }
    )

    # The words before the one completed, after ffind's own name, and where each begins.
    $elements = @(foreach ($e in ($commandAst.CommandElements | Select-Object -Skip 1)) {
        if ($e.Extent.EndOffset -lt $cursorPosition -or
            ($e.Extent.EndOffset -eq $cursorPosition -and $wordToComplete -eq '')) {
            $e
        }
    })
    $words = @(foreach ($e in $elements) {
        if ($e -is [StringConstantExpressionAst]) { $e.Value } else { $e.Extent.Text }
    })
    $table = $search
    if ($words.Count -gt 0 -and $words[0] -ceq '--bench') {
        $table = $bench
    }

    # After -x CMD or -X CMD, up to a ';': the command, then its own arguments.
    $at = -1
    for ($i = 0; $i -lt $words.Count; $i++) {
        if ($at -lt 0) {
            $option = $table | Where-Object { $_.Command -and $_.Names -ccontains $words[$i] }
            if ($option) { $at = $i + 1 }
        } elseif ($words[$i] -ceq ';') {
            $at = -1
        }
    }
    if ($at -ge 0) {
        if ($words.Count -eq $at) {
            Get-Command -CommandType Application, ExternalScript -Name "$wordToComplete*" -ErrorAction SilentlyContinue |
                Sort-Object Name -Unique | ForEach-Object {
                    [CompletionResult]::new($_.Name, $_.Name, [CompletionResultType]::Command, $_.Name)
                }
        } else {
            # The command's line as typed, quotes and all, up to the cursor: its words joined
            # again would split a quoted 'C:\Program Files\...'.
            $from = $elements[$at].Extent.StartOffset - $commandAst.Extent.StartOffset
            $to = $cursorPosition - $commandAst.Extent.StartOffset
            $line = $commandAst.Extent.Text.Substring($from, [Math]::Min($to, $commandAst.Extent.Text.Length) - $from)
            (TabExpansion2 -inputScript $line -cursorColumn $line.Length).CompletionMatches
        }
        return
    }

    # A listed value: after its option (never for one whose value follows '=' only), or after
    # --option=; in a list (--json-fields size,m), the part after the last separator.
    $prefix = ''
    $typed = $wordToComplete
    $option = $null
    if ($wordToComplete -match '^(--[^=]+)=(.*)$') {
        $prefix = $Matches[1] + '='
        $typed = $Matches[2]
        $name = $Matches[1]
        $option = $table | Where-Object { $_.Names -ccontains $name } | Select-Object -First 1
    } elseif ($words.Count -gt 0) {
        $last = $words[-1]
        $option = $table | Where-Object { $_.TakesValue -and -not $_.EqualsOnly -and $_.Names -ccontains $last } |
            Select-Object -First 1
    }
    if ($option -and $option.TakesValue) {
        if ($option.Delimiter -ne '') {
            $cut = $typed.LastIndexOf($option.Delimiter)
            if ($cut -ge 0) {
                $prefix = $prefix + $typed.Substring(0, $cut + 1)
                $typed = $typed.Substring($cut + 1)
            }
        }
        foreach ($value in $option.Values) {
            if ($value.Name -clike "$typed*") {
                [CompletionResult]::new($prefix + $value.Name, $value.Name, [CompletionResultType]::ParameterValue, $value.Help)
            }
        }
        return
    }

    # An option's name.
    if ($wordToComplete.StartsWith('-')) {
        foreach ($option in $table) {
            foreach ($name in $option.Names) {
                if ($name -clike "$wordToComplete*") {
                    [CompletionResult]::new($name, $name, [CompletionResultType]::ParameterName, $option.Help)
                }
            }
        }
    }
}
