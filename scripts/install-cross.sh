#!/usr/bin/env bash
# Installs what `cargo xtask cross` needs to run the determinism checks on
# other architectures, from Debian's packages (the only place this project's
# machines can get them; rustup cannot fetch other targets' standard
# libraries here):
#
# - rustc-web, cargo-web, rust-web-src: a second Rust toolchain with its
#   standard library's source, so that `-Zbuild-std` builds std for any
#   target;
# - qemu-user: runs the foreign test binaries. QEMU 7.2 (Debian 12's own)
#   miscomputes an s390x float instruction (see scripts/qemu-mdebr.c), so
#   on Debian 12 it comes from bookworm-backports (QEMU 10), whose source
#   this script adds;
# - the cross linkers and C libraries given as arguments (one pair per
#   target: gcc-<arch>-linux-gnu and libc6-dev-<arch>-cross).
#
# Usage: scripts/install-cross.sh [PACKAGE…]   (xtask passes the packages)
set -euo pipefail

packages=(rustc-web cargo-web rust-web-src "$@")

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-cross: apt-get not found: this script installs Debian packages." >&2
    echo "install-cross: install these (or your system's equivalents) by hand: ${packages[*]} qemu-user (8.0 or later)" >&2
    exit 1
fi

sudo=()
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "install-cross: not root and no sudo; as root, run: bash $0 $*" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
qemu=(qemu-user)
if [ "$codename" = bookworm ]; then
    list=/etc/apt/sources.list.d/geom-cross-backports.list
    echo "deb http://deb.debian.org/debian bookworm-backports main" | "${sudo[@]}" tee "$list" >/dev/null
    qemu=(-t bookworm-backports qemu-user)
fi
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${qemu[@]}"
