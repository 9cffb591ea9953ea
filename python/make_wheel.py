#!/usr/bin/env python3
"""make_wheel.py - the capture_window wheels, written with the standard
library's zipfile (no setuptools, no wheel package, no package index).

Two jobs:

- The self-contained wheel. `cmake --build build --target wheel`
  (python/CMakeLists.txt) runs

      make_wheel.py wheel --out DIR --version V --library LIB --cli DIR --cc CC [ARGS]

  to write DIR/capture_window-V-py3-none-manylinux_X_Y_ARCH.whl: the
  capture_window package with the runtime library beside it, as
  capture_window/libcapture_window.so.1 (where _runtime.candidates()
  looks first after CAPTURE_WINDOW_LIBRARY), and the capture_window_cli
  package with the `capture-window` console script. The tag is the one of
  the C compiler CC (with its ARGS, e.g. --sysroot) that built LIB: ARCH
  from `CC -dumpmachine`, X.Y the glibc of the headers it compiles
  against (__GLIBC__, __GLIBC_MINOR__ of <features.h>; a cross compiler's
  are its sysroot's). LIB itself must agree: its ELF machine is ARCH's and
  no GLIBC_ symbol version it needs is newer than X.Y.
  `make_wheel.py name --version V --cc CC [ARGS]` prints that file name
  (CMake asks it at configure time).

- The PEP 517 build backend of python/pyproject.toml (backend-path "."),
  so that `pip install ./python` needs nothing but pip: build_wheel writes
  the package alone, pure Python (py3-none-any), which finds the library
  through CAPTURE_WINDOW_LIBRARY or the dynamic loader's search.

The name, version and summary are pyproject.toml's [project] table; the
CMake project's VERSION must be the same.
"""
import argparse
import base64
import csv
import glob
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = "libcapture_window.so.1"   # the SONAME, a name _runtime.NAMES has
ZIP_TIME = (1980, 1, 1, 0, 0, 0)     # the same bytes from the same inputs
# The first word of `CC -dumpmachine`: the platform tag's ARCH, the ELF
# e_machine and ELF class (1: 32-bit, 2: 64-bit) a library for it has.
ARCHES = {"x86_64": ("x86_64", 62, 2), "aarch64": ("aarch64", 183, 2),
          "i386": ("i686", 3, 1), "i486": ("i686", 3, 1), "i586": ("i686", 3, 1),
          "i686": ("i686", 3, 1), "powerpc64le": ("ppc64le", 21, 2),
          "s390x": ("s390x", 22, 2)}


class Refused(Exception):
    """A wheel that would not be what its name says."""


def project():
    """pyproject.toml's [project] strings (name, version, description,
    requires-python): tomllib is 3.11+, and the table is plain lines."""
    fields, table = {}, None
    with open(os.path.join(HERE, "pyproject.toml")) as f:
        for line in f:
            m = re.match(r"\s*\[([^\]]+)\]", line)
            if m:
                table = m.group(1).strip()
            m = re.match(r'\s*([A-Za-z-]+)\s*=\s*"([^"]*)"\s*$', line)
            if m and table == "project":
                fields[m.group(1)] = m.group(2)
    return fields


def dist_name(meta):
    return re.sub(r"[-_.]+", "_", meta["name"]).lower()


def platform_tag(cc):
    """manylinux_X_Y_ARCH for the compiler command CC (a list)."""
    try:
        machine = subprocess.run(cc + ["-dumpmachine"], capture_output=True, text=True,
                                 check=True).stdout.strip()
        probe = subprocess.run(cc + ["-E", "-P", "-x", "c", "-"], capture_output=True,
                               text=True, check=True,
                               input="#include <features.h>\nCW_GLIBC __GLIBC__ __GLIBC_MINOR__\n")
    except (OSError, subprocess.CalledProcessError) as e:
        raise Refused("cannot ask the C compiler %s: %s" % (" ".join(cc), e))
    arch = machine.split("-")[0]
    if "-linux-gnu" not in machine or arch not in ARCHES:
        raise Refused("the C compiler targets %s: a manylinux wheel needs glibc Linux on %s"
                      % (machine, ", ".join(sorted(ARCHES))))
    glibc = re.search(r"CW_GLIBC (\d+) (\d+)", probe.stdout)
    if not glibc:
        raise Refused("the C compiler %s has no glibc <features.h>" % " ".join(cc))
    return "manylinux_%s_%s_%s" % (glibc.group(1), glibc.group(2), ARCHES[arch][0])


def check_library(path, tag):
    """Refused unless the ELF library at PATH runs where TAG says."""
    major, minor, arch = re.fullmatch(r"manylinux_(\d+)_(\d+)_(\w+)", tag).groups()
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        raise Refused("%s is not an ELF file" % path)
    order = "little" if data[5] == 1 else "big"
    machine, elf_class = int.from_bytes(data[18:20], order), data[4]
    want = next(v for v in ARCHES.values() if v[0] == arch)
    if (machine, elf_class) != want[1:]:
        raise Refused("%s is ELF machine %d (class %d), not %s's: it was built by another "
                      "compiler than the tag's" % (path, machine, elf_class, arch))
    needed = max((tuple(map(int, v)) for v in re.findall(rb"GLIBC_(\d+)\.(\d+)", data)),
                 default=(0, 0))
    if needed > (int(major), int(minor)):
        raise Refused("%s needs GLIBC_%d.%d, newer than the tag %s" % (path, *needed, tag))


def sources(folder):
    """The .py files of a package folder, sorted (no __pycache__)."""
    return sorted(glob.glob(os.path.join(folder, "*.py")))


