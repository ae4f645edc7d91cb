#!/usr/bin/env python3
"""A synthetic JavaScript monorepo with many .gitignore files, for the `git` and `order` suites
(benches/trees.py monorepo builds it).

    benches/monorepo.py DIR [PACKAGES]

Makes DIR (a git repository: `git init`) with PACKAGES packages (default 800), each with its own
.gitignore (directories, extensions, an anchored path, a negation, a `**` rule), every fourth one
with another .gitignore deeper down, and what such rules hide: dist/, node_modules/ (with
packages of their own), generated/, compiled lib/ files, maps and logs. About 125 entries per
package, about half of them listed under the default filtering. Deterministic: the same
arguments make the same tree.
"""
import os
import subprocess
import sys

ROOT_GITIGNORE = """# built and fetched
node_modules/
dist/
build/
coverage/
*.log
*.tsbuildinfo
.DS_Store
/tmp/
"""

PACKAGE_GITIGNORE = """dist/
*.map
!keep.map
/generated/
*.tmp
.env*
lib/**/*.js
*~
"""

NESTED_GITIGNORE = """*.snap
__generated__/
"""


def touch(path):
    with open(path, "wb"):
        pass


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def package(root, i):
    p = os.path.join(root, "packages", f"pkg-{i:04d}")
    os.makedirs(p)
    write(os.path.join(p, ".gitignore"), PACKAGE_GITIGNORE)
    for name in ("package.json", "README.md", "tsconfig.json", "keep.map", "index.js.map"):
        touch(os.path.join(p, name))
    for sub in ("components", "utils", "hooks"):
        d = os.path.join(p, "src", sub)
        os.makedirs(d)
        for j in range(10):
            ext = ("ts", "tsx", "test.ts", "js.map", "d.ts")[j % 5]
            touch(os.path.join(d, f"{sub}-{j}.{ext}"))
        if sub == "components" and i % 4 == 0:
            write(os.path.join(d, ".gitignore"), NESTED_GITIGNORE)
            touch(os.path.join(d, "Button.test.tsx.snap"))
            os.makedirs(os.path.join(d, "__generated__"))
            touch(os.path.join(d, "__generated__", "types.ts"))
    d = os.path.join(p, "dist")
    os.makedirs(d)
    for j in range(20):
        touch(os.path.join(d, f"chunk-{j}.js"))
    for k in range(5):
        d = os.path.join(p, "node_modules", f"dep-{k}")
        os.makedirs(d)
        write(os.path.join(d, ".gitignore"), "*.tgz\n")
        for j in range(9):
            touch(os.path.join(d, f"file-{j}.js"))
    d = os.path.join(p, "generated")
    os.makedirs(d)
    for j in range(5):
        touch(os.path.join(d, f"gen-{j}.ts"))
    d = os.path.join(p, "lib", "a", "b")
    os.makedirs(d)
    for name in ("x.js", "x.d.ts", "y.js"):
        touch(os.path.join(d, name))
    touch(os.path.join(p, "debug.log"))
    touch(os.path.join(p, "notes.tmp"))


def build(root, count=800):
    os.makedirs(root)
    write(os.path.join(root, ".gitignore"), ROOT_GITIGNORE)
    touch(os.path.join(root, "package.json"))
    for i in range(count):
        package(root, i)
    subprocess.run(["git", "init", "-q", root], check=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 800)


if __name__ == "__main__":
    main()
