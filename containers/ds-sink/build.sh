#!/usr/bin/env bash
# Builds ds-sink as an image of the sink contract (docs/sinks.md "A sink of your own: image:<ref>") from the runnable jar
# `mvn package` built, on the JRE image the profile names (containers/images.properties, <profile>.jre), and prints the
# image's reference on stdout; run the claims against it with -Dseams.sink=image:<that reference>.
#   containers/ds-sink/build.sh [--profile PROFILE] [--tag TAG]   (defaults: current, seams/ds-sink:<version>)
# Exit status: 0 built; 1 the build failed; 2 a wrong option; 127 no runnable jar (mvn package -DskipTests first).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
profile=current tag=
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile=${2:?--profile needs a value}; shift 2 ;;
    --tag) tag=${2:?--tag needs a value}; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
jre=$(sed -n "s#^$profile\.jre=##p" containers/images.properties)
[ -n "$jre" ] || { echo "build.sh: profile $profile names no jre in containers/images.properties" >&2; exit 2; }
jar=$(find target -maxdepth 1 -name 'seams-*.jar' ! -name '*-sources.jar' ! -name '*-tests.jar' 2>/dev/null | sort | tail -1)
[ -n "$jar" ] && [ -d target/lib ] || { echo "build.sh: no runnable jar under target/: mvn package -DskipTests" >&2; exit 127; }
version=$(basename "$jar" .jar); version=${version#seams-}
tag=${tag:-seams/ds-sink:$version}
docker build -q -f containers/ds-sink/Dockerfile --build-arg "JRE=$jre" -t "$tag" . >/dev/null || exit 1
echo "$tag"
