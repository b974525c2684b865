#!/usr/bin/env bash
# Rehearses a profile of official images (default: current) on a machine with no registry: tags each
# image of a built offline profile (default: offline) under the official reference that
# ../images.properties names for the rehearsed profile, so that `mvn verify -Dseams.profile=current`
# runs that profile's code paths here: Testcontainers' modules on their own image names (a substitute
# declaration that names the image itself), the official images' environment contracts, the waits,
# the version gate (claim B7).
# The servers are still the substitutes': docs/profiles.md "Rehearsing a profile of official images"
# lists what only the real images can show.
#
# Never tags over a real image: a reference that already names an image which is not one of this
# project's substitutes (label seams.inputs) stops the rehearsal with exit status 3 before anything is
# tagged; a tag that fails removes the ones made. --undo removes a reference only where it names a
# substitute, and never touches a profile of substitutes (stand/*).
#
# Usage: rehearse.sh [--profile NAME] [--from NAME] [--undo]
#   --profile NAME  the profile whose references get the tags (default current)
#   --from NAME     the built offline profile whose images stand in (default offline; prepare.sh builds it)
#   --undo          removes those tags again (only references that name a substitute)
# Exit status: 0 done; 1 a reference is missing from images.properties, an image of --from is not
#              built, or an untag failed; 2 bad arguments (a profile of substitutes included); 3 a
#              reference names a real image (nothing tagged).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
images_properties=$here/../images.properties
log() { printf '[rehearse %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { local status=$1; shift; log "$*"; exit "$status"; }

profile=current from=offline undo=false
while [ $# -gt 0 ]; do
  case $1 in
    --profile) [ $# -ge 2 ] || die 2 "--profile needs a name"; profile=$2; shift 2 ;;
    --from) [ $# -ge 2 ] || die 2 "--from needs a name"; from=$2; shift 2 ;;
    --undo) undo=true; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die 2 "unknown argument $1 (see --help)" ;;
  esac
done

# value of KEY in images.properties (empty if absent)
reference() { sed -n "s/^$1=//p" "$images_properties" | tail -1; }
image_id() { docker image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }
substitute() { [ -n "$(docker image inspect --format '{{index .Config.Labels "seams.inputs"}}' "$1" 2>/dev/null || true)" ]; }

services=(postgres kafka connect clickhouse jre)
declare -A official stand_in
for svc in "${services[@]}"; do
  official[$svc]=$(reference "$profile.$svc") stand_in[$svc]=$(reference "$from.$svc")
  [ -n "${official[$svc]}" ] && [ -n "${stand_in[$svc]}" ] || die 1 "images.properties has no $profile.$svc or $from.$svc"
  # a profile of substitutes (offline, offline-candidate) names this project's own images: never tag or untag those
  case ${official[$svc]} in stand/*) die 2 "$profile names substitute images (${official[$svc]}): rehearse a profile of official images" ;; esac
done

if $undo; then
  status=0
  for svc in "${services[@]}"; do
    ref=${official[$svc]}
    if [ -n "$(image_id "$ref")" ] && substitute "$ref"; then
      if docker rmi "$ref" >/dev/null; then log "untagged $ref"; else log "cannot untag $ref"; status=1; fi
    fi
  done
  exit $status
fi

# first every check, then every tag: a refusal leaves nothing tagged
for svc in "${services[@]}"; do
  [ -n "$(image_id "${stand_in[$svc]}")" ] || die 1 "${stand_in[$svc]} is not built: containers/offline/prepare.sh --profile $from"
  if [ -n "$(image_id "${official[$svc]}")" ] && ! substitute "${official[$svc]}"; then
    die 3 "${official[$svc]} is a real image here: not tagging ${stand_in[$svc]} over it (nothing tagged)"
  fi
done
trap 'status=$?; [ $status = 0 ] || bash "${BASH_SOURCE[0]}" --profile "$profile" --undo; exit $status' EXIT
for svc in "${services[@]}"; do
  docker tag "${stand_in[$svc]}" "${official[$svc]}"
  log "${official[$svc]} -> ${stand_in[$svc]}"
done
