
use builtin;
use str;

set edit:completion:arg-completer[ffind] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ffind'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ffind'= {
            cand --and 'Another pattern that every result must match too (repeatable)'
            cand --ignore-file 'Add an ignore file in .gitignore format (repeatable)'
            cand -d 'Descend at most this many levels below the search path (its entries are at level 1)'
            cand --max-depth 'Descend at most this many levels below the search path (its entries are at level 1)'
            cand --min-depth 'Show only entries at least this many levels below the search path'
            cand --exact-depth 'Show only entries exactly this many levels below the search path'
            cand -E 'Exclude entries that match this glob, and everything below them (repeatable)'
            cand --exclude 'Exclude entries that match this glob, and everything below them (repeatable)'
            cand --ignore-contain 'Skip directories that hold an entry of this name, and everything in them (repeatable)'
            cand -t 'Filter by type (repeatable): f/file, d/dir/directory, l/symlink, x/executable, e/empty, s/socket, p/pipe, b/block-device, c/char-device'
            cand --type 'Filter by type (repeatable): f/file, d/dir/directory, l/symlink, x/executable, e/empty, s/socket, p/pipe, b/block-device, c/char-device'
            cand -e 'Filter by extension (repeatable, case-insensitive; "tar.gz" and ".rs" work)'
            cand --extension 'Filter by extension (repeatable, case-insensitive; "tar.gz" and ".rs" work)'
            cand -S 'Filter by size: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of 1000) and ki, mi, gi, ti (powers of 1024), e.g. +1M, -10k, 500b (repeatable)'
            cand --size 'Filter by size: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of 1000) and ki, mi, gi, ti (powers of 1024), e.g. +1M, -10k, 500b (repeatable)'
            cand --changed-within 'Only entries modified within this duration ("2weeks", "10h", "1d 2h") or since this date ("2024-06-01", "2024-06-01 12:00:00", "@1717200000")'
            cand --changed-before 'Only entries modified before this date, or longer ago than this duration'
            cand -o 'Only entries owned by this user and/or group: "user", "user:group", ":group", ids accepted; "!" negates a part ("!root", ":!wheel")'
            cand --owner 'Only entries owned by this user and/or group: "user", "user:group", ":group", ids accepted; "!" negates a part ("!root", ":!wheel")'
            cand --strip-cwd-prefix 'Do not print the "./" prefix for entries of the current directory (the default when no PATH is given). WHEN is always (the default), never or auto, and goes after "=": --strip-cwd-prefix=never'
            cand --sort 'Print the results sorted: by path, or by depth (fewer components in the printed path first, then by path)'
            cand --max-results 'Stop after this many results. Overridden by -1'
            cand --format 'Print each result through a template instead of as its path: {} the path, {/} its file name, {//} its parent directory, {.} the path without extension, {/.} the file name without extension; {{ and }} are literal braces'
            cand --json-fields 'With --json: metadata to add to each object, comma-separated: size (bytes), mtime (RFC 3339, UTC), mode (octal string, "0644"), owner (uid, gid, and the names "user", "group" when known), nlink, inode'
            cand --path-separator 'Print this instead of "/" between path components (and after directories)'
            cand -c 'When to color results: auto (on a terminal, unless NO_COLOR is set and not empty), always, never. Colors come from LS_COLORS, or fd''s default theme when it is not set'
            cand --color 'When to color results: auto (on a terminal, unless NO_COLOR is set and not empty), always, never. Colors come from LS_COLORS, or fd''s default theme when it is not set'
            cand --hyperlink 'Make each result a terminal hyperlink (OSC 8) to its file:// URL: auto (when colors are on; the default when given without a value), always, never (the default)'
            cand -x 'Run a command for each result, -j at a time: every argument after -x, up to a lone '';'', is part of it (put -x last, or end it with \;)'
            cand --exec 'Run a command for each result, -j at a time: every argument after -x, up to a lone '';'', is part of it (put -x last, or end it with \;)'
            cand -X 'Run a command once with all the results as arguments (more than once when they do not fit in one command line, or with --batch-size): every argument after -X, up to a lone '';'', is part of it'
            cand --exec-batch 'Run a command once with all the results as arguments (more than once when they do not fit in one command line, or with --batch-size): every argument after -X, up to a lone '';'', is part of it'
            cand --batch-size 'Give each -X command at most this many results (0, the default: as many as fit in a command line)'
            cand --method 'The traversal method. All give the same results; they differ in speed'
            cand -j 'How many directories are read at once (threads). Default: the number of CPUs, more on network and FUSE file systems. Up to 4096; the rayon, jwalk and ignore methods use at most 64 (their schedulers slow down with more)'
            cand --concurrency 'How many directories are read at once (threads). Default: the number of CPUs, more on network and FUSE file systems. Up to 4096; the rayon, jwalk and ignore methods use at most 64 (their schedulers slow down with more)'
            cand -C 'Change the working directory before searching; results are relative to it'
            cand --base-directory 'Change the working directory before searching; results are relative to it'
            cand --search-path 'More search paths, for patterns that look like paths (repeatable)'
            cand --gen-completions 'Print a shell completion script for SHELL and exit'
            cand -H 'Include hidden files and directories (names starting with a dot)'
            cand --hidden 'Include hidden files and directories (names starting with a dot)'
            cand --no-hidden 'Skip hidden files and directories (the default; overrides --hidden)'
            cand -I 'Show entries that ignore files would hide'
            cand --no-ignore 'Show entries that ignore files would hide'
            cand --ignore 'Respect ignore files (the default; overrides --no-ignore)'
            cand --no-ignore-vcs 'Show entries that git''s ignore files would hide'
            cand --ignore-vcs 'Respect git''s ignore files (the default; overrides --no-ignore-vcs)'
            cand --no-ignore-parent 'Do not apply the ignore files of the directories above a search path'
            cand --ignore-parent 'Apply the ignore files above a search path (the default; overrides --no-ignore-parent)'
            cand --no-global-ignore-file 'Do not read the global ignore file: $XDG_CONFIG_HOME/ffind/ignore (by default ~/.config/ffind/ignore), or fd''s, $XDG_CONFIG_HOME/fd/ignore, when ffind''s does not exist'
            cand --no-require-git 'Apply git''s ignore files even outside a git repository'
            cand --require-git 'Apply .gitignore files only inside a git work tree (the default)'
            cand -u 'Unrestricted: search hidden and ignored entries too (an alias for -HI; may be repeated, as -uu, for fd compatibility)'
            cand --unrestricted 'Unrestricted: search hidden and ignored entries too (an alias for -HI; may be repeated, as -uu, for fd compatibility)'
            cand -s 'Match case-sensitively'
            cand --case-sensitive 'Match case-sensitively'
            cand -i 'Match case-insensitively, even when a pattern holds an uppercase letter'
            cand --ignore-case 'Match case-insensitively, even when a pattern holds an uppercase letter'
            cand -g 'Treat the pattern as a glob ("*.rs") rather than a regular expression'
            cand --glob 'Treat the pattern as a glob ("*.rs") rather than a regular expression'
            cand --regex 'Treat the pattern as a regular expression (the default; overrides --glob)'
            cand -F 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression'
            cand --fixed-strings 'Treat the pattern as a literal string, found anywhere in the name, instead of a regular expression'
            cand --exact 'Match the whole file name (with --full-path, the whole path) exactly: like --fixed-strings, the pattern is literal, but it must be all of the name, not a part'
            cand -p 'Match the pattern against the full absolute path, not just the file name'
            cand --full-path 'Match the pattern against the full absolute path, not just the file name'
            cand -L 'Follow symbolic links: list what they point to and descend into linked directories'
            cand --follow 'Follow symbolic links: list what they point to and descend into linked directories'
            cand --no-follow 'Do not follow symbolic links (the default; overrides --follow)'
            cand --prune 'Do not descend into directories that match the search'
            cand --one-file-system 'Do not descend into directories on another file system than the search path''s'
            cand -0 'Separate results with NUL instead of newline (for xargs -0)'
            cand --print0 'Separate results with NUL instead of newline (for xargs -0)'
            cand -a 'Print absolute paths. Overridden by --relative-path'
            cand --absolute-path 'Print absolute paths. Overridden by --relative-path'
            cand --relative-path 'Print paths as given, relative to the working directory (the default; overrides -a)'
            cand -1 'Stop after the first result (same as --max-results=1)'
            cand -q 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match'
            cand --quiet 'Print nothing; exit 0 if anything matches, 1 otherwise. Stops at the first match'
            cand -l 'List results with details, like ''ls -l'': mode, links, owner, group, size (1024-based units, as ls -h), modification time, path, and "-> target" for symbolic links'
            cand --list-details 'List results with details, like ''ls -l'': mode, links, owner, group, size (1024-based units, as ls -h), modification time, path, and "-> target" for symbolic links'
            cand --json 'Print one JSON object per result and line (NDJSON), for scripts'
            cand --no-config 'Do not read the config file of default options ($FFIND_CONFIG_PATH, else $XDG_CONFIG_HOME/ffind/config, by default ~/.config/ffind/config)'
            cand --show-errors 'Accepted for fd compatibility: ffind always reports file-system errors (an unreadable directory, a missing search path) on stderr, and exits with 1 after them'
            cand --gen-man 'Print the manual page (roff, for doc/ffind.1) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}
