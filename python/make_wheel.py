#!/usr/bin/env python3
"""make_wheel.py - the capture_window wheels, written with the standard
library's zipfile (no setuptools, no wheel package, no package index).

Two jobs:

- The self-contained wheel. `cmake --build build --target wheel`
  (python/CMakeLists.txt) runs

      make_wheel.py wheel --out DIR --version V --library LIB --cli DIR
                    [--name-file FILE] --cc CC [ARGS]

  to write DIR/capture_window-V-py3-none-manylinux_X_Y_ARCH.whl: the
  capture_window package with the runtime library beside it, as
  capture_window/libcapture_window.so.1 (where _runtime.candidates()
  looks first after CAPTURE_WINDOW_LIBRARY), and the capture_window_cli
  package with the `capture-window` console script, and prints the file's
  name (and writes it to FILE). The tag is the library's, as auditwheel tags: ARCH that of the C
  compiler CC (with its ARGS, e.g. --sysroot) that built LIB, from
  `CC -dumpmachine`, which LIB's ELF machine must be; X.Y the newest
  GLIBC_X.Y symbol version LIB needs (its .gnu.version_r), not the glibc
  of the machine that built it, so that pip installs the wheel on every
  glibc the library runs on (docs/python.md, "Where the wheel installs").
  Wheels of another tag left in DIR are removed: DIR holds one.
  `make_wheel.py arch --version V --cc CC [ARGS]` prints ARCH, or why no
  manylinux wheel can be made (CMake asks it at configure time).

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
import struct
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
# The oldest glibc pip (packaging's _manylinux) makes a manylinux tag for:
# manylinux1's on x86, manylinux2014's on the others.
OLDEST_GLIBC = {"x86_64": (2, 5), "i686": (2, 5)}
SHT_GNU_VERNEED = 0x6FFFFFFE


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


def target_arch(cc):
    """The platform tag's ARCH for the compiler command CC (a list), which
    must target glibc Linux."""
    try:
        machine = subprocess.run(cc + ["-dumpmachine"], capture_output=True, text=True,
                                 check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        raise Refused("cannot ask the C compiler %s: %s" % (" ".join(cc), e))
    arch = machine.split("-")[0]
    if "-linux-gnu" not in machine or arch not in ARCHES:
        raise Refused("the C compiler targets %s: a manylinux wheel needs glibc Linux on %s"
                      % (machine, ", ".join(sorted(ARCHES))))
    return ARCHES[arch][0]


def version_needs(data):
    """The symbol versions an ELF file needs, [(library, version)], read
    from its SHT_GNU_verneed section (.gnu.version_r), as the dynamic
    loader checks them: chains of Elf_Verneed (one per library) and their
    Elf_Vernaux (one per version), the same 16-byte records in ELF32 and
    ELF64, their names in the section sh_link names."""
    order = "<" if data[5] == 1 else ">"
    wide = data[4] == 2
    shoff, = struct.unpack_from(order + ("Q" if wide else "I"), data, 0x28 if wide else 0x20)
    shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A if wide else 0x2E)
    header = order + ("IIQQQQII" if wide else "IIIIIIII")

    def section(i):  # (type, offset, size, link, info)
        fields = struct.unpack_from(header, data, shoff + i * shentsize)
        return fields[1], fields[4], fields[5], fields[6], fields[7]

    needs = []
    for i in range(shnum):
        kind, offset, _, link, count = section(i)
        if kind != SHT_GNU_VERNEED:
            continue
        strings = section(link)[1]

        def name(at):
            return data[strings + at:data.index(b"\0", strings + at)].decode()

        for _ in range(count):
            _, aux_count, file, aux, following = struct.unpack_from(order + "HHIII", data, offset)
            at = offset + aux
            for _ in range(aux_count):
                _, _, _, version, aux_next = struct.unpack_from(order + "IHHII", data, at)
                needs.append((name(file), name(version)))
                at += aux_next
            offset += following
    return needs


def library_tag(path, arch):
    """manylinux_X_Y_ARCH for the ELF library at PATH, built for ARCH: X.Y
    the newest GLIBC_X.Y[.Z] version it needs (what auditwheel tags by),
    not the build machine's glibc; at least the oldest glibc pip knows a
    manylinux tag for on ARCH (2.5 on x86, 2.17 elsewhere). Refused if the
    file is not an ELF library for ARCH."""
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
    needed = max([tuple(map(int, m.groups())) for m in (
        re.fullmatch(r"GLIBC_(\d+)\.(\d+)(?:\.\d+)?", v) for _, v in version_needs(data)) if m]
        + [OLDEST_GLIBC.get(arch, (2, 17))])
    return "manylinux_%d_%d_%s" % (needed + (arch,))


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
    """pyproject.toml's [project] and the ARCH of CC, once VERSION (the
    CMake project's) is checked against the former."""
    meta = project()
    if meta.get("version") != version:
        raise Refused("python/pyproject.toml says version %s, the CMake project %s: make them "
                      "the same" % (meta.get("version"), version))
    return meta, target_arch(cc)


def self_contained(out, meta, arch, library, cli):
    """The wheel of `cmake --build build --target wheel`, the only wheel of
    the project in OUT (one of an older tag is removed); returns its path."""
    tag = library_tag(library, arch)
    for stale in glob.glob(os.path.join(out, "%s-*.whl" % dist_name(meta))):
        os.remove(stale)
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
    p.add_argument("job", choices=("wheel", "arch"))
    p.add_argument("--out", help="the folder the wheel goes in (wheel)")
    p.add_argument("--version", required=True, help="the CMake project's version")
    p.add_argument("--library", help="the runtime library built from runtime/ (wheel)")
    p.add_argument("--cli", help="the source tree's cli/ folder (wheel)")
    p.add_argument("--name-file", help="where the wheel's file name is written (wheel)")
    p.add_argument("--cc", nargs=argparse.REMAINDER, required=True,
                   help="the C compiler that built the library, and its target flags (last)")
    args = p.parse_args(argv)
    if args.job == "wheel" and not (args.out and args.library and args.cli):
        p.error("wheel needs --out, --library and --cli")
    try:
        meta, arch = target(args.version, args.cc)
        if args.job == "arch":
            print(arch)
        else:
            name = os.path.basename(self_contained(args.out, meta, arch, args.library, args.cli))
            print(name)
            if args.name_file:
                with open(args.name_file, "w") as f:
                    f.write(name + "\n")
    except Refused as e:
        print("make_wheel.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
