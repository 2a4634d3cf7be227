"""Compiling code as a downstream user of Ripple would, against an existing debug build.

Shared by `.ci/check-doc-snippets` and `.ci/check-compile-failures`. The Ripple products
(RippleDiff, Ripple, RippleTesting) are built once with SwiftPM; the code under test is then
compiled by `swiftc` in Swift 6 language mode (complete concurrency checking), in a module of
its own that sees only their public API (no `package` access, no `@testable`), and linked
against their object files. By default the build is the debug one that `swift test` (CI's step 1)
leaves in `.build`, so in CI it is already up to date and costs a second.
"""

import glob
import os
import re
import subprocess
import sys
from dataclasses import dataclass

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# The targets a user's code links: the three products.
LINKED_TARGETS = ["RippleDiff", "Ripple", "RippleTesting"]

# The same flags as CI's `swift test` step (none), so that building one target there is a no-op
# when that step has run.
BUILD_FLAGS = []


@dataclass
class Toolchain:
    bin_path: str
    swiftc: list  # the compiler and the flags every compilation shares
    objects: list  # the object files of LINKED_TARGETS


def prepare(scratch_path, build=True, quiet=True, release=False, linked=LINKED_TARGETS):
    """Builds (or checks) the Ripple products in `scratch_path` and returns how to compile against them.

    With `release`, the release build that `swift build -c release` leaves there (CI's benchmark
    build), linking only the `linked` targets."""
    base = ["swift", "build", "--scratch-path", scratch_path] + (["-c", "release"] if release else BUILD_FLAGS)
    if build:
        result = subprocess.run(base + ["--target", linked[-1]], cwd=ROOT, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if result.returncode != 0:
            sys.stdout.write(result.stdout)
            raise SystemExit("error: building the Ripple products failed")
        if not quiet:
            sys.stdout.write(result.stdout)
    bin_path = subprocess.run(base + ["--show-bin-path"], cwd=ROOT, text=True, check=True,
                              stdout=subprocess.PIPE).stdout.strip()
    modules = os.path.join(bin_path, "Modules")
    for needed in [os.path.join(modules, f"{linked[-1]}.swiftmodule")]:
        if not os.path.exists(needed):
            raise SystemExit(f"error: {needed} is missing; build first or drop --no-build")
    objects = []
    for target in linked:
        # Only the objects of sources that still exist: a renamed file leaves its old object behind
        # in an incremental build, and linking both would define its symbols twice.
        sources = {os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "Sources", target, "**", "*.swift"), recursive=True)}
        found = sorted(o for o in glob.glob(os.path.join(bin_path, f"{target}.build", "*.o"))
                       if not o.endswith(".swift.o") or os.path.basename(o)[:-2] in sources)
        if not found:
            raise SystemExit(f"error: no object files for {target} in {bin_path}")
        objects += found
    swiftc = [
        "swiftc", "-swift-version", "6", "-diagnostic-style", "llvm", "-g",
        "-I", modules,
        "-module-cache-path", os.path.join(bin_path, "ModuleCache"),
    ]
    return Toolchain(bin_path=bin_path, swiftc=swiftc, objects=objects)


@dataclass
class Diagnostic:
    file: str  # as the compiler printed it: a repository-relative path for mapped code
    line: int
    column: int
    kind: str  # error, warning, note, remark
    message: str

    def short(self):
        return f"{self.file}:{self.line}:{self.column}: {self.kind}: {self.message}"


_DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): "
                         r"(?P<kind>error|warning|note|remark): (?P<message>.*)$")
_UNLOCATED = re.compile(r"^(?:<unknown>:0: |[^:\n]*: )?(?P<kind>error|warning): (?P<message>.*)$")


def parse_diagnostics(output):
    """The located diagnostics in `-diagnostic-style llvm` output, and the unlocated error and
    warning lines (driver and linker messages)."""
    located, unlocated = [], []
    for line in output.splitlines():
        match = _DIAGNOSTIC.match(line)
        if match:
            located.append(Diagnostic(match["file"], int(match["line"]), int(match["column"]),
                                      match["kind"], match["message"]))
        elif _UNLOCATED.match(line):
            unlocated.append(line)
    return located, unlocated


def relative(path):
    """`path` relative to the repository root, with forward slashes."""
    return os.path.relpath(os.path.abspath(path), ROOT).replace(os.sep, "/")
