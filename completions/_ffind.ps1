
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ffind' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ffind'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ffind' {
            [CompletionResult]::new('--and', '--and', [CompletionResultType]::ParameterName, 'Another pattern that every result must match too (repeatable)')
            [CompletionResult]::new('--ignore-file', '--ignore-file', [CompletionResultType]::ParameterName, 'Add an ignore file in .gitignore format (repeatable)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Descend at most this many levels below the search path (its entries are at level 1)')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Descend at most this many levels below the search path (its entries are at level 1)')
            [CompletionResult]::new('--min-depth', '--min-depth', [CompletionResultType]::ParameterName, 'Show only entries at least this many levels below the search path')
            [CompletionResult]::new('--exact-depth', '--exact-depth', [CompletionResultType]::ParameterName, 'Show only entries exactly this many levels below the search path')
            [CompletionResult]::new('-E', '-E ', [CompletionResultType]::ParameterName, 'Exclude entries that match this glob, and everything below them (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Exclude entries that match this glob, and everything below them (repeatable)')
            [CompletionResult]::new('--ignore-contain', '--ignore-contain', [CompletionResultType]::ParameterName, 'Skip directories that hold an entry of this name, and everything in them (repeatable)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Filter by type (repeatable): f/file, d/dir/directory, l/symlink, x/executable, e/empty, s/socket, p/pipe, b/block-device, c/char-device')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Filter by type (repeatable): f/file, d/dir/directory, l/symlink, x/executable, e/empty, s/socket, p/pipe, b/block-device, c/char-device')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Filter by extension (repeatable, case-insensitive; "tar.gz" and ".rs" work)')
            [CompletionResult]::new('--extension', '--extension', [CompletionResultType]::ParameterName, 'Filter by extension (repeatable, case-insensitive; "tar.gz" and ".rs" work)')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Filter by size: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of 1000) and ki, mi, gi, ti (powers of 1024), e.g. +1M, -10k, 500b (repeatable)')
            [CompletionResult]::new('--size', '--size', [CompletionResultType]::ParameterName, 'Filter by size: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of 1000) and ki, mi, gi, ti (powers of 1024), e.g. +1M, -10k, 500b (repeatable)')
            [CompletionResult]::new('--changed-within', '--changed-within', [CompletionResultType]::ParameterName, 'Only entries modified within this duration ("2weeks", "10h", "1d 2h") or since this date ("2024-06-01", "2024-06-01 12:00:00", "@1717200000")')
            [CompletionResult]::new('--changed-before', '--changed-before', [CompletionResultType]::ParameterName, 'Only entries modified before this date, or longer ago than this duration')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Only entries owned by this user and/or group: "user", "user:group", ":group", ids accepted; "!" negates a part ("!root", ":!wheel")')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Only entries owned by this user and/or group: "user", "user:group", ":group", ids accepted; "!" negates a part ("!root", ":!wheel")')
            [CompletionResult]::new('--strip-cwd-prefix', '--strip-cwd-prefix', [CompletionResultType]::ParameterName, 'Do not print the "./" prefix for entries of the current directory (the default when no PATH is given). WHEN is always (the default), never or auto, and goes after "=": --strip-cwd-prefix=never')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Print the results sorted: by path, or by depth (fewer components in the printed path first, then by path)')
            [CompletionResult]::new('--order', '--order', [CompletionResultType]::ParameterName, 'The order results stream in: depth (the default: each directory''s subtree as the workers reach it, mostly depth first) or breadth (nearest first: every entry at one depth below its search path before any deeper one)')
            [CompletionResult]::new('--max-buffer-time', '--max-buffer-time', [CompletionResultType]::ParameterName, 'How long results are held before they stream, in milliseconds (default 100; 0: they stream from the start): a search that ends within it, with at most 1,000 results, prints them sorted by path, as fd does (fd''s hidden option of the same name)')
            [CompletionResult]::new('--max-results', '--max-results', [CompletionResultType]::ParameterName, 'Stop after this many results. Overridden by -1')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Print each result through a template instead of as its path: {} the path, {/} its file name, {//} its parent directory, {.} the path without extension, {/.} the file name without extension; {{ and }} are literal braces')
            [CompletionResult]::new('--json-fields', '--json-fields', [CompletionResultType]::ParameterName, 'With --json: metadata to add to each object, comma-separated: size (bytes), mtime (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user", "group" when known), nlink, inode')
            [CompletionResult]::new('--path-separator', '--path-separator', [CompletionResultType]::ParameterName, 'Print this instead of "/" between path components (and after directories)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'When to color results: auto (on a terminal, unless NO_COLOR is set and not empty), always, never. Colors come from LS_COLORS, or fd''s default theme when it is not set')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color results: auto (on a terminal, unless NO_COLOR is set and not empty), always, never. Colors come from LS_COLORS, or fd''s default theme when it is not set')
            [CompletionResult]::new('--hyperlink', '--hyperlink', [CompletionResultType]::ParameterName, 'Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors are on; the default when given without a value), always, never (the default)')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Run a command for each result, -j at a time: every argument after -x, up to a lone '';'', is part of it (put -x last, or end it with \;)')
            [CompletionResult]::new('--exec', '--exec', [CompletionResultType]::ParameterName, 'Run a command for each result, -j at a time: every argument after -x, up to a lone '';'', is part of it (put -x last, or end it with \;)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Run a command once with all the results as arguments (more than once when they do not fit in one command line, or with --batch-size): every argument after -X, up to a lone '';'', is part of it')
            [CompletionResult]::new('--exec-batch', '--exec-batch', [CompletionResultType]::ParameterName, 'Run a command once with all the results as arguments (more than once when they do not fit in one command line, or with --batch-size): every argument after -X, up to a lone '';'', is part of it')
            [CompletionResult]::new('--batch-size', '--batch-size', [CompletionResultType]::ParameterName, 'Give each -X command at most this many results (0, the default: as many as fit in a command line)')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'The traversal method. All give the same results; they differ in speed')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many directories are read at once (threads). Default: the number of CPUs, more on network and FUSE file systems. Up to 4096; the rayon, jwalk and ignore methods use at most 64 (their schedulers slow down with more)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many directories are read at once (threads). Default: the number of CPUs, more on network and FUSE file systems. Up to 4096; the rayon, jwalk and ignore methods use at most 64 (their schedulers slow down with more)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Change the working directory before searching; results are relative to it')
            [CompletionResult]::new('--base-directory', '--base-directory', [CompletionResultType]::ParameterName, 'Change the working directory before searching; results are relative to it')
            [CompletionResult]::new('--search-path', '--search-path', [CompletionResultType]::ParameterName, 'More search paths, for patterns that look like paths (repeatable)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the results to FILE instead of standard output (it is created, or emptied first)')
            [CompletionResult]::new('--gen-completions', '--gen-completions', [CompletionResultType]::ParameterName, 'Print a shell completion script for SHELL and exit')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Include hidden files and directories (names starting with a dot)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and directories (names starting with a dot)')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'Skip hidden files and directories (the default; overrides --hidden)')
            [CompletionResult]::new('-I', '-I ', [CompletionResultType]::ParameterName, 'Show entries that ignore files would hide')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Show entries that ignore files would hide')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Respect ignore files (the default; overrides --no-ignore)')
            [CompletionResult]::new('--no-ignore-vcs', '--no-ignore-vcs', [CompletionResultType]::ParameterName, 'Show entries that git''s ignore files would hide')
            [CompletionResult]::new('--ignore-vcs', '--ignore-vcs', [CompletionResultType]::ParameterName, 'Respect git''s ignore files (the default; overrides --no-ignore-vcs)')
            [CompletionResult]::new('--no-ignore-parent', '--no-ignore-parent', [CompletionResultType]::ParameterName, 'Do not apply the ignore files of the directories above a search path')
            [CompletionResult]::new('--ignore-parent', '--ignore-parent', [CompletionResultType]::ParameterName, 'Apply the ignore files above a search path (the default; overrides --no-ignore-parent)')
            [CompletionResult]::new('--no-global-ignore-file', '--no-global-ignore-file', [CompletionResultType]::ParameterName, 'Do not read the global ignore file: $XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore), or fd''s, $XDG_CONFIG_HOME/fd/ignore, when ffind''s does not exist')
            [CompletionResult]::new('--no-require-git', '--no-require-git', [CompletionResultType]::ParameterName, 'Apply git''s ignore files even outside a git repository')
            [CompletionResult]::new('--require-git', '--require-git', [CompletionResultType]::ParameterName, 'Apply .gitignore files only inside a git work tree (the default)')
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'Unrestricted: search hidden and ignored entries too (an alias for -HI; may be repeated, as -uu, for fd compatibility)')
            [CompletionResult]::new('--unrestricted', '--unrestricted', [CompletionResultType]::ParameterName, 'Unrestricted: search hidden and ignored entries too (an alias for -HI; may be repeated, as -uu, for fd compatibility)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Match case-sensitively')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match case-sensitively')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match case-insensitively, even when a pattern holds an uppercase letter')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match case-insensitively, even when a pattern holds an uppercase letter')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Treat the pattern as a glob ("*.rs") rather than a regular expression')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Treat the pattern as a glob ("*.rs") rather than a regular expression')
            [CompletionResult]::new('--regex', '--regex', [CompletionResultType]::ParameterName, 'Treat the pattern as a regular expression (the default; overrides --glob)')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression')
            [CompletionResult]::new('--exact', '--exact', [CompletionResultType]::ParameterName, 'Match the whole file name (with --full-path, the whole path) exactly: like --fixed-strings, the pattern is literal, but it must be all of the name, not a part')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Match the pattern against the full absolute path, not just the file name')
            [CompletionResult]::new('--full-path', '--full-path', [CompletionResultType]::ParameterName, 'Match the pattern against the full absolute path, not just the file name')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links: list what they point to and descend into linked directories')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links: list what they point to and descend into linked directories')
            [CompletionResult]::new('--no-follow', '--no-follow', [CompletionResultType]::ParameterName, 'Do not follow symbolic links (the default; overrides --follow)')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Do not descend into directories that match the search')
            [CompletionResult]::new('--one-file-system', '--one-file-system', [CompletionResultType]::ParameterName, 'Do not descend into directories on another file system than the search path''s')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'Separate results with NUL instead of newline (for xargs -0)')
            [CompletionResult]::new('--print0', '--print0', [CompletionResultType]::ParameterName, 'Separate results with NUL instead of newline (for xargs -0)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Print absolute paths. Overridden by --relative-path')
            [CompletionResult]::new('--absolute-path', '--absolute-path', [CompletionResultType]::ParameterName, 'Print absolute paths. Overridden by --relative-path')
            [CompletionResult]::new('--relative-path', '--relative-path', [CompletionResultType]::ParameterName, 'Print paths as given, relative to the working directory (the default; overrides -a)')
            [CompletionResult]::new('-1', '-1', [CompletionResultType]::ParameterName, 'Stop after the first result (same as --max-results=1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'List results with details, like ''ls -l'': mode, links, owner, group, size (1024-based units, as ls -h), modification time, path, and "-> target" for symbolic links')
            [CompletionResult]::new('--list-details', '--list-details', [CompletionResultType]::ParameterName, 'List results with details, like ''ls -l'': mode, links, owner, group, size (1024-based units, as ls -h), modification time, path, and "-> target" for symbolic links')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object per result and line (NDJSON), for scripts')
            [CompletionResult]::new('--mpi', '--mpi', [CompletionResultType]::ParameterName, 'Spread the search over the processes of an MPI job, on as many nodes as it has: mpirun -n N ffind --mpi [OPTIONS] [PATTERN] [PATH]... (or srun)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Do not read the config file of default options ($FFIND_CONFIG_PATH, else $XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config)')
            [CompletionResult]::new('--no-errors', '--no-errors', [CompletionResultType]::ParameterName, 'Do not show the errors met on the way: an unreadable directory, a symbolic link loop, an ignore file that cannot be read')
            [CompletionResult]::new('--show-errors', '--show-errors', [CompletionResultType]::ParameterName, 'Show file-system errors (the default: unlike fd, ffind always reports them on stderr, and exits with 1 after them); undoes --no-errors')
            [CompletionResult]::new('--gen-man', '--gen-man', [CompletionResultType]::ParameterName, 'Print the manual page (roff, for doc/ffind.1) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
