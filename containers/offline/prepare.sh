#!/usr/bin/env bash
# Makes a Docker engine and the substitute images (stand/*:offline) on a machine with no container
# registry and no engine running. Idempotent: a second run with nothing changed does nothing.
#   1. installs Debian's docker.io, containerd, runc, iptables, debootstrap if missing;
#   2. starts dockerd (overlay2; vfs only where the kernel has no overlay; iptables on) unless an
#      engine already answers;
#   3. builds stand/base (debootstrap'd bookworm, base/packages.txt) and one thin image per
#      service (postgres, kafka, connect, clickhouse) whose entrypoint honours the official
#      image's env contract; jars come from Maven Central through Maven (*/pom.xml).
# An image is rebuilt only when the hash of its inputs (label seams.inputs) changed.
# Env: SEAMS_OFFLINE_CACHE (default /var/cache/seams), SEAMS_DEBIAN_MIRROR, JAVA_HOME for Maven.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${SEAMS_OFFLINE_CACHE:-/var/cache/seams}
mirror=${SEAMS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
export DOCKER_BUILDKIT=0
log() { printf '[offline %s] %s\n' "$(date +%T)" "$*" >&2; }
mkdir -p "$cache"

ensure_packages() {
  local missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_engine() {
  if docker info >/dev/null 2>&1; then log "engine answers: $(docker version --format '{{.Server.Version}}')"; return; fi
  local driver=overlay2
  grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null || true
  grep -qw overlay /proc/filesystems || driver=vfs
  log "starting dockerd (storage driver $driver, log $cache/dockerd.log)"
  nohup dockerd --storage-driver="$driver" >"$cache/dockerd.log" 2>&1 &
  for _ in $(seq 1 120); do
    docker info >/dev/null 2>&1 && { log "engine up: $(docker version --format '{{.Server.Version}}')"; return; }
    sleep 0.5
  done
  tail -50 "$cache/dockerd.log" >&2
  log "dockerd did not answer within 60 s"; exit 1
}

# hash of files (paths relative to $here) plus extra strings
inputs_hash() { (cd "$here" && { find "$@" -type f -not -path '*/target/*' | LC_ALL=C sort | xargs sha256sum; printf '%s\n' "${EXTRA:-}"; } | sha256sum | cut -c1-16); }

current_label() { docker image inspect --format '{{index .Config.Labels "seams.inputs"}}' "$1" 2>/dev/null || true; }

build_base() {
  local image=stand/base:offline
  local hash; hash=$(EXTRA="$mirror" inputs_hash base prepare.sh)
  BASE_HASH=$hash
  if [ "$(current_label $image)" = "$hash" ]; then log "$image up to date ($hash)"; return; fi
  local rootfs="$cache/rootfs-$hash"
  if [ ! -f "$rootfs/.complete" ]; then
    rm -rf "$rootfs"
    local pkgs; pkgs=$(grep -v '^#' "$here/base/packages.txt" | xargs | tr ' ' ',')
    log "debootstrap bookworm with $pkgs (about a minute)"
    debootstrap --variant=minbase --include="$pkgs" bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 \
      || { tail -30 "$cache/debootstrap.log" >&2; exit 1; }
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc "$rootfs"/usr/share/man
    touch "$rootfs/.complete"
  fi
  log "importing $image"
  tar -C "$rootfs" --exclude=./.complete -c . | docker import \
    --change "LABEL seams.inputs=$hash" --change 'ENV LANG=C.UTF-8' --change 'CMD ["/bin/bash"]' - "$image" >/dev/null
  find "$cache" -maxdepth 1 -name 'rootfs-*' ! -name "rootfs-$hash" -exec rm -rf {} +
}

# jars for an image, fetched by Maven into <dir>/target
maven_jars() { mvn -q -B -f "$here/$1/pom.xml" package >&2; }

build_service() {
  local svc=$1; shift
  local image=stand/$svc:offline
  local hash; hash=$(EXTRA="$BASE_HASH" inputs_hash "$svc")
  if [ "$(current_label $image)" = "$hash" ]; then log "$image up to date ($hash)"; return; fi
  log "building $image"
  local ctx="$cache/build/$svc"
  rm -rf "$ctx"; mkdir -p "$ctx"
  cp -a "$here/$svc/rootfs" "$here/$svc/Dockerfile" "$ctx/"
  "$@" "$ctx"   # service-specific staging of jars into $ctx/rootfs
  docker build -q --build-arg BASE=stand/base:offline --label "seams.inputs=$hash" -t "$image" "$ctx" >/dev/null
  rm -rf "$ctx"
}

stage_none() { :; }
stage_kafka() {
  maven_jars kafka
  mkdir -p "$1/rootfs/opt/kafka/libs"
  cp "$here/kafka/target/libs/"*.jar "$1/rootfs/opt/kafka/libs/"
}
stage_connect() {
  maven_jars connect
  maven_jars connect/plugin
  mkdir -p "$1/rootfs/opt/kafka/libs" "$1/rootfs/kafka/connect"
  cp "$here/connect/target/libs/"*.jar "$1/rootfs/opt/kafka/libs/"
  cp -r "$here/connect/plugin/target/debezium-connector-postgres" "$1/rootfs/kafka/connect/"
}

ensure_packages
ensure_engine
build_base
build_service postgres stage_none
build_service kafka stage_kafka
build_service connect stage_connect
build_service clickhouse stage_none
docker images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep '^stand/' >&2
