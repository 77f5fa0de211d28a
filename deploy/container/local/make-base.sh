#!/usr/bin/env bash
# Builds the base images of deploy/container/ on a machine that cannot reach an image registry (this
# project's CI machine): Debian bookworm from Debian's own packages (debootstrap --variant=minbase into
# a directory, then `podman import`), and on top of it this machine's Node.js.
#
#   localhost/shop-debian:bookworm        Debian bookworm, minbase (what the service images start from)
#   localhost/shop-node:20-bookworm       the same with this machine's node and npm in /usr/local, and the
#                                         user node (1000:1000): the shape of docker.io/library/node:20-bookworm-slim
#
# Operators with a registry never need this: the Containerfile's default base is the official
# node:20-bookworm-slim. Usage (root, or a user podman can import with):
#   deploy/container/local/make-base.sh [--force]
# An image that exists is kept unless --force. Needs debootstrap (apt-get install debootstrap) and a Debian
# mirror (DEBIAN_MIRROR, default http://deb.debian.org/debian).
set -euo pipefail

ENGINE=${CONTAINER_ENGINE:-podman}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_IMAGE=${SHOP_DEBIAN_IMAGE:-localhost/shop-debian:bookworm}
NODE_IMAGE=${SHOP_NODE_IMAGE:-localhost/shop-node:20-bookworm}
force=false
[ "${1:-}" = "--force" ] && force=true

have() { "$ENGINE" image exists "$1" 2>/dev/null; }

work=$(mktemp -d /var/tmp/shop-base.XXXXXX)
trap 'rm -rf "$work"' EXIT

if $force || ! have "$DEBIAN_IMAGE"; then
  command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
  echo "== debootstrap bookworm (minbase) from $MIRROR"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  # What an image never needs: the package cache, documentation, manuals and translations (dpkg is told
  # to leave them out of later installs too, as Debian's own container images do).
  rootfs="$work/rootfs"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* \
    "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} +
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-minimal" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$rootfs/etc/apt/apt.conf.d/90shop-no-recommends"
  echo "deb $MIRROR bookworm main" >"$rootfs/etc/apt/sources.list"
  echo "deb $MIRROR bookworm-updates main" >>"$rootfs/etc/apt/sources.list"
  echo "deb http://deb.debian.org/debian-security bookworm-security main" >>"$rootfs/etc/apt/sources.list"
  echo "== import $DEBIAN_IMAGE"
  tar -C "$rootfs" -c . | "$ENGINE" import --change 'CMD ["/bin/bash"]' - "$DEBIAN_IMAGE" >/dev/null
fi

if $force || ! have "$NODE_IMAGE"; then
  node_bin=$(command -v node)
  node_bin=$(readlink -f "$node_bin")
  npm_dir=$(readlink -f "$(dirname "$node_bin")/../lib/node_modules/npm")
  [ -f "$npm_dir/package.json" ] || npm_dir=$(npm root -g)/npm
  [ -f "$npm_dir/package.json" ] || { echo "npm not found next to $node_bin" >&2; exit 1; }
  echo "== $NODE_IMAGE: $DEBIAN_IMAGE + node $("$node_bin" --version) and npm $(node "$npm_dir/bin/npm-cli.js" --version)"
  mkdir -p "$work/node/lib/node_modules"
  cp "$node_bin" "$work/node/node"
  cp -a "$npm_dir" "$work/node/lib/node_modules/npm"
  cat >"$work/node/Containerfile" <<CFILE
FROM $DEBIAN_IMAGE
COPY node /usr/local/bin/node
COPY lib/node_modules/npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\
 && node --version && npm --version
CMD ["node"]
CFILE
  "$ENGINE" build --quiet -t "$NODE_IMAGE" "$work/node" >/dev/null
fi
"$ENGINE" image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E "^(${DEBIAN_IMAGE}|${NODE_IMAGE})  " || true
