#!/usr/bin/env python3
"""diagnostics.c_standards: every C source given compiles without a single
warning under -std=c23 (c2x where the compiler predates the name), c17 and
c99 with -Wall -Wextra -pedantic, loaded with the plugin (which knows the
pragma, so no -Wunknown-pragmas).  The test programs use POSIX, which ISO
modes hide unless asked: _POSIX_C_SOURCE is defined for every file, as a
user of strict modes does.

  c_standards.py --cc CC --plugin SO [-I DIR]... [--isystem DIR]...
                 [-D DEF]... FILE...

(--isystem: headers not ours, NVTX's, whose warnings are not asserted.)
"""
import argparse
import os
import subprocess
import sys


def newest_c_standard(cc):
    """c23, or c2x on compilers that know it under its draft name (GCC 12)."""
    probe = subprocess.run([cc, '-std=c23', '-E', '-x', 'c', os.devnull],
                           capture_output=True)
    return 'c23' if probe.returncode == 0 else 'c2x'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cc', required=True)
    ap.add_argument('--plugin', required=True)
    ap.add_argument('-I', dest='includes', action='append', default=[])
    ap.add_argument('--isystem', action='append', default=[])
    ap.add_argument('-D', dest='defines', action='append', default=[])
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()

    failures = 0
    standards = [newest_c_standard(args.cc), 'c17', 'c99']
    for std in standards:
        for path in args.files:
            cmd = [args.cc, '-std=' + std, '-Wall', '-Wextra', '-pedantic',
                   '-D_POSIX_C_SOURCE=200809L', '-fplugin=' + args.plugin,
                   '-c', '-o', os.devnull, path]
            cmd += ['-I' + d for d in args.includes]
            cmd += [w for d in args.isystem for w in ('-isystem', d)]
            cmd += ['-D' + d for d in args.defines]
            run = subprocess.run(cmd, capture_output=True, text=True)
            output = (run.stdout + run.stderr).strip()
            if run.returncode != 0 or output:
                failures += 1
                print('FAIL: -std=%s %s (exit %d)\n%s' % (std, path, run.returncode, output))
    print('%d files x %s: %d failed' % (len(args.files), ', '.join(standards), failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
