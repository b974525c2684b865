#!/usr/bin/env bash
# Makes the root filesystem of a stand/base:<suite> image: debootstrap (minbase) of the Debian suite
# with the packages of base/<suite>.txt, then drops apt caches, docs and man pages. Called by
# ../prepare.sh, which imports the result; DEST/.complete marks a finished rootfs.
# Usage: rootfs.sh SUITE DEST MIRROR LOGFILE
set -euo pipefail
suite=$1 dest=$2 mirror=$3 log=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pkgs=$(grep -v '^#' "$here/$suite.txt" | xargs | tr ' ' ',')
rm -rf "$dest"
echo "debootstrap $suite with $pkgs" >&2
debootstrap --variant=minbase --include="$pkgs" "$suite" "$dest" "$mirror" >"$log" 2>&1 \
  || { tail -30 "$log" >&2; exit 1; }
rm -rf "$dest"/var/cache/apt/archives/*.deb "$dest"/var/lib/apt/lists/* "$dest"/usr/share/doc "$dest"/usr/share/man
touch "$dest/.complete"
