#!/usr/bin/env bash
# Installs what Tidelink needs on a Debian machine that has a Rust toolchain:
# pkg-config and the HDF5 headers (libhdf5-dev). Installs through apt-get as root;
# otherwise names the missing packages and stops.
set -euo pipefail

need=()
for pkg in pkg-config libhdf5-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${need[*]} with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "setup: installing ${need[*]} with sudo apt-get" >&2
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${need[*]}" >&2
    echo "setup: install them as root:  apt-get install ${need[*]}" >&2
    exit 1
  fi
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found: install a Rust toolchain (https://rustup.rs) first" >&2
  exit 1
fi
