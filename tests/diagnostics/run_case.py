#!/usr/bin/env python3
"""Compile one diagnostics case with the capture_window GCC plugin and check
what the compiler printed against the expectations written in the case.

In a case file (the idea of GCC's dg-error, in our own words):

  { cw-error "TEXT" }          an error on this line whose message holds TEXT
  { cw-error "TEXT" col=N }    ... at column N
  { cw-warning "TEXT" } / { cw-note "TEXT" }   the same for warnings, notes
  { cw-error-global "TEXT" }   an error with no source location (cc1: error:)
  { cw-options "ARGS" }        extra compiler arguments (shell words)
  { cw-no-plugin }             compile without the plugin
  { cw-exit N }                expected exit status (default: 1 if an error
                               is expected, else 0)

Every error the compiler prints must be expected; warnings and notes must
be expected only where the case says { cw-strict }.  No case may produce an
internal compiler error.  .c uses --cc, .cc uses --cxx, .cu uses --nvcc
(columns are not checked through nvcc).
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

DIRECTIVE = re.compile(
    r'\{ cw-(error|warning|note|error-global|options|no-plugin|exit|strict)'
    r'(?: "((?:[^"\\]|\\.)*)")?(?: col=(\d+))?(?: (\d+))? \}')
DIAG = re.compile(r'^(.*?):(\d+):(?:(\d+):)? (error|warning|note): (.*)$')
GLOBAL = re.compile(r'^(?:cc1|cc1plus|lto1|gcc|g\+\+|nvcc)[^:]*: (error): (.*)$')


def read_expectations(path):
    expect, options, plugin, exit_code, strict = [], [], True, None, False
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            for m in DIRECTIVE.finditer(line):
                kind, text, col, num = m.groups()
                text = (text or '').replace('\\"', '"').replace('\\\\', '\\')
                if kind == 'options':
                    options += shlex.split(text)
                elif kind == 'no-plugin':
                    plugin = False
                elif kind == 'exit':
                    exit_code = int(num)
                elif kind == 'strict':
                    strict = True
                elif kind == 'error-global':
                    expect.append(('error', None, None, text))
                else:
                    expect.append((kind, lineno, int(col) if col else None, text))
    if exit_code is None:
        exit_code = 1 if any(e[0] == 'error' for e in expect) else 0
    return expect, options, plugin, exit_code, strict


def command(args, path, options, plugin):
    ext = os.path.splitext(path)[1]
    plain = ['-fdiagnostics-plain-output', '-fno-diagnostics-color']
    includes = ['-I' + d for d in args.include]
    if ext == '.cu':
        xc = plain + (['-fplugin=' + args.plugin] if plugin else [])
        xc += [o for o in options if o.startswith('-fplugin-arg')]
        rest = [o for o in options if not o.startswith('-fplugin-arg')]
        return ([args.nvcc, '-c', '-Xcompiler', ','.join(xc)] + includes +
                rest + [path, '-o', os.devnull])
    cc = args.cxx if ext in ('.cc', '.cpp') else args.cc
    return ([cc, '-c'] + plain + (['-fplugin=' + args.plugin] if plugin else []) +
            includes + options + [path, '-o', os.devnull])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--cxx', default='g++')
    ap.add_argument('--nvcc', default='nvcc')
    ap.add_argument('--include', action='append', default=[])
    ap.add_argument('case')
    args = ap.parse_args()

    path = os.path.abspath(args.case)
    expect, options, plugin, exit_code, strict = read_expectations(path)
    is_cu = path.endswith('.cu')
    cmd = command(args, path, options, plugin)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors='replace')
    out = proc.stdout
    failures = []
    if 'internal compiler error' in out or 'Segmentation fault' in out:
        failures.append('the compiler crashed')
    if proc.returncode != exit_code:
        failures.append('exit status %d, expected %d' % (proc.returncode, exit_code))

    actual = []
    base = os.path.basename(path)
    for line in out.splitlines():
        m = DIAG.match(line)
        if m and os.path.basename(m.group(1)) == base:
            actual.append((m.group(4), int(m.group(2)),
                           int(m.group(3)) if m.group(3) else None, m.group(5)))
            continue
        m = GLOBAL.match(line)
        if m:
            actual.append((m.group(1), None, None, m.group(2)))

    unmatched = list(actual)
    for kind, line, col, text in expect:
        found = None
        for a in unmatched:
            if (a[0] == kind and a[1] == line and text in a[3] and
                    (col is None or is_cu or a[2] == col)):
                found = a
                break
        if found:
            unmatched.remove(found)
        else:
            where = '%s:%s%s' % (base, line, ':%d' % col if col else '') if line else 'global'
            failures.append('missing %s at %s: "%s"' % (kind, where, text))
    for a in unmatched:
        if a[0] == 'error' or strict:
            failures.append('unexpected %s at %s:%s:%s: %s' % (a[0], base, a[1], a[2], a[3]))

    if failures:
        print('$ ' + ' '.join(shlex.quote(c) for c in cmd))
        print(out)
        for f in failures:
            print('FAIL: ' + f)
        return 1
    print('ok: %s (%d expected diagnostics)' % (base, len(expect)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