def console_module(cli):
    """capture_window_cli/_console.py: the cli/capture-window script with
    the no-argument function a console script entry point calls."""
    with open(os.path.join(cli, "capture-window")) as f:
        text = f.read()
    if text.startswith("#!"):
        text = text.split("\n", 1)[1]
    return (text + "\n\n# Added by python/make_wheel.py: the wheel's `capture-window`"
            " console script.\ndef console():\n    return main(sys.argv[1:])\n").encode()


def write_wheel(directory, meta, tag, files, purelib, entry_points=None):
    """Writes the wheel of FILES ((name in the wheel, bytes, executable))
    and returns its file name."""
    name, version = dist_name(meta), meta["version"]
    info = "%s-%s.dist-info" % (name, version)
    metadata = ["Metadata-Version: 2.1", "Name: " + meta["name"], "Version: " + version]
    metadata += ["%s: %s" % (k, meta[f]) for k, f in (("Summary", "description"),
                 ("Requires-Python", "requires-python")) if f in meta]
    wheel = ["Wheel-Version: 1.0", "Generator: capture-window python/make_wheel.py",
             "Root-Is-Purelib: " + ("true" if purelib else "false"), "Tag: py3-none-" + tag]
    files = list(files) + [(info + "/METADATA", ("\n".join(metadata) + "\n").encode(), False),
                           (info + "/WHEEL", ("\n".join(wheel) + "\n").encode(), False)]
    if entry_points:
        files.append((info + "/entry_points.txt", entry_points.encode(), False))
    record = io.StringIO()
    rows = csv.writer(record, lineterminator="\n")
    for path, data, _ in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        rows.writerow([path, "sha256=" + digest.decode(), len(data)])
    rows.writerow([info + "/RECORD", "", ""])
    files.append((info + "/RECORD", record.getvalue().encode(), False))
    filename = "%s-%s-py3-none-%s.whl" % (name, version, tag)
    os.makedirs(directory, exist_ok=True)
    part = os.path.join(directory, filename + ".part")
    with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data, executable in files:
            entry = zipfile.ZipInfo(path, ZIP_TIME)
            entry.external_attr = (0o100755 if executable else 0o100644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    os.replace(part, os.path.join(directory, filename))
    return filename


def package_files(folder, package):
    for path in sources(folder):
        with open(path, "rb") as f:
            yield package + "/" + os.path.basename(path), f.read(), False


def target(version, cc):
    """pyproject.toml's [project] and the platform tag of CC, once VERSION
    (the CMake project's) is checked against the former."""
    meta = project()
    if meta.get("version") != version:
        raise Refused("python/pyproject.toml says version %s, the CMake project %s: make them "
                      "the same" % (meta.get("version"), version))
    return meta, platform_tag(cc)


def self_contained(out, meta, tag, library, cli):
    """The wheel of `cmake --build build --target wheel`; returns its path."""
    check_library(library, tag)
    files = list(package_files(os.path.join(HERE, "capture_window"), "capture_window"))
    with open(library, "rb") as f:
        files.append(("capture_window/" + LIBRARY, f.read(), True))
    files += package_files(os.path.join(cli, "capture_window_cli"), "capture_window_cli")
    files.append(("capture_window_cli/_console.py", console_module(cli), False))
    entry = "[console_scripts]\ncapture-window = capture_window_cli._console:console\n"
    return os.path.join(out, write_wheel(out, meta, tag, files, False, entry))


# The PEP 517 backend (pyproject.toml): the package alone, pure Python.

def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = package_files(os.path.join(HERE, "capture_window"), "capture_window")
    return write_wheel(wheel_directory, project(), "any", files, True)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """`pip install -e ./python`: a .pth file puts this folder on sys.path."""
    files = [("capture_window_editable.pth", (HERE + "\n").encode(), False)]
    return write_wheel(wheel_directory, project(), "any", files, True)


def build_sdist(sdist_directory, config_settings=None):
    meta = project()
    base = "%s-%s" % (dist_name(meta), meta["version"])
    pkg_info = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (meta["name"], meta["version"])
    os.makedirs(sdist_directory, exist_ok=True)
    with tarfile.open(os.path.join(sdist_directory, base + ".tar.gz"), "w:gz") as t:
        for path in ["pyproject.toml", "make_wheel.py"] + [
                os.path.relpath(p, HERE) for p in sources(os.path.join(HERE, "capture_window"))]:
            t.add(os.path.join(HERE, path), base + "/" + path)
        entry = tarfile.TarInfo(base + "/PKG-INFO")
        entry.size = len(pkg_info)
        t.addfile(entry, io.BytesIO(pkg_info.encode()))
    return base + ".tar.gz"


def main(argv):
    p = argparse.ArgumentParser(description="Writes the capture_window wheel (docstring).")
    p.add_argument("job", choices=("wheel", "name"))
    p.add_argument("--out", help="the folder the wheel goes in (wheel)")
    p.add_argument("--version", required=True, help="the CMake project's version")
    p.add_argument("--library", help="the runtime library built from runtime/ (wheel)")
    p.add_argument("--cli", help="the source tree's cli/ folder (wheel)")
    p.add_argument("--cc", nargs=argparse.REMAINDER, required=True,
                   help="the C compiler that built the library, and its target flags (last)")
    args = p.parse_args(argv)
    if args.job == "wheel" and not (args.out and args.library and args.cli):
        p.error("wheel needs --out, --library and --cli")
    try:
        meta, tag = target(args.version, args.cc)
        if args.job == "name":
            print("%s-%s-py3-none-%s.whl" % (dist_name(meta), meta["version"], tag))
        else:
            self_contained(args.out, meta, tag, args.library, args.cli)
    except Refused as e:
        print("make_wheel.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
