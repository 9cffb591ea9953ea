# scripts/debian-root.sh - sourced by the scripts that make Debian roots
# (test-compilers.sh, test-deb-install.sh, release-wheels.sh): the archive
# to fetch from, a root made once with debootstrap, and mounted so that
# commands run in it by chroot see this checkout and the CUDA toolkit at
# their paths (use_root; the caller traps EXIT with unmount_all). Needs
# $out, the folder for logs.

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

mounted=()
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" || true; done
}
trap 'exit 130' INT TERM  # so that the EXIT trap unmounts
# The checkout, the CUDA toolkit, /proc and /dev inside the root; the
# toolkit and /dev read-only, so that nothing done inside the root (or to
# it: rm -rf) can delete them.
mount_root() {  # ROOT
  local from to
  for from in /proc /dev /usr/local/cuda "$PWD"; do
    to=$1$from
    mountpoint -q "$to" && continue
    mkdir -p "$to"
    mount --bind "$(realpath "$from")" "$to"
    mounted+=("$to")
    case $from in /dev|/usr/local/cuda) mount -o remount,bind,ro "$to" ;; esac
  done
}

# use_root SUITE ROOT PACKAGE...: made if need be, mounted. One run at a
# time: a second one would mount into, or delete, the root the first uses.
use_root() {
  local fd
  mkdir -p "$(dirname "$2")"
  exec {fd}>"$2.lock"
  flock -n "$fd" || { echo "another script is using the root $2 ($2.lock)"; exit 1; }
  setup_root "$@"
  mount_root "$2"
}
