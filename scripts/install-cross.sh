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
#   on Debian 12 it comes from bookworm-backports (QEMU 10). When apt has
#   no backports source yet, this script adds one on the same server as
#   the system's own bookworm source (a mirror or a local proxy keeps
#   working), and says what it added;
# - the cross linkers and C libraries given as arguments (one pair per
#   target: gcc-<arch>-linux-gnu and libc6-dev-<arch>-cross), and for
#   wasm32-wasip1 wasi-libc, LLVM's linker (lld-16) and Node.js (nodejs),
#   which runs the WebAssembly. On Debian 12 wasi-libc, too, comes from
#   bookworm-backports (its 2024 build, the one the check is made with).
#
# Usage: scripts/install-cross.sh [PACKAGE…]   (xtask passes the packages)
set -euo pipefail

# The URI of the source apt reads SUITE/main from, given `apt-cache policy`
# on standard input; empty when there is none.
source_uri() {
    awk -v suite="$1/main" '$3 == suite && $2 ~ /^[a-z0-9+]+:/ { print $2; exit }'
}

main() {
    # What comes from bookworm-backports on Debian 12, and the rest.
    local late=(qemu-user) packages=(rustc-web cargo-web rust-web-src)
    local package
    for package in "$@"; do
        if [ "$package" = wasi-libc ]; then late+=("$package"); else packages+=("$package"); fi
    done

    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-cross: apt-get not found: this script installs Debian packages." >&2
        echo "install-cross: install these (or your system's equivalents) by hand: ${packages[*]} ${late[*]} (qemu-user 8.0 or later)" >&2
        exit 1
    fi

    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "install-cross: not root and no sudo; as root, run: bash $0 $*" >&2
            exit 1
        fi
    fi

    export DEBIAN_FRONTEND=noninteractive
    local codename
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    "${sudo[@]}" apt-get update -qq
    if [ "$codename" = bookworm ]; then
        if [ -z "$(apt-cache policy | source_uri bookworm-backports)" ]; then
            local uri list=/etc/apt/sources.list.d/geom-cross-backports.list
            uri=$(apt-cache policy | source_uri bookworm)
            if [ -z "$uri" ]; then
                echo "install-cross: apt has no source for bookworm/main to take the backports' server from;" >&2
                echo "install-cross: add bookworm-backports to apt's sources by hand (QEMU 8 or later is needed)" >&2
                exit 1
            fi
            echo "deb $uri bookworm-backports main" | "${sudo[@]}" tee "$list" >/dev/null
            echo "install-cross: added $list: \"deb $uri bookworm-backports main\" (the server of your bookworm source)"
            "${sudo[@]}" apt-get update -qq
        fi
        late=(-t bookworm-backports "${late[@]}")
    fi
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${late[@]}"
}

# Sourced (by xtask's tests), it only defines the functions.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
