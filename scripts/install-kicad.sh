#!/usr/bin/env bash
# Installs KiCad 9's command-line tool (`kicad-cli`), which turns members' KiCad design sources into
# Gerbers, schematics, BOMs, placements and design checks. KiCad 9 is the Debian package `kicad` of
# the suite bookworm-backports: this adds that suite to the Debian archive the machine already uses
# (the address is read from its configured sources, never written here) and installs the package
# without recommends. Safe to run again; does nothing when `kicad-cli` 9 or newer is installed.
set -euo pipefail

if command -v kicad-cli >/dev/null 2>&1; then
  major="$(kicad-cli version 2>/dev/null | grep -oE '^[0-9]+' | head -n1 || true)"
  if [ -n "$major" ] && [ "$major" -ge 9 ]; then
    echo "[kicad] kicad-cli $(kicad-cli version) is installed"
    exit 0
  fi
fi

codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
if [ "$codename" != "bookworm" ]; then
  echo "[kicad] this script knows Debian 12 (bookworm); on ${codename:-this system} install KiCad 9 as the system provides it and set KICAD_CLI_PATH" >&2
  exit 1
fi

# The archive of the main Debian suite, as the machine's own sources name it (deb822 or one-line).
archive=""
keyring=""
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  archive="$(awk '/^URIs:/ {uri=$2} /^Suites:/ && / bookworm( |$)/ {print uri; exit}' /etc/apt/sources.list.d/debian.sources)"
  keyring="$(awk '/^Signed-By:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
fi
if [ -z "$archive" ] && [ -f /etc/apt/sources.list ]; then
  archive="$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list)"
fi
if [ -z "$archive" ]; then
  echo "[kicad] found no Debian bookworm source in /etc/apt to add bookworm-backports to" >&2
  exit 1
fi

list=/etc/apt/sources.list.d/copperhub-bookworm-backports.sources
if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "[kicad] adding bookworm-backports from ${archive}"
  {
    echo "Types: deb"
    echo "URIs: ${archive}"
    echo "Suites: bookworm-backports"
    echo "Components: main"
    [ -n "$keyring" ] && echo "Signed-By: ${keyring}"
  } > "$list"
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends -t bookworm-backports kicad >/dev/null
echo "[kicad] kicad-cli $(kicad-cli version) installed"
