#!/usr/bin/env bash
# Makes a Docker engine and the substitute images of the offline profiles on a machine with no
# container registry and no engine running. Idempotent: a second run with nothing changed does nothing.
#   1. installs Debian's docker.io, containerd, runc, iptables, debootstrap, unzip if missing;
#   2. starts dockerd (overlay2; vfs only where the kernel has no overlay; iptables on) unless an
#      engine already answers;
#   3. per profile (profiles/<profile>.properties): builds stand/base:<suite> (debootstrap of the
#      Debian suite with base/<suite>.txt) and one thin image per service (postgres, kafka, connect,
#      clickhouse) whose entrypoint honours the official image's env contract; jars come from Maven
#      Central through Maven (*/pom.xml) in the profile's versions;
#   4. labels each image with the versions it contains, read back from what was built (dpkg-query
#      of the rootfs, the jars' own version resources): seams.version.<component>=<version>, and
#      tags it with them (stand/kafka:4.1.1-offline); then writes the tags into
#      ../images.properties (<profile>.<service>=...), so the suite runs exactly what was built.
# An image is rebuilt only when the hash of its inputs (label seams.inputs) changed.
#
# Usage: prepare.sh [--profile NAME]...   profiles to build; default $SEAMS_PROFILES (comma
#        separated) or "offline", the one CI needs; offline-candidate is built only on request.
# Env: SEAMS_OFFLINE_CACHE (default /var/cache/seams), SEAMS_DEBIAN_MIRROR, JAVA_HOME for Maven,
#      SEAMS_BUILD_LOCK: a file to flock(1) from the first debootstrap, import or build to the end
#      of the run (the lock a running test stand holds; unset = no locking, as in CI where nothing
#      else runs).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${SEAMS_OFFLINE_CACHE:-/var/cache/seams}
mirror=${SEAMS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
lock=${SEAMS_BUILD_LOCK:-}
images_properties=$here/../images.properties
export DOCKER_BUILDKIT=0
log() { printf '[offline %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { log "$*"; exit 1; }

profiles=()
while [ $# -gt 0 ]; do
  case $1 in
    --profile) [ $# -ge 2 ] || die "--profile needs a name"; profiles+=("$2"); shift 2 ;;
    --profile=*) profiles+=("${1#--profile=}"); shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
[ ${#profiles[@]} -gt 0 ] || IFS=, read -ra profiles <<<"${SEAMS_PROFILES:-offline}"
mkdir -p "$cache"

# With SEAMS_BUILD_LOCK: the first debootstrap, import or build waits for the lock, then the run
# holds it to its end (one wait, not one per image, and no test stand starts between two builds).
take_lock() {
  [ -n "$lock" ] && [ -z "${LOCK_HELD:-}" ] || return 0
  log "waiting for $lock"
  exec 9>"$lock"
  flock 9
  LOCK_HELD=1
  log "holding $lock"
}

ensure_packages() {
  local missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  command -v unzip >/dev/null || missing+=(unzip)
  command -v flock >/dev/null || missing+=(util-linux)
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
  die "dockerd did not answer within 60 s"
}

# value of KEY in profiles/PROFILE.properties (empty if absent)
conf() { sed -n "s/^$2=//p" "$here/profiles/$1.properties" | tail -1; }
# the same, required
need() { local v; v=$(conf "$1" "$2"); [ -n "$v" ] || die "profiles/$1.properties has no $2"; printf '%s' "$v"; }

# hash of files (paths relative to $here) plus extra strings
inputs_hash() { (cd "$here" && { find "$@" -type f -not -path '*/target/*' | LC_ALL=C sort | xargs sha256sum; printf '%s\n' "${EXTRA:-}"; } | sha256sum | cut -c1-16); }

label() { docker image inspect --format "{{index .Config.Labels \"$2\"}}" "$1" 2>/dev/null || true; }

# the image of repository REPO built from inputs HASH, as repo:tag (empty if none)
built_image() {
  docker images --filter "reference=$1:*" --filter "label=seams.inputs=$2" --format '{{.Repository}}:{{.Tag}}' | grep -v ':<none>$' | head -1 || true
}

# upstream part of a Debian version: 1:15.18-0+deb12u1 -> 15.18, 18.16.1+ds-7.3+b2 -> 18.16.1
upstream() { sed -E 's/^[0-9]+://; s/^([0-9]+(\.[0-9]+)*).*/\1/' <<<"$1"; }

# version of the one package matching REGEX that the base image's rootfs has installed (its labels)
deb_version() {
  local v
  v=$(docker image inspect --format '{{range $k, $v := .Config.Labels}}{{$k}}={{$v}}{{"\n"}}{{end}}' "$1" \
      | sed -nE "s/^seams\.debian\.($2)=//p")
  [ "$(printf '%s\n' "$v" | grep -c .)" = 1 ] || die "$1: not exactly one package $2 in its labels (${v:-none})"
  upstream "$v"
}

# version=... of a resource inside the one jar DIR/PREFIX-*.jar
jar_version() {
  local jars=("$1/$2"-[0-9]*.jar)
  [ ${#jars[@]} = 1 ] && [ -f "${jars[0]}" ] || die "not exactly one $2 jar in $1: ${jars[*]}"
  local v; v=$(unzip -p "${jars[0]}" "$3" | sed -n 's/^version=//p')
  [ -n "$v" ] || die "${jars[0]} has no version in $3"
  printf '%s' "$v"
}

# builds stand/base:SUITE unless up to date; sets BASE and BASE_HASH
build_base() {
  local suite=$1
  BASE=stand/base:$suite
  BASE_HASH=$(EXTRA="$mirror $suite" inputs_hash base)
  if [ "$(label "$BASE" seams.inputs)" = "$BASE_HASH" ]; then
    [ "${LOGGED_BASE:-}" = "$BASE_HASH" ] || log "$BASE up to date ($BASE_HASH)"
    LOGGED_BASE=$BASE_HASH
    return
  fi
  local rootfs="$cache/rootfs-$suite-$BASE_HASH"
  if [ ! -f "$rootfs/.complete" ]; then
    log "debootstrap $suite (a minute or two)"
    take_lock
    "$here/base/rootfs.sh" "$suite" "$rootfs" "$mirror" "$cache/debootstrap-$suite.log"
  fi
  # one label per listed package with the version dpkg installed: what the service images declare
  local changes=(--change "LABEL seams.inputs=$BASE_HASH seams.debian.suite=$suite")
  local pkg version
  for pkg in $(grep -v '^#' "$here/base/$suite.txt"); do
    version=$(dpkg-query --admindir="$rootfs/var/lib/dpkg" -W -f '${Version}' "$pkg" 2>/dev/null || true)
    [ -n "$version" ] || die "$pkg is not installed in $rootfs"
    changes+=(--change "LABEL seams.debian.$pkg=$version")
  done
  log "importing $BASE"
  take_lock
  tar -C "$rootfs" --exclude=./.complete -c . | docker import "${changes[@]}" \
    --change 'ENV LANG=C.UTF-8' --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  find "$cache" -maxdepth 1 -name "rootfs-$suite-*" ! -name "rootfs-$suite-$BASE_HASH" -exec rm -rf {} +
}

# Per service: stage_<svc> CTX PROFILE puts its jars into the build context; versions_<svc> CTX
# prints component=version lines (the labels); tag_<svc> names the tag from those versions.
stage_postgres() { :; }
stage_clickhouse() { :; }
stage_kafka() {
  mvn -q -B -Dstyle.color=never -f "$here/kafka/pom.xml" package -Dkafka.version="$(need "$2" kafka.version)" \
    -Dlibs.dir="$1/rootfs/opt/kafka/libs" >&2
}
stage_connect() {
  mvn -q -B -Dstyle.color=never -f "$here/connect/pom.xml" package -Dkafka.version="$(need "$2" kafka.version)" \
    -Dlibs.dir="$1/rootfs/opt/kafka/libs" >&2
  mvn -q -B -Dstyle.color=never -f "$here/connect/plugin/pom.xml" package -Ddebezium.version="$(need "$2" debezium.version)" \
    -Dplugin.dir="$1/rootfs/kafka/connect/debezium-connector-postgres" >&2
}
# the broker and Connect report AppInfoParser's version: kafka-clients' kafka/kafka-version.properties;
# Connect's GET /connector-plugins reports the connector's io/debezium/.../build.version
versions_postgres() { echo "postgresql=$(deb_version "$BASE" 'postgresql-[0-9]+')"; }
versions_clickhouse() { echo "clickhouse=$(deb_version "$BASE" clickhouse-server)"; }
versions_kafka() { echo "kafka=$(jar_version "$1/rootfs/opt/kafka/libs" kafka-clients kafka/kafka-version.properties)"; }
versions_connect() {
  echo "kafka_connect=$(jar_version "$1/rootfs/opt/kafka/libs" kafka-clients kafka/kafka-version.properties)"
  echo "debezium=$(jar_version "$1/rootfs/kafka/connect/debezium-connector-postgres" debezium-connector-postgres \
    io/debezium/connector/postgresql/build.version)"
}
tag_postgres() { echo "${V[postgresql]}-offline"; }
tag_clickhouse() { echo "${V[clickhouse]}-offline"; }
tag_kafka() { echo "${V[kafka]}-offline"; }
tag_connect() { echo "${V[debezium]}-kafka-${V[kafka_connect]}-offline"; }

# the profile's versions that go into service SVC's image
recipe() {
  case $2 in
    kafka) echo "kafka=$(need "$1" kafka.version)" ;;
    connect) echo "kafka=$(need "$1" kafka.version) debezium=$(need "$1" debezium.version)" ;;
  esac
}

# builds stand/SVC of PROFILE unless an image of the same inputs exists; sets IMAGE to repo:tag
build_service() {
  local profile=$1 svc=$2 repo=stand/$2
  local hash; hash=$(EXTRA="$BASE_HASH $(recipe "$profile" "$svc")" inputs_hash "$svc" prepare.sh)
  IMAGE=$(built_image "$repo" "$hash")
  if [ -n "$IMAGE" ]; then log "$IMAGE up to date ($hash)"; return; fi
  local ctx="$cache/build/$svc-$hash"
  rm -rf "$ctx"; mkdir -p "$ctx"
  cp -a "$here/$svc/rootfs" "$here/$svc/Dockerfile" "$ctx/"
  "stage_$svc" "$ctx" "$profile"
  declare -gA V=()
  local labels=(--label "seams.inputs=$hash") line
  while IFS= read -r line; do
    V[${line%%=*}]=${line#*=}
    labels+=(--label "seams.version.$line")
  done < <("versions_$svc" "$ctx")
  IMAGE=$repo:$("tag_$svc")
  log "building $IMAGE (${labels[*]})"
  take_lock
  docker build -q --build-arg "BASE=$BASE" "${labels[@]}" -t "$IMAGE" "$ctx" >/dev/null 2>"$ctx.log" \
    || { cat "$ctx.log" >&2; die "docker build of $IMAGE failed"; }
  rm -rf "$ctx" "$ctx.log"
}

# writes PROFILE.SVC=IMAGE into images.properties (replacing that key's line, or appending it)
record() {
  local key="$1.$2" value=$3
  if grep -q "^$key=" "$images_properties"; then
    [ "$(sed -n "s#^$key=##p" "$images_properties")" = "$value" ] && return
    sed -i "s#^$key=.*#$key=$value#" "$images_properties"
  else
    printf '%s=%s\n' "$key" "$value" >>"$images_properties"
  fi
  log "containers/images.properties: $key=$value (commit it)"
}

build_profile() {
  local profile=$1 svc from
  log "profile $profile"
  for svc in postgres kafka connect clickhouse; do
    from=$(conf "$profile" "$svc.from")
    build_base "$(need "${from:-$profile}" suite)"
    build_service "${from:-$profile}" "$svc"
    record "$profile" "$svc" "$IMAGE"
  done
}

# one line per image of the profiles: profile.service=image and its seams.version.* labels
summary() {
  local profile svc image
  for profile in "${profiles[@]}"; do
    for svc in postgres kafka connect clickhouse; do
      image=$(sed -n "s#^$profile\.$svc=##p" "$images_properties")
      printf '%s.%s=%s %s\n' "$profile" "$svc" "$image" "$(docker image inspect --format \
        '{{range $k, $v := .Config.Labels}}{{$k}}={{$v}}{{"\n"}}{{end}}' "$image" | grep '^seams\.version\.' | xargs)"
    done
  done >&2
}

for profile in "${profiles[@]}"; do
  [ -f "$here/profiles/$profile.properties" ] || die "no profiles/$profile.properties"
  for key in suite kafka.version debezium.version; do need "$profile" "$key" >/dev/null; done
done
ensure_packages
ensure_engine
for profile in "${profiles[@]}"; do build_profile "$profile"; done
summary
