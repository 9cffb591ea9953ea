#!/usr/bin/env python3
"""Compile one diagnostics case with a capture_window plugin (GCC's, or
Clang's with --compiler-family clang) and check what the compiler printed
against the expectations written in the case.

In a case file (the idea of GCC's dg-error, in our own words):

  { cw-error "TEXT" }          an error on this line whose message holds TEXT
  { cw-error "TEXT" col=N }    ... at column N
  { cw-warning "TEXT" } / { cw-note "TEXT" }   the same for warnings, notes
  { cw-error-global "TEXT" }   an error with no source location (cc1: error:)
  { cw-options "ARGS" }        extra compiler arguments (shell words)
  { cw-no-plugin }             compile without the plugin
  { cw-exit N }                expected exit status (default: 1 if an error
                               is expected, else 0)

Where one front end legitimately differs (the compiler's own wording, a
column), an expectation can be narrowed or adjusted per front end:

  { cw-warning "TEXT" only=gcc }      expected from that front end only
  { cw-warning "TEXT" only=gcc,clang } ... from those front ends only
  { cw-error "TEXT" col=N clang-col=M }   column M with clang, N otherwise

The capture_window messages themselves are the same for every front end.

Every error the compiler prints must be expected; warnings and notes must
be expected only where the case says { cw-strict }.  No case may produce an
internal compiler error or crash.  .c uses --cc, .cc uses --cxx, .cu uses
--nvcc with --cxx as its host compiler (columns are not checked through
nvcc).
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

DIRECTIVE = re.compile(
    r'\{ cw-(error|warning|note|error-global|options|no-plugin|exit|strict)'
    r'(?: "((?:[^"\\]|\\.)*)")?((?: [a-z-]+=[\w,]+)*)(?: (\d+))? \}')
ATTRIBUTES = ('col', 'gcc-col', 'clang-col', 'rewrite-col', 'only')
DIAG = re.compile(r'^(.*?):(\d+):(?:(\d+):)? (error|warning|note): (.*)$')
GLOBAL = re.compile(r'^(?:(?:cc1|cc1plus|lto1|gcc|g\+\+|nvcc|clang|capture-window-rewrite)[^:]*: )?'
                    r'(error): (.*)$')


def attributes(path, lineno, text, family):
    """col=, FAMILY-col= and only= of one directive: (column, applies)."""
    attrs = {}
    for word in text.split():
        key, value = word.split('=', 1)
        if key not in ATTRIBUTES:
            raise SystemExit('%s:%d: unknown attribute %s' % (path, lineno, word))
        attrs[key] = value
    col = attrs.get(family + '-col', attrs.get('col'))
    return (int(col) if col else None), family in attrs.get('only', family).split(',')


def read_expectations(path, family):
    expect, options, plugin, exit_code, strict = [], [], True, None, False
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            for m in DIRECTIVE.finditer(line):
                kind, text, attrs, num = m.groups()
                col, applies = attributes(path, lineno, attrs, family)
                if not applies:
                    continue
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
                    expect.append((kind, lineno, col, text))
    if exit_code is None:
        exit_code = 1 if any(e[0] == 'error' for e in expect) else 0
    return expect, options, plugin, exit_code, strict


def command(args, path, options, plugin):
    ext = os.path.splitext(path)[1]
    if args.compiler_family == 'clang':
        plain = ['-fno-color-diagnostics', '-fno-caret-diagnostics']
    else:
        plain = ['-fdiagnostics-plain-output', '-fno-diagnostics-color']
    includes = ['-I' + d for d in args.include]
    if ext == '.cu':
        xc = plain + (['-fplugin=' + args.plugin] if plugin else [])
        xc += [o for o in options if o.startswith('-fplugin-arg')]
        rest = [o for o in options if not o.startswith('-fplugin-arg')]
        return ([args.nvcc, '-ccbin', args.cxx, '-c', '-Xcompiler', ','.join(xc)] + includes +
                args.nvcc_flags + rest + [path, '-o', os.devnull])
    cc = args.cxx if ext in ('.cc', '.cpp') else args.cc
    return ([cc, '-c'] + plain + (['-fplugin=' + args.plugin] if plugin else []) +
            includes + options + [path, '-o', os.devnull])


def run_rewrite(args, path, options, plugin):
    """--compiler-family rewrite: capture-window-rewrite on the case (its
    -fplugin-arg-capture_window-* options as the plugins take them), then,
    if it wrote a copy, --cc/--cxx on the copy with no plugin.  Returns the
    last command, its exit status and everything printed."""
    ext = os.path.splitext(path)[1]
    includes = ['-I' + d for d in args.include]
    plain = ['-fdiagnostics-plain-output', '-fno-diagnostics-color']
    compiler_options = [o for o in options if not o.startswith('-fplugin-arg')]
    cc = args.cxx if ext in ('.cc', '.cpp') else args.cc
    if not plugin:
        cmd = [cc, '-c'] + plain + includes + compiler_options + [path, '-o', os.devnull]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors='replace')
        return cmd, p.returncode, p.stdout
    copy = os.path.join(args.work_dir, os.path.basename(path))
    os.makedirs(args.work_dir, exist_ok=True)
    cmd = [args.rewriter, '-o', copy, path, '--'] + includes + options
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors='replace')
    if p.returncode != 0 or ext == '.cu':
        return cmd, p.returncode, p.stdout
    out = p.stdout
    cmd = ([cc, '-c'] + plain + includes + ['-I' + os.path.dirname(path)] +
           compiler_options + [copy, '-o', os.devnull])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors='replace')
    return cmd, p.returncode, out + p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--plugin')
    ap.add_argument('--compiler-family', choices=('gcc', 'clang', 'rewrite'),
                    default='gcc')
    ap.add_argument('--rewriter', help='capture-window-rewrite (family rewrite)')
    ap.add_argument('--work-dir', default='.', help='where the rewriter writes')
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--cxx', default='g++')
    ap.add_argument('--nvcc', default='nvcc')
    ap.add_argument('--nvcc-flags', action='append', default=[],
                    help="a flag for every nvcc command: the build's CMAKE_CUDA_FLAGS")
    ap.add_argument('--include', action='append', default=[])
    ap.add_argument('case')
    args = ap.parse_args()

    path = os.path.abspath(args.case)
    expect, options, plugin, exit_code, strict = read_expectations(
        path, args.compiler_family)
    is_cu = path.endswith('.cu')
    if args.compiler_family == 'rewrite':
        cmd, returncode, out = run_rewrite(args, path, options, plugin)
    else:
        cmd = command(args, path, options, plugin)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors='replace')
        out, returncode = proc.stdout, proc.returncode
    failures = []
    if ('internal compiler error' in out or 'Segmentation fault' in out or
            'PLEASE submit a bug report' in out or returncode < 0):
        failures.append('the compiler crashed')
    if returncode != exit_code:
        failures.append('exit status %d, expected %d' % (returncode, exit_code))

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
