#!/usr/bin/env bash
# Copied from the team's tested recipe (shared/toolchain/install-wasm-toolchain.sh) so a clone builds on its own.
# Installs what building and testing a Rust -> wasm32 npm package needs, on a
# Debian 12 machine, with or without access to the Rust release servers.
#
#   1. a Rust toolchain that can target wasm32-unknown-unknown
#      - rustup's own target when it is installed or `rustup target add` works;
#      - otherwise (offline; only the package registries reachable) Debian's
#        rustc-web 1.96 + its library sources, from which this script builds the
#        wasm32 standard library once and installs it into that toolchain's
#        sysroot, then links it into rustup under the name in $WASM_TOOLCHAIN;
#   2. wasm-pack and wasm-bindgen-cli (the CLI version must equal the
#      wasm-bindgen crate version in Cargo.lock: pass it as $WASM_BINDGEN_VERSION);
#   3. Chromium and ChromeDriver for `wasm-pack test --headless --chrome`.
#
# WASM_TOOLCHAIN_FROM_DEBIAN=1 skips rustup's target and takes the Debian path.
# WASM_TOOLCHAIN_BUILD_ONLY=1 installs 1 and wasm-bindgen-cli only (scripts/setup --demo).
# Idempotent: each step is skipped when its result is already there.
# Prints, last, the line to eval:  export RUSTUP_TOOLCHAIN=...
# Usage: WASM_BINDGEN_VERSION=0.2.130 bash install-wasm-toolchain.sh
set -euo pipefail

WASM_TOOLCHAIN=${WASM_TOOLCHAIN:-wasm-system}
TARGET=wasm32-unknown-unknown
log() { printf '[toolchain] %s\n' "$*" >&2; }
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  if [ -z "$(find /var/lib/apt/lists -name '*_Packages' -newer /etc/apt/sources.list.d 2>/dev/null | head -1)" ]; then
    apt-get update -qq >&2
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

toolchain=""
if [ "${WASM_TOOLCHAIN_FROM_DEBIAN:-0}" = 1 ]; then
  :
elif rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
  toolchain=$(rustup show active-toolchain | cut -d' ' -f1)
elif timeout 60 rustup target add "$TARGET" >/dev/null 2>&1; then
  toolchain=$(rustup show active-toolchain | cut -d' ' -f1)
fi
if [ -z "$toolchain" ]; then
  log "rustup cannot add $TARGET here: building it from Debian's rustc-web sources"
  apt_install rustc-web cargo-web rust-web-src lld-22
  sysroot_lib=/usr/lib/rustlib/$TARGET/lib
  if ! ls "$sysroot_lib"/libstd-*.rlib >/dev/null 2>&1; then
    work=$(mktemp -d)
    mkdir -p "$work/src"
    printf '[package]\nname = "sysroot"\nversion = "0.0.0"\nedition = "2021"\n[lib]\npath = "src/lib.rs"\n[profile.release]\nopt-level = 3\ncodegen-units = 1\n' > "$work/Cargo.toml"
    echo '#![no_std]' > "$work/src/lib.rs"
    log "building the $TARGET standard library (about a minute)"
    (cd "$work" && RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc RUSTFLAGS="-Cembed-bitcode=yes" \
      /usr/bin/cargo build -q --release --target "$TARGET" -Zbuild-std=std,panic_abort,test >&2)
    mkdir -p "$sysroot_lib"
    find "$work/target/$TARGET/release/deps" -name '*.rlib' ! -name 'libsysroot-*' -exec cp {} "$sysroot_lib/" \;
    rm -rf "$work"
  fi
  # rustc calls the wasm linker `rust-lld`; LLVM 22's lld is the one that matches rustc-web 1.96.
  command -v rust-lld >/dev/null || ln -sf /usr/lib/llvm-22/bin/lld /usr/local/bin/rust-lld
  rustup toolchain list | grep -qx "$WASM_TOOLCHAIN" || rustup toolchain link "$WASM_TOOLCHAIN" /usr
  toolchain=$WASM_TOOLCHAIN
fi

if [ -n "${WASM_BINDGEN_VERSION:-}" ] && ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install -q --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" >&2
fi
# WASM_TOOLCHAIN_BUILD_ONLY=1: only what building needs (the target and wasm-bindgen); the test tools,
# wasm-pack and Chromium + ChromeDriver, are left out.
if [ "${WASM_TOOLCHAIN_BUILD_ONLY:-0}" != 1 ]; then
  command -v wasm-pack >/dev/null || { log "cargo install wasm-pack"; cargo install -q wasm-pack >&2; }
  apt_install chromium chromium-driver
fi

echo "export RUSTUP_TOOLCHAIN=$toolchain"
