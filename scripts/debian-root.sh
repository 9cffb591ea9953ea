# scripts/debian-root.sh - sourced by the scripts that make Debian roots
# (test-compilers.sh, test-deb-install.sh): the archive to fetch from and
# a root made once with debootstrap. Needs $out, the folder for logs.

# The Debian archive this machine's apt reads: the first URI of the
# source for its own release, in the deb822 .sources files, else in
# sources.list (options in [ ] dropped).
debian_mirror() {
  [ -n "${CW_DEBIAN_MIRROR:-}" ] && { echo "$CW_DEBIAN_MIRROR"; return; }
  local release uri
  release=$(. /etc/os-release && echo "$VERSION_CODENAME")
  uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v release="$release" '
          BEGIN { RS = "" }  # one source per paragraph
          /URIs:/ && (" " $0 " ") ~ ("Suites:[^:]* " release "[ \n]") {
            sub(/.*URIs: */, ""); print $1; exit }')
  [ -n "$uri" ] || uri=$(sed -E 's/\[[^]]*\] *//' /etc/apt/sources.list 2>/dev/null |
                         awk -v release="$release" '$1 == "deb" && $3 == release { print $2; exit }')
  [ -n "$uri" ] || { echo "no Debian archive for $release in /etc/apt; set CW_DEBIAN_MIRROR" >&2; exit 1; }
  echo "$uri"
}

# setup_root SUITE ROOT PACKAGE...: a Debian SUITE root with PACKAGES in
# ROOT, made unless the stamp says it has them.
setup_root() {
  local suite=$1 root=$2; shift 2
  local stamp="$*" mirror
  [ "$(cat "$root/.capture-window" 2>/dev/null)" = "$stamp" ] && return
  mirror=$(debian_mirror)
  echo "making the Debian $suite root $root (debootstrap)"
  # A run that was killed may have left this checkout or the CUDA toolkit
  # mounted inside: rm -rf would delete them.
  if grep -q " ${root}[/.]" /proc/mounts; then
    echo "mounts left under $root (umount them first):"; grep " ${root}[/.]" /proc/mounts
    exit 1
  fi
  rm -rf "$root" "$root.tmp"
  mkdir -p "$(dirname "$root")"
  debootstrap --variant=minbase --include="$(IFS=,; echo "$*")" \
    "$suite" "$root.tmp" "$mirror" >"$out/debootstrap-$suite.log" 2>&1 ||
    { tail -20 "$out/debootstrap-$suite.log"; exit 1; }
  echo "$stamp" >"$root.tmp/.capture-window"
  mv "$root.tmp" "$root"
}
